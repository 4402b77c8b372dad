/**
 * The values `muster start` runs with, from four places in this order of precedence: the flags, the
 * `MUSTER_*` environment variables, the config file, the defaults (left to the command). Each value is
 * checked against its declaration (`startOptions.ts`) where it came from, and a bad one stops the start
 * with an error naming that place: `--port must be an integer 0..65535, got "x"`, `MUSTER_PORT must be …`,
 * `/srv/table1/muster.yaml: port must be …`.
 *
 * The result has the shape of the parsed flags (strings, string lists, booleans), so the command handles
 * a value from the environment or a file exactly like the same flag. Paths from the environment or a
 * config file are made absolute here: from the config file's folder for the file, from the current
 * folder for the environment.
 *
 * The config file: `--config <file>` (or `MUSTER_CONFIG`), else `muster.yaml` in the data directory
 * (`--data`, `MUSTER_DATA`, or `.muster-data`) when it exists.
 */
import { resolve } from 'node:path';
import { CliError } from '../cli/cliError.ts';
import { defaultConfigPath, loadStartConfigFile, type StartConfigFile } from './loadStartConfigFile.ts';
import { EXCLUSIVE_START_OPTIONS, problemWith, START_OPTIONS, startOption, type StartOptionSpec, type StartValue } from './startOptions.ts';

export type { StartValue } from './startOptions.ts';

export type StartSource = 'flag' | 'env' | 'config' | 'default';

export interface ResolvedStartValues<T> {
  /** The flags' values with the environment's and the config file's filled in. */
  readonly values: T;
  /** Where each value came from. */
  sourceOf(name: string): StartSource;
  /** How to name an option in a message, as it was given: `--port`, `MUSTER_PORT`, `muster.yaml: port`. */
  labelOf(name: string): string;
  /** The config file read, or null. */
  readonly configPath: string | null;
  /** To say on stderr (e.g. a config file holding the token that others can read). */
  readonly warnings: readonly string[];
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

function fail(label: string, problem: string): never {
  // "--allow-origin takes …" reads without "must"; the others read "--port must be …".
  throw new CliError(`${label} ${problem}`);
}

/** An environment variable's value as the flag would give it; empty means unset. */
function fromEnv(spec: StartOptionSpec, raw: string): StartValue {
  const label = spec.env;
  if (spec.kind === 'boolean') {
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    fail(label, `must be 1 or 0 (true/false, yes/no), got "${raw}"`);
  }
  if (spec.kind === 'list') {
    const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    items.forEach((item) => {
      const p = problemWith(spec, item);
      if (p) fail(label, p);
    });
    return items;
  }
  const text = spec.name === 'token' ? raw.trim() : raw;
  const p = problemWith(spec, text);
  if (p) fail(label, p);
  return spec.kind === 'path' ? resolve(text) : text;
}

function checkFlag(spec: StartOptionSpec, value: StartValue): void {
  const label = `--${spec.name}`;
  if (typeof value === 'boolean') return;
  for (const item of Array.isArray(value) ? value : [value]) {
    const p = problemWith(spec, item);
    if (p) fail(label, p);
  }
}

export interface ResolveStartOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** The default data directory (when neither `--data` nor `MUSTER_DATA` names one). */
  readonly defaultDataDir?: string;
}

/**
 * Fills the parsed flags `flags` (parseArgs `values` of `startParseArgsOptions()`) from the environment
 * and the config file. Throws `CliError` (exit 2) for a bad value, naming where it came from.
 */
export function resolveStartValues<T extends Record<string, StartValue | undefined>>(flags: T, options: ResolveStartOptions = {}): ResolvedStartValues<T> {
  const env = options.env ?? process.env;
  const sources = new Map<string, StartSource>();
  const labels = new Map<string, string>();
  const values: Record<string, StartValue | undefined> = { ...flags };
  const warnings: string[] = [];

  for (const spec of START_OPTIONS) {
    const v = flags[spec.name];
    // Not given: undefined, an empty list, or false for a switch (the CLI's parser fills those in).
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0)) continue;
    checkFlag(spec, v);
    sources.set(spec.name, 'flag');
    labels.set(spec.name, `--${spec.name}`);
  }
  const fromEnvironment = new Map<string, StartValue>();
  for (const spec of START_OPTIONS) {
    const raw = env[spec.env];
    if (raw === undefined || raw === '') continue;
    fromEnvironment.set(spec.name, fromEnv(spec, raw));
  }

  // The config file: named by the flag or the environment, else the data directory's muster.yaml.
  const named = (flags['config'] as string | undefined) ?? (fromEnvironment.get('config') as string | undefined);
  let file: StartConfigFile | null;
  if (named !== undefined) {
    file = loadStartConfigFile(resolve(named), { required: true });
  } else {
    const dataDir = (flags['data'] as string | undefined) ?? (fromEnvironment.get('data') as string | undefined) ?? options.defaultDataDir ?? '.muster-data';
    file = loadStartConfigFile(defaultConfigPath(resolve(dataDir)), { required: false, inDataDir: true });
  }
  if (file) warnings.push(...file.warnings);

  const layers: { source: StartSource; get(name: string): StartValue | undefined; label(name: string): string }[] = [
    { source: 'env', get: (n) => fromEnvironment.get(n), label: (n) => startOption(n).env },
    { source: 'config', get: (n) => file?.values.get(n), label: (n) => `${file?.path}: ${n}` },
  ];
  for (const spec of START_OPTIONS) {
    if (sources.has(spec.name)) continue;
    for (const layer of layers) {
      const v = layer.get(spec.name);
      if (v === undefined) continue;
      values[spec.name] = v;
      sources.set(spec.name, layer.source);
      labels.set(spec.name, layer.label(spec.name));
      break;
    }
  }

  // Options that are one setting (the token, inline or from a file): the highest level that gives one
  // wins; the same level giving both is an error.
  for (const group of EXCLUSIVE_START_OPTIONS) {
    const given = group.filter((n) => sources.has(n));
    if (given.length < 2) continue;
    const rank = (n: string): number => ['flag', 'env', 'config'].indexOf(sources.get(n)!);
    const best = Math.min(...given.map(rank));
    const atBest = given.filter((n) => rank(n) === best);
    if (atBest.length > 1) throw new CliError(`give the operator token once: ${atBest.map((n) => labels.get(n)).join(' or ')}`);
    for (const n of given) {
      if (rank(n) === best) continue;
      delete values[n];
      sources.delete(n);
      labels.delete(n);
    }
  }

  return {
    values: values as T,
    sourceOf: (name) => sources.get(name) ?? 'default',
    labelOf: (name) => labels.get(name) ?? `--${name}`,
    configPath: file?.path ?? null,
    warnings,
  };
}
