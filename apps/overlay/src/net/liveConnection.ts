/**
 * The ws link to the service: `/ws` on the page's own origin, hello (with the operator token when there
 * is one), snapshot and deltas into the store, resync when a delta does not fit, and reconnect with
 * exponential backoff so a restarted service or a phone waking up recovers on its own.
 */
import { PROTOCOL_VERSION } from '@muster/protocol';
import type { AckMessage, ClientMessage, ErrorMessage, OperatorMessage, ServerMessage } from '@muster/protocol';
import type { LiveStore } from '../state/liveStore.ts';

export interface LiveConnectionOptions {
  /** Operator token from the page URL; absent for viewers. */
  readonly token?: string;
  /** ws URL; default `/ws` on the page's origin. */
  readonly url?: string;
  /** First reconnect delay, ms; doubles up to `maxBackoffMs`. Default 250. */
  readonly minBackoffMs?: number;
  /** Default 5000. */
  readonly maxBackoffMs?: number;
  /** Called with errors the server reports (bad action, forbidden...). */
  readonly onError?: (err: ErrorMessage) => void;
}

type OperatorReply = AckMessage | ErrorMessage;

export class LiveConnection {
  private socket: WebSocket | null = null;
  private backoffMs: number;
  private closedByUs = false;
  private nextRequest = 1;
  private readonly pending = new Map<string, (reply: OperatorReply) => void>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private roleValue: 'viewer' | 'operator' = 'viewer';
  private serverVersion: number | null = null;
  private readonly welcomeListeners = new Set<(role: 'viewer' | 'operator') => void>();

  constructor(
    private readonly store: LiveStore,
    private readonly options: LiveConnectionOptions = {},
  ) {
    this.backoffMs = options.minBackoffMs ?? 250;
  }

  start(): void {
    this.closedByUs = false;
    this.open();
  }

  stop(): void {
    this.closedByUs = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.socket?.close();
  }

  /** What the server made this connection (a viewer until a hello with the right token is welcomed). */
  get role(): 'viewer' | 'operator' {
    return this.roleValue;
  }

  /** Called with the role of every `welcome` (after each connect, and after the operator hello). */
  onWelcome(listener: (role: 'viewer' | 'operator') => void): () => void {
    this.welcomeListeners.add(listener);
    return () => this.welcomeListeners.delete(listener);
  }

  /** The server's protocol version (from `welcome`); null before it. */
  get serverProtocolVersion(): number | null {
    return this.serverVersion;
  }

  /** Sends an operator action; resolves with the server's ack or error (never rejects on a refusal). */
  sendAction(action: OperatorMessage): Promise<OperatorReply> {
    const requestId = `op-${this.nextRequest++}`;
    return new Promise((resolve) => {
      if (!this.send({ ...action, requestId })) {
        resolve({ type: 'error', code: 'internal', message: 'not connected to the service', requestId });
        return;
      }
      this.pending.set(requestId, resolve);
    });
  }

  private send(msg: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  private open(): void {
    const url = this.options.url ?? `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
    this.store.setConnection('connecting');
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.backoffMs = this.options.minBackoffMs ?? 250;
      this.store.setConnection('connected');
      const hello: ClientMessage = this.options.token
        ? { type: 'hello', protocolVersion: PROTOCOL_VERSION, token: this.options.token }
        : { type: 'hello', protocolVersion: PROTOCOL_VERSION };
      this.send(hello);
    };
    socket.onmessage = (ev) => {
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return; // A garbled frame is the server's bug; the next snapshot/delta recovers.
      }
      if ((msg.type === 'ack' || msg.type === 'error') && msg.requestId && this.pending.has(msg.requestId)) {
        this.pending.get(msg.requestId)!(msg);
        this.pending.delete(msg.requestId);
        return;
      }
      if (msg.type === 'welcome') {
        this.roleValue = msg.role;
        this.serverVersion = msg.protocolVersion;
        for (const l of this.welcomeListeners) l(msg.role);
      }
      if (msg.type === 'error') this.options.onError?.(msg);
      if (this.store.receive(msg) === 'resync') this.send({ type: 'resync' });
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.roleValue = 'viewer';
      for (const [id, resolve] of this.pending) resolve({ type: 'error', code: 'internal', message: 'connection lost', requestId: id });
      this.pending.clear();
      if (this.closedByUs) return;
      this.store.setConnection('disconnected');
      const delay = this.backoffMs * (0.8 + Math.random() * 0.4);
      this.backoffMs = Math.min(this.options.maxBackoffMs ?? 5000, this.backoffMs * 2);
      this.retryTimer = setTimeout(() => this.open(), delay);
    };
  }
}
