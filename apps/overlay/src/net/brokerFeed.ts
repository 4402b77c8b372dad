/**
 * What a read-only view does with the messages of one table's MQTT topics (protocol 5), without the
 * network: the retained snapshot starts it, deltas follow in order, and a delta that does not fit (a
 * gap: one was lost, or the table restarted) means waiting for the next snapshot, since nobody can be
 * asked for a resync through a broker. While following the deltas the view needs no snapshots, so it
 * tells its connection to subscribe to the snapshot topic only while it waits for one.
 *
 * Which snapshot ends a wait: the retained one a (re)subscription brings may be older than what the view
 * holds; it is taken only when its `seq` is newer, else the next one the table publishes (live, so the
 * newest there is, including after a table restart that started its `seq` again) is.
 *
 * MQTT orders messages within a topic, not across topics: a delta published after a snapshot may
 * arrive before it. So the deltas received while waiting are kept (the newest `MAX_HELD_DELTAS`), and
 * those that continue the snapshot are applied right after it.
 */
import { parseBrokerMessage, type BrokerMessage, type DeltaMessage, type MqttTopicPart, type ServerMessage, type TableStatusMessage } from '@muster/protocol';
import type { LiveStore } from '../state/liveStore.ts';

export interface BrokerFeedCounts {
  readonly snapshots: number;
  readonly deltas: number;
  /** Deltas that did not fit what the view held (each starts or prolongs a wait for a snapshot). */
  readonly gaps: number;
  /** Messages refused by `parseBrokerMessage` (a broken or foreign publisher). */
  readonly invalid: number;
}

/** Deltas kept while waiting for a snapshot (a few seconds of frames). */
export const MAX_HELD_DELTAS = 100;

export class BrokerFeed {
  private waiting = true;
  private held: DeltaMessage[] = [];
  private counts = { snapshots: 0, deltas: 0, gaps: 0, invalid: 0 };
  private tableStatus: TableStatusMessage | null = null;

  constructor(
    private readonly store: LiveStore,
    /** Called with true when the view needs a snapshot, false once it has one. */
    private readonly onNeedSnapshot: (need: boolean) => void = () => {},
  ) {}

  /** True while the view waits for a snapshot (at start and after a gap). */
  get waitingForSnapshot(): boolean {
    return this.waiting;
  }

  get stats(): BrokerFeedCounts {
    return { ...this.counts };
  }

  /** The table's last `status` (online, or down: stopped or lost); null before one arrived. */
  get status(): TableStatusMessage | null {
    return this.tableStatus;
  }

  /** Starts waiting for a snapshot whatever the view holds (after a reconnect: anything may be missed). */
  resync(): void {
    this.held = [];
    this.setWaiting(true);
  }

  /**
   * One message from the table's topic `part`; `retained` is the MQTT retain flag (a message the broker
   * kept, delivered because of a new subscription).
   */
  receive(part: MqttTopicPart, payload: string, retained: boolean): void {
    const parsed = parseBrokerMessage(part, payload);
    if (!parsed.ok) {
      this.counts.invalid++;
      return;
    }
    const msg: BrokerMessage = parsed.value;
    switch (msg.type) {
      case 'snapshot': {
        const held = this.store.snapshot.state;
        // Following the deltas already: a snapshot says nothing new.
        if (!this.waiting) return;
        if (retained && held !== null && msg.state.seq <= held.seq) return;
        this.store.receive(msg);
        this.counts.snapshots++;
        this.setWaiting(false);
        // Deltas that overtook the snapshot: those continuing it apply now.
        const overtaking = this.held;
        this.held = [];
        for (const d of overtaking) {
          const seq = this.store.snapshot.state!.seq;
          if (d.baseSeq < seq) continue;
          if (d.baseSeq > seq || this.store.receive(d) === 'resync') break;
          this.counts.deltas++;
        }
        return;
      }
      case 'delta': {
        if (this.waiting) {
          this.held.push(msg);
          if (this.held.length > MAX_HELD_DELTAS) this.held.shift();
          return;
        }
        if (this.store.receive(msg) === 'resync') {
          this.counts.gaps++;
          this.setWaiting(true);
        } else this.counts.deltas++;
        return;
      }
      case 'log':
        this.store.receive(msg as ServerMessage);
        return;
      case 'table-status':
        this.tableStatus = msg;
        this.store.setConnection(msg.online ? 'connected' : 'disconnected');
        return;
      default:
        // health, ruleset and the game strip are inside the snapshot and deltas too.
        return;
    }
  }

  private setWaiting(waiting: boolean): void {
    this.waiting = waiting;
    this.onNeedSnapshot(waiting);
  }
}
