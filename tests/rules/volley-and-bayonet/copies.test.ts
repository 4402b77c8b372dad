/**
 * Volley & Bayonet's live evaluator fed states rebuilt as new objects every step (as a state parsed afresh
 * from the wire is): an unchanged stand is then an equal object, not the same one, and the evaluator must
 * still give what a fresh evaluation gives after each move.
 */
import { describe, expect, it } from 'vitest';
import { createEvaluator, evaluate, getRuleset, parseTableStateFor, type TableState } from '@muster/rules';
import { seededRandom } from '../../../fixtures/seededRandom.ts';
import { vbBenchScene } from '../../../fixtures/rules/volley-and-bayonet/benchScene.ts';
import { pick } from '../tableEdits.ts';

const ruleset = getRuleset('volley-and-bayonet');

describe('volley-and-bayonet live evaluator on states copied afresh', () => {
  it('matches the full evaluation when every state is new objects', () => {
    const rand = seededRandom(11);
    const evaluator = createEvaluator(ruleset);
    let state = parseTableStateFor(vbBenchScene(), ruleset);
    expect(evaluator.update(state)).toEqual(evaluate(state, ruleset));
    for (let i = 0; i < 12; i++) {
      const unit = pick(state.units, rand);
      const ids = new Set(unit.standIds);
      const dx = (rand() - 0.5) * 4, dy = (rand() - 0.5) * 4;
      const moved: TableState = { ...state, stands: state.stands.map((s) => (ids.has(s.id) ? { ...s, pose: { ...s.pose, xIn: s.pose.xIn + dx, yIn: s.pose.yIn + dy } } : s)) };
      state = structuredClone(moved);
      expect({ step: i, evaluation: evaluator.update(state) }).toEqual({ step: i, evaluation: evaluate(state, ruleset) });
    }
  }, 60_000);
});
