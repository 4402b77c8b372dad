/**
 * Volley & Bayonet: At War in the Americas (wing scale) as one `Ruleset`, the object the registry
 * (`../index.ts`) installs: its id, name, declarations (declarations.ts), the evaluation (evaluate.ts) and
 * its incremental session (session.ts).
 * Nothing else lives here; see README.md for the folder's layout.
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import { VB_PARAMETERS, VB_STATUS_FIELDS, VB_UNIT_FIELDS } from './declarations.ts';
import { VB_RULESET_ID, evaluateVolleyAndBayonet } from './evaluate.ts';
import { createVolleyAndBayonetSession } from './session.ts';

export const volleyAndBayonet: Ruleset = {
  id: VB_RULESET_ID,
  name: 'Volley & Bayonet: At War in the Americas',
  source: 'At War in the Americas, a Volley and Bayonet wing scale game (Greg Novak; consolidated by Paul Reynolds)',
  evaluate: (state) => evaluateVolleyAndBayonet(state),
  createSession: createVolleyAndBayonetSession,
  parameters: VB_PARAMETERS,
  unitFields: VB_UNIT_FIELDS,
  statusFields: VB_STATUS_FIELDS,
};
