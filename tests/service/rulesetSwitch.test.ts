/**
 * The rule set chosen live (protocol 4 `set-ruleset`) on a real service on loopback: the operator switches
 * the demo from The Devil to Pay to Volley & Bayonet; the evaluation is redone with it at once (its
 * missing-field warnings in it, the roster's gaps published with the choice), the choice is saved in
 * game.json and logged, a restart keeps it, an explicit --ruleset wins over it (and is logged), a viewer
 * is refused, an unknown id is not-found, and `muster replay` follows the change. And the operator's
 * focus (`set-focus`) reaches another client without being logged.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type GameLogEntry, type LiveState } from '@muster/protocol';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { startReplay } from '../../apps/server/src/replay/startReplay.ts';
import { TestClient, startDemo, tempDir } from './helpers.ts';
import { heldState, untilHeld } from './heldState.ts';

const TOKEN = 'ruleset-switch-token';
const dir = tempDir('muster-ruleset-');
afterAll(() => dir.remove());

function until(client: TestClient, ok: (s: LiveState) => boolean, what: string, timeoutMs = 20_000): Promise<LiveState> {
  return untilHeld(client, ok, what, timeoutMs);
}

function savedGame(live: RunningLive): { version: number; rulesetId: string | null } {
  return JSON.parse(readFileSync(join(live.store.dir, 'game.json'), 'utf8')) as { version: number; rulesetId: string | null };
}

function logEntries(live: RunningLive): GameLogEntry[] {
  return readFileSync(join(live.store.dir, 'game-log.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as GameLogEntry);
}

const evaluatedWith = (id: string) => (s: LiveState) => s.evaluation?.rulesetId === id && s.evaluation.units !== undefined && Object.keys(s.evaluation.units).length > 0;

describe('the rule set chosen live', () => {
  it('switches, saves, logs, re-evaluates, survives a restart; an explicit --ruleset wins and is logged', async () => {
    let live = await startDemo(dir.path, { token: TOKEN });
    try {
      const operator = await TestClient.connect(live.url);
      const viewer = await TestClient.connect(live.url);
      expect(await operator.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h' })).toMatchObject({ type: 'welcome', role: 'operator' });

      const before = await until(viewer, evaluatedWith('devil-to-pay'), 'the first Devil to Pay evaluation');
      expect(before.ruleset?.current?.id).toBe('devil-to-pay');
      expect(before.ruleset?.installed.map((r) => r.id)).toEqual(expect.arrayContaining(['devil-to-pay', 'volley-and-bayonet', 'while-the-devil-rules', 'fire-and-fury-regimental']));
      expect(before.ruleset?.rosterProblems).toEqual([]);
      expect(savedGame(live)).toMatchObject({ version: 3, rulesetId: 'devil-to-pay' });

      // A viewer is refused and nothing changes.
      expect(await viewer.request({ type: 'set-ruleset', rulesetId: 'volley-and-bayonet', requestId: 'v' })).toMatchObject({ type: 'error', code: 'forbidden' });
      // An id that is not installed, and one that is not an id at all.
      const unknown = await operator.request({ type: 'set-ruleset', rulesetId: 'warhammer-fantasy', requestId: 'u' });
      expect(unknown).toMatchObject({ type: 'error', code: 'not-found' });
      expect((unknown as { message: string }).message).toMatch(/no rule set "warhammer-fantasy" is installed \(installed: devil-to-pay, .*volley-and-bayonet/);
      operator.send('{"type":"set-ruleset","rulesetId":"../game","requestId":"g"}');
      expect(await operator.next('error', (m) => m.requestId === 'g')).toMatchObject({ code: 'invalid-message' });
      expect(savedGame(live).rulesetId).toBe('devil-to-pay');
      expect(logEntries(live).some((e) => e.kind === 'ruleset')).toBe(false);

      const ack = await operator.request({ type: 'set-ruleset', rulesetId: 'volley-and-bayonet', requestId: 's' });
      expect(ack).toMatchObject({ type: 'ack', action: 'set-ruleset', result: { ruleset: { id: 'volley-and-bayonet', name: expect.stringContaining('Volley') } } });
      const logged = await viewer.next('log', (m) => m.entry.kind === 'ruleset');
      expect(logged.entry).toMatchObject({ kind: 'ruleset', by: 'operator', ruleset: { id: 'volley-and-bayonet' }, previousId: 'devil-to-pay' });

      const after = await until(viewer, evaluatedWith('volley-and-bayonet'), 'the Volley & Bayonet evaluation');
      expect(after.ruleset?.current?.id).toBe('volley-and-bayonet');
      // The demo's army names no Volley & Bayonet troop types: the rules still run and say what is missing.
      expect(after.ruleset?.rosterProblems.join('\n')).toMatch(/troop-type: missing/);
      expect(after.evaluation!.warnings.length).toBeGreaterThan(0);
      expect(after.evaluation!.warnings.map((w) => w.code)).toContain('unit/no-troop-type');
      // The Devil to Pay's shapes went with it: no arc or charge of the old rule set is left.
      expect(after.evaluation!.shapes.some((s) => s.style === 'arc' || s.style === 'charge')).toBe(false);
      expect(after.health.warnings.some((w) => w.startsWith('rules failed'))).toBe(false);

      expect(savedGame(live)).toMatchObject({ version: 3, rulesetId: 'volley-and-bayonet' });
      const entry = logEntries(live).find((e) => e.kind === 'ruleset');
      expect(entry).toMatchObject({ kind: 'ruleset', ruleset: { id: 'volley-and-bayonet' }, previousId: 'devil-to-pay' });
      // Rule-set status is checked against the current rule set's declaration, not only its shape: an
      // undeclared field or a value out of range is refused and nothing is saved; a declared one is kept.
      const unitId = after.tableState.units[0]!.id;
      const gameBefore = readFileSync(join(live.store.dir, 'game.json'), 'utf8');
      const undeclared = await operator.request({ type: 'set-unit-status', unitId, status: { rulesetStatus: { 'bases-lost': 2 } }, requestId: 'r1' });
      expect(undeclared).toMatchObject({ type: 'error', code: 'invalid-message' });
      expect((undeclared as { message: string }).message).toMatch(/status\.rulesetStatus\.bases-lost: unknown to ruleset "volley-and-bayonet" \(allowed: .*strength-points-lost/);
      const negative = await operator.request({ type: 'set-unit-status', unitId, status: { rulesetStatus: { 'strength-points-lost': -1 } }, requestId: 'r2' });
      expect((negative as { message: string }).message).toMatch(/strength-points-lost: expected at least 0/);
      expect(readFileSync(join(live.store.dir, 'game.json'), 'utf8')).toBe(gameBefore);
      expect(await operator.request({ type: 'set-unit-status', unitId, status: { rulesetStatus: { 'strength-points-lost': 1 } }, requestId: 'r3' })).toMatchObject({ type: 'ack' });
      expect((JSON.parse(readFileSync(join(live.store.dir, 'game.json'), 'utf8')) as { statusByUnit: Record<string, unknown> }).statusByUnit[unitId]).toMatchObject({ rulesetStatus: { 'strength-points-lost': 1 } });

      // The deck is the new rule set's (Volley & Bayonet has none).
      expect(await operator.request({ type: 'draw-card', requestId: 'd' })).toMatchObject({ type: 'error', code: 'not-found', message: expect.stringMatching(/no action deck/) });
      await operator.close();
      await viewer.close();
    } finally {
      await live.stop();
    }

    // A restart on the same data directory keeps the choice.
    live = await startDemo(dir.path, { token: TOKEN });
    try {
      const viewer = await TestClient.connect(live.url);
      const s = await until(viewer, evaluatedWith('volley-and-bayonet'), 'Volley & Bayonet after the restart');
      expect(s.ruleset?.current?.id).toBe('volley-and-bayonet');
      expect(logEntries(live).filter((e) => e.kind === 'ruleset')).toHaveLength(1);
      await viewer.close();
    } finally {
      await live.stop();
    }

    // An explicit --ruleset wins over the saved choice, is saved, and the change is logged.
    live = await startLive({
      source: { mode: 'demo', demoSource: 'truth', fps: 20, speed: 4 },
      dataDir: dir.path,
      host: '127.0.0.1',
      port: 0,
      operatorToken: TOKEN,
      rulesetId: 'devil-to-pay',
    });
    try {
      const viewer = await TestClient.connect(live.url);
      const s = await until(viewer, evaluatedWith('devil-to-pay'), 'The Devil to Pay with --ruleset');
      expect(s.ruleset?.current?.id).toBe('devil-to-pay');
      expect(savedGame(live).rulesetId).toBe('devil-to-pay');
      const changes = logEntries(live).filter((e) => e.kind === 'ruleset');
      expect(changes).toHaveLength(2);
      expect(changes[1]).toMatchObject({ ruleset: { id: 'devil-to-pay' }, previousId: 'volley-and-bayonet' });
      await viewer.close();
    } finally {
      await live.stop();
    }

    // muster replay follows the record's rule-set changes.
    const replay = await startReplay({ dataDir: dir.path, port: 0, speed: 0 });
    try {
      const entries = logEntries({ store: { dir: join(dir.path, 'demo') } } as RunningLive);
      const firstChange = entries.findIndex((e) => e.kind === 'ruleset');
      replay.backend.moveTo(firstChange); // the game just before the switch
      expect(replay.backend.state().evaluation?.rulesetId).toBe('devil-to-pay');
      replay.backend.moveTo(firstChange + 1); // just after it
      expect(replay.backend.state().evaluation?.rulesetId).toBe('volley-and-bayonet');
      expect(replay.backend.state().ruleset?.current?.id).toBe('volley-and-bayonet');
      expect(replay.timeline.entries[firstChange]).toMatchObject({ kind: 'ruleset' });
    } finally {
      await replay.stop();
    }
  }, 120_000);
});

describe('a saved rule set that is not installed', () => {
  it('stops the start with the file, the field and the installed ids, and leaves the file as it was', async () => {
    const own = tempDir('muster-ruleset-bad-');
    try {
      const first = await startDemo(own.path, { token: TOKEN });
      const gameFile = join(first.store.dir, 'game.json');
      await first.stop();
      // A hand edit that drops the checksum line as the checksum's refusal says to (tests/hostile/savedDamage.test.ts).
      const { checksum: _checksum, ...saved } = JSON.parse(readFileSync(gameFile, 'utf8')) as Record<string, unknown>;
      const edited = JSON.stringify({ ...saved, rulesetId: 'warhammer-fantasy' });
      writeFileSync(gameFile, edited);
      await expect(startDemo(own.path, { token: TOKEN })).rejects.toThrow(/game\.json.*rulesetId "warhammer-fantasy" is not an installed rule set \(installed: devil-to-pay/);
      expect(readFileSync(gameFile, 'utf8')).toBe(edited);
    } finally {
      own.remove();
    }
  }, 60_000);
});

describe('the operator focus, shared over the wire', () => {
  it('reaches every other client in a delta, is refused from a viewer and never logged', async () => {
    const own = tempDir('muster-focus-');
    const live = await startDemo(own.path, { token: TOKEN });
    try {
      const operator = await TestClient.connect(live.url);
      const viewer = await TestClient.connect(live.url);
      await operator.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h' });
      const first = await until(viewer, (s) => s.tableState.stands.length > 0, 'stands on the table');
      expect(first.focus).toEqual({ unitId: null, measure: null });
      const stand = first.tableState.stands[0]!;
      const measure = { from: { xIn: stand.pose.xIn, yIn: stand.pose.yIn, standId: stand.id }, to: { xIn: 40.25, yIn: 12.5, standId: null } };

      expect(await operator.request({ type: 'set-focus', unitId: stand.unitId, measure, requestId: 'f' })).toMatchObject({ type: 'ack', action: 'set-focus' });
      const seen = await until(viewer, (s) => s.focus?.unitId === stand.unitId, 'the shared focus');
      expect(seen.focus).toEqual({ unitId: stand.unitId, measure });
      // It went out as a delta, not only in a later snapshot.
      expect(viewer.messages.some((m) => m.type === 'delta' && m.focus?.unitId === stand.unitId)).toBe(true);

      expect(await viewer.request({ type: 'set-focus', unitId: null, measure: null, requestId: 'v' })).toMatchObject({ type: 'error', code: 'forbidden' });
      viewer.send(JSON.stringify({ type: 'set-focus', unitId: null, measure: { from: measure.from }, requestId: 'bad' }));
      expect(await viewer.next('error', (m) => m.requestId === 'bad')).toMatchObject({ code: 'invalid-message' });

      // A late joiner gets it in its snapshot; clearing reaches everyone.
      const late = await TestClient.connect(live.url);
      expect((await late.next('snapshot')).state.focus).toEqual({ unitId: stand.unitId, measure });
      await operator.request({ type: 'set-focus', unitId: null, measure: null, requestId: 'c' });
      await until(late, (s) => s.focus?.unitId === null && s.focus.measure === null, 'the cleared focus');

      // A drag's worth of updates (10 a second for 2 s) stays within the rate limit and out of the log.
      for (let i = 0; i < 20; i++) {
        operator.send({ type: 'set-focus', unitId: stand.unitId, measure: { ...measure, to: { xIn: 10 + i, yIn: 12.5, standId: null } } });
        await new Promise((r) => setTimeout(r, 100));
      }
      await until(late, (s) => s.focus?.measure?.to.xIn === 29, 'the last tape end');
      expect(operator.closed).toBe(false);
      expect(readFileSync(join(live.store.dir, 'game-log.jsonl'), 'utf8')).not.toMatch(/focus/);

      // Another operator's socket closing leaves the focus alone; the one whose focus shows closing
      // (the operator page shut) clears it for everyone.
      const second = await TestClient.connect(live.url);
      await second.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h2' });
      await second.close();
      await new Promise((r) => setTimeout(r, 300));
      expect(heldState(late.messages)?.focus?.unitId).toBe(stand.unitId);
      await operator.close();
      await until(late, (s) => s.focus?.unitId === null && s.focus.measure === null, 'the focus cleared when its operator left');
      await Promise.all([viewer.close(), late.close()]);
    } finally {
      await live.stop();
      own.remove();
    }
  }, 60_000);
});
