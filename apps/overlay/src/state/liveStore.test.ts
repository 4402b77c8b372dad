import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, diffLiveState, type LiveState } from '@muster/protocol';
import { LiveStore } from './liveStore.ts';

function liveState(seq: number, standX: number): LiveState {
  return {
    seq,
    frameSeq: seq,
    captureTimeMs: 1000 + seq,
    turn: 1,
    tableState: {
      version: 1,
      table: { widthIn: 72, depthIn: 48 },
      stands: [{ id: 's1', unitId: 'u1', pose: { xIn: standX, yIn: 10, headingDeg: 90 }, widthIn: 2, depthIn: 1, role: 'base' }],
      units: [{ id: 'u1', name: '1st', side: 'union', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ['s1'] }],
      commanders: [],
      terrain: { areas: [], linear: [], roads: [], elevations: [] },
    },
    evaluation: null,
    evaluatedState: null,
    tracks: [],
    liveTrackIds: [],
    roster: { name: 'demo', bindings: [], unknownMarkerIds: [] },
    profile: { name: 'demo', widthIn: 72, depthIn: 48, source: 'demo-truth', frameWidthPx: null, frameHeightPx: null, homography: null, residualIn: null },
    health: { status: 'ok', frameRateHz: 30, trackedStands: 1, unknownTags: 0, processingMs: 1, clients: 1, uptimeS: 1, warnings: [] },
  };
}

describe('LiveStore', () => {
  it('takes a snapshot, applies a fitting delta, and asks to resync on a gap', () => {
    const store = new LiveStore();
    const seen: number[] = [];
    store.subscribe((s) => s.state && seen.push(s.state.seq));
    expect(store.receive(diffLiveState(liveState(1, 5), liveState(2, 6), 0))).toBe('resync');
    store.receive({ type: 'snapshot', protocolVersion: PROTOCOL_VERSION, state: liveState(1, 5), recentLog: [], sentTimeMs: 0 });
    expect(store.receive(diffLiveState(liveState(1, 5), liveState(2, 7), 0))).toBe('ok');
    expect(store.snapshot.state?.tableState.stands[0]?.pose.xIn).toBe(7);
    // A delta for seq 5 → 6 does not fit seq 2.
    expect(store.receive(diffLiveState(liveState(5, 7), liveState(6, 8), 0))).toBe('resync');
    expect(store.snapshot.state?.seq).toBe(2);
    expect(seen).toEqual([1, 2]);
  });

  it('appends log entries and tracks the connection', () => {
    const store = new LiveStore();
    store.setConnection('disconnected');
    expect(store.snapshot.connection).toBe('disconnected');
    store.receive({ type: 'log', entry: { kind: 'note', text: 'hello', index: 0, timeMs: 0, turn: 1, by: 'operator' } });
    expect(store.snapshot.log).toHaveLength(1);
  });
});
