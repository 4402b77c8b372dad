/**
 * Where a read-only view (map, stream overlay) takes its live state from: the table's own service (the
 * page's origin, `/ws`), or, with `?mqtt=<broker websocket URL>&table=<table id>`, an MQTT broker's
 * websocket listener (protocol 5; `?user=` and `?password=` for a viewer credential). The operator and
 * projector pages always use the table's service.
 */
import { tableIdProblem } from '@muster/protocol';
import type { BrokerConnection } from '../net/brokerConnection.ts';
import { LiveStore } from '../state/liveStore.ts';
import { h, startLive } from './bootstrap.ts';

export interface ViewerLive {
  readonly store: LiveStore;
  /** 'broker' when fed through MQTT. */
  readonly source: 'service' | 'broker';
}

/** Why the broker parameters cannot be used, or null. */
export function brokerParamsProblem(url: string, tableId: string | null): string | null {
  if (!/^wss?:\/\/[^/?#\s]+/i.test(url)) return `?mqtt= takes the broker's websocket URL (ws://host:port/path or wss://…), got "${url}"`;
  if (tableId === null || tableId === '') return '?mqtt= needs &table=<table id> (the id the table publishes as)';
  return tableIdProblem(tableId);
}

export function startViewerLive(params = new URLSearchParams(location.search)): ViewerLive {
  const url = params.get('mqtt');
  if (url === null) return { store: startLive().store, source: 'service' };
  const store = new LiveStore();
  const tableId = params.get('table');
  const problem = brokerParamsProblem(url, tableId);
  const errorBox = h('div', { className: 'banner shown', role: 'alert' });
  errorBox.id = 'broker-error';
  const showError = (message: string): void => {
    errorBox.textContent = message;
    if (!errorBox.isConnected) document.body.append(errorBox);
  };
  if (problem !== null) {
    showError(problem);
    store.setConnection('disconnected');
    return { store, source: 'broker' };
  }
  const user = params.get('user');
  const password = params.get('password');
  // MQTT.js is loaded only by a page that asks for the broker (the operator and projector never do).
  void import('../net/brokerConnection.ts').then(
    ({ BrokerConnection }) => {
      const connection = new BrokerConnection(store, {
        url,
        tableId: tableId!,
        ...(user !== null ? { username: user } : {}),
        ...(password !== null ? { password } : {}),
        onError: showError,
      });
      connection.start();
      // For tests and the curious: what the feed did (snapshots, deltas, gaps).
      (window as unknown as { __musterBroker?: BrokerConnection }).__musterBroker = connection;
    },
    (err: unknown) => showError(`could not load the broker client: ${(err as Error).message}`),
  );
  return { store, source: 'broker' };
}
