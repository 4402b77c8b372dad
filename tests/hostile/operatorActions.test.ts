/**
 * Operator actions that once broke the service (issue "Nothing one client or one fault can break"):
 * unbinding or moving a tag left a data directory that no longer started, and a failed save still
 * changed what every viewer saw. A real demo service on loopback, its real data directory.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import type { Roster } from '../../apps/server/src/roster/roster.ts';
import { startDemo, tempDir } from '../service/helpers.ts';

const dirs: { remove(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.remove()));

/** The ack (with `result`) or error of POST /api/actions. */
interface ActionReply {
  readonly message?: string;
  readonly result?: { readonly turn?: number; readonly roll?: { readonly faces: readonly number[] } };
}

async function act(live: RunningLive, action: unknown): Promise<{ status: number; body: ActionReply }> {
  const res = await fetch(`${live.url}/api/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${live.operatorToken}` },
    body: JSON.stringify(action),
  });
  return { status: res.status, body: (await res.json()) as ActionReply };
}

/** The first stand of the demo roster that wears a tag, and one more of another unit. */
function twoTaggedStands(live: RunningLive): [{ id: string; tag: number }, { id: string; tag: number }] {
  const roster = live.pipeline.roster() as Roster;
  const [a, b] = [roster.units[0]!.stands[0]!, roster.units[1]!.stands[0]!];
  return [
    { id: a.id, tag: a.tag! },
    { id: b.id, tag: b.tag! },
  ];
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('tag bindings never brick the data directory', () => {
  it('unbinding a tag and moving a tag to another stand are applied, saved, and the directory starts again', async () => {
    const dir = tempDir('muster-hostile-bind-');
    dirs.push(dir);
    let live = await startDemo(dir.path);
    const [a, b] = twoTaggedStands(live);
    try {
      await until('both stands on the table', () => live.pipeline.state().tableState.stands.some((s) => s.id === a.id) && live.pipeline.state().tableState.stands.some((s) => s.id === b.id));
      // Take a's tag off the table: a leaves the table, nothing else breaks.
      expect(await act(live, { type: 'assign-tag', markerId: a.tag, standId: null })).toMatchObject({ status: 200 });
      await until('stand a off the table', () => !live.pipeline.state().tableState.stands.some((s) => s.id === a.id));
      // Move b's tag onto a: a stands where b's tag is, b is off the table.
      expect(await act(live, { type: 'assign-tag', markerId: b.tag, standId: a.id })).toMatchObject({ status: 200 });
      await until('a back on b\'s tag', () => {
        const stands = live.pipeline.state().tableState.stands;
        return stands.some((s) => s.id === a.id) && !stands.some((s) => s.id === b.id);
      });
      expect(live.pipeline.state().health.status).not.toBe('degraded');
    } finally {
      await live.stop();
    }
    const saved = JSON.parse(readFileSync(join(dir.path, 'demo', 'tag-bindings.json'), 'utf8')) as { bindings: unknown[] };
    expect(saved.bindings).toEqual([
      { markerId: a.tag, standId: null },
      { markerId: b.tag, standId: a.id },
    ]);
    // The same data directory starts, with the bindings in force.
    live = await startDemo(dir.path);
    try {
      await until('a frame', () => live.pipeline.state().health.status !== 'starting');
      const roster = live.pipeline.roster() as Roster;
      const tagOf = (id: string) => roster.units.flatMap((u) => u.stands).find((s) => s.id === id)!.tag;
      expect([tagOf(a.id), tagOf(b.id)]).toEqual([b.tag, null]);
    } finally {
      await live.stop();
    }
  });

  it('a saved binding that cannot apply stops the start with the file and entry named, and leaves the file as it was', async () => {
    const dir = tempDir('muster-hostile-badbind-');
    dirs.push(dir);
    mkdirSync(join(dir.path, 'demo'), { recursive: true });
    const file = join(dir.path, 'demo', 'tag-bindings.json');
    const text = JSON.stringify({ version: 1, bindings: [{ markerId: 7, standId: 'no-such-stand' }] });
    writeFileSync(file, text);
    await expect(startDemo(dir.path)).rejects.toThrow(/tag-bindings\.json: bindings\[0\]: no stand "no-such-stand" in the roster; fix or remove it/);
    writeFileSync(file, JSON.stringify({ version: 1, bindings: [{ markerId: -1, standId: null }] }));
    await expect(startDemo(dir.path)).rejects.toThrow(/bindings\[0\]\.markerId must be an integer from 0/);
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify({ version: 1, bindings: [{ markerId: -1, standId: null }] }));
  });
});

