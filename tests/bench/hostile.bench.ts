/**
 * `npm run bench -- hostile`: a longer soak of what `tests/hostile/` checks in `npm test`, against a real
 * demo service on loopback. Reports:
 * - fuzzing: ws messages and REST requests fuzzed, crashes, 5xx, stack traces, timeouts, RSS before/after;
 * - kill -9: trials while the operator acts, acknowledged actions lost, restarts that failed;
 * - corrupt files: each case and its outcome (refused with the file and field named, or started), and
 *   whether the file was left as it was;
 * - camera faults: MJPEG camera stall → detected → reopened → first frame again, ms (median of runs).
 * Sizes: HOSTILE_FUZZ (default 20,000 each of ws and REST), HOSTILE_KILLS (default 20), HOSTILE_STALLS (3).
 */
import { createIpCameraSource } from '../../apps/vision/src/sources/ffmpegSource.ts';
import { startDemo, tempDir } from '../service/helpers.ts';
import { CORRUPT_FILE_CASES, runCorruptFileCase, validGameJson } from '../hostile/corruptFiles.ts';
import { measureStallRecovery, startMjpegCamera, watchSource, type RecoveryTimes } from '../hostile/cameraFaults.ts';
import { FUZZ_SERVER_LIMITS, fuzzService } from '../hostile/fuzzService.ts';
import { killRestartTrials } from '../hostile/killRestart.ts';
import { median, round } from './stats.ts';

const count = (name: string, fallback: number): number => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a whole number ≥ 1 (got ${process.env[name]})`);
  return v;
};

const rssMb = (): number => round(process.memoryUsage().rss / 1e6, 1);

async function fuzzing(n: number): Promise<Record<string, unknown>> {
  const dir = tempDir('muster-bench-fuzz-');
  const live = await startDemo(dir.path, { serverLimits: FUZZ_SERVER_LIMITS });
  try {
    const rssBeforeMb = rssMb();
    const started = performance.now();
    const counts = await fuzzService(live.url, 20_261_124, n, { token: live.operatorToken });
    const health = await fetch(`${live.url}/api/health`);
    return {
      ...counts,
      seconds: round((performance.now() - started) / 1000, 1),
      healthAfter: health.status,
      // The service runs in this process: its RSS is this process's.
      rssBeforeMb,
      rssAfterMb: rssMb(),
    };
  } finally {
    await live.stop();
    dir.remove();
  }
}

async function corruptFiles(): Promise<Record<string, unknown>> {
  const valid = await validGameJson();
  const outcomes = [];
  for (const c of CORRUPT_FILE_CASES) outcomes.push(await runCorruptFileCase(c, valid));
  return {
    cases: outcomes.length,
    asExpected: outcomes.filter((o, i) => o.outcome === (CORRUPT_FILE_CASES[i]!.refusal === null ? 'started' : 'refused') && o.fileIntact).length,
    outcomes: outcomes.map((o) => ({ name: o.name, outcome: o.outcome, fileIntact: o.fileIntact, message: o.message.slice(0, 200) })),
  };
}

async function cameraFaults(runs: number): Promise<Record<string, unknown>> {
  const camera = await startMjpegCamera({ fps: 20 });
  const source = createIpCameraSource(camera.url, { backoff: { initialMs: 100, maxMs: 400 } });
  const watched = watchSource(source);
  const times: RecoveryTimes[] = [];
  try {
    for (let i = 0; i < runs; i++) times.push(await measureStallRecovery(watched, camera, { which: 'this-connection', timeoutMs: 20_000 }));
  } finally {
    await watched.stop();
    await camera.close();
  }
  const med = (key: keyof Omit<RecoveryTimes, 'error'>): number => round(median(times.map((t) => t[key])), 0);
  return { runs, stall: 'MJPEG over HTTP, one connection silent', detectMedianMs: med('detectMs'), reopenMedianMs: med('reopenMs'), firstFrameMedianMs: med('firstFrameMs'), totalMedianMs: med('totalMs'), totalMaxMs: round(Math.max(...times.map((t) => t.totalMs)), 0) };
}

export async function run(): Promise<Record<string, unknown>> {
  const fuzzCount = count('HOSTILE_FUZZ', 20_000);
  process.stderr.write(`hostile: fuzzing ${fuzzCount} ws messages and ${fuzzCount} REST requests …\n`);
  const fuzz = await fuzzing(fuzzCount);
  process.stderr.write('hostile: kill -9 trials …\n');
  const kills = await killRestartTrials(count('HOSTILE_KILLS', 20), 20_261_124);
  process.stderr.write('hostile: corrupt files …\n');
  const files = await corruptFiles();
  process.stderr.write('hostile: camera stalls …\n');
  const camera = await cameraFaults(count('HOSTILE_STALLS', 3));
  return { fuzz, killRestart: kills, corruptFiles: files, cameraFaults: camera };
}
