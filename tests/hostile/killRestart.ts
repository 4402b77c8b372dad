/**
 * kill -9 of a running service while the operator acts: every action the service acknowledged must be
 * there after a restart on the same data directory, and the directory must start. Shared by
 * tests/hostile/killRestart.test.ts (a few trials) and `npm run bench -- hostile` (many).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createRng } from '@muster/rules';
import { tempDir } from '../service/helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'apps/server/bin/muster.js');

export interface KillRestartReport {
  readonly trials: number;
  /** Acknowledged turns missing after the restart (the turn read back is below the last acknowledged). */
  readonly losses: number;
  /** Restarts that did not come up (the data directory no longer starts). */
  readonly startFailures: number;
  /** Actions acknowledged before the kills, in all. */
  readonly acknowledged: number;
}

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  /** The operator token, read from the operator URL the service prints. */
  readonly token: string;
}

/** `muster start` (the demo from ground truth) on a free port; resolves once it printed its URLs. */
function startService(dataDir: string, port: number): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'start', '--demo-source', 'truth', '--no-build', '--port', String(port), '--data', dataDir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`muster start did not come up: ${out}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /map:\s+(http:\/\/[^/\s]+)\//.exec(out);
      const token = /operator\.html\?token=([^\s&]+)/.exec(out);
      if (m && token) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, token: decodeURIComponent(token[1]!) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`muster start exited with ${code}: ${out}`));
    });
  });
}

async function setTurn(live: Running, turn: number): Promise<boolean> {
  try {
    const res = await fetch(`${live.url}/api/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${live.token}` },
      body: JSON.stringify({ type: 'set-turn', turn }),
    });
    return res.status === 200;
  } catch {
    return false; // killed mid-request: not acknowledged
  }
}

async function readTurn(url: string): Promise<number> {
  const res = await fetch(`${url}/api/snapshot`);
  return ((await res.json()) as { turn: number }).turn;
}

const killed = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/**
 * `trials` times: start, send set-turn 1, 2, 3, … as fast as acks come, kill -9 after a seeded delay,
 * restart on the same directory and read the turn back.
 */
export async function killRestartTrials(trials: number, seed: number, basePort = 18_700): Promise<KillRestartReport> {
  const rng = createRng(seed);
  let losses = 0;
  let startFailures = 0;
  let acknowledged = 0;
  const dir = tempDir('muster-kill-');
  try {
    for (let t = 0; t < trials; t++) {
      const port = basePort + (t % 50);
      const live = await startService(dir.path, port).catch(() => null);
      if (!live) {
        startFailures++;
        continue;
      }
      const exited = killed(live.child);
      let lastAcked = await readTurn(live.url);
      let stop = false;
      const sender = (async () => {
        for (let turn = lastAcked + 1; !stop && turn < 10_000; turn++) {
          if (await setTurn(live, turn)) {
            lastAcked = turn;
            acknowledged++;
          } else break;
        }
      })();
      await new Promise((r) => setTimeout(r, 50 + rng.nextInt(400)));
      live.child.kill('SIGKILL');
      stop = true;
      await sender;
      await exited;
      const again = await startService(dir.path, port).catch(() => null);
      if (!again) {
        startFailures++;
        continue;
      }
      const exitedAgain = killed(again.child);
      if ((await readTurn(again.url)) < lastAcked) losses++;
      again.child.kill('SIGTERM');
      await exitedAgain;
    }
  } finally {
    dir.remove();
  }
  return { trials, losses, startFailures, acknowledged };
}
