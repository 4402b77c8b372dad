/** Small statistics helpers shared by the bench modules. */

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Time `fn` `runs` times after `warmup` untimed runs; returns each run's milliseconds. */
export function timeRuns(fn: () => void, runs: number, warmup = 3): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return ms;
}

/**
 * Run `fn` `runs` times after `warmup` untimed runs; wall and CPU (user + system) milliseconds per run, and
 * when each timed run started (`performance.now()`, so collections can be matched to runs: gcWatch.ts).
 * `prepare(i)`, when given, runs before each `fn(i)` outside the clock.
 */
export function timeWallAndCpu(fn: (i: number) => void, runs: number, warmup: number, prepare?: (i: number) => void): { wallMs: number[]; cpuMs: number[]; startMs: number[] } {
  for (let i = 0; i < warmup; i++) {
    prepare?.(i);
    fn(i);
  }
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  const startMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    prepare?.(warmup + i);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn(warmup + i);
    wallMs.push(performance.now() - t0);
    startMs.push(t0);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
  }
  return { wallMs, cpuMs, startMs };
}

/** Round to a fixed number of decimals for readable JSON. */
export function round(value: number, decimals = 3): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
