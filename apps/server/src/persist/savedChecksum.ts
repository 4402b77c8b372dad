/**
 * A checksum inside each JSON document the game changes while it runs (game.json, tag-bindings.json,
 * terrain.json): the last field, `"checksum": "sha256:<hex>"`, is the SHA-256 of the document's other
 * fields as compact JSON in the order written. A file whose checksum does not match was changed after
 * Muster saved it: damage (a flipped bit, a digit that moved a stand's binding to another marker) or a
 * hand edit. A file without the field (written by an older version, or by hand) is read as before.
 */
import { createHash } from 'node:crypto';

export const CHECKSUM_FIELD = 'checksum';

function digest(value: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(value)).digest('hex')}`;
}

/** The document with its checksum as the last field (an object; anything else is returned as it is). */
export function withChecksum(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { [CHECKSUM_FIELD]: _old, ...rest } = value as Record<string, unknown>;
  return { ...rest, [CHECKSUM_FIELD]: digest(rest) };
}

export type ChecksumVerdict = { readonly ok: true; readonly value: unknown; readonly checked: boolean } | { readonly ok: false; readonly reason: string };

/**
 * The document without its checksum field, and whether it had one that matched. `ok: false` when the
 * field is there and does not match (or is not a checksum).
 */
export function verifyChecksum(value: unknown): ChecksumVerdict {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !(CHECKSUM_FIELD in value)) return { ok: true, value, checked: false };
  const { [CHECKSUM_FIELD]: sum, ...rest } = value as Record<string, unknown>;
  if (typeof sum !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(sum)) return { ok: false, reason: `"${CHECKSUM_FIELD}" is not a checksum (got ${JSON.stringify(sum)?.slice(0, 80)})` };
  if (sum !== digest(rest)) return { ok: false, reason: 'the content does not match its checksum' };
  return { ok: true, value: rest, checked: true };
}
