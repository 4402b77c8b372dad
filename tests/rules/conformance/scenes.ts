/**
 * The scenes the conformance suite asks every rule set about, per rule-set id. Each rule set registers its
 * existing golden scenes here (the table states under fixtures/rules/<id>/in, with their parameters); the
 * suite fails for an installed rule set with no entry, so a new rule set must add its scenes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTableState, type TableState } from '@muster/rules';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface ConformanceScene {
  readonly name: string;
  /** A fresh copy of the scene each call (tests freeze and transform what they get). */
  readonly build: () => TableState;
}

/** Every `*.json` in a fixtures folder except `exclude` (the no-parameter copies: the suite strips parameters itself). */
function goldenInputs(dir: string, exclude: RegExp = /no-param/): ConformanceScene[] {
  const abs = join(root, dir);
  return readdirSync(abs)
    .filter((f) => f.endsWith('.json') && !exclude.test(f))
    .sort()
    .map((f) => ({ name: f.slice(0, -5), build: () => parseTableState(JSON.parse(readFileSync(join(abs, f), 'utf8'))) }));
}

export const CONFORMANCE_SCENES: Readonly<Record<string, () => readonly ConformanceScene[]>> = {
  'devil-to-pay': () => goldenInputs('fixtures/rules/in'),
  'while-the-devil-rules': () => goldenInputs('fixtures/rules/while-the-devil-rules/in'),
  'volley-and-bayonet': () => goldenInputs('fixtures/rules/volley-and-bayonet/in'),
  'fire-and-fury-regimental': () => goldenInputs('fixtures/rules/fire-and-fury-regimental/in'),
};
