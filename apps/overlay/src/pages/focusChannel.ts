/**
 * The operator's focus (selected unit) and measurement, shared with the projector and stream overlay
 * pages open in the same browser (the usual setup: the operator's laptop drives the projector as a second
 * screen). A BroadcastChannel: same origin, same browser profile, nothing over the network; a page on
 * another machine takes `?unit=` instead.
 */
import type { PointIn } from '@muster/rules';

export interface SharedMeasure {
  readonly from: PointIn;
  readonly to: PointIn;
  readonly text: string;
}

type Message = { readonly kind: 'focus'; readonly unitId: string | null } | { readonly kind: 'measure'; readonly measure: SharedMeasure | null } | { readonly kind: 'ask' };

const NAME = 'muster-focus';

export class FocusChannel {
  private readonly channel: BroadcastChannel | null;
  private focus: string | null = null;
  private measure: SharedMeasure | null = null;
  private readonly focusListeners: ((unitId: string | null) => void)[] = [];
  private readonly measureListeners: ((m: SharedMeasure | null) => void)[] = [];

  constructor() {
    this.channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(NAME) : null;
    this.channel?.addEventListener('message', (ev: MessageEvent<Message>) => {
      const m = ev.data;
      if (m.kind === 'focus') for (const l of this.focusListeners) l(m.unitId);
      else if (m.kind === 'measure') for (const l of this.measureListeners) l(m.measure);
      else if (m.kind === 'ask') {
        // A page opened later asks what the operator has on: answer with the current focus and measure.
        this.channel?.postMessage({ kind: 'focus', unitId: this.focus } satisfies Message);
        this.channel?.postMessage({ kind: 'measure', measure: this.measure } satisfies Message);
      }
    });
  }

  /** Operator side: say what is selected now. */
  publishFocus(unitId: string | null): void {
    this.focus = unitId;
    this.channel?.postMessage({ kind: 'focus', unitId } satisfies Message);
  }

  publishMeasure(measure: SharedMeasure | null): void {
    this.measure = measure;
    this.channel?.postMessage({ kind: 'measure', measure } satisfies Message);
  }

  onFocus(listener: (unitId: string | null) => void): void {
    this.focusListeners.push(listener);
    this.channel?.postMessage({ kind: 'ask' } satisfies Message);
  }

  onMeasure(listener: (m: SharedMeasure | null) => void): void {
    this.measureListeners.push(listener);
  }
}
