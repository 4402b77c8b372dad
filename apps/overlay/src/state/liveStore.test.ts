import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, diffLiveState, type LiveState } from '@muster/protocol';
import { LiveStore } from './liveStore.ts';
import { emptyLiveState } from '../../../../fixtures/protocol/emptyLiveState.ts';

function liveState(seq: number, standX: number): LiveState {
  const empty = emptyLiveState(seq);
  return {
    ...empty,
    tableState: {
      ...empty.tableState,
      stands: [{ id: 's1', unitId: 'u1', pose: { xIn: standX, yIn: 10, headingDeg: 90 }, widthIn: 2, depthIn: 1, role: 'base' }],
      units: [{ id: 'u1', name: '1st', side: 'union', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ['s1'] }],
    },
    health: { ...empty.health, trackedStands: 1 },
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
