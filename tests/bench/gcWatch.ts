/**
 * The garbage collections that fell inside timed runs: how much of a rule set's time was collection, and
 * how many young and full collections it took. A collection shows up in every run's mean and in its p90 but
 * seldom in its median (one run in several holds one), so the bench reports it apart. Found this way on
 * 2026-11-25: a context kept in module-level weak maps made every young collection promote the evaluation it
 * fell in (packages/rules/src/engine/ownedMemo.ts).
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { round } from './stats.ts';

export interface GcInRuns {
  /** Collection time inside the timed runs, per run, milliseconds. */
  readonly msPerRun: number;
  /** Young-generation collections (scavenges) inside the timed runs. */
  readonly young: number;
  /** Every other kind (full mark-compact, incremental marking steps, weak callbacks). */
  readonly other: number;
}

export interface GcWatch {
  /** The collections that started inside one of the runs (each from `startMs[i]` for `wallMs[i]`). */
  inRuns(runs: { readonly startMs: readonly number[]; readonly wallMs: readonly number[] }): Promise<GcInRuns>;
  stop(): void;
}

/** Starts recording collections (Node hands them over after a short delay: `inRuns` waits for them). */
export function watchGc(): GcWatch {
  const seen: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) seen.push(e);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async inRuns({ startMs, wallMs }) {
      // Entries are queued and delivered on a timer, not at once: give them time to arrive.
      await sleep(50);
      let ms = 0;
      let young = 0;
      let other = 0;
      for (const e of seen) {
        let inside = false;
        for (let i = 0; i < startMs.length && !inside; i++) inside = e.startTime >= startMs[i]! && e.startTime < startMs[i]! + wallMs[i]!;
        if (!inside) continue;
        ms += e.duration;
        if (((e as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind === constants.NODE_PERFORMANCE_GC_MINOR) young++;
        else other++;
      }
      return { msPerRun: round(ms / Math.max(1, startMs.length)), young, other };
    },
    stop: () => observer.disconnect(),
  };
}
