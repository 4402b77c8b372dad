/**
 * The operator token and the new server options through the real `muster start` (issue: the token could
 * only be given with `--token`, which every user of the machine sees in `ps`). Now `MUSTER_TOKEN` and
 * `--token-file` give it without showing it; `--token` still works and warns. Each case starts the CLI
 * in a child process on 127.0.0.1 with a free port (the truth demo, no views build).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { tempDir } from '../service/helpers.ts';
import { rawRequest, rawUpgrade } from './networkHelpers.ts';

const dirs: { remove(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.remove()));

interface Started {
  readonly url: string;
  readonly token: string;
  readonly pid: number;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** `muster start` with these arguments and environment; resolves once it prints its URLs. */
function startCli(args: readonly string[], env: Record<string, string> = {}): Promise<Started> {
  const dir = tempDir('muster-cli-token-');
  dirs.push(dir);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!('MUSTER_TOKEN' in env)) delete childEnv.MUSTER_TOKEN;
  const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/server/bin/muster.js'), 'start', '--demo-source', 'truth', '--port', '0', '--no-build', '--data', dir.path, ...args], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`muster start did not start in 60 s: ${out} ${err}`)), 60_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`muster start exited ${code}: ${err.trim()}`));
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      resolve({
        url: /health:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!,
        token: /operator token: (\S+)/.exec(out)![1]!,
        pid: child.pid!,
        stderr: () => err,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

/** Exit code and stderr of a `muster start` that is expected to refuse its arguments. */
function refusedCli(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return startCli(args, env).then(
    async (s) => {
      await s.stop();
      return { code: 0, stderr: 'it started' };
    },
    (e: Error) => ({ code: Number(/exited (\d+)/.exec(e.message)?.[1] ?? -1), stderr: e.message }),
  );
}

async function operatorCallWorks(url: string, token: string): Promise<boolean> {
  const res = await fetch(`${url}/api/actions`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ type: 'set-turn', turn: 2 }) });
  return res.status === 200;
}

const cmdline = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');

describe('operator token sources (muster start)', () => {
  it('MUSTER_TOKEN: used, never on the command line, no warning', async () => {
    const token = 'env-token-0123456789';
    const s = await startCli([], { MUSTER_TOKEN: token });
    try {
      expect(s.token).toBe(token);
      expect(await operatorCallWorks(s.url, token)).toBe(true);
      expect(cmdline(s.pid)).not.toContain(token);
      expect(s.stderr()).not.toMatch(/warning/);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('--token-file: the first line of the file; with --max-clients, --allow-origin and --allow-host passed to the server', async () => {
    const dir = tempDir('muster-token-file-');
    dirs.push(dir);
    const file = join(dir.path, 'token');
    const token = 'file-token-abcdefghij';
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const s = await startCli(['--token-file', file, '--max-clients', '2', '--allow-origin', 'http://obs.example:9000', '--allow-host', 'muster.local'], { MUSTER_TOKEN: 'env-loses-to-the-file' });
    try {
      expect(s.token).toBe(token);
      expect(await operatorCallWorks(s.url, token)).toBe(true);
      expect(cmdline(s.pid)).not.toContain(token);
      const host = new URL(s.url).host;
      // --allow-origin: that origin's pages may open the ws; --max-clients 2: the third gets 503.
      const sockets = await Promise.all(
        [0, 1].map(() => new WebSocket(`${s.url.replace('http', 'ws')}/ws`)).map((ws) => new Promise<WebSocket>((r) => ws.once('open', () => r(ws)))),
      );
      expect((await rawUpgrade(s.url, '/ws', { host, origin: 'http://obs.example:9000' })).status).toBe(503);
      sockets[0]!.close();
      let status = 0;
      for (let i = 0; i < 100 && status !== 101; i++) {
        status = (await rawUpgrade(s.url, '/ws', { host, origin: 'http://obs.example:9000' })).status;
        if (status !== 101) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(101);
      sockets[1]!.close();
      expect((await rawRequest(s.url, 'GET', '/api/health', { host: `muster.local:${new URL(s.url).port}` })).status).toBe(200);
      expect((await rawRequest(s.url, 'GET', '/api/health', { host: 'evil.example' })).status).toBe(421);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('--token still works and warns that it shows in the process list', async () => {
    const token = 'flag-token-0123456789';
    const s = await startCli(['--token', token]);
    try {
      expect(s.token).toBe(token);
      expect(await operatorCallWorks(s.url, token)).toBe(true);
      expect(s.stderr()).toMatch(/warning: --token shows the operator token .*\(ps\).*MUSTER_TOKEN.*--token-file/);
    } finally {
      await s.stop();
    }
  });

  it('refuses a token given twice, a short or unreadable token file, and bad limits', async () => {
    const dir = tempDir('muster-token-bad-');
    dirs.push(dir);
    const short = join(dir.path, 'short');
    writeFileSync(short, 'abc\n');
    const cases: [readonly string[], RegExp][] = [
      [['--token', 'flag-token-123', '--token-file', short], /once: --token or --token-file/],
      [['--token-file', short], /at least 8 characters/],
      [['--token-file', join(dir.path, 'missing')], /--token-file .*ENOENT/],
      [['--max-clients', '0'], /--max-clients must be an integer/],
      [['--allow-origin', 'http://x.example/path'], /--allow-origin takes an origin/],
    ];
    for (const [args, message] of cases) {
      const r = await refusedCli(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    const env = await refusedCli([], { MUSTER_TOKEN: 'short' });
    expect(env.stderr).toMatch(/MUSTER_TOKEN\) must be at least 8/);
  });
});
