/**
 * One rule set's full evaluation and one-unit-moved session update, timed as the service runs its rules:
 * on a worker thread of its own with the rules worker's heap limits (apps/server/src/rules/rulesWorkerHeap.ts).
 *
 * A thread of its own also keeps one rule set's timing from inheriting another's JIT state: run in the
 * bench's thread after the other rule sets, a rule set was measured 30-50% slower (2026-11-24: The Devil to
 * Pay's mega-game table 22.7 ms there, 14.7 ms alone), because V8 had first optimised the engine and
 * geometry code every rule set calls for the others' objects. A worker is a fresh V8 isolate.
 * `timeRulesetInWorker` starts one on this file; it posts back one JSON-ready object.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Ruleset, TableState, Unit } from '@muster/rules';
import { createEvaluator, evaluate, getRuleset, parseTableStateFor } from '@muster/rules';
import { largeScene } from '../../fixtures/rules/largeScene.ts';
import { megaScene } from '../../fixtures/rules/megaScene.ts';
import { tileScene } from '../../fixtures/rules/tileScene.ts';
import { battle as wtdrBattle } from '../../fixtures/rules/while-the-devil-rules/makeScenes.ts';
import { vbBenchScene } from '../../fixtures/rules/volley-and-bayonet/benchScene.ts';
import { skirmishScene as ffrSkirmish } from '../../fixtures/rules/fire-and-fury-regimental/scenes.ts';
import { benchTableFor } from '../../fixtures/rules/rulesetAdapters.ts';
import { median, percentile, round, timeWallAndCpu } from './stats.ts';
import { watchGc } from './gcWatch.ts';
import { RULES_WORKER_RESOURCE_LIMITS } from '../../apps/server/src/rules/rulesWorkerHeap.ts';
import { applyTableStateDelta, encodeTableStateDelta, type TableStateDelta } from '../../apps/server/src/rules/tableStateDelta.ts';

/** A copy of `state` with every stand of `unit` moved `stepIn` inches along the unit's first stand's heading. */
export function moveUnit(state: TableState, unit: Unit, stepIn: number): TableState {
  const ids = new Set(unit.standIds);
  const first = state.stands.find((s) => s.id === unit.standIds[0])!;
  const r = (first.pose.headingDeg * Math.PI) / 180;
  const dx = Math.cos(r) * stepIn;
  const dy = Math.sin(r) * stepIn;
  return {
    ...state,
    stands: state.stands.map((s) => (ids.has(s.id) ? { ...s, pose: { ...s.pose, xIn: s.pose.xIn + dx, yIn: s.pose.yIn + dy } } : s)),
  };
}

/**
 * A chain of `n` states from `state`, each with one unit moved a quarter inch along its heading. The units
 * are taken in a stride of 7 (or the next number sharing no factor with the unit count, so every unit is
 * visited), and each unit moves forward on its odd moves and back on its even ones, so no unit drifts: the
 * table stays the one being timed. (Until 2026-11-25 the direction alternated per step, not per unit: with an
 * even unit count every unit only ever moved forward, and with 28 units only four of them moved, 19" each
 * over the 300 moves, through the enemy line of V&B's own scene.)
 */
