/**
 * The rules on their worker thread, through the live pipeline: poses are published while the rules are
 * stuck, evaluations follow in order for the newest waiting state, and a crashed worker is reported and
 * replaced while frames keep flowing. The rule set is gated through shared memory, so nothing here
 * depends on timing.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LiveState } from '@muster/protocol';
import type { TableState } from '@muster/rules';
import { tempDir } from './helpers.ts';
import { gatedDemoPipeline } from './gatedPipeline.ts';

const dir = tempDir('muster-rules-worker-');
afterAll(() => dir.remove());


/** Same key as the gated rule set puts in `rulesetId`: which table state an evaluation came from. */
function stateKey(state: TableState): string {
  return `x=${state.stands.reduce((s, st) => s + st.pose.xIn, 0).toFixed(4)}`;
}

async function until(what: string, ok: () => boolean, tick?: () => void): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (ok()) return;
    tick?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function setup(name: string, ctl: Int32Array) {
  const { pipeline, session, frame } = await gatedDemoPipeline(join(dir.path, name), ctl);
  const published: LiveState[] = [];
  pipeline.subscribe((e) => {
    if (e.kind === 'state') published.push(pipeline.state());
  });
  return { pipeline, session, frame, published };
}

describe('rules on a worker thread', () => {
  it('publishes every frame while the rules are stuck, then evaluates the in-flight and the newest waiting state, in order', async () => {
    const ctl = new Int32Array(new SharedArrayBuffer(12)); // gate closed
    const { pipeline, session, frame, published } = await setup('stuck', ctl);
    try {
      pipeline.process(frame(0));
      await until('the worker to start evaluating frame 0', () => Atomics.load(ctl, 1) >= 1);
      for (let seq = 1; seq <= 4; seq++) pipeline.process(frame(seq));
      // All five frames are out with their poses while the rule set is still blocked on the first.
      expect(published.map((s) => s.frameSeq)).toEqual([0, 1, 2, 3, 4]);
      expect(published.every((s) => s.evaluation === null && s.tableState.stands.length > 0)).toBe(true);
      expect(new Set(published.map((s) => stateKey(s.tableState))).size).toBe(5);
      const byFrame = new Map(published.map((s) => [s.frameSeq, s]));

      Atomics.store(ctl, 0, 1);
      Atomics.notify(ctl, 0);
      await until('the evaluation of frame 4', () => pipeline.evaluationFrame()?.frameSeq === 4);
      const withEval = published.filter((s) => s.evaluation !== null);
      // Frame 0 (in flight), then only the newest waiting state (4): 1–3 were superseded while waiting.
      expect(Atomics.load(ctl, 1)).toBe(2);
      expect(withEval.map((s) => s.evaluation!.rulesetId)).toEqual([stateKey(byFrame.get(0)!.tableState), stateKey(byFrame.get(4)!.tableState)]);
      // The evaluation republications keep the newest poses and never go back in state.
      expect(withEval.every((s) => s.frameSeq === 4)).toBe(true);
      expect(pipeline.state().evaluation?.rulesetId).toBe(stateKey(pipeline.state().tableState));
    } finally {
      Atomics.store(ctl, 0, 1);
      Atomics.notify(ctl, 0);
      pipeline.close();
      session.close();
    }
  });

  it('a crashed rules worker is reported in health and replaced; frames keep flowing and evaluations resume', async () => {
    const ctl = new Int32Array(new SharedArrayBuffer(12));
    Atomics.store(ctl, 0, 1); // gate open
    const { pipeline, session, frame } = await setup('crash', ctl);
    try {
      let seq = 0;
      pipeline.process(frame(seq++));
      await until('a first evaluation', () => pipeline.evaluationFrame() !== null);
      Atomics.store(ctl, 2, 1); // the next evaluation ends the worker thread
      const crashFrom = seq;
      await until(
        'the crash warning',
        () => pipeline.state().health.warnings.some((w) => /rules worker crashed .*exit code 7.*restarted/.test(w)),
        () => pipeline.process(frame(seq++)),
      );
      expect(pipeline.state().health.status).not.toBe('starting');
      const after = seq;
      await until('an evaluation from the new worker', () => (pipeline.evaluationFrame()?.frameSeq ?? -1) >= after, () => pipeline.process(frame(seq++)));
      expect(Atomics.load(ctl, 2)).toBe(0);
      expect(pipeline.state().frameSeq).toBeGreaterThan(crashFrom);
      expect(pipeline.state().evaluation?.rulesetId).toMatch(/^x=/);
    } finally {
      pipeline.close();
      session.close();
    }
  });
});
