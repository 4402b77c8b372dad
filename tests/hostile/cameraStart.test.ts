/**
 * A start that fails must exit (hostile test "a failed start hangs"): `muster start --camera /nonexistent`,
 * or a port already in use with `--port`, printed the error and then never exited, because the pipeline
 * (its rules worker thread) and what else the start had opened were left running. The real command, as
 * a user runs it (`node apps/server/bin/muster.js start …`), each run killed after 30 s if it hangs.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { tempDir } from '../service/helpers.ts';

const MUSTER = join(REPO_ROOT, 'apps/server/bin/muster.js');
const TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');
const ROSTER = join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml');
const HANG_MS = 30_000;
const dir = tempDir('muster-hostile-start-');
let clip: string;

beforeAll(async () => {
  clip = join(dir.path, 'camera.mp4');
  await promisify(execFile)('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-frames:v', '10', '-pix_fmt', 'yuv420p', clip]);
});
afterAll(() => dir.remove());

interface Exit {
  readonly code: number | null;
  readonly stderr: string;
  readonly stdout: string;
  readonly ms: number;
  readonly hung: boolean;
}

/** Runs `muster start …`; a run still alive after `HANG_MS` is killed and reported as hung. */
async function musterStart(args: readonly string[]): Promise<Exit> {
  const startMs = Date.now();
  const child = spawn(process.execPath, [MUSTER, 'start', '--no-build', ...args], { cwd: dir.path, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  let hung = false;
  const killer = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, HANG_MS);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stderr, stdout, ms: Date.now() - startMs, hung };
}

/** A port on 127.0.0.1 held by another server for the test. */
async function portInUse(): Promise<{ port: number; release(): Promise<void> }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, release: () => new Promise((r) => server.close(() => r())) };
}

function expectCleanFailure(exit: Exit, message: RegExp): void {
  expect(exit.hung, `still running after ${HANG_MS} ms; stderr: ${exit.stderr}`).toBe(false);
  expect(exit.code).toBe(2);
  const lines = exit.stderr.trim().split('\n');
  expect(lines, exit.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(exit.stdout).not.toMatch(/Muster is running/);
}

describe('a failed start exits with the error', () => {
  it('a camera that does not exist', async () => {
    const exit = await musterStart(['--camera', '/nonexistent', '--table', TABLE, '--roster', ROSTER, '--data', join(dir.path, 'a'), '--port', '0']);
    expectCleanFailure(exit, /^muster start: \/nonexistent: no such file, folder or device/);
    console.log(`--camera /nonexistent: exit ${exit.code} after ${exit.ms} ms`);
  }, HANG_MS + 10_000);

  it('the demo on a port in use', async () => {
    const held = await portInUse();
    try {
      const exit = await musterStart(['--demo-source', 'truth', '--data', join(dir.path, 'b'), '--host', '127.0.0.1', '--port', String(held.port)]);
      expectCleanFailure(exit, new RegExp(`^muster start: port ${held.port} is in use`));
      console.log(`demo, --port in use: exit ${exit.code} after ${exit.ms} ms`);
    } finally {
      await held.release();
    }
  }, HANG_MS + 10_000);

  it('a camera on a port in use (camera, detector and pipeline were open)', async () => {
    const held = await portInUse();
    try {
      const exit = await musterStart(['--camera', clip, '--table', TABLE, '--roster', ROSTER, '--data', join(dir.path, 'c'), '--host', '127.0.0.1', '--port', String(held.port)]);
      expectCleanFailure(exit, new RegExp(`^muster start: port ${held.port} is in use`));
      console.log(`camera, --port in use: exit ${exit.code} after ${exit.ms} ms`);
    } finally {
      await held.release();
    }
  }, HANG_MS + 10_000);
});
