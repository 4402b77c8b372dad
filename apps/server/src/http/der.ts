/**
 * The few DER (ASN.1 distinguished encoding) pieces a self-signed X.509 certificate needs: enough to
 * write one with `node:crypto`'s keys and signatures, and no more. Each function returns the whole
 * encoded element (tag, length, contents).
 */

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function derElement(tag: number, contents: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(contents.length), contents]);
}

export const derSequence = (...items: Uint8Array[]): Buffer => derElement(0x30, Buffer.concat(items));
export const derSet = (...items: Uint8Array[]): Buffer => derElement(0x31, Buffer.concat(items));
export const derOctetString = (bytes: Uint8Array): Buffer => derElement(0x04, bytes);
export const derUtf8String = (text: string): Buffer => derElement(0x0c, Buffer.from(text, 'utf8'));
export const derBoolean = (value: boolean): Buffer => derElement(0x01, Buffer.from([value ? 0xff : 0x00]));
/** A BIT STRING of whole bytes (no unused bits). */
export const derBitString = (bytes: Uint8Array): Buffer => derElement(0x03, Buffer.concat([Buffer.from([0]), bytes]));
/** `[n]` EXPLICIT, constructed: wraps an element. */
export const derExplicit = (n: number, inner: Uint8Array): Buffer => derElement(0xa0 | n, inner);
/** `[n]` IMPLICIT, primitive (e.g. a GeneralName's dNSName [2], iPAddress [7]). */
export const derImplicit = (n: number, bytes: Uint8Array): Buffer => derElement(0x80 | n, bytes);

/** A non-negative INTEGER from big-endian magnitude bytes. */
export function derUnsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  // A set top bit would read as negative: prefix a zero byte.
  return derElement(0x02, (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : Buffer.from(trimmed.length ? trimmed : [0]));
}

export function derSmallInteger(n: number): Buffer {
  if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) throw new RangeError(`derSmallInteger: ${n}`);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return derUnsignedInteger(Buffer.from(bytes.length ? bytes : [0]));
}

/** An OBJECT IDENTIFIER from its dotted form, e.g. `2.5.4.3`. */
export function derOid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((a) => !Number.isInteger(a) || a < 0)) throw new RangeError(`derOid: ${dotted}`);
  const out: number[] = [arcs[0]! * 40 + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [];
    let v = arc;
    do {
      groups.unshift(v % 128);
      v = Math.floor(v / 128);
    } while (v > 0);
    groups.forEach((g, i) => out.push(i < groups.length - 1 ? g | 0x80 : g));
  }
  return derElement(0x06, Buffer.from(out));
}

/** A certificate time: UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
export function derTime(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-11-24T15:31:02.123Z
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  const year = date.getUTCFullYear();
  return year < 2050 ? derElement(0x17, Buffer.from(digits.slice(2), 'ascii')) : derElement(0x18, Buffer.from(digits, 'ascii'));
}
