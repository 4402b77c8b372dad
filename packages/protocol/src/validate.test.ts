import { describe, expect, it } from 'vitest';
import { LIMITS, OLDEST_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION, isSupportedProtocolVersion } from './version.ts';
import { jsonDepthExceeds, parseClientJson, parseClientMessage, parseServerMessage, validateTerrain } from './validate.ts';

const terrain = {
  areas: [{ id: 'woods-1', kind: 'open-woods', vertices: [{ xIn: 0, yIn: 0 }, { xIn: 10, yIn: 0 }, { xIn: 5, yIn: 8 }] }],
  linear: [{ id: 'fence-1', kind: 'fence', points: [{ xIn: 0, yIn: 30 }, { xIn: 72, yIn: 30 }] }],
  roads: [],
  elevations: [{ id: 'hill', level: 1, vertices: [{ xIn: 20, yIn: 40 }, { xIn: 50, yIn: 40 }, { xIn: 35, yIn: 47 }] }],
};

describe('parseClientMessage', () => {
  it('accepts every client message type', () => {
    const messages = [
      { type: 'hello', protocolVersion: PROTOCOL_VERSION, token: 'abc', requestId: 'r1' },
      { type: 'ping', clientTimeMs: 1234 },
      { type: 'resync' },
      { type: 'set-unit-status', unitId: '19-al', status: { disordered: true, hitsByStand: { s1: 1 }, ordersLeft: null } },
      { type: 'set-terrain', terrain },
      { type: 'assign-tag', markerId: 42, standId: '19-al-1' },
      { type: 'assign-tag', markerId: 42, standId: null },
      { type: 'draw-card', requestId: 'd' },
      { type: 'roll-dice', dice: 6, hitOn: 5, reason: 'fire', unitId: '19-al' },
      { type: 'set-turn', turn: 2 },
    ];
    for (const m of messages) {
      const r = parseClientMessage(JSON.stringify(m));
      expect(r, JSON.stringify(m)).toEqual({ ok: true, value: m });
    }
  });

  it('refuses bad JSON, unknown types and unknown fields with a path', () => {
    expect(parseClientMessage('{nope')).toMatchObject({ ok: false, code: 'bad-json' });
    expect(parseClientMessage('[]')).toMatchObject({ ok: false, code: 'invalid-message' });
    expect(parseClientMessage('{"type":"launch-missiles","requestId":"x"}')).toMatchObject({
      ok: false,
      code: 'invalid-message',
      requestId: 'x',
      message: expect.stringContaining('launch-missiles'),
    });
    expect(parseClientMessage('{"type":"ping","extra":1}')).toMatchObject({ ok: false, message: expect.stringContaining('extra') });
  });

  it('refuses out-of-range and mistyped values', () => {
    const bad = [
      { type: 'roll-dice', dice: 0 },
      { type: 'roll-dice', dice: LIMITS.maxDicePerRoll + 1 },
      { type: 'roll-dice', dice: 2.5 },
      { type: 'roll-dice', dice: 2, hitOn: 7 },
      { type: 'assign-tag', markerId: -1, standId: 'a' },
      { type: 'assign-tag', markerId: 3, standId: '' },
      { type: 'set-unit-status', unitId: 'u', status: { hitsByStand: { s1: 3 } } },
      { type: 'set-unit-status', unitId: 'u', status: { formation: 'phalanx' } },
      { type: 'set-unit-status', unitId: 'u', status: { disordered: 'yes' } },
      { type: 'set-terrain', terrain: { ...terrain, areas: [{ id: 'a', kind: 'lava', vertices: [] }] } },
      { type: 'set-terrain', terrain: { ...terrain, linear: [{ id: 'f', kind: 'fence', points: [{ xIn: 0, yIn: Infinity }, { xIn: 1, yIn: 1 }] }] } },
      { type: 'set-turn', turn: 0 },
      { type: 'hello', protocolVersion: '1' },
    ];
    for (const m of bad) expect(parseClientMessage(JSON.stringify(m)).ok, JSON.stringify(m)).toBe(false);
  });

  it('refuses oversized messages before parsing them', () => {
    const huge = JSON.stringify({ type: 'ping', requestId: 'x'.repeat(LIMITS.maxClientMessageBytes) });
    expect(parseClientMessage(huge)).toMatchObject({ ok: false, code: 'too-large' });
    expect(parseClientMessage(new TextEncoder().encode(huge))).toMatchObject({ ok: false, code: 'too-large' });
    // Multi-byte characters count as bytes, not characters.
    const wide = JSON.stringify({ type: 'ping', requestId: 'é'.repeat(LIMITS.maxClientMessageBytes / 2 + 10) });
    expect(wide.length).toBeLessThan(LIMITS.maxClientMessageBytes);
    expect(parseClientMessage(wide)).toMatchObject({ ok: false, code: 'too-large' });
  });

  it('refuses too many terrain points', () => {
    const pts = Array.from({ length: LIMITS.maxPointsPerPiece + 1 }, (_, i) => ({ xIn: i % 100, yIn: 1 }));
    const r = validateTerrain({ ...terrain, roads: [{ id: 'r', points: pts }] });
    expect(r).toMatchObject({ ok: false, message: expect.stringContaining('terrain.roads[0].points') });
  });

  it('refuses nesting deeper than LIMITS.maxJsonDepth before parsing (invalid-message), strings aside', () => {
    const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    expect(jsonDepthExceeds(deep(LIMITS.maxJsonDepth))).toBe(false);
    expect(jsonDepthExceeds(deep(LIMITS.maxJsonDepth + 1))).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ type: 'ping', requestId: '[[[[{{{{'.repeat(20) }))).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\\"[[[[","b":${deep(3)}}`, 4)).toBe(false);
    expect(parseClientMessage(deep(100_000))).toMatchObject({ ok: false, code: 'invalid-message', message: expect.stringContaining('nested deeper than') });
    expect(parseClientMessage(`{"type":"set-terrain","requestId":"r","terrain":${deep(50_000)}}`)).toMatchObject({ ok: false, code: 'invalid-message' });
    expect(parseClientJson(deep(100_000))).toMatchObject({ ok: false, code: 'invalid-message' });
    expect(parseClientJson('[1,')).toMatchObject({ ok: false, code: 'bad-json' });
    expect(parseClientJson(deep(5))).toEqual({ ok: true, value: [[[[[]]]]] });
  });

  it('refuses a set-terrain over LIMITS.maxTerrainBytes (a saved terrain that large still validates)', () => {
    const area = (i: number, n: number) => ({ id: `a${i}`, kind: 'rough', vertices: Array.from({ length: n }, (_, k) => ({ xIn: k % 70, yIn: (k * 7) % 48 })) });
    const big = { areas: [area(0, 1500), area(1, 1500), area(2, 1500)], linear: [], roads: [], elevations: [] };
    expect(JSON.stringify(big).length).toBeGreaterThan(LIMITS.maxTerrainBytes);
    expect(parseClientMessage(JSON.stringify({ type: 'set-terrain', terrain: big }))).toMatchObject({ ok: false, code: 'invalid-message', message: expect.stringContaining(`at most ${LIMITS.maxTerrainBytes} bytes`) });
    expect(validateTerrain(big).ok).toBe(true);
    const ok = { areas: [area(0, 1500)], linear: [], roads: [], elevations: [] };
    expect(parseClientMessage(JSON.stringify({ type: 'set-terrain', terrain: ok })).ok).toBe(true);
  });

  it('refuses duplicate terrain ids', () => {
    const r = validateTerrain({ ...terrain, roads: [{ id: 'fence-1', points: [{ xIn: 0, yIn: 0 }, { xIn: 1, yIn: 1 }] }] });
    expect(r).toMatchObject({ ok: false, message: expect.stringContaining('duplicate') });
  });
});

describe('parseServerMessage', () => {
  it('accepts known messages and refuses malformed ones', () => {
    expect(parseServerMessage(JSON.stringify({ type: 'error', code: 'forbidden', message: 'no' })).ok).toBe(true);
    expect(parseServerMessage(JSON.stringify({ type: 'delta', seq: 2 })).ok).toBe(false);
    expect(parseServerMessage(JSON.stringify({ type: 'weird' })).ok).toBe(false);
    expect(parseServerMessage('not json').ok).toBe(false);
  });

  const delta = (evaluatedState: unknown) =>
    JSON.stringify({ type: 'delta', baseSeq: 9, seq: 10, frameSeq: 7, captureTimeMs: 1700, sentTimeMs: 1710, liveTrackIds: [], ...(evaluatedState === undefined ? {} : { evaluatedState }) });

  it('protocol 2: a delta names the state its evaluation came from, never one ahead of its poses', () => {
    expect(parseServerMessage(delta(null)).ok).toBe(true);
    expect(parseServerMessage(delta({ seq: 9, frameSeq: 7, captureTimeMs: 1700 })).ok).toBe(true);
    expect(parseServerMessage(delta({ seq: 4, frameSeq: 3, captureTimeMs: 1300 })).ok).toBe(true);
    expect(parseServerMessage(delta(undefined))).toMatchObject({ ok: false, message: expect.stringContaining('evaluatedState missing') });
    expect(parseServerMessage(delta({ seq: 11, frameSeq: 7, captureTimeMs: 1700 }))).toMatchObject({ ok: false, message: expect.stringContaining('ahead of the state') });
    expect(parseServerMessage(delta({ seq: 9, frameSeq: 8, captureTimeMs: 1800 }))).toMatchObject({ ok: false, message: expect.stringContaining('ahead of the state') });
    expect(parseServerMessage(delta({ seq: 9, frameSeq: 7 })).ok).toBe(false);
    expect(parseServerMessage(delta({ seq: 9.5, frameSeq: 7, captureTimeMs: 1 })).ok).toBe(false);
    expect(parseServerMessage(delta({ seq: 9, frameSeq: 7, captureTimeMs: 1, extra: 1 })).ok).toBe(false);
    expect(parseServerMessage(delta(3)).ok).toBe(false);
  });

  it('a protocol 1 server sends no evaluatedState: accepted when the client knows it talks to one', () => {
    expect(parseServerMessage(delta(undefined), 1).ok).toBe(true);
    // ...but what is there is still checked.
    expect(parseServerMessage(delta({ seq: 11, frameSeq: 7, captureTimeMs: 1700 }), 1).ok).toBe(false);
  });
});

describe('protocol versions', () => {
  it('the server serves every version from the oldest supported to its own', () => {
    expect(isSupportedProtocolVersion(PROTOCOL_VERSION)).toBe(true);
    expect(isSupportedProtocolVersion(OLDEST_SUPPORTED_PROTOCOL_VERSION)).toBe(true);
    expect(isSupportedProtocolVersion(1)).toBe(true);
    expect(isSupportedProtocolVersion(PROTOCOL_VERSION + 1)).toBe(false);
    expect(isSupportedProtocolVersion(0)).toBe(false);
    expect(isSupportedProtocolVersion(1.5)).toBe(false);
  });
});
