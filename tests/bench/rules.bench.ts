/**
 * Rules engine speed on a large table (fixtures/rules/largeScene.ts: 300 stands, 60 units, terrain):
 * - a full `evaluate` with The Devil to Pay (target <= 5 ms median),
 * - re-evaluation through a `RulesSession` after one unit moves (target <= 1 ms median),
 * - `parseTableState` on the same table (validation cost per camera frame).
 * Medians over repeated runs, milliseconds.
 */
import type { TableState, Unit } from '@muster/rules';
import { createEvaluator, evaluate, getRuleset, parseTableState } from '@muster/rules';
import { largeScene, LARGE_SCENE_STANDS, LARGE_SCENE_UNITS } from '../../fixtures/rules/largeScene.ts';
import { median, percentile, round, timeRuns } from './stats.ts';

/** A copy of `state` with every stand of `unit` moved `stepIn` inches along the unit's first stand's heading. */
function moveUnit(state: TableState, unit: Unit, stepIn: number): TableState {
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

export async function run(): Promise<Record<string, unknown>> {
  const state = largeScene(1);
  if (state.stands.length !== LARGE_SCENE_STANDS || state.units.length !== LARGE_SCENE_UNITS) {
    throw new Error(`large scene has ${state.stands.length} stands / ${state.units.length} units`);
  }
  const ruleset = getRuleset('devil-to-pay');
  const json = JSON.parse(JSON.stringify(state)) as unknown;

  process.stderr.write('rules: full evaluation...\n');
  const fullMs = timeRuns(() => void evaluate(state, ruleset), 40, 5);

  process.stderr.write('rules: validation...\n');
  const parseMs = timeRuns(() => void parseTableState(json), 40, 5);

  process.stderr.write('rules: session update after one unit moves...\n');
  // A chain of states, each differing from the previous by one unit moved a quarter inch (forward, then
  // back, so the table stays realistic), built before timing.
  const chain: TableState[] = [];
  let current = state;
  for (let i = 0; i < 120; i++) {
    const unit = state.units[(i * 7) % state.units.length]!;
    current = moveUnit(current, unit, i % 2 === 0 ? 0.25 : -0.25);
    chain.push(current);
  }
  const session = createEvaluator(ruleset);
  session.update(state);
  for (let i = 0; i < 10; i++) session.update(chain[i]!); // warm the JIT on the incremental path
  const sessionMs: number[] = [];
  for (let i = 10; i < chain.length; i++) {
    const t0 = performance.now();
    session.update(chain[i]!);
    sessionMs.push(performance.now() - t0);
  }

  return {
    table: { stands: state.stands.length, units: state.units.length, terrainPieces: state.terrain.areas.length + state.terrain.linear.length + state.terrain.roads.length + state.terrain.elevations.length },
    fullEvaluationMedianMs: round(median(fullMs)),
    fullEvaluationP90Ms: round(percentile(fullMs, 90)),
    fullEvaluationTargetMs: 5,
    sessionUpdateOneUnitMovedMedianMs: round(median(sessionMs)),
    sessionUpdateOneUnitMovedP90Ms: round(percentile(sessionMs, 90)),
    sessionUpdateTargetMs: 1,
    sessionIsIncremental: session.incremental,
    parseTableStateMedianMs: round(median(parseMs)),
    runs: { full: fullMs.length, session: sessionMs.length, parse: parseMs.length },
  };
}
