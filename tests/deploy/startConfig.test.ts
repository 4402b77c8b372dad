/**
 * `muster start`'s options from flags, MUSTER_* variables and a config file (issue 13, "At a
 * convention"): precedence flag > environment > config file > default, a config file checked whole with
 * errors naming the file and the key (exit 2, one line), and every option of `muster start --help`
 * reachable from all three.
 */
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { resolveStartValues } from '../../apps/server/src/config/resolveStartValues.ts';
import { problemWith, START_OPTIONS, startParseArgsOptions, type StartOptionSpec } from '../../apps/server/src/config/startOptions.ts';
import { MUSTER_BIN, refusedStart, startCli, tempDir, type TempDir } from './startCli.ts';

const dirs: TempDir[] = [];
afterAll(() => dirs.forEach((d) => d.remove()));
function dir(): string {
  const d = tempDir();
  dirs.push(d);
  return d.path;
}

type Flags = Record<string, string | string[] | boolean | undefined>;

/** The flags as the CLI's parser hands them over when none is given (and those in `given`). */
function noFlags(given: Flags = {}): Flags {
  const out: Flags = {};
  for (const [name, o] of Object.entries(startParseArgsOptions())) out[name] = o.type === 'boolean' ? false : o.multiple ? [] : undefined;
  return { ...out, ...given };
}

/** A value the option takes (the first of a few kinds of value that passes its own check). */
function sampleOf(o: StartOptionSpec): string {
  if (o.kind === 'boolean') return '1';
  if (o.choices) return o.choices[0]!;
  const found = ['3', 'a.example', 'http://a.example', '1920x1080'].find((v) => problemWith(o, v) === null);
  if (found === undefined) throw new Error(`no sample value for --${o.name}`);
  return found;
}

describe('precedence: flag > MUSTER_* > config file > default', () => {
  const data = dir();
  writeFileSync(
    join(data, 'muster.yaml'),
    ['port: 9001', 'host: 0.0.0.0', 'speed: 2', 'allow-host: [cfg.example]', 'https: true', 'table: tables/t.json', 'log-format: json'].join('\n'),
  );

  it('each value comes from the highest level that gives it, and says where from', () => {
    const env = { MUSTER_DATA: data, MUSTER_PORT: '9002', MUSTER_SPEED: '3', MUSTER_ALLOW_HOST: 'env1.example, env2.example', MUSTER_NO_BUILD: 'yes' };
    const r = resolveStartValues(noFlags({ port: '9003' }), { env });
    expect(r.values.port).toBe('9003');
    expect(r.sourceOf('port')).toBe('flag');
    expect(r.values.speed).toBe('3');
    expect(r.labelOf('speed')).toBe('MUSTER_SPEED');
    expect(r.values['allow-host']).toEqual(['env1.example', 'env2.example']);
    expect(r.values['no-build']).toBe(true);
    expect(r.values.host).toBe('0.0.0.0');
    expect(r.sourceOf('host')).toBe('config');
    expect(r.labelOf('host')).toBe(`${join(data, 'muster.yaml')}: host`);
    expect(r.values.https).toBe(true);
    expect(r.values['log-format']).toBe('json');
    // A path in the file is relative to the file's folder, not to the current one.
    expect(r.values.table).toBe(join(data, 'tables/t.json'));
    expect(r.values.ruleset).toBeUndefined();
    expect(r.sourceOf('ruleset')).toBe('default');
    expect(r.configPath).toBe(join(data, 'muster.yaml'));
  });

  it('the data directory\'s muster.yaml is read only when no --config names another', () => {
    const other = dir();
    writeFileSync(join(other, 'other.json'), JSON.stringify({ port: 9100, data: data }));
    const r = resolveStartValues(noFlags({ config: join(other, 'other.json') }), { env: {} });
    expect(r.values.port).toBe('9100');
    expect(r.values.host).toBeUndefined(); // data/muster.yaml was not read
    expect(r.values.data).toBe(data);
    // No config file at all: only flags and the environment.
    const none = resolveStartValues(noFlags(), { env: { MUSTER_DATA: dir() } });
    expect(none.configPath).toBeNull();
    expect(none.values.port).toBeUndefined();
  });

  it('the token inline and from a file are one setting: the higher level wins, both at one level is an error', () => {
    const f = join(dir(), 'tok');
    const r = resolveStartValues(noFlags({ 'token-file': f }), { env: { MUSTER_TOKEN: 'env-token-123456', MUSTER_DATA: dir() } });
    expect(r.values['token-file']).toBe(f);
    expect(r.values.token).toBeUndefined();
    expect(() => resolveStartValues(noFlags(), { env: { MUSTER_TOKEN: 'env-token-123456', MUSTER_TOKEN_FILE: f, MUSTER_DATA: dir() } })).toThrow(
      /give the operator token once: MUSTER_TOKEN or MUSTER_TOKEN_FILE/,
    );
  });

  it('a bad value names where it came from', () => {
    const d = dir();
    expect(() => resolveStartValues(noFlags({ port: 'x' }), { env: { MUSTER_DATA: d } })).toThrow('--port must be an integer 0..65535, got "x"');
    expect(() => resolveStartValues(noFlags(), { env: { MUSTER_DATA: d, MUSTER_PORT: '70000' } })).toThrow('MUSTER_PORT must be an integer 0..65535, got "70000"');
    expect(() => resolveStartValues(noFlags(), { env: { MUSTER_DATA: d, MUSTER_HTTPS: 'maybe' } })).toThrow(/MUSTER_HTTPS must be 1 or 0/);
    expect(() => resolveStartValues(noFlags(), { env: { MUSTER_DATA: d, MUSTER_ALLOW_ORIGIN: 'http://ok.example,http://x.example/path' } })).toThrow(
      'MUSTER_ALLOW_ORIGIN takes an origin like http://host:port (no path), or *; got "http://x.example/path"',
    );
  });
});

