/**
 * What every page starts with: the stylesheet, a store, the ws connection, and the banner that says when
 * the service is gone (the view keeps the last state on screen meanwhile).
 */
import '../styles.css';
import { LiveConnection } from '../net/liveConnection.ts';
import { LiveStore } from '../state/liveStore.ts';

export interface Live {
  readonly store: LiveStore;
  readonly connection: LiveConnection;
}

export function startLive(token?: string, onError?: (message: string) => void): Live {
  const store = new LiveStore();
  const connection = new LiveConnection(store, {
    ...(token ? { token } : {}),
    onError: (e) => onError?.(`${e.code}: ${e.message}`),
  });
  connection.start();
  return { store, connection };
}

/** A "disconnected" pill over the stage, shown while the ws is down. */
export function connectionBanner(parent: HTMLElement, store: LiveStore): HTMLElement {
  const banner = h('div', { className: 'banner', role: 'status' }, 'Disconnected — reconnecting…');
  banner.id = 'connection-banner';
  parent.appendChild(banner);
  const update = () => banner.classList.toggle('shown', store.snapshot.connection === 'disconnected');
  store.subscribe(update);
  update();
  return banner;
}

/** Tiny DOM builder: enough for panels without a framework. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Omit<HTMLElementTagNameMap[K], 'style'>> & { style?: string } = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { style, ...rest } = props;
  Object.assign(node, rest);
  if (style) node.setAttribute('style', style);
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** Seconds since the frame the state came from, for the "live / 3 s behind" indicator. */
export function ageText(captureTimeMs: number, nowMs = Date.now()): string {
  if (captureTimeMs <= 0) return 'no frames yet';
  const s = (nowMs - captureTimeMs) / 1000;
  return s < 1.5 ? 'live' : `${s.toFixed(0)} s behind`;
}
