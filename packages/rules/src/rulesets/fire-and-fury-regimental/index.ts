/**
 * Regimental Fire and Fury (Quick Reference Sheets II) as one `Ruleset`, the object the registry
 * (`../index.ts`) installs: id, name, the evaluation as queries (`evaluate.ts`) and its declarations
 * (`fields.ts`), and what a roll did (`resolution.ts`).
 */
import type { Ruleset } from '../../engine/ruleset.ts';
import { queryRuleset } from '../../engine/incremental/runQueries.ts';
import { FFR_QUERIES, FFR_RULESET_ID } from './evaluate.ts';
import { FFR_PARAMETERS, FFR_STATUS_FIELDS, FFR_UNIT_FIELDS } from './fields.ts';
import { FFR_RESOLUTION } from './resolution.ts';

export const fireAndFuryRegimental: Ruleset = queryRuleset(
  {
    id: FFR_RULESET_ID,
    name: 'Regimental Fire and Fury',
    source: 'Regimental Fire and Fury, ACW Quick Reference Sheets II (with the basic rulebook numbers as parameters)',
    parameters: FFR_PARAMETERS,
    unitFields: FFR_UNIT_FIELDS,
    statusFields: FFR_STATUS_FIELDS,
    resolution: FFR_RESOLUTION,
  },
  FFR_QUERIES,
);
