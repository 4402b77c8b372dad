/**
 * The operator's focus (selected unit) and measurement, shared with the other views two ways:
 *
 * - over the wire (protocol 4): the operator page sends `set-focus` (at most every `SEND_EVERY_MS`, the
 *   newest value last, so a drag stays well under the server's message rate), the service holds it in
 *   `LiveState.focus`, and every view receives it in its snapshot and deltas: a projector or stream
 *   overlay on another machine follows the operator;
 * - in the same browser, at once: a BroadcastChannel (same origin and profile), as before protocol 4 and
 *   still the quickest path for the usual setup (the operator's laptop drives the projector as a second
 *   screen), and the fallback against an older service.
 *
 * A view listens to both. After a same-browser message, the wire's (older, throttled) copies are ignored
 * for `CHANNEL_PRECEDENCE_MS`, so a drag does not jitter between the two; then the wire's value, which by
 * then is the same, rules again.
 */
import type { PointIn } from '@muster/rules';
import type { MeasureEnd, SharedFocus } from '@muster/protocol';
import { GHOST_ID_PREFIX } from '../geometry/ghostMarks.ts';
import type { LiveConnection } from '../net/liveConnection.ts';
import type { LiveStore } from '../state/liveStore.ts';

export interface SharedMeasure {
  readonly from: PointIn;
  readonly to: PointIn;
  readonly text: string;
  /** The stands the ends are on (a ghost as `ghost:<id>`); absent or null for a free point. */
  readonly fromStandId?: string | null;
  readonly toStandId?: string | null;
}

type Message = { readonly kind: 'focus'; readonly unitId: string | null } | { readonly kind: 'measure'; readonly measure: SharedMeasure | null } | { readonly kind: 'ask' };

const NAME = 'muster-focus';
/** Fewest ms between two `set-focus` sends (10 a second: half the server's sustained message rate). */
export const SEND_EVERY_MS = 100;
/** How long a same-browser message outranks the wire's copies, ms. */
export const CHANNEL_PRECEDENCE_MS = 1000;

export interface FocusChannelOptions {
  /** Views: follow `LiveState.focus` from this store too. */
  readonly store?: LiveStore;
  /** Operator page: send what it publishes as `set-focus` (only while the server has it as operator). */
  readonly connection?: LiveConnection;
  readonly now?: () => number;
}

/** The distance between two table points as the tape reads it, e.g. `12.4"`. */
export function measureText(from: PointIn, to: PointIn): string {
  return `${Math.hypot(to.xIn - from.xIn, to.yIn - from.yIn).toFixed(1)}"`;
}

function wireEnd(p: PointIn, standId: string | null | undefined): MeasureEnd {
  if (!standId) return { xIn: p.xIn, yIn: p.yIn, standId: null };
  return standId.startsWith(GHOST_ID_PREFIX) ? { xIn: p.xIn, yIn: p.yIn, standId: standId.slice(GHOST_ID_PREFIX.length), ghost: true } : { xIn: p.xIn, yIn: p.yIn, standId };
}

function endStandId(end: MeasureEnd): string | null {
  return end.standId === null ? null : end.ghost ? `${GHOST_ID_PREFIX}${end.standId}` : end.standId;
}

/** The wire's measurement as the views draw it. */
export function measureFromWire(focus: SharedFocus | undefined): SharedMeasure | null {
  const m = focus?.measure;
  if (!m) return null;
  const from = { xIn: m.from.xIn, yIn: m.from.yIn };
  const to = { xIn: m.to.xIn, yIn: m.to.yIn };
  return { from, to, text: measureText(from, to), fromStandId: endStandId(m.from), toStandId: endStandId(m.to) };
}

export class FocusChannel {
  private readonly channel: BroadcastChannel | null;
  private readonly now: () => number;
  private focus: string | null = null;
  private measure: SharedMeasure | null = null;
  private readonly focusListeners: ((unitId: string | null) => void)[] = [];
  private readonly measureListeners: ((m: SharedMeasure | null) => void)[] = [];
  /** When a same-browser message last came (ms); the wire is ignored shortly after. */
  private channelAtMs = -Infinity;
  /** The wire's focus as last handed on (by reference, then by content). */
  private wireFocus: SharedFocus | undefined;
  private wireUnit: string | null = null;
  private wireMeasureKey = 'null';
  private sendTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSentMs = -Infinity;
  private sentKey = '';
  private closed = false;

