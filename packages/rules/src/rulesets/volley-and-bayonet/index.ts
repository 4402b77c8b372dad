/**
 * Volley & Bayonet: At War in the Americas (wing scale) as one `Ruleset`, the object the registry
 * (`../index.ts`) installs: its id, name, declarations (declarations.ts) and its queries (evaluate.ts, queries.ts),
 * which the engine runs once for `evaluate` and keeps live for a changing table, and its after-the-roll part
 * (resolution/).
 * Nothing else lives here; see README.md for the folder's layout.
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import { queryRuleset } from '../../engine/incremental/runQueries.ts';
import { VB_PARAMETERS, VB_STATUS_FIELDS, VB_UNIT_FIELDS } from './declarations.ts';
import { VB_RULESET_ID, vbQueries } from './evaluate.ts';
import { vbResolution } from './resolution/index.ts';

export const volleyAndBayonet: Ruleset = queryRuleset(
  {
    id: VB_RULESET_ID,
    name: 'Volley & Bayonet: At War in the Americas',
    source: 'At War in the Americas, a Volley and Bayonet wing scale game (Greg Novak; consolidated by Paul Reynolds)',
    parameters: VB_PARAMETERS,
    unitFields: VB_UNIT_FIELDS,
    statusFields: VB_STATUS_FIELDS,
    resolution: vbResolution,
  },
  vbQueries,
);
