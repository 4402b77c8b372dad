/**
 * The one argument parser of every `muster` command: `node:util` parseArgs as the tokenizer, with the
 * checks and messages done here so that all commands behave alike. `--opt value` and `--opt=value` both
 * work; `-h`/`--help` prints the usage on stdout and exits 0 (`--version` likewise prints the version);
 * an unknown option, a missing value or a stray argument is one line on stderr and exit code 2, naming the
 * valid options. The usage text is built from the same option table, so it cannot drift from the parser.
 */
import { parseArgs } from 'node:util';
import { CliError, CliExit } from './cliError.ts';
import { musterVersion } from './version.ts';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** A string option given more than once keeps every value (in order). */
  readonly multiple?: boolean;
  /** The value's placeholder in the usage, e.g. `<file>`. */
  readonly arg?: string;
  /** What it does, its default and why; `\n` starts a continuation line. */
  readonly help: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export interface PositionalSpec {
  /** As shown in the usage, e.g. `<image>`. */
  readonly name: string;
  readonly help: string;
}

export interface CommandSpec<O extends OptionTable = OptionTable> {
  /** `track`, `calibrate lens`: what follows `muster` in messages and the usage. */
  readonly command: string;
  /** Synopsis lines after `usage: muster <command> `. */
  readonly synopsis: readonly string[];
  readonly positionals?: readonly PositionalSpec[];
  /** Most positional arguments taken (default: as many as `positionals` lists). */
  readonly maxPositionals?: number;
  /** The error when there are more; default "unexpected argument …". */
  readonly tooMany?: (positionals: readonly string[]) => string;
  readonly options: O;
  /** Text after the option list. */
  readonly notes?: string;
}

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean' ? boolean : S['multiple'] extends true ? string[] : string | undefined;

export type OptionValues<O extends OptionTable> = { -readonly [K in keyof O]: ValueOf<O[K]> };

export interface ParsedCommandArgs<O extends OptionTable> {
  readonly values: OptionValues<O>;
  readonly positionals: string[];
}

/** Options every command takes; they end the command before it runs. */
const COMMON: OptionTable = {
  help: { type: 'boolean', short: 'h', help: 'show this help and exit' },
  version: { type: 'boolean', help: 'print the muster version and exit' },
};

function optionLabel(name: string, spec: OptionSpec): string {
  const long = `--${name}${spec.arg ? ` ${spec.arg}` : ''}`;
  return spec.short ? `-${spec.short}, ${long}` : long;
}

/** `--table <file>, --json, -h/--help`: the valid options, for one-line errors. */
export function optionList(options: OptionTable): string {
  return Object.entries({ ...options, ...COMMON })
    .map(([name, spec]) => (spec.short ? `-${spec.short}/--${name}` : `--${name}${spec.arg ? ` ${spec.arg}` : ''}`))
    .join(', ');
}

/** The usage text of a command, built from its table. */
export function commandUsage(spec: CommandSpec): string {
  const rows: [string, string][] = [
    ...(spec.positionals ?? []).map((p): [string, string] => [p.name, p.help]),
    ...Object.entries({ ...spec.options, ...COMMON }).map(([name, o]): [string, string] => [optionLabel(name, o), o.help]),
  ];
  const width = Math.min(26, Math.max(...rows.map(([left]) => left.length)) + 2);
  const lines = spec.synopsis.map((s, i) => `${i === 0 ? 'usage:' : '      '} muster ${spec.command}${s ? ` ${s}` : ''}`);
  lines.push('');
  for (const [left, help] of rows) {
    const [first = '', ...more] = help.split('\n');
    const pad = left.length + 2 > width ? '  ' : ' '.repeat(width - left.length);
    lines.push(`  ${left}${pad}${first}`);
    for (const m of more) lines.push(`  ${' '.repeat(width)}${m}`);
  }
  if (spec.notes) lines.push('', spec.notes);
  return lines.join('\n');
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(up + 1, row[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length]!;
}

/** The closest of `names` to `given` when it is close enough to be a typo. */
export function closest(given: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const d = distance(given, n);
    if (d < bestD) [best, bestD] = [n, d];
  }
  // Two edits (a swap, a missing letter) for real words; one for short names, where two would match anything.
  return best !== undefined && bestD <= (best.length >= 4 ? 2 : 1) ? best : undefined;
}

