/**
 * While the Devil Rules (Thirty Years' War) as one `Ruleset`, the object the registry (`../index.ts`)
 * installs: id, name, the evaluation as queries (`evaluate.ts`, run once or kept live by the engine), its
 * declarations (`declarations.ts`) and what a roll did (`resolution.ts`). See README.md for what is covered.
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import { queryRuleset } from '../../engine/incremental/runQueries.ts';
import { WTDR_QUERIES, WTDR_RULESET_ID } from './evaluate.ts';
import { WTDR_PARAMETERS, WTDR_STATUS_FIELDS, WTDR_UNIT_FIELDS } from './declarations.ts';
import { WTDR_RESOLUTION } from './resolution.ts';

export const whileTheDevilRules: Ruleset = queryRuleset(
  {
    id: WTDR_RULESET_ID,
    name: 'While the Devil Rules',
    source: "While the Devil Rules, Guide to Play (Thirty Years' War), 2023",
    parameters: WTDR_PARAMETERS,
    unitFields: WTDR_UNIT_FIELDS,
    statusFields: WTDR_STATUS_FIELDS,
    resolution: WTDR_RESOLUTION,
  },
  WTDR_QUERIES,
);
