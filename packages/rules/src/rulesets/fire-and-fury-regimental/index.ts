/**
 * Regimental Fire and Fury (Quick Reference Sheets II) as one `Ruleset`, the object the registry
 * (`../index.ts`) installs: id, name, the evaluation (`evaluate.ts`) and its declarations (`fields.ts`).
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import { FFR_RULESET_ID, evaluateFireAndFuryRegimental } from './evaluate.ts';
import { FFR_PARAMETERS, FFR_STATUS_FIELDS, FFR_UNIT_FIELDS } from './fields.ts';
import { createFfrSession } from './session.ts';

export const fireAndFuryRegimental: Ruleset = {
  id: FFR_RULESET_ID,
  name: 'Regimental Fire and Fury',
  source: 'Regimental Fire and Fury, ACW Quick Reference Sheets II (with the basic rulebook numbers as parameters)',
  evaluate: evaluateFireAndFuryRegimental,
  createSession: createFfrSession,
  parameters: FFR_PARAMETERS,
  unitFields: FFR_UNIT_FIELDS,
  statusFields: FFR_STATUS_FIELDS,
};
