/**
 * The repository's import graph, read with TypeScript's own pre-processor (static, type-only, re-export and
 * dynamic `import('…')` with a literal specifier; comments and strings are not mistaken for imports).
 * A worker's entry, `new URL('./worker.mjs', import.meta.url)`, is an edge too: the worker runs that file.
 * Workspace package names resolve to the file their package.json exports, so a path through a package's
 * index counts like any other edge.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Importing file, relative to the repository root. */
  readonly from: string;
  /** The specifier as written. */
  readonly specifier: string;
  /** Resolved file relative to the root, or null for an npm package or a Node builtin. */
  readonly to: string | null;
}

const SOURCE = /\.(ts|mts|mjs|js)$/;

/** Every source file below `dir` (absolute paths), node_modules and dist left out. */
export function listSources(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listSources(p, out);
    else if (SOURCE.test(name)) out.push(p);
  }
  return out;
}

/** `@muster/x` (and `@muster/x/sub`) → the file its package.json exports, for every workspace. */
function workspaceExports(root: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(root, group))) {
      const pkgPath = join(root, group, name, 'package.json');
      if (!existsSync(pkgPath)) continue;
      const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { name: string; exports?: Record<string, string> | string };
      const exp = typeof pkg.exports === 'string' ? { '.': pkg.exports } : (pkg.exports ?? {});
      for (const [sub, target] of Object.entries(exp)) {
        if (sub.includes('*')) continue;
        map.set(sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`, join(root, group, name, target));
      }
    }
  }
  return map;
}

/** Every import of every source file under `folders` (relative to `root`). */
export function readImportGraph(root: string, folders: readonly string[]): ImportEdge[] {
  const packages = workspaceExports(root);
  const edges: ImportEdge[] = [];
  for (const folder of folders) {
    for (const file of listSources(join(root, folder))) {
      const text = readFileSync(file, 'utf8');
      const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((ref) => ref.fileName);
      for (const m of text.matchAll(/new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)) specifiers.push(m[1]!);
      for (const spec of specifiers) {
        let target: string | null = null;
        if (spec.startsWith('.')) target = resolve(dirname(file), spec);
        else if (packages.has(spec)) target = packages.get(spec)!;
        edges.push({ from: relative(root, file), specifier: spec, to: target === null ? null : relative(root, target) });
      }
    }
  }
  return edges;
}

/** The import cycles among the given edges (each as the list of files around it), by Tarjan's algorithm. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.to === null) continue;
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from)!.add(e.to);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)?.has(v)) cycles.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
