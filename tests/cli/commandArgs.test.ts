/** The shared parser of every `muster` command (`apps/server/src/cli/commandArgs.ts`), in-process. */
import { describe, expect, it } from 'vitest';
import { CliError, CliExit } from '../../apps/server/src/cli/cliError.ts';
import { closest, commandUsage, numberValue, parseCommandArgs, type CommandSpec } from '../../apps/server/src/cli/commandArgs.ts';
import { musterVersion } from '../../apps/server/src/cli/version.ts';

const SPEC = {
  command: 'demo',
  synopsis: ['<input> --table <file> [options]'],
  positionals: [{ name: '<input>', help: 'what to read' }],
  tooMany: (p: readonly string[]) => `one input at a time (got "${p[0]}" and "${p[1]}")`,
  options: {
    table: { type: 'string', arg: '<file>', help: 'the table profile\nsecond line of help' },
    json: { type: 'boolean', help: 'JSON output' },
    'allow-host': { type: 'string', multiple: true, arg: '<name>', help: 'repeatable' },
    port: { type: 'string', short: 'p', arg: '<n>', help: 'a port' },
  },
  notes: 'A note after the options.',
} as const satisfies CommandSpec;

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('did not throw');
}

describe('parseCommandArgs', () => {
  it('takes --opt value and --opt=value alike, in any order around positionals', () => {
    const spaced = parseCommandArgs(SPEC, ['in.mp4', '--table', 't.json', '--json', '--allow-host', 'a', '-p', '80']);
    const inline = parseCommandArgs(SPEC, ['--table=t.json', 'in.mp4', '--json', '--allow-host=a', '--port=80']);
    for (const r of [spaced, inline]) {
      expect(r.positionals).toEqual(['in.mp4']);
      expect(r.values).toEqual({ table: 't.json', json: true, 'allow-host': ['a'], port: '80' });
    }
  });

  it('defaults: booleans false, repeatable options an empty list, values undefined', () => {
    expect(parseCommandArgs(SPEC, []).values).toEqual({ table: undefined, json: false, 'allow-host': [], port: undefined });
  });

  it('keeps every value of a repeatable option, and the last of a single one', () => {
    const r = parseCommandArgs(SPEC, ['--allow-host', 'a', '--allow-host=b', '--table', 'x', '--table', 'y']);
    expect(r.values['allow-host']).toEqual(['a', 'b']);
    expect(r.values.table).toBe('y');
  });

  it('takes - as a positional (stdin), values that start with - only inline, numbers either way, and -- ends options', () => {
    expect(parseCommandArgs(SPEC, ['-']).positionals).toEqual(['-']);
    expect(parseCommandArgs(SPEC, ['--port', '-1']).values.port).toBe('-1');
    expect(parseCommandArgs(SPEC, ['--table=-odd.json']).values.table).toBe('-odd.json');
    expect(parseCommandArgs(SPEC, ['--', '--json']).positionals).toEqual(['--json']);
  });

  it('an unknown option names every valid one, a close one, and the help, in one line', () => {
    const err = thrown(() => parseCommandArgs(SPEC, ['in', '--tabel', 'x']));
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect(err.message).toBe(
      'unknown option --tabel (did you mean --table?); valid options: --table <file>, --json, --allow-host <name>, -p/--port, -h/--help, --version (muster demo --help)',
    );
    expect(thrown(() => parseCommandArgs(SPEC, ['-x'])).message).toMatch(/^unknown option -x; valid options: /);
    expect(thrown(() => parseCommandArgs(SPEC, ['--zzzzzz'])).message).not.toMatch(/did you mean/);
  });

  it('a missing value, a value on a switch and an empty value are each one actionable line', () => {
    expect(thrown(() => parseCommandArgs(SPEC, ['--table'])).message).toMatch(/^--table needs a value: --table <file> /);
    expect(thrown(() => parseCommandArgs(SPEC, ['--table', '--json'])).message).toMatch(/^--table needs a value: .*--table=-…/);
    expect(thrown(() => parseCommandArgs(SPEC, ['--json=yes'])).message).toMatch(/^--json takes no value \(got "--json=yes"/);
    expect(thrown(() => parseCommandArgs(SPEC, ['--table='])).message).toMatch(/^--table needs a value: .*empty/);
  });

  it('too many positionals: the command\'s own message', () => {
    expect(thrown(() => parseCommandArgs(SPEC, ['a', 'b'])).message).toBe('one input at a time (got "a" and "b")');
    const none = { command: 'x', synopsis: [''], options: {} } as const satisfies CommandSpec;
    expect(thrown(() => parseCommandArgs(none, ['a', 'b'])).message).toBe('unexpected arguments "a" "b" (muster x --help)');
  });

  it('--help and -h end with the usage for stdout (exit 0), even next to a bad option; --version with the version', () => {
    for (const args of [['--help'], ['-h'], ['--bogus', '--help'], ['in', '-h', '--table']]) {
      const exit = thrown(() => parseCommandArgs(SPEC, args));
      expect(exit).toBeInstanceOf(CliExit);
      expect((exit as CliExit).exitCode).toBe(0);
      expect((exit as CliExit).text).toBe(commandUsage(SPEC));
    }
    const v = thrown(() => parseCommandArgs(SPEC, ['--version'])) as CliExit;
    expect([v.exitCode, v.text]).toEqual([0, `muster ${musterVersion()}`]);
  });
});

describe('commandUsage', () => {
  it('lists the synopsis, each positional and option with its placeholder and help lines aligned, then the notes', () => {
    expect(commandUsage(SPEC).split('\n')).toEqual([
      'usage: muster demo <input> --table <file> [options]',
      '',
      '  <input>              what to read',
      '  --table <file>       the table profile',
      '                       second line of help',
      '  --json               JSON output',
      '  --allow-host <name>  repeatable',
      '  -p, --port <n>       a port',
      '  -h, --help           show this help and exit',
      '  --version            print the muster version and exit',
      '',
      'A note after the options.',
    ]);
  });
});

describe('numberValue', () => {
  it('accepts what the rule allows and words the rule when not', () => {
    expect(numberValue('2.5', '--fps', { above: 0 })).toBe(2.5);
    expect(numberValue('0', '--port', { min: 0, max: 65535, integer: true })).toBe(0);
    expect(thrown(() => numberValue('fast', '--fps', { above: 0, example: '25' })).message).toBe('--fps must be a number > 0 (got "fast"), e.g. --fps 25');
    expect(thrown(() => numberValue('0', '--fps', { above: 0 })).message).toBe('--fps must be a number > 0 (got "0")');
    expect(thrown(() => numberValue('1.5', '--n', { min: 1, integer: true })).message).toBe('--n must be a whole number >= 1 (got "1.5")');
    expect(thrown(() => numberValue('', '--n')).message).toBe('--n must be a number (got "")');
    expect(thrown(() => numberValue('70000', '--port', { min: 0, max: 65535 })).message).toBe('--port must be a number >= 0 and <= 65535 (got "70000")');
  });
});

describe('closest', () => {
  it('suggests a name one or two edits away, nothing for a distant one', () => {
    expect(closest('tabel', ['table', 'json'])).toBe('table');
    expect(closest('trak', ['track', 'start'])).toBe('track');
    expect(closest('jsn', ['json', 'fps'])).toBe('json');
    expect(closest('banana', ['table', 'json'])).toBeUndefined();
  });
});

describe('musterVersion', () => {
  it('is the version of the root package.json', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };
    expect(musterVersion()).toBe(pkg.version);
    expect(musterVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
