/**
 * The service's rules worker runs with the young generation sized for whole-table evaluations
 * (apps/server/src/rules/rulesWorkerHeap.ts): the rule set, inside the worker, sees those limits.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRulesWorker, type RulesResult } from '../../apps/server/src/rules/rulesWorker.ts';
import { RULES_WORKER_RESOURCE_LIMITS } from '../../apps/server/src/rules/rulesWorkerHeap.ts';

const PROBE = pathToFileURL(join(import.meta.dirname, 'fixtures/heapProbeRuleset.ts')).href;

describe('rules worker heap', () => {
  it('evaluates in a thread whose young generation is the one sized for whole-table evaluations', async () => {
    let result: RulesResult<number> | undefined;
    const warnings: string[] = [];
    const worker = createRulesWorker<number>({ moduleUrl: PROBE, exportName: 'heapProbeRuleset', onResult: (r) => (result = r), onWarning: (m) => warnings.push(m) });
    try {
      await worker.ready;
      worker.submit({ table: { widthIn: 72, depthIn: 48 }, stands: [], units: [], commanders: [], terrain: { areas: [], linear: [], roads: [], elevations: [] } } as never, 1);
      for (let i = 0; i < 200 && !result; i++) await new Promise((r) => setTimeout(r, 25));
      expect(warnings).toEqual([]);
      const limits = JSON.parse(result!.evaluation!.rulesetId) as { maxYoungGenerationSizeMb: number };
      expect(RULES_WORKER_RESOURCE_LIMITS.maxYoungGenerationSizeMb).toBeGreaterThan(48);
      expect(limits.maxYoungGenerationSizeMb).toBe(RULES_WORKER_RESOURCE_LIMITS.maxYoungGenerationSizeMb);
    } finally {
      await worker.close();
    }
  });
});
