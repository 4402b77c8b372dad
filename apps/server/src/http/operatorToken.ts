/** The operator token: printed at start, required for every mutating REST call and ws operator action. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 128 random bits, URL-safe. */
export function createOperatorToken(): string {
  return randomBytes(16).toString('base64url');
}

/** Constant-time comparison (hashing first makes the lengths equal). */
export function tokenMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