export function moveChain(state: TableState, n: number): TableState[] {
  const units = state.units;
  let stride = 7;
  while (gcd(stride, units.length) !== 1) stride++;
  const movesOf = new Map<string, number>();
  const chain: TableState[] = [];
  let current = state;
  for (let i = 0; i < n; i++) {
    const unit = units[(i * stride) % units.length]!;
    const moves = (movesOf.get(unit.id) ?? 0) + 1;
    movesOf.set(unit.id, moves);
    current = moveUnit(current, unit, moves % 2 === 1 ? 0.25 : -0.25);
    chain.push(current);
  }
  return chain;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * `same`: the seeded 300-stand table every rule set shares; `mega`: The Devil to Pay's 1,000-stand table;
 * `own`: a rule set's own battle of about 100 stands, armies a few inches apart (`OWN_SCENES`).
 */
export type TimedTable = 'same' | 'mega' | 'own';

interface Plan {
  readonly runs: { warmup: number; full: number; moves: number; moveWarmup: number };
  /** The targets; the own scenes have none (they are a denser, smaller table for comparison). */
  readonly targets?: { fullMs: number; updateMs: number };
}

/** Run counts and targets (issue 9): the shared 300-stand table, and The Devil to Pay's mega-game table. */
const PLANS: Record<TimedTable, Plan> = {
  same: { runs: { warmup: 100, full: 60, moveWarmup: 200, moves: 100 }, targets: { fullMs: 5, updateMs: 1 } },
  mega: { runs: { warmup: 60, full: 40, moveWarmup: 300, moves: 200 }, targets: { fullMs: 15, updateMs: 1 } },
  own: { runs: { warmup: 100, full: 60, moveWarmup: 200, moves: 100 } },
};

/** Each other rule set's own scene: its golden battle (or skirmish) tiled, or V&B's 96-stand bench scene. */
export const OWN_SCENES: Readonly<Record<string, () => TableState>> = {
  'while-the-devil-rules': () => tileScene(wtdrBattle(true), 3),
  'volley-and-bayonet': () => vbBenchScene(),
  'fire-and-fury-regimental': () => tileScene(ffrSkirmish(true), 3),
};

/** The table a timing runs on, read for the rule set (its unit fields and parameters filled). */
function tableFor(ruleset: Ruleset, table: TimedTable): TableState {
  if (table === 'mega') return megaScene(1);
  if (table === 'own') {
    const make = OWN_SCENES[ruleset.id];
    if (!make) throw new Error(`no own scene for rule set ${ruleset.id}; scenes exist for ${Object.keys(OWN_SCENES).join(', ')}`);
    return parseTableStateFor(make(), ruleset);
  }
  return parseTableStateFor(benchTableFor(ruleset.id, largeScene(1)), ruleset);
}

/**
 * Full evaluation and one-unit-moved update of `ruleset` on `table`, in this process: medians (wall and CPU),
 * the garbage collection inside the timed runs, targets, run counts.
 */
export async function timeRuleset(ruleset: Ruleset, table: TableState, plan: Plan): Promise<Record<string, unknown>> {
  const { runs, targets } = plan;
  const gc = watchGc();
  const full = timeWallAndCpu(() => void evaluate(table, ruleset), runs.full, runs.warmup);
  // Each state as the rules worker receives it: the delta from the state posted before, made on the main
  // thread and structured-cloned as postMessage does (neither timed: both happen before the worker's clock
  // starts), then applied to the worker's last state and evaluated (timed, as the worker's `rulesMs`).
  const chain = moveChain(table, runs.moveWarmup + runs.moves);
  const session = createEvaluator(ruleset);
  let posted: TableState = table;
  let last: TableState = table;
  let delta: TableStateDelta | undefined;
  session.update(table);
  const upd = timeWallAndCpu(
    () => {
      last = applyTableStateDelta(last, delta!);
      session.update(last);
    },
    runs.moves,
    runs.moveWarmup,
    (i) => {
      delta = structuredClone(encodeTableStateDelta(posted, chain[i]!));
      posted = chain[i]!;
    },
  );
  const fullGc = await gc.inRuns(full);
  const updGc = await gc.inRuns(upd);
  gc.stop();
  const ev = evaluate(table, ruleset);
  return {
    stands: table.stands.length,
    units: table.units.length,
    fullEvaluationMedianMs: round(median(full.wallMs)),
    fullEvaluationP90Ms: round(percentile(full.wallMs, 90)),
    fullEvaluationCpuMedianMs: round(median(full.cpuMs)),
    ...(targets ? { fullEvaluationTargetMs: targets.fullMs } : {}),
    updateOneUnitMovedMedianMs: round(median(upd.wallMs)),
    updateOneUnitMovedP90Ms: round(percentile(upd.wallMs, 90)),
    updateOneUnitMovedCpuMedianMs: round(median(upd.cpuMs)),
    ...(targets ? { updateTargetMs: targets.updateMs } : {}),
    // Collections show in the mean and p90 more than in the median (gcWatch.ts).
    fullEvaluationGc: fullGc,
    updateOneUnitMovedGc: updGc,
    sessionIsIncremental: session.incremental,
    fireOptions: Object.values(ev.units).reduce((n, u) => n + u.fire.filter((f) => f.ok).length, 0),
    warnings: ev.warnings.length,
    missingParameterWarnings: ev.warnings.filter((w) => w.code === 'parameter/missing').length,
    runs: { fullWarmup: runs.warmup, full: full.wallMs.length, moveWarmup: runs.moveWarmup, moves: upd.wallMs.length },
  };
}

/**
 * `timeRuleset` for one rule set and table on a worker thread of its own, with the rules worker's heap
 * limits (rulesetTimingWorker.mjs loads this file there). Rejects with the worker's error.
 */
export function timeRulesetInWorker(rulesetId: string, table: TimedTable): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./rulesetTimingWorker.mjs', import.meta.url), { workerData: { rulesetTiming: { rulesetId, table } }, resourceLimits: RULES_WORKER_RESOURCE_LIMITS });
    let result: Record<string, unknown> | undefined;
    worker.on('message', (m: Record<string, unknown>) => (result = m));
    worker.on('error', (err) => reject(new Error(`timing ${rulesetId} on the ${table} table failed: ${err.message}`)));
    worker.on('exit', (code) => {
      if (result) resolve({ ...result, thread: 'worker', resourceLimits: RULES_WORKER_RESOURCE_LIMITS });
      else reject(new Error(`timing ${rulesetId} on the ${table} table ended (exit ${code}) with no result`));
    });
  });
}

const job = isMainThread ? undefined : (workerData as { rulesetTiming?: { rulesetId: string; table: TimedTable } } | null)?.rulesetTiming;
if (job && parentPort) {
  const { rulesetId, table } = job;
  const ruleset = getRuleset(rulesetId);
  parentPort.postMessage(await timeRuleset(ruleset, tableFor(ruleset, table), PLANS[table]));
}
