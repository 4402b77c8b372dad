import { describe, expect, it } from 'vitest';
import type { GameLogEntry } from '@muster/protocol';
import type { Outcome, TableState } from '@muster/rules';
import { FORCED_MOVE_DONE_IN, pendingForcedMoves, shownOutcome } from './shownOutcome.ts';

const common = { timeMs: 0, turn: 1, by: 'operator' as const };
const outcome = (result: string): Outcome => ({
  rulesetId: 'toy', action: { kind: 'melee', unitId: 'a', targetUnitId: 'b' }, rolls: [], result, summary: `${result}: b retreats`, steps: [], followUps: [],
  effects: [{ unitId: 'b', text: 'retreats 6"', source: 'toy', status: { disordered: true }, move: { kind: 'retreat', distanceIn: 6, path: [{ xIn: 10, yIn: 10 }, { xIn: 10, yIn: 4 }], text: 'retreat 6"', source: 'toy' } }],
});
const rolled = (index: number, result: string): GameLogEntry => ({ ...common, index, kind: 'outcome', outcome: outcome(result), dice: 'rolled' });
const applied = (index: number, outcomeIndex: number): GameLogEntry => ({ ...common, index, kind: 'outcome-applied', outcomeIndex, statusByUnit: { b: { disordered: true } }, previousByUnit: { b: {} } });
const undone = (index: number, outcomeIndex: number): GameLogEntry => ({ ...common, index, kind: 'outcome-undone', outcomeIndex, statusByUnit: { b: {} } });
const cleared = (index: number, outcomeIndex: number): GameLogEntry => ({ ...common, index, kind: 'outcome-cleared', outcomeIndex });
const turn = (index: number): GameLogEntry => ({ ...common, index, kind: 'turn', turn: 1 });

describe('the outcome the views show', () => {
  it('is the newest outcome, applied or not as the log says, until cleared', () => {
    expect(shownOutcome([])).toBeNull();
    expect(shownOutcome([turn(0)])).toBeNull();
    expect(shownOutcome([rolled(0, 'Repulsed')])).toMatchObject({ entry: { index: 0 }, applied: false });
    expect(shownOutcome([rolled(0, 'Repulsed'), applied(1, 0)])).toMatchObject({ applied: true });
    expect(shownOutcome([rolled(0, 'Repulsed'), applied(1, 0), undone(2, 0)])).toMatchObject({ applied: false });
    expect(shownOutcome([rolled(0, 'Repulsed'), applied(1, 0), cleared(2, 0)])).toBeNull();
    // A newer roll replaces it; applying the older one does not mark the newer applied.
    expect(shownOutcome([rolled(0, 'Repulsed'), rolled(1, 'Carried'), applied(2, 0)])).toMatchObject({ entry: { index: 1 }, applied: false });
    // Clearing an older outcome leaves the newer shown.
    expect(shownOutcome([rolled(0, 'Repulsed'), rolled(1, 'Carried'), cleared(2, 0)])).toMatchObject({ entry: { index: 1 } });
  });

  it('draws a forced move until its unit has left the path’s start', () => {
    const shown = shownOutcome([rolled(0, 'Repulsed')]);
    const at = (yIn: number) => ({
      units: [{ id: 'b', standIds: ['b1', 'b2'] }],
      stands: [{ id: 'b1', pose: { xIn: 9, yIn, headingDeg: 90 } }, { id: 'b2', pose: { xIn: 11, yIn, headingDeg: 90 } }],
    }) as unknown as TableState;
    expect(pendingForcedMoves(shown, at(10))).toHaveLength(1);
    expect(pendingForcedMoves(shown, at(10 - FORCED_MOVE_DONE_IN + 0.1))).toHaveLength(1);
    expect(pendingForcedMoves(shown, at(10 - FORCED_MOVE_DONE_IN - 0.1))).toEqual([]);
    expect(pendingForcedMoves(null, at(10))).toEqual([]);
    // Where the unit stood when it was rolled decides, when the log says (a rule set may start the path
    // at another reference point, e.g. its command stand).
    const logged = { ...shown!, entry: { ...shown!.entry, unitCentres: { b: { xIn: 10, yIn: 20 } } } };
    expect(pendingForcedMoves(logged, at(20))).toHaveLength(1);
    expect(pendingForcedMoves(logged, at(10))).toEqual([]);
  });
});