  constructor(private readonly options: FocusChannelOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(NAME) : null;
    this.channel?.addEventListener('message', (ev: MessageEvent<Message>) => {
      const m = ev.data;
      if (m.kind === 'focus') {
        this.channelAtMs = this.now();
        for (const l of this.focusListeners) l(m.unitId);
      } else if (m.kind === 'measure') {
        this.channelAtMs = this.now();
        for (const l of this.measureListeners) l(m.measure);
      } else if (m.kind === 'ask') {
        // A page opened later asks what the operator has on: answer with the current focus and measure.
        if (!this.options.connection) return;
        this.channel?.postMessage({ kind: 'focus', unitId: this.focus } satisfies Message);
        this.channel?.postMessage({ kind: 'measure', measure: this.measure } satisfies Message);
      }
    });
    // Welcomed as operator (first connect, or again after the service restarted and forgot the focus):
    // send what is selected now.
    options.connection?.onWelcome?.((role) => {
      if (role !== 'operator' || (this.focus === null && this.measure === null)) return;
      this.sentKey = '';
      this.scheduleSend();
    });
    const store = options.store;
    if (store) {
      store.subscribe(() => this.fromWire(store.snapshot.state?.focus));
      this.fromWire(store.snapshot.state?.focus);
    }
  }

  /** Operator side: say what is selected now. */
  publishFocus(unitId: string | null): void {
    this.focus = unitId;
    this.channel?.postMessage({ kind: 'focus', unitId } satisfies Message);
    this.scheduleSend();
  }

  publishMeasure(measure: SharedMeasure | null): void {
    this.measure = measure;
    this.channel?.postMessage({ kind: 'measure', measure } satisfies Message);
    this.scheduleSend();
  }

  onFocus(listener: (unitId: string | null) => void): void {
    this.focusListeners.push(listener);
    this.channel?.postMessage({ kind: 'ask' } satisfies Message);
    if (this.wireFocus) listener(this.wireUnit);
  }

  onMeasure(listener: (m: SharedMeasure | null) => void): void {
    this.measureListeners.push(listener);
    if (this.wireFocus) listener(measureFromWire(this.wireFocus));
  }

  /** Stops listening and sending (a page that goes away; tests). */
  close(): void {
    this.closed = true;
    this.channel?.close();
    if (this.sendTimer !== null) clearTimeout(this.sendTimer);
    this.sendTimer = null;
  }

  /** The wire's focus changed (or the store did): hand on what is new, unless the same browser spoke just now. */
  private fromWire(focus: SharedFocus | undefined): void {
    if (this.closed || focus === undefined || focus === this.wireFocus) return;
    this.wireFocus = focus;
    if (this.now() - this.channelAtMs < CHANNEL_PRECEDENCE_MS) {
      // Keep what the channel said; remember the wire's so an unchanged value is not handed on later.
      this.wireUnit = focus.unitId;
      this.wireMeasureKey = JSON.stringify(focus.measure);
      return;
    }
    if (focus.unitId !== this.wireUnit) {
      this.wireUnit = focus.unitId;
      for (const l of this.focusListeners) l(focus.unitId);
    }
    const key = JSON.stringify(focus.measure);
    if (key !== this.wireMeasureKey) {
      this.wireMeasureKey = key;
      const m = measureFromWire(focus);
      for (const l of this.measureListeners) l(m);
    }
  }

  /** Operator side: `set-focus` with the newest focus and tape, at most every SEND_EVERY_MS. */
  private scheduleSend(): void {
    if (this.closed || !this.options.connection || this.sendTimer !== null) return;
    const wait = Math.max(0, this.lastSentMs + SEND_EVERY_MS - this.now());
    this.sendTimer = setTimeout(() => {
      this.sendTimer = null;
      this.sendNow();
    }, wait);
  }

  private sendNow(): void {
    const connection = this.options.connection;
    if (this.closed) return;
    // A read-only operator page (no or a wrong token) keeps its focus to itself rather than collect refusals.
    if (!connection) return;
    if (connection.role !== 'operator') {
      // Not welcomed as operator (yet, or again after a reconnect): try again shortly, nothing is sent meanwhile.
      this.sentKey = '';
      this.sendTimer ??= setTimeout(() => {
        this.sendTimer = null;
        this.sendNow();
      }, 1000);
      return;
    }
    const m = this.measure;
    const measure = m ? { from: wireEnd(m.from, m.fromStandId), to: wireEnd(m.to, m.toStandId) } : null;
    const key = JSON.stringify([this.focus, measure]);
    if (key === this.sentKey) return;
    this.sentKey = key;
    this.lastSentMs = this.now();
    void connection.sendAction({ type: 'set-focus', unitId: this.focus, measure }).then((reply) => {
      // Not sent (disconnected) or refused: send again with the next change.
      if (reply.type === 'error') this.sentKey = '';
    });
  }
}