describe('persist first, then publish', () => {
  it('a save that fails changes nothing anyone sees, says why, warns in health until a save works again', async () => {
    const dir = tempDir('muster-hostile-save-');
    dirs.push(dir);
    const live = await startDemo(dir.path);
    const gameFile = join(dir.path, 'demo', 'game.json');
    try {
      await until('a frame', () => live.pipeline.state().health.status !== 'starting');
      const unitId = (live.pipeline.roster() as Roster).units[0]!.id;
      const before = readFileSync(gameFile, 'utf8');
      const turnBefore = live.pipeline.state().turn;
      // game.json can no longer be replaced: a non-empty folder stands in its place.
      rmSync(gameFile);
      mkdirSync(join(gameFile, 'blocker'), { recursive: true });
      for (const action of [
        { type: 'set-turn', turn: 42 },
        { type: 'set-unit-status', unitId, status: { disordered: true } },
        { type: 'draw-card' },
        { type: 'roll-dice', dice: 3 },
      ]) {
        const r = await act(live, action);
        expect(r.status, JSON.stringify(action)).toBe(500);
        expect(r.body.message).toMatch(/could not save .*game\.json.*the change was not applied/);
      }
      await new Promise((r) => setTimeout(r, 300));
      const state = live.pipeline.state();
      expect(state.turn).toBe(turnBefore);
      expect(state.tableState.units.find((u) => u.id === unitId)?.status?.disordered).not.toBe(true);
      expect(live.pipeline.recentLog().some((e) => e.kind === 'card' || e.kind === 'dice' || e.kind === 'unit-status')).toBe(false);
      await until('the warning in health', () => live.pipeline.state().health.warnings.some((w) => /could not save .*game\.json/.test(w)));
      expect(live.pipeline.state().health.status).toBe('degraded');

      // The folder goes, the file comes back: the next action saves, applies, and the warning clears.
      rmSync(gameFile, { recursive: true });
      writeFileSync(gameFile, before);
      expect(await act(live, { type: 'set-turn', turn: 42 })).toMatchObject({ status: 200, body: { result: { turn: 42 } } });
      expect(JSON.parse(readFileSync(gameFile, 'utf8')).turn).toBe(42);
      await until('turn 42 published and the warning gone', () => live.pipeline.state().turn === 42 && !live.pipeline.state().health.warnings.some((w) => /could not save/.test(w)));
      expect(existsSync(gameFile)).toBe(true);
    } finally {
      await live.stop();
    }
  });

  it('the roller is not advanced by a roll whose save failed: the next roll is the one that would have come', async () => {
    const dir = tempDir('muster-hostile-rng-');
    dirs.push(dir);
    const live = await startDemo(dir.path);
    const gameFile = join(dir.path, 'demo', 'game.json');
    try {
      const before = readFileSync(gameFile, 'utf8');
      rmSync(gameFile);
      mkdirSync(join(gameFile, 'blocker'), { recursive: true });
      expect((await act(live, { type: 'roll-dice', dice: 6 })).status).toBe(500);
      rmSync(gameFile, { recursive: true });
      writeFileSync(gameFile, before);
      const first = (await act(live, { type: 'roll-dice', dice: 6 })).body.result?.roll?.faces;
      expect(first).toHaveLength(6);
      // The same roll from the saved state, in a fresh directory with the same game.json.
      const dir2 = tempDir('muster-hostile-rng2-');
      dirs.push(dir2);
      mkdirSync(join(dir2.path, 'demo'), { recursive: true });
      writeFileSync(join(dir2.path, 'demo', 'game.json'), before);
      const live2 = await startDemo(dir2.path);
      try {
        const second = (await act(live2, { type: 'roll-dice', dice: 6 })).body.result?.roll?.faces;
        expect(first).toEqual(second);
      } finally {
        await live2.stop();
      }
    } finally {
      await live.stop();
    }
  });
});
