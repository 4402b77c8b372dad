/**
 * Seeded fuzzing of a real demo service on loopback (`fuzzService.ts`: ws messages and REST requests
 * under /api, a few thousand of each, a few seconds). Nothing a client sends may crash the service,
 * answer 5xx (or a ws `internal` error), show a stack trace, go unanswered, or grow its memory without
 * bound; and no request may reach the server's bug log (`muster server: ...` on stderr).
 * The bench reuses `fuzzService` with a bigger count.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { tempDir } from '../service/helpers.ts';
import { FUZZ_SERVER_LIMITS, fuzzService, looksLikeStackTrace, randomJson, seededRng } from './fuzzService.ts';
import { TOKEN, startHostileDemo } from './networkHelpers.ts';

const SEED = 2;
const COUNT = 3000;

const dir = tempDir('muster-fuzz-');
let live: RunningLive;
beforeAll(async () => {
  live = await startHostileDemo(dir.path, { serverLimits: FUZZ_SERVER_LIMITS });
});
afterAll(async () => {
  await live.stop();
  dir.remove();
});

describe('fuzzing the service', () => {
  it('the generators are seeded: same seed, same inputs', () => {
    const a = seededRng(42);
    const b = seededRng(42);
    expect(JSON.stringify(Array.from({ length: 50 }, () => randomJson(a)))).toBe(JSON.stringify(Array.from({ length: 50 }, () => randomJson(b))));
    expect(looksLikeStackTrace('Error: boom\n    at fn (/srv/app/x.ts:12:3)')).toBe(true);
    expect(looksLikeStackTrace('{"type":"error","code":"invalid-message","message":"terrain.areas[0].kind: expected one of rough"}')).toBe(false);
  });

  it(`${COUNT} ws messages and ${COUNT} REST requests (seed ${SEED}): no crash, no 5xx, no stack trace, memory bounded`, async () => {
    const bugLog: string[] = [];
    const original = console.error;
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      if (String(args[0]).includes('muster server')) bugLog.push(args.map(String).join(' ').slice(0, 300));
      original(...args);
    });
    const rssBefore = process.memoryUsage().rss;
    const t0 = Date.now();
    let counts;
    try {
      counts = await fuzzService(live.url, SEED, COUNT, { token: TOKEN });
    } finally {
      spy.mockRestore();
    }
    const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    console.log(
      `fuzz seed ${SEED}: ${counts.messagesFuzzed} ws messages over ${counts.wsConnections} connections, ${counts.requestsFuzzed} requests in ${Date.now() - t0} ms; ` +
        `RSS +${rssGrowthMb.toFixed(0)} MB; statuses ${JSON.stringify(counts.restStatuses)}; ws errors ${JSON.stringify(counts.wsErrorCodes)}; closes ${JSON.stringify(counts.wsCloseCodes)}`,
    );
    expect(counts.faults).toEqual([]);
    expect(counts.crashes).toBe(0);
    expect(counts.status5xx).toBe(0);
    expect(counts.stackTraces).toBe(0);
    expect(counts.timeouts).toBe(0);
    expect(bugLog).toEqual([]);
    expect(counts.messagesFuzzed).toBe(COUNT);
    expect(counts.requestsFuzzed + counts.unsendable).toBe(COUNT);
    // The fuzzer's own inputs (up to 1.3 MB each) and allocator slack included; a leak per request would show.
    expect(rssGrowthMb).toBeLessThan(300);
    const health = await fetch(`${live.url}/api/health`);
    expect(health.status).toBe(200);
  });
});
