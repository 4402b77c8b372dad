import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, diffLiveState, type LiveState, type TableStatusMessage } from '@muster/protocol';
import { LiveStore } from '../state/liveStore.ts';
import { BrokerFeed } from './brokerFeed.ts';
import { emptyLiveState } from '../../../../fixtures/protocol/emptyLiveState.ts';

function liveState(seq: number): LiveState {
  const empty = emptyLiveState(seq);
  return {
    ...empty,
    tableState: {
      ...empty.tableState,
      stands: [{ id: 's1', unitId: 'u1', pose: { xIn: seq, yIn: 10, headingDeg: 90 }, widthIn: 2, depthIn: 1, role: 'base' }],
      units: [{ id: 'u1', name: '1st', side: 'union', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ['s1'] }],
    },
  };
}
const snapshot = (seq: number): string => JSON.stringify({ type: 'snapshot', protocolVersion: PROTOCOL_VERSION, state: liveState(seq), recentLog: [], sentTimeMs: 0 });
const delta = (from: number, to: number): string => JSON.stringify(diffLiveState(liveState(from), liveState(to), 0));

describe('BrokerFeed', () => {
  it('starts from a snapshot, follows deltas, and after a gap ignores deltas until the next snapshot', () => {
    const store = new LiveStore();
    const needs: boolean[] = [];
    const feed = new BrokerFeed(store, (n) => needs.push(n));
    feed.receive('delta', delta(1, 2), false);
    expect(store.snapshot.state).toBeNull();
    feed.receive('snapshot', snapshot(2), true);
    feed.receive('delta', delta(2, 3), false);
    expect(store.snapshot.state?.seq).toBe(3);
    // 3 → 4 lost: 4 → 5 does not fit.
    feed.receive('delta', delta(4, 5), false);
    expect(feed.waitingForSnapshot).toBe(true);
    expect(needs).toEqual([false, true]);
    // The retained snapshot a resubscription brings is older than what the view holds: not taken.
    feed.receive('snapshot', snapshot(2), true);
    expect(store.snapshot.state?.seq).toBe(3);
    feed.receive('snapshot', snapshot(6), false);
    feed.receive('delta', delta(6, 7), false);
    expect(store.snapshot.state?.seq).toBe(7);
    expect(store.snapshot.state?.tableState.stands[0]?.pose.xIn).toBe(7);
    expect(feed.stats).toEqual({ snapshots: 2, deltas: 2, gaps: 1, invalid: 0 });
  });

  it('applies the deltas that overtook the snapshot they continue (order holds only within a topic)', () => {
    const store = new LiveStore();
    const feed = new BrokerFeed(store);
    feed.receive('delta', delta(3, 4), false);
    feed.receive('delta', delta(4, 5), false);
    feed.receive('delta', delta(5, 6), false);
    feed.receive('snapshot', snapshot(4), false);
    expect(store.snapshot.state?.seq).toBe(6);
    expect(feed.stats.deltas).toBe(2);
  });

  it('takes any snapshot after a table restart started its seq again (a live one, not the retained)', () => {
    const store = new LiveStore();
    const feed = new BrokerFeed(store);
    feed.receive('snapshot', snapshot(500), true);
    feed.resync();
    feed.receive('snapshot', snapshot(3), false);
    expect(store.snapshot.state?.seq).toBe(3);
  });

  it('shows the table down from its status, counts foreign messages and never applies them', () => {
    const store = new LiveStore();
    const feed = new BrokerFeed(store);
    const status: TableStatusMessage = { type: 'table-status', protocolVersion: PROTOCOL_VERSION, tableId: 't', online: true, reason: 'started', sinceMs: 1, keepaliveS: 10 };
    feed.receive('status', JSON.stringify(status), true);
    expect(store.snapshot.connection).toBe('connected');
    feed.receive('status', JSON.stringify({ ...status, online: false, reason: 'lost', sinceMs: null }), true);
    expect(store.snapshot.connection).toBe('disconnected');
    expect(feed.status?.reason).toBe('lost');
    feed.receive('snapshot', '{"type":"snapshot"}', true);
    feed.receive('delta', 'not json', false);
    expect(store.snapshot.state).toBeNull();
    expect(feed.stats.invalid).toBe(2);
  });
});
