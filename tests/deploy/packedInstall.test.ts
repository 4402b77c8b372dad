/**
 * The tarball from `npm run pack` (deploy/pack.mjs) installed with `npm i -g <tarball> --prefix <tmp>`
 * gives a `muster` that runs outside the repository: --version, rules --list (the bundled @muster/rules)
 * and the truth demo answering /api/health (fixtures, views and workers found inside the install).
 * The install fetches the external dependencies through npm (its cache, else the registry).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';

const work = mkdtempSync(join(tmpdir(), 'muster-packed-'));
const prefix = join(work, 'prefix');
const musterBin = join(prefix, 'bin', 'muster');
let tarball = '';

function run(cmd: string, args: readonly string[], cwd: string) {
  // Outside the repository, so nothing resolves through the workspace's node_modules.
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

beforeAll(() => {
  const packed = run(process.execPath, [join(REPO_ROOT, 'deploy/pack.mjs'), '--out', work], work);
  if (packed.code !== 0) throw new Error(`npm run pack failed: ${packed.stderr}`);
  tarball = packed.stdout.trim();
  const installed = run('npm', ['i', '-g', tarball, '--prefix', prefix], work);
  if (installed.code !== 0) throw new Error(`npm i -g failed: ${installed.stderr}`);
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('packed tarball', () => {
  it('holds no tests, and the workspace packages it needs', () => {
    const list = run('tar', ['tzf', tarball], work).stdout.split('\n');
    expect(list.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
    expect(list.some((f) => f.startsWith('package/tests/'))).toBe(false);
    expect(list.some((f) => f.startsWith('package/fixtures/rules/'))).toBe(false);
    for (const pkg of ['rules', 'protocol', 'table-mapping', 'vision']) expect(list).toContain(`package/node_modules/@muster/${pkg}/package.json`);
    expect(list).toContain('package/apps/overlay/dist/map.html');
    expect(list).toContain('package/fixtures/demo/opening-battle.demo.json');
  });

  it('installs a muster that prints its version and the rule sets', () => {
    expect(existsSync(musterBin)).toBe(true);
    const version = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version as string;
    const v = run(musterBin, ['--version'], work);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(`muster ${version}`);
    const rules = run(musterBin, ['rules', '--list'], work);
    expect(rules.code).toBe(0);
    expect(rules.stdout.split('\n')).toContain('devil-to-pay');
  });

  it('starts the truth demo from the install, answering /api/health', async () => {
    const child = spawn(musterBin, ['start', '--demo-source', 'truth', '--port', '0', '--data', join(work, 'data')], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start in 60 s: ${out} ${err}`)), 60_000);
        void exited.then((code) => reject(new Error(`exited ${code}: ${err}`)));
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /health:\s+(http:\/\/127\.0\.0\.1:\d+\/api\/health)/.exec(out);
          if (m && out.includes('Press Ctrl+C')) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      expect(out).toContain(join(prefix, 'lib/node_modules/muster/fixtures/demo'));
      const health = await fetch(url);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { status: string }).status).toBe('ok');
      expect((await fetch(url.replace('/api/health', '/map.html'))).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});
