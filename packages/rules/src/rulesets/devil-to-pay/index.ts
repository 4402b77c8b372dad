/**
 * The Devil to Pay (2018): the rule set as one `Ruleset`. Parts (formation, movement, fire, charge, rally,
 * command) land in their own modules; this file assembles them.
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import type { Evaluation, UnitEvaluation } from '../../engine/evaluation.ts';
import type { TableState } from '../../model/tableState.ts';

const RULESET_ID = 'devil-to-pay';

function evaluate(state: TableState): Evaluation {
  const units: Record<string, UnitEvaluation> = {};
  for (const unit of state.units) {
    units[unit.id] = {
      unitId: unit.id,
      formation: unit.status?.formation
        ? { formation: unit.status.formation, confidence: 1, source: 'status' }
        : { formation: 'unknown', confidence: 0, source: 'geometry' },
      movement: { ok: false, reason: 'movement/not-implemented' },
      fire: [],
      charge: [],
      rally: { ok: false, reason: 'rally/not-implemented' },
      command: { brigadeFormationUnitIds: [] },
    };
  }
  return { rulesetId: RULESET_ID, units, shapes: [], warnings: [] };
}

export const devilToPay: Ruleset = {
  id: RULESET_ID,
  name: 'The Devil to Pay',
  source: 'The Devil to Pay, 2018 edition',
  evaluate,
};
