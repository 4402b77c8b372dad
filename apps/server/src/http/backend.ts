/**
 * What the server needs from the rest of the app (the port): the live state, the game log, the saved
 * documents and a way to perform operator actions. The composition root (`app/`) implements it; tests can
 * implement it with plain objects. The server never reaches past this interface.
 */
import type { AckMessage, ErrorCode, GameLogEntry, LiveState, OperatorMessage } from '@muster/protocol';

export type ActionResult = AckMessage['result'];

/** A refused operator action: answered as `{ type: 'error', code, message }`, the connection stays open. */
export class ActionError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ActionError';
    this.code = code;
  }
}

export type BackendEvent = { readonly kind: 'state' } | { readonly kind: 'log'; readonly entry: GameLogEntry };

export interface ServiceBackend {
  /** The newest published state (immutable; a new object per publication). */
  state(): LiveState;
  /** Recent non-pose log entries, oldest first (sent with every snapshot). */
  recentLog(): readonly GameLogEntry[];
  /**
   * Log entries with index ≥ `fromIndex`, at most `limit`. Old entries come from disk, asynchronously; a
   * rejection whose error carries `retryAfterS` (a number) means too many such reads are under way
   * (the server answers 503 with Retry-After).
   */
  log(fromIndex: number, limit: number): readonly GameLogEntry[] | Promise<readonly GameLogEntry[]>;
  roster(): unknown;
  tableProfile(): unknown;
  calibration(): unknown;
  /** Performs a validated operator action; throws ActionError when the game refuses it. */
  perform(action: OperatorMessage): ActionResult;
  /** 'state' after each publication, 'log' for each non-pose log entry. Returns the unsubscribe. */
  subscribe(listener: (event: BackendEvent) => void): () => void;
  /**
   * The log index the published state is as of, when that is not the newest entry (a replay); the
   * default moment of `GET /api/history`. Absent: the newest entry.
   */
  logCursor?(): number;
}
