/**
 * The view's copy of the live state: snapshot on connect, deltas after, the recent game log, and the
 * connection status for the banner. Views subscribe and redraw; nothing here touches the DOM.
 */
import { applyDelta } from '@muster/protocol';
import type { GameLogEntry, LiveState, ServerMessage } from '@muster/protocol';

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

export interface LiveStoreSnapshot {
  readonly state: LiveState | null;
  readonly log: readonly GameLogEntry[];
  readonly connection: ConnectionStatus;
}

/** Most log entries kept in memory: the view shows the tail only. */
const MAX_LOG_ENTRIES = 200;

export class LiveStore {
  private current: LiveStoreSnapshot = { state: null, log: [], connection: 'connecting' };
  private readonly listeners = new Set<(s: LiveStoreSnapshot) => void>();

  get snapshot(): LiveStoreSnapshot {
    return this.current;
  }

  subscribe(listener: (s: LiveStoreSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setConnection(connection: ConnectionStatus): void {
    if (connection === this.current.connection) return;
    this.set({ ...this.current, connection });
  }

  /**
   * Folds one server message in.
   * @returns 'resync' when a delta did not fit our state and a fresh snapshot is needed.
   */
  receive(msg: ServerMessage): 'ok' | 'resync' {
    switch (msg.type) {
      case 'snapshot':
        this.set({ ...this.current, state: msg.state, log: msg.recentLog.slice(-MAX_LOG_ENTRIES) });
        return 'ok';
      case 'delta': {
        if (!this.current.state) return 'resync';
        const next = applyDelta(this.current.state, msg);
        if (!next) return 'resync';
        this.set({ ...this.current, state: next });
        return 'ok';
      }
      case 'log':
        this.set({ ...this.current, log: [...this.current.log, msg.entry].slice(-MAX_LOG_ENTRIES) });
        return 'ok';
      default:
        return 'ok';
    }
  }

  private set(next: LiveStoreSnapshot): void {
    this.current = next;
    for (const l of this.listeners) l(next);
  }
}
