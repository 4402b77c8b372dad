/**
 * After the roll on the real server (loopback, a real ws client): the operator asks what a unit may roll
 * for, rolls with the service's seeded roller or enters the players' faces, sees the outcome logged, applies
 * every status change in one logged step and undoes it. Bad input is refused with what to change and
 * nothing is saved. The service is generic over `Ruleset.resolution`; The Devil to Pay's fire resolves here
 * (the opening-battle demo two battle minutes in: 1st US fires at the 19th Alabama).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDelta, jsonEqual, PROTOCOL_VERSION, type AckMessage, type ErrorMessage, type GameLogEntry, type LiveState, type LoggedOutcome, type ResolutionOffer, type ServerMessage } from '@muster/protocol';
import { getRuleset, restoreRng, rollRequestedDice, statusChangesOf, type Ruleset } from '@muster/rules';
import type { GameSession } from '../../apps/server/src/game/gameSession.ts';
import type { LivePipeline } from '../../apps/server/src/live/livePipeline.ts';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { applyEntry, emptyGame } from '../../apps/server/src/replay/recordedGame.ts';
import { entryDetail } from '../../apps/server/src/export/exportRecord.ts';
import { startDemo, tempDir, TestClient } from './helpers.ts';
import { demoPipelineAt } from './demoPipelineAt.ts';

const TOKEN = 'resolution-token';
const dir = tempDir('muster-resolution-');

interface Running {
  readonly pipeline: LivePipeline;
  readonly session: GameSession;
  readonly server: RunningServer;
  readonly operator: TestClient;
  readonly storeDir: string;
  close(): Promise<void>;
}

/** A pipeline with the rules inline (its evaluation is published with each frame) behind a real server. */
async function start(name: string, ruleset: Ruleset): Promise<Running> {
  const storeDir = join(dir.path, name);
  const { pipeline, session, close } = await demoPipelineAt(storeDir, 120, ruleset, 'resolution-test');
  // This test sends many refused requests in a row: more error replies than a client normally gets.
  const server = await startServer({ backend: pipeline, operatorToken: TOKEN, port: 0, hub: { errorReplyRate: { perSecond: 1000, burst: 1000 } } });
  const operator = await TestClient.connect(server.url);
  await operator.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'hello' });
  return {
    pipeline, session, server, operator, storeDir,
    async close() {
      await operator.close();
      await server.close();
      close();
    },
  };
}

let live: Running;
let requestNo = 0;
beforeAll(async () => {
  live = await start('dtp', getRuleset('devil-to-pay'));
});
afterAll(async () => {
  await live?.close();
  dir.remove();
});