/** The one message format for an option the command does not take. */
export function unknownOptionError(command: string, raw: string, options: OptionTable): CliError {
  const names = Object.keys({ ...options, ...COMMON });
  const guess = raw.startsWith('--') ? closest(raw.slice(2), names) : undefined;
  return new CliError(
    `unknown option ${raw}${guess ? ` (did you mean --${guess}?)` : ''}; valid options: ${optionList(options)} (muster ${command} --help)`,
  );
}

/** A value that looks like an option is taken as a forgotten value; a lone `-` (stdin) or a number is not. */
function looksLikeOption(value: string): boolean {
  return value.length > 1 && value.startsWith('-') && !Number.isFinite(Number(value));
}

/**
 * Parse `args` for `spec`. Throws `CliExit` for `--help`/`--version` (the caller's caller prints it) and
 * `CliError` for bad input.
 */
export function parseCommandArgs<O extends OptionTable>(spec: CommandSpec<O>, args: readonly string[]): ParsedCommandArgs<O> {
  const all: OptionTable = { ...spec.options, ...COMMON };
  const parseOptions: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, o] of Object.entries(all)) parseOptions[name] = { type: o.type, ...(o.short ? { short: o.short } : {}) };
  const { tokens } = parseArgs({ args: [...args], options: parseOptions, strict: false, allowPositionals: true, tokens: true });

  // --help wins over every other problem on the line: someone asking for help gets it.
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help' && t.inlineValue === undefined)) throw new CliExit(commandUsage(spec), 0);
  if (tokens.some((t) => t.kind === 'option' && t.name === 'version' && t.inlineValue === undefined)) throw new CliExit(`muster ${musterVersion()}`, 0);

  const values: Record<string, string | string[] | boolean | undefined> = {};
  for (const [name, o] of Object.entries(spec.options)) values[name] = o.type === 'boolean' ? false : o.multiple ? [] : undefined;
  const positionals: string[] = [];
  const hint = `muster ${spec.command} --help`;
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    if (t.kind !== 'option') continue;
    const o = spec.options[t.name];
    if (o === undefined || !Object.hasOwn(spec.options, t.name)) throw unknownOptionError(spec.command, t.rawName, spec.options);
    if (o.type === 'boolean') {
      if (t.inlineValue) throw new CliError(`${t.rawName} takes no value (got "${t.rawName}=${t.value}"; ${hint})`);
      values[t.name] = true;
      continue;
    }
    const example = `${t.rawName} ${o.arg ?? '<value>'}`;
    if (t.value === undefined || (!t.inlineValue && looksLikeOption(t.value))) {
      throw new CliError(`${t.rawName} needs a value: ${example} (a value starting with - goes as ${t.rawName}=-…; ${hint})`);
    }
    if (t.value === '') throw new CliError(`${t.rawName} needs a value: ${example} (got an empty one; ${hint})`);
    if (o.multiple) (values[t.name] as string[]).push(t.value);
    else values[t.name] = t.value;
  }
  const max = spec.maxPositionals ?? spec.positionals?.length ?? 0;
  if (positionals.length > max) {
    const extra = positionals.slice(max);
    throw new CliError(
      spec.tooMany
        ? spec.tooMany(positionals)
        : `unexpected argument${extra.length > 1 ? 's' : ''} ${extra.map((p) => `"${p}"`).join(' ')} (${hint})`,
    );
  }
  return { values: values as OptionValues<O>, positionals };
}

export interface NumberRule {
  readonly min?: number;
  /** `min` itself is not allowed (e.g. "> 0"). */
  readonly above?: number;
  readonly max?: number;
  readonly integer?: boolean;
  /** An example that works, for the message. */
  readonly example?: string;
}

/** A number option's value, or one actionable line: `--fps must be a number > 0 (got "fast")`. */
export function numberValue(raw: string, option: string, rule: NumberRule = {}): number {
  const n = Number(raw);
  const ok =
    raw.trim() !== '' &&
    Number.isFinite(n) &&
    (!rule.integer || Number.isInteger(n)) &&
    (rule.min === undefined || n >= rule.min) &&
    (rule.above === undefined || n > rule.above) &&
    (rule.max === undefined || n <= rule.max);
  if (ok) return n;
  const bounds = [
    rule.above !== undefined ? `> ${rule.above}` : rule.min !== undefined ? `>= ${rule.min}` : '',
    rule.max !== undefined ? `<= ${rule.max}` : '',
  ].filter(Boolean).join(' and ');
  throw new CliError(
    `${option} must be ${rule.integer ? 'a whole number' : 'a number'}${bounds ? ` ${bounds}` : ''} (got "${raw}")${rule.example ? `, e.g. ${option} ${rule.example}` : ''}`,
  );
}
