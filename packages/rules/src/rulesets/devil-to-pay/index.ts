/**
 * The Devil to Pay (2018) as one `Ruleset`, the object the registry (`../index.ts`) installs: its id and
 * name, the full evaluation (`evaluate.ts`), the incremental session (`session.ts`) and the action decks
 * (`cards.ts`). Nothing else lives here; see README.md for the folder's layout.
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import { DTP_RULESET_ID, evaluateDevilToPay } from './evaluate.ts';
import { createDtpSession } from './session.ts';
import { DTP_ACTION_DECKS } from './cards.ts';
import { DTP_STATUS_FIELDS } from './declarations.ts';

export const devilToPay: Ruleset = {
  id: DTP_RULESET_ID,
  name: 'The Devil to Pay',
  source: 'The Devil to Pay, 2018 edition',
  evaluate: evaluateDevilToPay,
  createSession: createDtpSession,
  actionDecks: DTP_ACTION_DECKS,
  // Charge declarations the table cannot show (declarations.ts).
  statusFields: DTP_STATUS_FIELDS,
};
