/** kill -9 while the operator acts loses no acknowledged action and leaves a directory that starts. */
import { describe, expect, it } from 'vitest';
import { killRestartTrials } from './killRestart.ts';

describe('kill -9 of the service', () => {
  it('keeps every acknowledged action, and the data directory starts again', async () => {
    const r = await killRestartTrials(3, 7);
    expect(r.acknowledged, 'the operator got acks before each kill').toBeGreaterThan(3);
    expect(r).toMatchObject({ trials: 3, losses: 0, startFailures: 0 });
  }, 180_000);
});
