import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Shape, Stand, UnitEvaluation } from '@muster/rules';
import type { LiveState, Track } from './messages.ts';
import { applyDelta, diffLiveState, jsonEqual } from './delta.ts';

function stand(id: string, xIn: number, yIn: number, headingDeg: number): Stand {
  return { id, unitId: id.split('/')[0] ?? id, pose: { xIn, yIn, headingDeg }, widthIn: 1, depthIn: 0.75, role: 'base' };
}

function unitEval(unitId: string, allowanceIn: number): UnitEvaluation {
  return {
    unitId,
    formation: { formation: 'line', confidence: 1, source: 'geometry' },
    movement: { ok: true, allowanceIn, reach: [], notes: [] },
    fire: [],
    charge: [],
    rally: { ok: false, reason: 'rally/not-disordered' },
    command: { brigadeFormationUnitIds: [] },
  };
}

function state(seq: number, stands: Stand[], shapes: Shape[], tracks: Track[], evals: UnitEvaluation[]): LiveState {
  return {
    seq,
    frameSeq: seq,
    captureTimeMs: 1000 + seq,
    turn: 1,
    tableState: {
      version: 1,
      table: { widthIn: 72, depthIn: 48 },
      stands,
      units: [],
      commanders: [],
      terrain: { areas: [], linear: [], roads: [], elevations: [] },
    },
    evaluation: { rulesetId: 'devil-to-pay', units: Object.fromEntries(evals.map((e) => [e.unitId, e])), shapes, warnings: [] },
    evaluatedState: seq > 1 ? { seq: seq - 1, frameSeq: seq - 1, captureTimeMs: 999 + seq } : null,
    tracks,
    liveTrackIds: tracks.map((t) => t.trackId),
    roster: { name: 'demo', bindings: [], unknownMarkerIds: [] },
    profile: { name: 'demo', widthIn: 72, depthIn: 48, source: 'demo-truth', frameWidthPx: null, frameHeightPx: null, homography: null, residualIn: null },
    health: { status: 'ok', frameRateHz: 5, trackedStands: stands.length, unknownTags: 0, processingMs: 3, clients: 1, uptimeS: 1, warnings: [] },
  };
}

const standArb = fc.record({
  n: fc.integer({ min: 0, max: 8 }),
  x: fc.integer({ min: 0, max: 72 }),
  y: fc.integer({ min: 0, max: 48 }),
  h: fc.integer({ min: 0, max: 359 }),
});
const sceneArb = fc.array(standArb, { maxLength: 8 }).map((list) => {
  const byId = new Map(list.map((s) => [`u${s.n % 3}/s${s.n}`, s]));
  const stands = [...byId.entries()].map(([id, s]) => stand(id, s.x, s.y, s.h));
  const shapes: Shape[] = stands.map((s) => ({
    id: `reach-${s.id}`,
    kind: 'circle',
    layer: 'movement',
    style: 'reach',
    center: { xIn: s.pose.xIn, yIn: s.pose.yIn },
    radiusIn: 6,
  }));
  const tracks: Track[] = stands.map((s, i) => ({ trackId: i + 1, markerId: i + 10, standId: s.id, pose: s.pose, lastSeenMs: 5, occluded: false }));
  const evals = [...new Set(stands.map((s) => s.unitId))].map((u) => unitEval(u, stands.length));
  return { stands, shapes, tracks, evals };
});

function canonical(s: LiveState): unknown {
  const sortBy = <T>(list: readonly T[], key: (x: T) => string | number) => [...list].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  return {
    ...s,
    tableState: { ...s.tableState, stands: sortBy(s.tableState.stands, (x) => x.id) },
    tracks: sortBy(s.tracks, (t) => t.trackId),
    evaluation: s.evaluation && { ...s.evaluation, shapes: sortBy(s.evaluation.shapes, (x) => x.id) },
  };
}

describe('diffLiveState / applyDelta', () => {
  it('applying the diff of two states gives the second state', () => {
    fc.assert(
      fc.property(sceneArb, sceneArb, (a, b) => {
        const prev = state(1, a.stands, a.shapes, a.tracks, a.evals);
        const next = state(2, b.stands, b.shapes, b.tracks, b.evals);
        const delta = diffLiveState(prev, next, 0);
        const applied = applyDelta(prev, JSON.parse(JSON.stringify(delta)));
        expect(applied).not.toBeNull();
        expect(jsonEqual(canonical(applied!), canonical(next))).toBe(true);
      }),
    );
  });

  it('sends only what changed', () => {
    const prev = state(1, [stand('a/1', 1, 1, 0), stand('b/1', 5, 5, 90)], [], [], []);
    const next = state(2, [stand('a/1', 1, 1, 0), stand('b/1', 6, 5, 90)], [], [], []);
    const delta = diffLiveState(prev, next, 0);
    expect(delta.stands).toEqual({ upsert: [stand('b/1', 6, 5, 90)], remove: [] });
    expect(delta.tracks).toBeUndefined();
    expect(delta.terrain).toBeUndefined();
    expect(delta.evaluation).toBeUndefined();
    expect(delta.health).toBeUndefined();
    expect(delta.baseSeq).toBe(1);
    expect(delta.seq).toBe(2);
  });

  it('refuses a delta made for another base state', () => {
    const s1 = state(1, [], [], [], []);
    const s3 = state(3, [], [], [], []);
    const delta = diffLiveState(s1, { ...s3, seq: 4 }, 0);
    expect(applyDelta(s3, delta)).toBeNull();
  });
});

describe('jsonEqual', () => {
  it('ignores key order and undefined fields', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1, d: undefined })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: [] }, { a: {} })).toBe(false);
  });
});
