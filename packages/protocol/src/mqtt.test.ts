import { describe, expect, it } from 'vitest';
import { gameStripOf, mqttAllTablesTopic, mqttTopics, parseBrokerMessage, parseMqttTopic, tableIdProblem } from './mqtt.ts';
import type { GameLogEntry, LiveState } from './messages.ts';
import { OLDEST_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION, isSupportedProtocolVersion } from './version.ts';

describe('MQTT topics', () => {
  it('names every part of a table under muster/<table>/', () => {
    const t = mqttTopics('table-1');
    expect(t).toEqual({
      status: 'muster/table-1/status',
      snapshot: 'muster/table-1/snapshot',
      delta: 'muster/table-1/delta',
      log: 'muster/table-1/log',
      health: 'muster/table-1/health',
      ruleset: 'muster/table-1/ruleset',
      strip: 'muster/table-1/strip',
    });
    expect(mqttTopics('t', 'venue/hall-a').delta).toBe('venue/hall-a/t/delta');
    expect(mqttAllTablesTopic('status')).toBe('muster/+/status');
  });

  it('refuses table ids that are not one plain topic level', () => {
    for (const id of ['', 'a/b', 'a+', '#', '$SYS', '-x', 'x y', 'é', 'a'.repeat(65)]) {
      expect(tableIdProblem(id), id).not.toBeNull();
      expect(() => mqttTopics(id)).toThrow(/table id/);
    }
    for (const id of ['1', 'Table_2', 'hall-a.table-3', 'a'.repeat(64)]) expect(tableIdProblem(id), id).toBeNull();
  });

  it('reads a table and part back from a topic, and nothing from other topics', () => {
    expect(parseMqttTopic('muster/t1/snapshot')).toEqual({ tableId: 't1', part: 'snapshot' });
    expect(parseMqttTopic('muster/t1/other')).toBeNull();
    expect(parseMqttTopic('muster/t1/snapshot/x')).toBeNull();
    expect(parseMqttTopic('other/t1/snapshot')).toBeNull();
    expect(parseMqttTopic('venue/t1/delta', 'venue')).toEqual({ tableId: 't1', part: 'delta' });
  });
});

describe('broker messages', () => {
  it('version 6 adds them without dropping older clients', () => {
    expect(PROTOCOL_VERSION).toBe(6);
    expect(OLDEST_SUPPORTED_PROTOCOL_VERSION).toBe(1);
    expect(isSupportedProtocolVersion(5)).toBe(true);
  });

  it('accepts each part only with its own message type', () => {
    const status = { type: 'table-status', protocolVersion: 6, tableId: 't', online: false, reason: 'lost', sinceMs: null, keepaliveS: 10 };
    expect(parseBrokerMessage('status', JSON.stringify(status)).ok).toBe(true);
    expect(parseBrokerMessage('health', JSON.stringify(status)).ok).toBe(false);
    expect(parseBrokerMessage('status', JSON.stringify({ ...status, reason: 'gone' })).ok).toBe(false);
    expect(parseBrokerMessage('status', JSON.stringify({ ...status, sinceMs: 'now' })).ok).toBe(false);
    expect(parseBrokerMessage('status', '{').ok).toBe(false);
    const log = { type: 'log', entry: { kind: 'turn', index: 3, timeMs: 1, turn: 2, by: 'operator' } };
    expect(parseBrokerMessage('log', JSON.stringify(log)).ok).toBe(true);
    const wrong = parseBrokerMessage('delta', JSON.stringify(log));
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.message).toMatch(/delta/);
    const strip = { type: 'game-strip', protocolVersion: 6, turn: 2, rulesetName: null, lastCard: null, lastRoll: null, sentTimeMs: 1 };
    expect(parseBrokerMessage('strip', JSON.stringify(strip)).ok).toBe(true);
    expect(parseBrokerMessage('strip', JSON.stringify({ ...strip, lastCard: log.entry })).ok).toBe(false);
  });

  it('the game strip takes the turn, the rule set and the newest card and roll of the log', () => {
    const common = { timeMs: 1, turn: 1, by: 'operator' as const };
    const log: GameLogEntry[] = [
      { ...common, index: 1, kind: 'card', draw: { card: { kind: 'move', first: 'union' }, remaining: 13, turnEnded: false, turn: 1 } },
      { ...common, index: 2, kind: 'dice', roll: { faces: [1, 6], hitOn: 4, hits: 1 } },
      { ...common, index: 3, kind: 'card', draw: { card: { kind: 'whiskey' }, remaining: 12, turnEnded: false, turn: 1 } },
      { ...common, index: 4, kind: 'turn', turn: 2 },
    ];
    const state = { turn: 2, ruleset: { current: { id: 'x', name: 'X rules', source: 'x.txt' }, installed: [], rosterProblems: [] } } as unknown as LiveState;
    const strip = gameStripOf(state, log, 99);
    expect(strip.turn).toBe(2);
    expect(strip.rulesetName).toBe('X rules');
    expect(strip.lastCard?.index).toBe(3);
    expect(strip.lastRoll?.index).toBe(2);
    expect(gameStripOf({ turn: 1 } as LiveState, [], 0)).toMatchObject({ rulesetName: null, lastCard: null, lastRoll: null });
  });
});
