/**
 * Wire protocol version. Bump on any change a peer of the previous version would misread. A client says
 * which version it speaks in `hello`; the server answers `unsupported-version` when they differ.
 */
export const PROTOCOL_VERSION = 1 as const;

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
} as const;
