/**
 * The config file of `muster start`: a YAML (or JSON, which is YAML too) mapping of option names to
 * values, the same names as the flags:
 *
 *   port: 8443
 *   host: 0.0.0.0
 *   https: true
 *   camera: /dev/video0
 *   allow-host: [muster.local]
 *   log-format: json
 *
 * Checked whole before anything starts; a problem stops the start (exit 2) with the file and the key:
 * `/srv/table1/muster.yaml: port must be an integer 0..65535, got "80800"`, `…: unknown option "prot"
 * (did you mean "port"?)`, `…: line 3, column 5: …` for YAML that does not parse. Relative paths are
 * relative to the file's folder.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { CliError } from '../cli/cliError.ts';
import { problemWith, START_OPTIONS, type StartOptionSpec, type StartValue } from './startOptions.ts';

/** The config file looked for when none is named: `<data>/muster.yaml`. */
export const DEFAULT_CONFIG_NAME = 'muster.yaml';

export function defaultConfigPath(dataDir: string): string {
  return join(dataDir, DEFAULT_CONFIG_NAME);
}

export interface StartConfigFile {
  readonly path: string;
  /** Values in the flags' shape (strings, string lists, booleans), paths made absolute. */
  readonly values: ReadonlyMap<string, StartValue>;
  readonly warnings: readonly string[];
}

/** The closest option name, for "did you mean". */
function closest(name: string, names: readonly string[]): string | null {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const here = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = here;
      }
    }
    return row[b.length]!;
  };
  let best: string | null = null;
  let bestD = 3;
  for (const n of names) {
    const d = distance(name, n);
    if (d < bestD) {
      best = n;
      bestD = d;
    }
  }
  return best;
}

function describe(v: unknown): string {
  if (v === null) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** One value of the file → the flag's shape; throws naming `where` (`port`, `allow-host[1]`). */
function convert(spec: StartOptionSpec, raw: unknown, where: string, fail: (where: string, problem: string) => never, baseDir: string): StartValue {
  if (spec.kind === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    return fail(where, `must be true or false, got ${describe(raw)}`);
  }
  if (spec.kind === 'list') {
    const items = Array.isArray(raw) ? raw : [raw];
    return items.map((item, i) => {
      const at = Array.isArray(raw) ? `${where}[${i}]` : where;
      if (typeof item !== 'string') return fail(at, `must be a string, got ${describe(item)}`);
      const p = problemWith(spec, item);
      return p ? fail(at, p) : item;
    });
  }
  let text: string;
  if (typeof raw === 'string') text = raw;
  else if (typeof raw === 'number' && spec.kind !== 'path') text = String(raw);
  else return fail(where, `must be ${spec.kind === 'integer' || spec.kind === 'number' ? 'a number' : 'a string'}, got ${describe(raw)}`);
  const p = problemWith(spec, text);
  if (p) return fail(where, p);
  return spec.kind === 'path' ? resolve(baseDir, text) : text;
}

/**
 * Reads and checks the config file at `path`. Missing: an error when `required` (named by `--config`),
 * else null. `inDataDir`: the file was found through the data directory, so it cannot move it.
 */
export function loadStartConfigFile(path: string, options: { required: boolean; inDataDir?: boolean }): StartConfigFile | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !options.required) return null;
    throw new CliError(`${path}: cannot read the config file (${code ?? (err as Error).message})`);
  }
  const fail = (where: string, problem: string): never => {
    throw new CliError(`${path}: ${where} ${problem}`);
  };
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const firstError = doc.errors[0];
  if (firstError) {
    const offset = firstError.pos[0];
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const col = offset - before.lastIndexOf('\n');
    throw new CliError(`${path}: not valid YAML/JSON at line ${line}, column ${col}: ${firstError.message.split('\n')[0]}`);
  }
  const data: unknown = doc.toJS();
  const values = new Map<string, StartValue>();
  const warnings: string[] = [];
  if (data === null || data === undefined) return { path, values, warnings };
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new CliError(`${path}: must be a mapping of option names to values (e.g. "port: 8080"), got ${describe(data)}`);
  }
  const allowed = START_OPTIONS.filter((o) => !o.notInConfigFile);
  const baseDir = dirname(path);
  for (const [key, raw] of Object.entries(data as Record<string, unknown>)) {
    const spec = allowed.find((o) => o.name === key);
    if (!spec) {
      const excluded = START_OPTIONS.find((o) => o.name === key);
      if (excluded) fail(`"${key}"`, `cannot be set in a config file (only as --${key} or ${excluded.env})`);
      const guess = closest(key, allowed.map((o) => o.name));
      fail(`unknown option "${key}"`, guess ? `(did you mean "${guess}"?)` : `(the options are those of muster start --help, without the --)`);
    }
    if (raw === null) fail(key, 'has no value');
    if (key === 'data' && options.inDataDir) {
      fail(key, 'cannot be set in the data directory\'s own config file; name the file with --config <file> (or MUSTER_CONFIG) to choose the data directory there');
    }
    values.set(key, convert(spec!, raw, key, fail, baseDir));
  }
  if (values.has('token')) {
    try {
      if ((statSync(path).mode & 0o077) !== 0) warnings.push(`${path} holds the operator token and other users of this machine can read it; chmod 600 ${path}`);
    } catch {
      // read a moment ago; nothing to add
    }
  }
  return { path, values, warnings };
}
