/** Runs the real `muster` bin as a user would, and collects what it printed. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const REPO_ROOT = join(import.meta.dirname, '../..');
export const MUSTER_BIN = join(REPO_ROOT, 'apps/server/bin/muster.js');

export interface MusterRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a run: colour variables cleared unless given, so the output is what a pipe gets. */
export function musterEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  return { ...env, ...extra };
}

export function muster(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<MusterRun> {
  const child = spawn(process.execPath, [MUSTER_BIN, ...args], { cwd: options.cwd ?? REPO_ROOT, env: musterEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}
