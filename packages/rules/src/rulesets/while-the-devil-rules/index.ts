/**
 * While the Devil Rules (Thirty Years' War) as one `Ruleset`, the object the registry (`../index.ts`)
 * installs: id, name, the full evaluation (`evaluate.ts`), the incremental session (`session.ts`) and its
 * declarations (`declarations.ts`).
 * See README.md for what is covered.
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import { WTDR_RULESET_ID, evaluateWhileTheDevilRules } from './evaluate.ts';
import { WTDR_PARAMETERS, WTDR_STATUS_FIELDS, WTDR_UNIT_FIELDS } from './declarations.ts';
import { createWtdrSession } from './session.ts';

export const whileTheDevilRules: Ruleset = {
  id: WTDR_RULESET_ID,
  name: 'While the Devil Rules',
  source: "While the Devil Rules, Guide to Play (Thirty Years' War), 2023",
  evaluate: evaluateWhileTheDevilRules,
  createSession: createWtdrSession,
  parameters: WTDR_PARAMETERS,
  unitFields: WTDR_UNIT_FIELDS,
  statusFields: WTDR_STATUS_FIELDS,
};