describe('a bad config file stops the start with the file and the key', () => {
  const cases: [string, string, RegExp][] = [
    ['unknown key', 'prot: 8080\n', /muster\.yaml: unknown option "prot" \(did you mean "port"\?\)/],
    ['wrong type', 'port: [1, 2]\n', /muster\.yaml: port must be a number, got a list/],
    ['out of range', 'port: 80800\n', /muster\.yaml: port must be an integer 0\.\.65535, got "80800"/],
    ['bad list item', 'allow-origin:\n  - http://ok.example\n  - http://bad.example/x\n', /muster\.yaml: allow-origin\[1\] takes an origin like http:\/\/host:port/],
    ['bad choice', 'log-format: xml\n', /muster\.yaml: log-format must be one of text, json, auto, got "xml"/],
    ['not YAML', 'port: 8080\n  host: [\n', /muster\.yaml: not valid YAML\/JSON at line \d+, column \d+/],
    ['not a mapping', '- port\n', /muster\.yaml: must be a mapping of option names to values/],
    ['a one-off action', 'rotate-token: true\n', /muster\.yaml: "rotate-token" cannot be set in a config file \(only as --rotate-token or MUSTER_ROTATE_TOKEN\)/],
    ['the data directory from inside it', 'data: /elsewhere\n', /muster\.yaml: data cannot be set in the data directory's own config file/],
    ['no value', 'host:\n', /muster\.yaml: host has no value/],
  ];
  for (const [what, text, message] of cases) {
    it(`${what}: exit 2, one line on stderr`, async () => {
      const data = dir();
      writeFileSync(join(data, 'muster.yaml'), text);
      const r = await refusedStart(['--data', data]);
      expect(r.code, r.stderr).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^muster start: /);
      expect(lines[0]).toContain(join(data, 'muster.yaml'));
      expect(lines[0]).toMatch(message);
    });
  }

  it('--config naming a file that is not there', async () => {
    const missing = join(dir(), 'nope.yaml');
    const r = await refusedStart(['--config', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`muster start: ${missing}: cannot read the config file (ENOENT)`);
  });
});

describe('every option of muster start --help', () => {
  const help = spawnSync(process.execPath, [MUSTER_BIN, 'start', '--help'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const flags = [...help.stdout.matchAll(/^\s+(?:-\w, )?--([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!).filter((f) => f !== 'help' && f !== 'version');

  it('is declared once, with its MUSTER_* variable, and taken from the environment', () => {
    expect(help.status).toBe(0);
    expect(flags.length).toBeGreaterThan(20);
    expect(flags.sort()).toEqual(START_OPTIONS.map((o) => o.name).sort());
    for (const o of START_OPTIONS) {
      expect(o.env).toBe(`MUSTER_${o.name.toUpperCase().replaceAll('-', '_')}`);
      const sample = sampleOf(o);
      const env: Record<string, string> = { [o.env]: sample, MUSTER_DATA: dir() };
      if (o.name === 'config') writeFileSync(join(env.MUSTER_DATA!, sample), '');
      const cwd = process.cwd();
      process.chdir(env.MUSTER_DATA!);
      try {
        const r = resolveStartValues(noFlags(), { env });
        expect(r.sourceOf(o.name), o.name).toBe('env');
      } finally {
        process.chdir(cwd);
      }
    }
  });

  it('is a key of the config file (except --config and --rotate-token)', () => {
    for (const o of START_OPTIONS) {
      const data = dir();
      const sample = sampleOf(o);
      const value = o.kind === 'boolean' ? 'true' : o.kind === 'list' ? `["${sample}"]` : JSON.stringify(sample);
      const file = join(data, 'c.yaml');
      writeFileSync(file, `${o.name}: ${value}\n`);
      const resolve = () => resolveStartValues(noFlags({ config: file }), { env: {} });
      if (o.name === 'config' || o.name === 'rotate-token') {
        expect(resolve, o.name).toThrow(/cannot be set in a config file/);
        continue;
      }
      expect(resolve().sourceOf(o.name), o.name).toBe('config');
    }
  });

  it('the help says how to use the environment and the config file', () => {
    expect(help.stdout).toMatch(/MUSTER_PORT/);
    expect(help.stdout).toMatch(/muster\.yaml/);
  });
});

describe('through the real command', () => {
  it('config file < MUSTER_* < flag, seen in what the running service does', async () => {
    const data = dir();
    const tokenDir = dir();
    writeFileSync(join(tokenDir, 'token'), 'file-token-from-config\n');
    chmodSync(join(tokenDir, 'token'), 0o600);
    // The file gives a token file (relative to it), the Host names, and a max-clients the flag replaces.
    const config = join(tokenDir, 'muster.yaml');
    writeFileSync(config, ['token-file: token', 'allow-host: [cfg.example]', 'max-clients: 1', `data: ${data}`].join('\n'));
    const s = await startCli(['--max-clients', '5'], { env: { MUSTER_CONFIG: config, MUSTER_ALLOW_HOST: 'env.example' } });
    try {
      expect(s.token).toBe('file-token-from-config');
      expect(s.stdout).toContain(`operator token: file-token-from-config (${config}: token-file ${join(tokenDir, 'token')})`);
      expect(s.stdout).toContain(`data:       ${join(data, 'demo')}`);
      // node:http, not fetch: fetch does not send a Host header of the caller's.
      const health = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(`${s.url}/api/health`, { headers: { host } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
      // Bound to loopback: only localhost and the allowed names; the environment's list replaced the file's.
      expect(await health('env.example')).toBe(200);
      expect(await health('cfg.example')).toBe(421);
      const ok = await fetch(`${s.url}/api/actions`, { method: 'POST', headers: { authorization: 'Bearer file-token-from-config' }, body: '{"type":"set-turn","turn":3}' });
      expect(ok.status).toBe(200);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('a config file holding the token that others can read gets a warning', async () => {
    const data = dir();
    writeFileSync(join(data, 'muster.yaml'), 'token: config-token-0123\n');
    chmodSync(join(data, 'muster.yaml'), 0o644);
    const s = await startCli(['--data', data]);
    try {
      expect(s.token).toBe('config-token-0123');
      expect(s.stderr()).toMatch(/warning: .*muster\.yaml holds the operator token and other users of this machine can read it; chmod 600/);
    } finally {
      await s.stop();
    }
  });
});
