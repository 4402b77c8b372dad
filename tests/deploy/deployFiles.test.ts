/**
 * The deployment files say true things: the systemd unit passes `systemd-analyze verify`, every MUSTER_*
 * variable named in the Dockerfile, the unit, the env file example and the README's "At a convention" is
 * one `muster start` reads, the env file and the README's config example are accepted as they are, and
 * the container's health check tells a running service from a stopped one. (The image itself is not
 * built here: no Docker on these machines.)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { resolveStartValues } from '../../apps/server/src/config/resolveStartValues.ts';
import { START_OPTIONS } from '../../apps/server/src/config/startOptions.ts';
import { startCli, tempDir, type TempDir } from './startCli.ts';

const dirs: TempDir[] = [];
afterAll(() => dirs.forEach((d) => d.remove()));
function dir(): string {
  const d = tempDir('muster-deployfiles-');
  dirs.push(d);
  return d.path;
}

type Flags = Record<string, string | string[] | boolean | undefined>;
const NO_FLAGS: Flags = {};

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

function conventionSection(): string {
  const readme = read('README.md');
  const start = readme.indexOf('## At a convention');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('deployment files', () => {
  it('the systemd unit passes systemd-analyze verify', () => {
    const d = dir();
    copyFileSync(join(REPO_ROOT, 'deploy/muster.service'), join(d, 'muster.service'));
    const r = spawnSync('systemd-analyze', ['verify', '--man=no', join(d, 'muster.service')], { encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    expect(r.stderr.trim()).toBe('');
    expect(r.status).toBe(0);
  });

  it('names only MUSTER_* variables that muster start reads', () => {
    const known = new Set(START_OPTIONS.map((o) => o.env));
    const texts = { Dockerfile: read('Dockerfile'), 'deploy/muster.env': read('deploy/muster.env'), 'deploy/muster.service': read('deploy/muster.service'), 'deploy/healthcheck.mjs': read('deploy/healthcheck.mjs'), README: conventionSection() };
    let seen = 0;
    for (const [file, text] of Object.entries(texts)) {
      for (const [name] of text.matchAll(/\bMUSTER_[A-Z][A-Z_]*[A-Z]\b/g)) {
        seen++;
        expect(known.has(name), `${file}: ${name}`).toBe(true);
      }
    }
    expect(seen).toBeGreaterThan(15);
  });

  it('the env file example, its commented lines included, is accepted', () => {
    const env: Record<string, string> = {};
    for (const line of read('deploy/muster.env').split('\n')) {
      const m = /^#?(MUSTER_[A-Z_]+)=(.*)$/.exec(line.trim());
      if (m && m[2] !== '') env[m[1]!] = m[2]!;
    }
    expect(Object.keys(env).length).toBeGreaterThan(6);
    env.MUSTER_DATA = dir();
    const r = resolveStartValues(NO_FLAGS, { env });
    expect(r.values.https).toBe(true);
    expect(r.values.host).toBe('0.0.0.0');
    expect(r.values['camera-size']).toBe('1920x1080');
  });

  it("the README's config file example is accepted", () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(conventionSection())?.[1];
    expect(yaml).toBeDefined();
    const data = dir();
    writeFileSync(join(data, 'muster.yaml'), yaml!);
    const r = resolveStartValues(NO_FLAGS, { env: { MUSTER_DATA: data } });
    expect(r.sourceOf('https')).toBe('config');
    expect(r.values.camera).toBe('/dev/video0');
  });

  it("the container's health check: 0 while the service answers (https here), 1 once it is gone", async () => {
    const s = await startCli(['--data', dir(), '--https']);
    const port = new URL(s.url).port;
    const check = (): { status: number | null; stderr: string } => {
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'deploy/healthcheck.mjs')], { env: { PATH: process.env.PATH, MUSTER_PORT: port }, encoding: 'utf8' });
      return { status: r.status, stderr: r.stderr };
    };
    try {
      expect(check().status).toBe(0);
    } finally {
      await s.stop();
    }
    const down = check();
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(/health check: .*ECONNREFUSED/);
  });
});
