/**
 * The little of Open Sound Control 1.0 that TUIO 1.1 needs: messages with int32 (`i`), float32 (`f`) and
 * string (`s`) arguments, and bundles. Everything is big-endian and padded to 4 bytes; a string is its
 * UTF-8 bytes, a NUL, then NULs up to the next multiple of 4. A bundle is the string `#bundle`, an 8-byte
 * NTP time tag, then each element as an int32 size followed by its bytes.
 *
 * Arguments carry their OSC type explicitly: TUIO clients read session and class ids as int32 and
 * positions as float32, so a JavaScript number alone would not say which to write.
 */

export type OscArg =
  | { readonly type: 'i'; readonly value: number }
  | { readonly type: 'f'; readonly value: number }
  | { readonly type: 's'; readonly value: string };

export const int = (value: number): OscArg => ({ type: 'i', value });
export const float = (value: number): OscArg => ({ type: 'f', value });
export const str = (value: string): OscArg => ({ type: 's', value });

/** The OSC time tag 1 (seconds 0, fraction 1): "immediately", as reacTIVision's TUIO server sends. */
export const IMMEDIATELY: readonly [number, number] = [0, 1];

const BUNDLE_TAG = oscString('#bundle');

/** Bytes of an OSC string: UTF-8, NUL-terminated, NUL-padded to a multiple of 4. */
export function oscString(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.includes(0)) throw new Error(`an OSC string cannot contain NUL: ${JSON.stringify(s)}`);
  const out = Buffer.alloc(padded(bytes.length + 1));
  bytes.copy(out);
  return out;
}

function padded(n: number): number {
  return (n + 3) & ~3;
}

/** One OSC message. Throws on an int that is not a 32-bit integer (a bug in the caller, not the network). */
export function encodeMessage(address: string, args: readonly OscArg[]): Buffer {
  const parts: Buffer[] = [oscString(address), oscString(`,${args.map((a) => a.type).join('')}`)];
  for (const a of args) {
    if (a.type === 's') {
      parts.push(oscString(a.value));
    } else if (a.type === 'i') {
      if (!Number.isInteger(a.value) || a.value < -0x80000000 || a.value > 0x7fffffff) {
        throw new Error(`OSC int32 argument out of range: ${a.value}`);
      }
      const b = Buffer.alloc(4);
      b.writeInt32BE(a.value);
      parts.push(b);
    } else {
      const b = Buffer.alloc(4);
      b.writeFloatBE(a.value);
      parts.push(b);
    }
  }
  return Buffer.concat(parts);
}

/** Bytes an encoded element takes inside a bundle: its int32 size prefix and itself. */
export function bundleElementSize(element: Buffer): number {
  return 4 + element.length;
}

/** Bytes of a bundle holding no elements: `#bundle` and the time tag. */
export const BUNDLE_HEADER_BYTES = BUNDLE_TAG.length + 8;

/** An OSC bundle of already encoded messages (or bundles). */
export function encodeBundle(elements: readonly Buffer[], timeTag: readonly [number, number] = IMMEDIATELY): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(timeTag[0] >>> 0, 0);
  head.writeUInt32BE(timeTag[1] >>> 0, 4);
  const parts: Buffer[] = [BUNDLE_TAG, head];
  for (const e of elements) {
    const size = Buffer.alloc(4);
    size.writeInt32BE(e.length);
    parts.push(size, e);
  }
  return Buffer.concat(parts);
}
