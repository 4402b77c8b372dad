/**
 * Golden scenes: every `fixtures/rules/in/<name>.json` table state is evaluated with The Devil to Pay and
 * compared with `fixtures/rules/out/<name>.json`. After an intended rules change, regenerate and review
 * the diff: `REGEN=1 npx vitest run tests/rules/golden.test.ts`.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEvaluator, evaluate, getRuleset, parseTableState, type Evaluation, type TableState } from '@muster/rules';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const inDir = join(root, 'fixtures/rules/in');
const outDir = join(root, 'fixtures/rules/out');
const regen = process.env.REGEN === '1';
const RULESET = 'devil-to-pay';

/** Numbers to 1/10,000 inch (or degree, or die): stable across platforms, far finer than any rule. */
export function goldenJson(ev: Evaluation): string {
  return `${JSON.stringify(ev, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 + 0 : v), 2)}\n`;
}

const names = readdirSync(inDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();

function load(name: string): TableState {
  return parseTableState(JSON.parse(readFileSync(join(inDir, `${name}.json`), 'utf8')));
}

describe('golden scenes', () => {
  it('has the opening battle and the focused scenes', () => {
    expect(names).toEqual(expect.arrayContaining(['opening-battle', 'fire-across-fence', 'column-on-road', 'charge']));
  });

  it.each(names)('%s matches its golden output', (name) => {
    const state = load(name);
    const actual = goldenJson(evaluate(state, getRuleset(RULESET)));
    const outFile = join(outDir, `${name}.json`);
    if (regen) {
      writeFileSync(outFile, actual);
      return;
    }
    if (!existsSync(outFile)) {
      throw new Error(`no golden output for ${name}: run REGEN=1 npx vitest run tests/rules/golden.test.ts and review it`);
    }
    expect(actual).toBe(readFileSync(outFile, 'utf8'));
  });

  it.each(names)('%s: every unit is evaluated, and a session gives the same result as evaluate', (name) => {
    const state = load(name);
    const ruleset = getRuleset(RULESET);
    const ev = evaluate(state, ruleset);
    expect(Object.keys(ev.units).sort()).toEqual(state.units.map((u) => u.id).sort());
    const session = createEvaluator(ruleset);
    expect(goldenJson(session.update(state))).toBe(goldenJson(ev));
    // Feed it twice: a session that caches must not drift.
    expect(goldenJson(session.update(state))).toBe(goldenJson(ev));
  });
});
