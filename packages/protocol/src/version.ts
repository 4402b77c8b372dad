/**
 * Wire protocol version (compatibility rules: README.md, "Versions"). Bump on every change to the
 * messages. A client says which version it speaks in `hello`; the server accepts every version from
 * `OLDEST_SUPPORTED_PROTOCOL_VERSION` to `PROTOCOL_VERSION` and answers `unsupported-version` otherwise.
 *
 * - 1: the first protocol.
 * - 2: `LiveState.evaluatedState` and `DeltaMessage.evaluatedState` (which published state, frame and
 *   capture time the evaluation was computed from). Server → client only and additive: a version 1
 *   client ignores the field, so the server still serves version 1 clients.
 * - 3: error code `rate-limited` (a client over the message rate gets it, then the server closes the
 *   socket with 1008). Server → client only and additive: older clients show it like any error.
 * - 4: the rule set is chosen live and the operator's focus is shared: client messages `set-ruleset`
 *   and `set-focus` (new types: the messages older clients send are unchanged, so they are still
 *   served), `LiveState.ruleset` / `LiveState.focus` and the same in deltas (optional, additive), log
 *   entry kind `ruleset`, ack result `{ ruleset }`.
 * - 5: after the roll: operator messages `resolve-offer`, `resolve-roll`, `apply-outcome`, `undo-outcome`,
 *   `clear-outcome`, log entry kinds `outcome`, `outcome-applied`, `outcome-undone`, `outcome-cleared` and
 *   their ack results (new types only: older clients are still served).
 * - 6: the live state through an MQTT broker (`mqtt.ts`): topics `muster/<table>/…` and the messages
 *   `table-status`, `health`, `ruleset` and `game-strip` on them; the ws's snapshot, delta and log go there
 *   unchanged. Nothing on the ws changes, so every older client is still served.
 */
export const PROTOCOL_VERSION = 6 as const;

/**
 * The oldest client version the server still serves: every message a version 1 client sends still means
 * the same (versions 2..5 only added server → client fields and new client message types).
 */
export const OLDEST_SUPPORTED_PROTOCOL_VERSION = 1 as const;

/** Whether a server of this build serves a client that says it speaks `version`. */
export function isSupportedProtocolVersion(version: number): boolean {
  return Number.isInteger(version) && version >= OLDEST_SUPPORTED_PROTOCOL_VERSION && version <= PROTOCOL_VERSION;
}

/** Size limits for anything a client sends. The server enforces them; views may use them to pre-check. */
export const LIMITS = {
  /** Largest client message, UTF-8 bytes (a whole terrain fits comfortably). */
  maxClientMessageBytes: 256 * 1024,
  /** Largest REST request body, bytes. */
  maxRestBodyBytes: 256 * 1024,
  /** Ids (unit, stand, terrain piece, request), characters. */
  maxIdChars: 128,
  /** Free text (reasons, tokens), characters. */
  maxTextChars: 512,
  /** Vertices or points in one terrain piece. */
  maxPointsPerPiece: 2000,
  /** Terrain pieces of each kind (areas, linear, roads, elevations). */
  maxTerrainPieces: 500,
  /** Dice in one roll. */
  maxDicePerRoll: 100,
  /** Largest marker id accepted (ArUco dictionaries stay well below). */
  maxMarkerId: 100_000,
  /** Largest coordinate magnitude accepted, inches (a generous table is 144"). */
  maxCoordinateIn: 10_000,
  /**
   * Deepest nesting of arrays and objects in a client message or REST body (the deepest real message,
   * a terrain, nests 6). Checked by a scan before parsing, so deep input never reaches a recursion.
   */
  maxJsonDepth: 32,
  /**
   * Largest terrain a client may set, UTF-8 bytes of its JSON (~2,000 points; the demo's is 0.7 KB).
   * Every terrain edit is in the game log, and the newest 50 log entries go with every snapshot, so this
   * bounds what a connecting view is sent (50 × 64 KiB at worst).
   */
  maxTerrainBytes: 64 * 1024,
  /** Rule-set ids (`set-ruleset`), characters. */
  maxRulesetIdChars: 64,
} as const;
