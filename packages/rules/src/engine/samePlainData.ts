/**
 * Structural equality of plain JSON-like data (objects, arrays, strings, numbers, booleans, null,
 * undefined), without building strings. Object key order does not matter, a field set to undefined counts
 * as absent (as in JSON), and NaN equals NaN (JSON writes both as null). Sessions use it to tell a changed
 * unit or table from the same one re-sent as new objects; the wire protocol uses it to diff states. No
 * imports, so the browser views can use it (`@muster/rules/plainData`) without bundling the engine.
 */
export function samePlainData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!samePlainData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let countA = 0;
  for (const k in ra) {
    if (ra[k] === undefined) continue;
    countA++;
    if (!samePlainData(ra[k], rb[k])) return false;
  }
  let countB = 0;
  for (const k in rb) if (rb[k] !== undefined) countB++;
  return countA === countB;
}
