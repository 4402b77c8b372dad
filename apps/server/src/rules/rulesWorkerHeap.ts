/**
 * The rules worker's heap sizing. A rule set's evaluation builds its whole answer (about a megabyte of JSON
 * on a 300-stand table) plus scratch, several megabytes a frame. With V8's default young generation (48 MB:
 * 16 MB semi-spaces) a scavenge came every other evaluation and copied the half-built answer each time.
 * Measured on 2026-11-24 (`npm run bench -- rules`, same code, CPU medians): Volley & Bayonet's full
 * evaluation on the shared 300-stand table 10.4 -> 7.4 ms, The Devil to Pay's 1,000-stand mega-game table
 * 14.8 -> 11.7 ms; the one-unit-moved updates, which allocate little, were unchanged. The cost is memory:
 * up to 96 MB of young generation in this one thread. The bench times every rule set in a worker with
 * these same limits (tests/bench/rulesetTiming.ts), so its figures are the service's.
 */
import type { ResourceLimits } from 'node:worker_threads';

export const RULES_WORKER_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 96 };
