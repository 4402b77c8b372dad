/**
 * While the Devil Rules golden scenes: every `fixtures/rules/while-the-devil-rules/in/<name>.json` is evaluated
 * and compared with `out/<name>.json`; the same contract every rule set owes (purity, finite numbers, coded
 * refusals, unique shape ids with known layers and styles) is checked on them. After an intended change:
 * `REGEN=1 npx vitest run tests/rules/while-the-devil-rules/wtdrGolden.test.ts`, then review the diff.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate, getRuleset, parseTableStateFor, rulesetStateProblems, type Evaluation, type TableState } from '@muster/rules';
import { WTDR_SCENES } from '../../../fixtures/rules/while-the-devil-rules/makeScenes.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dir = join(root, 'fixtures/rules/while-the-devil-rules');
const regen = process.env.REGEN === '1';
const ruleset = getRuleset('while-the-devil-rules');
const names = readdirSync(join(dir, 'in')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();

function goldenJson(ev: Evaluation): string {
  return `${JSON.stringify(ev, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 + 0 : v), 2)}\n`;
}
const load = (name: string): TableState => parseTableStateFor(JSON.parse(readFileSync(join(dir, 'in', `${name}.json`), 'utf8')), ruleset);

function deepFreeze<T>(x: T): T {
  if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

describe('While the Devil Rules golden scenes', () => {
  it('has the scenes makeScenes.ts lays out, unchanged', () => {
    expect(names).toEqual(Object.keys(WTDR_SCENES).sort());
    for (const [name, make] of Object.entries(WTDR_SCENES)) {
      expect(`${JSON.stringify(make(), null, 2)}\n`, name).toBe(readFileSync(join(dir, 'in', `${name}.json`), 'utf8'));
      expect(rulesetStateProblems(make(), ruleset)).toEqual([]);
    }
  });

  it.each(names)('%s matches its golden output', (name) => {
    const actual = goldenJson(evaluate(load(name), ruleset));
    const outFile = join(dir, 'out', `${name}.json`);
    if (regen) {
      mkdirSync(join(dir, 'out'), { recursive: true });
      writeFileSync(outFile, actual);
      return;
    }
    if (!existsSync(outFile)) throw new Error(`no golden output for ${name}: run REGEN=1 npx vitest run tests/rules/while-the-devil-rules/wtdrGolden.test.ts and review it`);
    expect(actual).toBe(readFileSync(outFile, 'utf8'));
  });

  it.each(names)('%s: pure, finite, coded refusals, unique shape ids', (name) => {
    const a = ruleset.evaluate(deepFreeze(load(name)));
    expect(JSON.stringify(ruleset.evaluate(load(name)))).toBe(JSON.stringify(a));
    const text = JSON.stringify(a, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? 'NOT-FINITE' : v));
    expect(text).not.toContain('NOT-FINITE');
    const refusals = (x: unknown): string[] =>
      typeof x !== 'object' || x === null ? [] : [...((x as { ok?: unknown }).ok === false ? [String((x as { reason: unknown }).reason)] : []), ...Object.values(x).flatMap(refusals)];
    for (const r of refusals(a)) expect(r).toMatch(/^[a-z]+(-[a-z]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/);
    const ids = a.shapes.map((s) => s.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('the parameters change the output: without them the same battle warns for each and refuses moves', () => {
    const full = evaluate(load('battle'), ruleset);
    const bare = evaluate(load('battle-no-parameters'), ruleset);
    expect(full.units['tercio']!.movement).toMatchObject({ ok: true, allowanceIn: 4 });
    expect(bare.units['tercio']!.movement).toMatchObject({ ok: false, reason: 'movement/allowance-not-entered' });
    const missing = (ev: Evaluation) => ev.warnings.filter((w) => w.code === 'parameter/missing').map((w) => w.parameterId);
    expect(missing(bare)).toEqual(expect.arrayContaining(['advance-tercio', 'charge-cuirassier', 'modifier-fire-force-even']));
    expect(missing(full)).not.toContain('advance-tercio');
    // Formation, fire targets and ranges, command and status need no parameter: the same either way.
    for (const id of Object.keys(full.units)) {
      const f = full.units[id]!;
      const b = bare.units[id]!;
      expect(b.formation).toEqual(f.formation);
      expect(b.command).toEqual(f.command);
      expect(b.morale).toEqual(f.morale);
      expect(b.fire.map((x) => [x.targetUnitId, x.ok, x.ok ? x.rangeIn : x.reason])).toEqual(f.fire.map((x) => [x.targetUnitId, x.ok, x.ok ? x.rangeIn : x.reason]));
    }
  });
});
