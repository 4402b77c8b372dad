/**
 * The Devil to Pay (2018) as one `Ruleset`, the object the registry (`../index.ts`) installs: its id and
 * name, its evaluation as queries (`evaluate.ts`; `createEvaluator` keeps them live), the action decks
 * (`cards.ts`) and what a roll did (`resolve/`). Nothing else lives here; see README.md for the folder's layout.
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import { queryRuleset } from '../../engine/incremental/runQueries.ts';
import { DTP_RULESET_ID, dtpQueries } from './evaluate.ts';
import { DTP_ACTION_DECKS } from './cards.ts';
import { DTP_STATUS_FIELDS } from './declarations.ts';
import { dtpResolution } from './resolve/dtpResolution.ts';

export const devilToPay: Ruleset = queryRuleset(
  {
    id: DTP_RULESET_ID,
    name: 'The Devil to Pay',
    source: 'The Devil to Pay, 2018 edition',
    actionDecks: DTP_ACTION_DECKS,
    // Charge declarations the table cannot show (declarations.ts).
    statusFields: DTP_STATUS_FIELDS,
    // After the roll: fire, melee, rally, skedaddle (resolve/).
    resolution: dtpResolution,
  },
  dtpQueries,
);
