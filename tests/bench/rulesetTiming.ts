/**
 * One rule set's full evaluation and one-unit-moved session update, timed in a process of its own.
 *
 * Run in the bench's process after other rule sets, a rule set was measured 30-50% slower than alone
 * (2026-11-24: The Devil to Pay's mega-game table 22.7 ms in the bench process, 15.4 ms alone): the engine
 * and geometry functions every rule set calls had been optimised by V8 for the others' objects first. A live
 * service evaluates one game's rule set, so each is timed in a fresh Node process, as JVM bench harnesses
 * fork one per benchmark. `timeRulesetInFreshProcess` spawns this file; run directly it prints one JSON object:
 *   node --import tsx tests/bench/rulesetTiming.ts <ruleset-id> same|mega
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Ruleset, TableState, Unit } from '@muster/rules';
import { createEvaluator, evaluate, getRuleset, parseTableStateFor } from '@muster/rules';
import { largeScene } from '../../fixtures/rules/largeScene.ts';
import { megaScene } from '../../fixtures/rules/megaScene.ts';
import { benchTableFor } from '../../fixtures/rules/rulesetAdapters.ts';
import { median, percentile, round, timeWallAndCpu } from './stats.ts';

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

/** A chain of `n` states from `state`, each with one unit moved a quarter inch (forward, then back). */
export function moveChain(state: TableState, n: number): TableState[] {
  const chain: TableState[] = [];
  let current = state;
  for (let i = 0; i < n; i++) {
    const unit = state.units[(i * 7) % state.units.length]!;
    current = moveUnit(current, unit, i % 2 === 0 ? 0.25 : -0.25);
    chain.push(current);
  }
  return chain;
}

export type TimedTable = 'same' | 'mega';

interface Plan {
  readonly runs: { warmup: number; full: number; moves: number; moveWarmup: number };
  readonly targets: { fullMs: number; updateMs: number };
}

/** Run counts and targets (issue 9): the shared 300-stand table, and The Devil to Pay's mega-game table. */
const PLANS: Record<TimedTable, Plan> = {
  same: { runs: { warmup: 100, full: 60, moveWarmup: 200, moves: 100 }, targets: { fullMs: 5, updateMs: 1 } },
  mega: { runs: { warmup: 60, full: 40, moveWarmup: 300, moves: 200 }, targets: { fullMs: 15, updateMs: 1 } },
};

/** The seeded table a timing runs on, read for the rule set (its unit fields and parameters filled). */
function tableFor(ruleset: Ruleset, table: TimedTable): TableState {
  return table === 'mega' ? megaScene(1) : parseTableStateFor(benchTableFor(ruleset.id, largeScene(1)), ruleset);
}

/** Full evaluation and one-unit-moved update of `ruleset` on `table`, in this process: medians (wall and CPU), targets, run counts. */
export function timeRuleset(ruleset: Ruleset, table: TableState, plan: Plan): Record<string, unknown> {
  const { runs, targets } = plan;
  const full = timeWallAndCpu(() => void evaluate(table, ruleset), runs.full, runs.warmup);
  const chain = moveChain(table, runs.moveWarmup + runs.moves);
  const session = createEvaluator(ruleset);
  session.update(table);
  const upd = timeWallAndCpu((i) => void session.update(chain[i]!), runs.moves, runs.moveWarmup);
  const ev = evaluate(table, ruleset);
  return {
    stands: table.stands.length,
    units: table.units.length,
    fullEvaluationMedianMs: round(median(full.wallMs)),
    fullEvaluationP90Ms: round(percentile(full.wallMs, 90)),
    fullEvaluationCpuMedianMs: round(median(full.cpuMs)),
    fullEvaluationTargetMs: targets.fullMs,
    updateOneUnitMovedMedianMs: round(median(upd.wallMs)),
    updateOneUnitMovedP90Ms: round(percentile(upd.wallMs, 90)),
    updateOneUnitMovedCpuMedianMs: round(median(upd.cpuMs)),
    updateTargetMs: targets.updateMs,
    sessionIsIncremental: session.incremental,
    fireOptions: Object.values(ev.units).reduce((n, u) => n + u.fire.filter((f) => f.ok).length, 0),
    warnings: ev.warnings.length,
    missingParameterWarnings: ev.warnings.filter((w) => w.code === 'parameter/missing').length,
    runs: { fullWarmup: runs.warmup, full: full.wallMs.length, moveWarmup: runs.moveWarmup, moves: upd.wallMs.length },
    process: 'fresh',
  };
}

const SELF = fileURLToPath(import.meta.url);

/** `timeRuleset` for one rule set and table in a child Node process of its own; rejects with the child's stderr on failure. */
export function timeRulesetInFreshProcess(rulesetId: string, table: TimedTable): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SELF, rulesetId, table], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`timing ${rulesetId} on the ${table} table failed (exit ${code}): ${err.trim()}`));
      try {
        resolve(JSON.parse(out) as Record<string, unknown>);
      } catch (e) {
        reject(new Error(`timing ${rulesetId} on the ${table} table printed no JSON: ${(e as Error).message}`));
      }
    });
  });
}

if (process.argv[1] === SELF) {
  const [rulesetId, table] = process.argv.slice(2);
  if (!rulesetId || (table !== 'same' && table !== 'mega')) {
    process.stderr.write('usage: node --import tsx tests/bench/rulesetTiming.ts <ruleset-id> same|mega\n');
    process.exit(2);
  }
  const ruleset = getRuleset(rulesetId);
  console.log(JSON.stringify(timeRuleset(ruleset, tableFor(ruleset, table), PLANS[table])));
}
