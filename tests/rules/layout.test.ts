/**
 * The rules package's layout, as packages/rules/README.md ("Adding a rule set") describes it: no rule set
 * importing another, nothing but the registry importing a rule set, and every module reachable from the
 * package exports (a module only tests use belongs in fixtures/). Import circles, purity and test scenes
 * outside src/ are checked for every room by tests/layout/layout.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSources, readImportGraph } from '../layout/importGraph.ts';

const root = join(import.meta.dirname, '..', '..');
const SRC = 'packages/rules/src/';
const edges = readImportGraph(root, ['packages/rules/src']);
const files = listSources(join(root, SRC)).map((f) => relative(root, f));
const graph = new Map(files.map((f) => [f, edges.filter((e) => e.from === f && e.to !== null).map((e) => e.to!)]));
const rel = (f: string): string => f.slice(SRC.length);
/** The rule set a file belongs to ('devil-to-pay'), or undefined outside src/rulesets/<id>/. */
const rulesetOf = (f: string): string | undefined => /^rulesets\/([^/]+)\//.exec(rel(f))?.[1];

describe('packages/rules layout', () => {
  it('keeps rule sets apart: none imports another, only the registry imports one', () => {
    const wrong: string[] = [];
    for (const [f, deps] of graph) {
      for (const d of deps) {
        const target = rulesetOf(d);
        if (target === undefined || target === rulesetOf(f)) continue;
        if (rel(f) !== 'rulesets/index.ts') wrong.push(`${rel(f)} imports ${rel(d)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reaches every module of src/ from the package exports (a module only tests use belongs in fixtures/)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'packages/rules/package.json'), 'utf8')) as { exports: Record<string, string> };
    const entries = Object.values(pkg.exports).filter((p) => p.endsWith('.ts')).map((p) => join('packages/rules', p));
    const seen = new Set<string>();
    const walk = (f: string): void => {
      if (seen.has(f) || !graph.has(f)) return;
      seen.add(f);
      for (const g of graph.get(f)!) walk(g);
    };
    entries.forEach(walk);
    // Rule code nothing exported calls: walkPenalties is the penalty walk as plain data, which
    // reachWalk.ts takes step for step. (dice.ts and skedaddle.ts are reached through the DTP resolution.)
    const notCalledByEvaluate = ['rulesets/devil-to-pay/movement/walkPenalties.ts'];
    const unreached = files.filter((f) => !f.endsWith('.test.ts') && !seen.has(f)).map(rel).sort();
    expect(unreached).toEqual(notCalledByEvaluate);
  });

  it('keys no module-level weak map or identity memo by an evaluation context', () => {
    // V8's young collector keeps such a map's values alive, and so the whole evaluation they point into,
    // until a full collection (measured when rule sets still kept memos of their own).
    const keyedByContext = /new WeakMap<\s*(?:readonly\s+)?\w*Context\b|identityMemo\(\s*\(\s*\w+\s*:\s*\w*Context\b/;
    const wrong = files.filter((f) => !f.endsWith('.test.ts') && keyedByContext.test(readFileSync(join(root, f), 'utf8'))).map(rel);
    expect(wrong).toEqual([]);
  });

  it('keeps no cache in a rule set built of queries: incremental evaluation belongs to the engine', () => {
    // A rule set built of queries: none of its modules imports a memo, a change test or a session type,
    // nor keeps a weak map.
    const cacheImports = /from '[./]*engine\/(ownedMemo|identityMemo|samePlainData|sameTableGlobals)\.ts'|\bRulesSession\b|\bcreateSession\b|new WeakMap\b/;
    const rulesets = new Set(files.map(rulesetOf).filter((r): r is string => r !== undefined));
    const built = [...rulesets].filter((r) => !files.includes(`${SRC}rulesets/${r}/session.ts`));
    expect(built.length).toBeGreaterThan(0);
    const wrong = files.filter((f) => !f.endsWith('.test.ts') && built.includes(rulesetOf(f) ?? '') && cacheImports.test(readFileSync(join(root, f), 'utf8'))).map(rel);
    expect(wrong).toEqual([]);
  });
});