async function ask(msg: Record<string, unknown>): Promise<ServerMessage> {
  return live.operator.request({ ...msg, requestId: `r${++requestNo}` } as never);
}
async function ok<T>(msg: Record<string, unknown>): Promise<T> {
  const reply = await ask(msg);
  if (reply.type !== 'ack') throw new Error(`expected an ack, got ${JSON.stringify(reply)}`);
  return (reply as AckMessage).result as T;
}
async function refused(msg: Record<string, unknown>): Promise<ErrorMessage> {
  const reply = await ask(msg);
  if (reply.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(reply)}`);
  return reply;
}
const gameFile = (): string => readFileSync(join(live.storeDir, 'game.json'), 'utf8');
const logLength = (): number => live.session.log.count();
/** The newest state the client holds, from its snapshot and every delta since. */
function clientState(): LiveState {
  let state: LiveState | null = null;
  for (const m of live.operator.messages) {
    if (m.type === 'snapshot') state = m.state;
    else if (m.type === 'delta' && state) state = applyDelta(state, m) ?? state;
  }
  if (!state) throw new Error('no snapshot yet');
  return state;
}
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}
const fireAtAlabama = { kind: 'fire', unitId: 'us1', targetUnitId: 'al19' };

describe('after the roll on the live service', () => {
  let offer: ResolutionOffer;
  let entered: LoggedOutcome;

  it('offers the actions a unit may roll for, each with its dice, and the rule set’s dice', async () => {
    ({ offer } = await ok<{ offer: ResolutionOffer }>({ type: 'resolve-offer', unitId: 'us1' }));
    expect(offer.rulesetId).toBe('devil-to-pay');
    expect(offer.dice.sides).toBe(6);
    expect(offer.kinds.map((k) => k.kind)).toContain('fire');
    const fire = offer.actions.find((a) => a.action.kind === 'fire' && a.action.targetUnitId === 'al19');
    expect(fire?.label).toMatch(/^Fire → /);
    // The dice the evaluation shows for this fire option (the same pool as the operator panel).
    const option = live.pipeline.state().evaluation!.units.us1!.fire.find((o) => o.targetUnitId === 'al19');
    expect(option?.ok).toBe(true);
    expect(fire?.dice).toEqual([expect.objectContaining({ id: 'fire', sides: 6, reading: 'hits', count: option && option.ok ? option.breakdown.dice : -1 })]);
  });

  it('is the operator’s: a viewer is refused', async () => {
    const viewer = await TestClient.connect(live.server.url);
    try {
      for (const msg of [{ type: 'resolve-offer', unitId: 'us1' }, { type: 'resolve-roll', action: fireAtAlabama }, { type: 'apply-outcome', outcomeIndex: 0 }]) {
        expect(await viewer.request({ ...msg, requestId: `v${++requestNo}` } as never)).toMatchObject({ type: 'error', code: 'forbidden' });
      }
    } finally {
      await viewer.close();
    }
  });

  it('refuses bad requests with what to change, and saves nothing', async () => {
    const before = { game: gameFile(), log: logLength() };
    const count = offer.actions.find((a) => a.action.targetUnitId === 'al19')!.dice![0]!.count;
    expect((await refused({ type: 'resolve-roll', action: fireAtAlabama, faces: { fire: [7, ...Array(count - 1).fill(1)] } })).message).toMatch(/7 is not a face of a d6/);
    expect((await refused({ type: 'resolve-roll', action: fireAtAlabama, faces: { fire: [1] } })).message).toMatch(new RegExp(`1 given, ${count} d6 needed`));
    expect((await refused({ type: 'resolve-roll', action: fireAtAlabama, faces: { volley: Array(count).fill(4) } })).message).toMatch(/"volley" were not asked for/);
    expect((await refused({ type: 'resolve-roll', action: { kind: 'volley', unitId: 'us1' } })).message).toMatch(/unknown action kind "volley" \(this rule set resolves: fire/);
    expect((await refused({ type: 'resolve-roll', action: { kind: 'fire', unitId: 'us1' } })).message).toMatch(/"fire" needs targetUnitId/);
    const noUnit = await refused({ type: 'resolve-offer', unitId: 'us99' });
    expect(noUnit.code).toBe('not-found');
    expect((await refused({ type: 'resolve-roll', action: fireAtAlabama, faces: 'six' })).message).toMatch(/faces: expected an object/);
    expect((await refused({ type: 'apply-outcome', outcomeIndex: 999_999 })).message).toMatch(/no outcome at log entry 999999/);
    expect(gameFile()).toBe(before.game);
    expect(logLength()).toBe(before.log);
  });

  it('"Enter dice": the players’ faces give the outcome, logged, the roller untouched', async () => {
    const rngBefore = JSON.parse(gameFile()).rng;
    const count = offer.actions.find((a) => a.action.targetUnitId === 'al19')!.dice![0]!.count;
    const faces = { fire: Array(count).fill(6) };
    ({ outcome: entered } = await ok<{ outcome: LoggedOutcome }>({ type: 'resolve-roll', action: fireAtAlabama, faces }));
    expect(entered.dice).toBe('entered');
    expect(entered.outcome.rolls[0]!.faces).toEqual(faces.fire);
    expect(entered.outcome.result).toBe(`${count} hits`);
    expect(entered.outcome.summary.length).toBeGreaterThan(0);
    expect(entered.outcome.effects.find((e) => e.unitId === 'al19')?.status).toBeDefined();
    const log = await live.operator.next('log', (m) => m.entry.index === entered.index);
    expect(log.entry).toMatchObject({ kind: 'outcome', dice: 'entered', outcome: { result: entered.outcome.result } });
    expect(JSON.parse(gameFile()).rng).toEqual(rngBefore);
  });

  it('"Roll": the service’s seeded roller rolls the dice asked for, saved so a replay goes on with the same dice', async () => {
    const rngBefore = JSON.parse(gameFile()).rng;
    const requests = offer.actions.find((a) => a.action.targetUnitId === 'al19')!.dice!;
    const { outcome } = await ok<{ outcome: LoggedOutcome }>({ type: 'resolve-roll', action: fireAtAlabama });
    expect(outcome.dice).toBe('rolled');
    // The same roller state rolls the same faces: the roll is the saved roller's next draw.
    expect(outcome.outcome.rolls[0]!.faces).toEqual(rollRequestedDice(requests, restoreRng(rngBefore)).fire);
    expect(JSON.parse(gameFile()).rng).not.toEqual(rngBefore);
    expect(live.session.recentLog().at(-1)).toMatchObject({ kind: 'outcome', index: outcome.index, dice: 'rolled' });
  });

  it('"Apply" makes every status change in one logged step; a second apply is refused; "Undo" restores them', async () => {
    const statusOf = (): unknown => clientState().tableState.units.find((u) => u.id === 'al19')?.status;
    const before = statusOf();
    // What the engine says the Alabama's status is after the outcome, on the table the service publishes.
    const expected = statusChangesOf(live.pipeline.state().tableState, entered.outcome).al19!;
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    const applied = await ok<{ outcomeChange: { outcomeIndex: number; entryIndex: number; unitIds: string[] } }>({ type: 'apply-outcome', outcomeIndex: entered.index });
    expect(applied.outcomeChange).toMatchObject({ outcomeIndex: entered.index, unitIds: ['al19'] });
    await until('al19 to show the outcome', () => jsonEqual(statusOf(), expected));
    const entry = live.session.recentLog().find((e) => e.index === applied.outcomeChange.entryIndex)!;
    expect(entry).toMatchObject({ kind: 'outcome-applied', outcomeIndex: entered.index, previousByUnit: { al19: {} } });
    expect(JSON.parse(gameFile()).statusByUnit.al19).toEqual(expected);

    expect((await refused({ type: 'apply-outcome', outcomeIndex: entered.index })).message).toMatch(/already applied.*undo it first/);

    const undone = await ok<{ outcomeChange: { entryIndex: number } }>({ type: 'undo-outcome', outcomeIndex: entered.index });
    await until('al19 back as it was', () => JSON.stringify(statusOf()) === JSON.stringify(before));
    expect(JSON.parse(gameFile()).statusByUnit.al19).toBeUndefined();
    expect(live.session.recentLog().find((e) => e.index === undone.outcomeChange.entryIndex)).toMatchObject({ kind: 'outcome-undone', statusByUnit: { al19: {} } });
    expect((await refused({ type: 'undo-outcome', outcomeIndex: entered.index })).message).toMatch(/not applied/);
  });

  it('refuses to undo over a status changed by hand after the apply', async () => {
    await ok({ type: 'apply-outcome', outcomeIndex: entered.index });
    await ok({ type: 'set-unit-status', unitId: 'al19', status: { disordered: true } });
    expect((await refused({ type: 'undo-outcome', outcomeIndex: entered.index })).message).toMatch(/status of al19 was changed after outcome/);
    await ok({ type: 'set-unit-status', unitId: 'al19', status: { disordered: null } });
    await ok({ type: 'undo-outcome', outcomeIndex: entered.index });
  });

  it('clears an outcome once (views stop showing it), logged', async () => {
    const { outcomeChange } = await ok<{ outcomeChange: { entryIndex: number } }>({ type: 'clear-outcome', outcomeIndex: entered.index });
    expect(live.session.recentLog().find((e) => e.index === outcomeChange.entryIndex)).toMatchObject({ kind: 'outcome-cleared', outcomeIndex: entered.index });
    expect((await refused({ type: 'clear-outcome', outcomeIndex: entered.index })).message).toMatch(/already cleared/);
  });

  it('a replay of the log folds applied and undone outcomes into the statuses; the export names each entry', async () => {
    const entries = (await live.session.log.read(0, 100_000)) as GameLogEntry[];
    const rolledEntry = entries.find((e) => e.index === entered.index)!;
    expect(entryDetail(rolledEntry)).toBe(`fire: ${entered.outcome.result}: ${entered.outcome.summary} (dice entered: fire ${entered.outcome.rolls[0]!.faces.join(' ')})`);
    for (const e of entries.filter((x) => x.kind.startsWith('outcome-'))) expect(entryDetail(e)).toMatch(new RegExp(`^outcome ${entered.index} (applied|undone|cleared)`));
    const game = emptyGame();
    const seen: string[] = [];
    for (const e of entries) {
      applyEntry(game, e);
      if (e.kind === 'outcome-applied' || e.kind === 'outcome-undone') seen.push(`${e.kind}:${game.statusByUnit.has('al19') ? 'set' : 'none'}`);
    }
    expect(seen).toEqual(['outcome-applied:set', 'outcome-undone:none', 'outcome-applied:set', 'outcome-undone:none']);
  });
});

describe('the service as `muster start` composes it (rules on a worker)', () => {
  it('offers, rolls and logs to every client through the real composition root', async () => {
    const running = await startDemo(join(dir.path, 'composed'), { token: TOKEN });
    const client = await TestClient.connect(running.url);
    try {
      await client.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'c-hello' });
      // Any unit with something to roll for (the demo moves on, so the first one found).
      let found: { unitId: string; offer: ResolutionOffer } | undefined;
      for (let attempt = 0; attempt < 200 && !found; attempt++) {
        const snapshot = (await (await fetch(`${running.url}/api/snapshot`)).json()) as LiveState;
        for (const unit of snapshot.evaluation ? snapshot.tableState.units : []) {
          const reply = await client.request({ type: 'resolve-offer', unitId: unit.id, requestId: `c${++requestNo}` });
          if (reply.type === 'ack' && reply.result && 'offer' in reply.result && reply.result.offer.actions.some((a) => a.dice !== null)) {
            found = { unitId: unit.id, offer: reply.result.offer };
            break;
          }
        }
        if (!found) await new Promise((r) => setTimeout(r, 100));
      }
      expect(found, 'some unit of the demo has something to roll for').toBeDefined();
      expect(found!.offer.rulesetId).toBe('devil-to-pay');
      const action = found!.offer.actions.find((a) => a.dice !== null)!.action;
      const reply = await client.request({ type: 'resolve-roll', action, requestId: `c${++requestNo}` });
      // The table may have moved between the offer and the roll: either an outcome, or the rules say why not.
      if (reply.type === 'ack') {
        const logged = (reply.result as { outcome: LoggedOutcome }).outcome;
        expect((await client.next('log', (m) => m.entry.index === logged.index)).entry.kind).toBe('outcome');
      } else expect(reply).toMatchObject({ type: 'error', code: 'conflict', message: expect.stringMatching(/the rules refuse this roll/) });
    } finally {
      await client.close();
      await running.stop();
    }
  }, 60_000);
});

describe('a rule set that does not resolve rolls yet', () => {
  it('answers so, for an offer and a roll, and saves nothing', async () => {
    const { resolution: _none, ...withoutResolution } = getRuleset('devil-to-pay');
    const other = await start('no-resolution', withoutResolution as Ruleset);
    try {
      const before = readFileSync(join(other.storeDir, 'game.json'), 'utf8');
      for (const msg of [{ type: 'resolve-offer', unitId: 'us1' }, { type: 'resolve-roll', action: fireAtAlabama }]) {
        const reply = await other.operator.request({ ...msg, requestId: `n${++requestNo}` } as never);
        expect(reply).toMatchObject({ type: 'error', code: 'conflict', message: 'The Devil to Pay does not resolve rolls yet' });
      }
      expect(readFileSync(join(other.storeDir, 'game.json'), 'utf8')).toBe(before);
    } finally {
      await other.close();
    }
  });
});
