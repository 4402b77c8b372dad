/**
 * The rules worker's table-state deltas (apps/server/src/rules/tableStateDelta.ts): applied to the last
 * state they give the next one exactly, keep every unchanged part the last state's own object, and carry
 * only what changed. Then the real worker, fed through deltas, evaluates each state as `evaluate` does.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, getRuleset, type Evaluation, type TableState } from '@muster/rules';
import { applyTableStateDelta, encodeTableStateDelta } from '../../apps/server/src/rules/tableStateDelta.ts';
import { createRulesWorker } from '../../apps/server/src/rules/rulesWorker.ts';
import { largeScene } from '../../fixtures/rules/largeScene.ts';
import { seededRandom } from '../../fixtures/seededRandom.ts';

/** A seeded edit of a table: what a frame or an operator can change. */
function edit(state: TableState, rand: () => number): TableState {
  const s = structuredClone(state);
  const k = Math.floor(rand() * s.stands.length);
  const r = rand();
  if (r < 0.35) return { ...s, stands: s.stands.map((st, i) => (i === k ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn + 0.5 } } : st)) };
  if (r < 0.45) return { ...s, stands: s.stands.filter((_, i) => i !== k) };
  if (r < 0.55) return { ...s, stands: [...s.stands.slice(k), ...s.stands.slice(0, k)] };
  if (r < 0.65) return { ...s, units: s.units.map((u, i) => (i === 0 ? { ...u, name: `${u.name}′` } : u)) };
  if (r < 0.75) return { ...s, terrain: { ...s.terrain, areas: s.terrain.areas.slice(1) } };
  if (r < 0.85) {
    // A field that comes and goes: set when absent, removed when present.
    if (s.rulesetParameters === undefined) return { ...s, rulesetParameters: { x: 1 } };
    const { rulesetParameters: _gone, ...rest } = s;
    return rest;
  }
  return s; // the same table rebuilt: new objects, same values
}

describe('table state deltas', () => {
  it('give the next state exactly, through a structured clone, keeping the unchanged parts', () => {
    const rand = seededRandom(21);
    let last = largeScene(2);
    let next = last;
    for (let step = 0; step < 80; step++) {
      next = edit(last, rand);
      const delta = structuredClone(encodeTableStateDelta(last, next));
      const applied = applyTableStateDelta(last, delta);
      expect(applied).toEqual(next);
      // Every stand the delta did not carry is the last state's own object.
      const carried = new Set(delta.changedStands.map((s) => s.id));
      const lastById = new Map(last.stands.map((s) => [s.id, s]));
      for (const s of applied.stands) if (!carried.has(s.id)) expect(s).toBe(lastById.get(s.id));
      if (!('terrain' in delta.fields)) expect(applied.terrain).toBe(last.terrain);
      last = applied;
    }
  });

  it('carries only the stands that changed, and nothing for the same table rebuilt', () => {
    const last = largeScene(1);
    expect(encodeTableStateDelta(last, structuredClone(last))).toEqual({ fields: {}, removed: [], changedStands: [] });
    const moved = { ...last, stands: last.stands.map((s, i) => (i === 3 ? { ...s, pose: { ...s.pose, headingDeg: s.pose.headingDeg + 1 } } : { ...s })) };
    const delta = encodeTableStateDelta(last, moved);
    expect(delta.changedStands.map((s) => s.id)).toEqual([last.stands[3]!.id]);
    expect(delta.standIds).toBeUndefined();
    expect(delta.changedPlaces).toEqual([3]);
  });

  it('writes changed stands at their places, and looks them up by id when a place holds another stand', () => {
    const last = largeScene(1);
    const moved = { ...last, stands: last.stands.map((s, i) => (i === 5 || i === 40 ? { ...s, pose: { ...s.pose, xIn: s.pose.xIn + 0.5 } } : s)) };
    const delta = structuredClone(encodeTableStateDelta(last, moved));
    expect(delta.changedPlaces).toEqual([5, 40]);
    const applied = applyTableStateDelta(last, delta);
    expect(applied).toEqual(moved);
    expect(applied.stands[6]).toBe(last.stands[6]);
    // Places that do not hold the named stands (a delta made against another state): found by id instead.
    const stale = applyTableStateDelta(last, { ...delta, changedPlaces: [6, 41] });
    expect(stale).toEqual(moved);
    expect(applyTableStateDelta(last, { ...delta, changedPlaces: [5] })).toEqual(moved);
  });

  it('feeds the real rules worker: each evaluation is what evaluate gives for that state', async () => {
    const ruleset = getRuleset('devil-to-pay');
    const rand = seededRandom(8);
    const states: TableState[] = [];
    let s = largeScene(1);
    for (let i = 0; i < 12; i++) {
      s = edit(s, rand);
      states.push(s);
    }
    const results = new Map<number, Evaluation | null>();
    const errors: string[] = [];
    const worker = createRulesWorker<number>({ rulesetId: ruleset.id, onResult: (r) => (r.error ? errors.push(r.error) : results.set(r.tag, r.evaluation)), onWarning: (m) => errors.push(m) });
    try {
      await worker.ready;
      for (let i = 0; i < states.length; i++) {
        worker.submit(states[i]!, i);
        // One at a time, so every state is evaluated (newest-wins would skip some).
        for (let w = 0; w < 400 && !results.has(i) && errors.length === 0; w++) await new Promise((r) => setTimeout(r, 10));
      }
      expect(errors).toEqual([]);
      for (let i = 0; i < states.length; i++) expect(results.get(i)).toEqual(evaluate(states[i]!, ruleset));
    } finally {
      await worker.close();
    }
  }, 60_000);
});
