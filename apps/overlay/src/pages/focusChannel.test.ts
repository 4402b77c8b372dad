/**
 * The focus channel's own rules, in node (the wire end to end is tests/e2e/rulesetSwitch.test.ts): the
 * operator side sends `set-focus` at most every SEND_EVERY_MS with the newest value last, nothing while the
 * server has not welcomed it as operator; the view side hands on only what changed in `LiveState.focus`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AckMessage, ErrorMessage, LiveState, OperatorMessage, SharedFocus } from '@muster/protocol';
import { LiveStore } from '../state/liveStore.ts';
import type { LiveConnection } from '../net/liveConnection.ts';
import { FocusChannel, SEND_EVERY_MS, measureFromWire, type SharedMeasure } from './focusChannel.ts';
import { emptyLiveState } from '../../../../fixtures/protocol/emptyLiveState.ts';

/** Records what would go to the service; `role` is what its welcome said. */
class RecordingConnection {
  role: 'viewer' | 'operator' = 'operator';
  readonly sent: OperatorMessage[] = [];
  welcome: ((role: 'viewer' | 'operator') => void) | null = null;
  onWelcome(listener: (role: 'viewer' | 'operator') => void): () => void {
    this.welcome = listener;
    return () => {};
  }
  sendAction(action: OperatorMessage): Promise<AckMessage | ErrorMessage> {
    this.sent.push(action);
    return Promise.resolve({ type: 'ack', action: action.type });
  }
}

function state(seq: number, focus: SharedFocus): LiveState {
  return emptyLiveState(seq, { focus });
}

const tape = (toX: number): SharedMeasure => ({ from: { xIn: 1, yIn: 1 }, to: { xIn: toX, yIn: 1 }, text: '', fromStandId: 'ghost:al19-1', toStandId: null });

describe('FocusChannel, operator side', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a drag of 50 moves in a second sends about ten, the last one the newest', async () => {
    const connection = new RecordingConnection();
    const channel = new FocusChannel({ connection: connection as unknown as LiveConnection, now: () => Date.now() });
    channel.publishFocus('al19');
    for (let i = 0; i < 50; i++) {
      channel.publishMeasure(tape(10 + i));
      await vi.advanceTimersByTimeAsync(20);
    }
    await vi.advanceTimersByTimeAsync(SEND_EVERY_MS * 2);
    expect(connection.sent.length).toBeGreaterThanOrEqual(9);
    expect(connection.sent.length).toBeLessThanOrEqual(12);
    const last = connection.sent.at(-1)!;
    expect(last).toEqual({
      type: 'set-focus',
      unitId: 'al19',
      // A ghost end is sent as its stand with `ghost`, a free point with standId null.
      measure: { from: { xIn: 1, yIn: 1, standId: 'al19-1', ghost: true }, to: { xIn: 59, yIn: 1, standId: null } },
    });
    channel.publishMeasure(tape(59));
    await vi.advanceTimersByTimeAsync(SEND_EVERY_MS * 2);
    expect(connection.sent.at(-1)).toBe(last); // the same focus again is not sent again
    channel.close();
  });

  it('sends nothing until the server welcomes it as operator, then the newest', async () => {
    const connection = new RecordingConnection();
    connection.role = 'viewer';
    const channel = new FocusChannel({ connection: connection as unknown as LiveConnection, now: () => Date.now() });
    channel.publishFocus('al22');
    await vi.advanceTimersByTimeAsync(3000);
    expect(connection.sent).toEqual([]);
    connection.role = 'operator';
    await vi.advanceTimersByTimeAsync(1100);
    expect(connection.sent).toEqual([{ type: 'set-focus', unitId: 'al22', measure: null }]);
    channel.close();
  });
});

describe('FocusChannel after a reconnect', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the selection again when welcomed as operator anew (a restarted service forgot it)', async () => {
    const connection = new RecordingConnection();
    const channel = new FocusChannel({ connection: connection as unknown as LiveConnection, now: () => Date.now() });
    channel.publishFocus('al25');
    await vi.advanceTimersByTimeAsync(SEND_EVERY_MS * 2);
    expect(connection.sent).toHaveLength(1);
    connection.welcome!('viewer');
    await vi.advanceTimersByTimeAsync(SEND_EVERY_MS * 2);
    expect(connection.sent).toHaveLength(1);
    connection.welcome!('operator');
    await vi.advanceTimersByTimeAsync(SEND_EVERY_MS * 2);
    expect(connection.sent).toEqual([
      { type: 'set-focus', unitId: 'al25', measure: null },
      { type: 'set-focus', unitId: 'al25', measure: null },
    ]);
    channel.close();
  });
});

describe('FocusChannel, view side', () => {
  it('hands on the wire focus only when it changed, with the tape read in inches', () => {
    const store = new LiveStore();
    const channel = new FocusChannel({ store });
    const units: (string | null)[] = [];
    const tapes: (SharedMeasure | null)[] = [];
    channel.onFocus((u) => units.push(u));
    channel.onMeasure((m) => tapes.push(m));
    const measure = { from: { xIn: 0, yIn: 0, standId: 'us1-1' }, to: { xIn: 3, yIn: 4, standId: null } };
    store.receive({ type: 'snapshot', protocolVersion: 4, state: state(1, { unitId: 'us1', measure }), recentLog: [], sentTimeMs: 1 });
    store.receive({ type: 'snapshot', protocolVersion: 4, state: state(2, { unitId: 'us1', measure: { ...measure } }), recentLog: [], sentTimeMs: 2 });
    expect(units).toEqual(['us1']);
    expect(tapes).toEqual([{ from: { xIn: 0, yIn: 0 }, to: { xIn: 3, yIn: 4 }, text: '5.0"', fromStandId: 'us1-1', toStandId: null }]);
    store.receive({ type: 'snapshot', protocolVersion: 4, state: state(3, { unitId: null, measure: null }), recentLog: [], sentTimeMs: 3 });
    expect(units).toEqual(['us1', null]);
    expect(tapes.at(-1)).toBeNull();
    channel.close();
  });

  it('a ghost end comes back as the ghost stand id the views use', () => {
    expect(measureFromWire({ unitId: null, measure: { from: { xIn: 1, yIn: 2, standId: 'al19-1', ghost: true }, to: { xIn: 1, yIn: 3, standId: null } } })?.fromStandId).toBe('ghost:al19-1');
    expect(measureFromWire(undefined)).toBeNull();
  });
});
