/**
 * `muster start` as a person runs it: the real command in a child process (the truth demo on
 * 127.0.0.1, no views build), with the flags, environment and working folder a test gives. Resolves
 * once it prints its URLs, with what it printed; `refusedStart` gives the exit code and stderr of a start
 * that must fail.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';

export const MUSTER_BIN = join(REPO_ROOT, 'apps/server/bin/muster.js');

export interface TempDir {
  readonly path: string;
  remove(): void;
}

export function tempDir(prefix = 'muster-deploy-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface StartedCli {
  /** e.g. http://127.0.0.1:41234 or https://… */
  readonly url: string;
  readonly token: string;
  readonly stdout: string;
  readonly pid: number;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface StartCliOptions {
  /** Replaces the environment's MUSTER_* variables (the test's own are never inherited). */
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  /** Default true: `--demo-source truth --port 0 --no-build` go first (a flag the test gives wins). */
  readonly quickDemo?: boolean;
}

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MUSTER_')) out[k] = v;
  return { ...out, ...env };
}

export function startCli(args: readonly string[], options: StartCliOptions = {}): Promise<StartedCli> {
  const quick = options.quickDemo === false ? [] : ['--demo-source', 'truth', '--port', '0', '--no-build'];
  const child = spawn(process.execPath, [MUSTER_BIN, 'start', ...quick, ...args], {
    env: childEnv(options.env ?? {}),
    cwd: options.cwd ?? REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // 'close', not 'exit': by then stdout and stderr are read to the end.
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`muster start did not start in 60 s: ${out} ${err}`));
    }, 60_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`muster start exited ${code}: ${err.trim()}`), { code, stderr: err }));
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      resolve({
        url: /health:\s+(https?:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!,
        token: /operator token: (\S+)/.exec(out)![1]!,
        stdout: out,
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

/** Exit code and stderr of a `muster start` that must refuse to start. */
export async function refusedStart(args: readonly string[], options: StartCliOptions = {}): Promise<{ code: number | null; stderr: string }> {
  try {
    const s = await startCli(args, options);
    await s.stop();
    return { code: 0, stderr: `it started: ${s.stdout}` };
  } catch (e) {
    const err = e as Error & { code?: number | null; stderr?: string };
    return { code: err.code ?? -1, stderr: err.stderr ?? err.message };
  }
}
