/**
 * Structural equality of plain JSON-like data (objects, arrays, strings, numbers, booleans, null,
 * undefined), without building strings: what `JSON.stringify(a) === JSON.stringify(b)` decides for the
 * table state, at a fraction of the cost when most of the data is shared or unchanged. Differences from
 * JSON text that cannot occur in a validated table state (key order, NaN) are resolved towards "not the
 * same", which only costs a recomputation.
 */
export function samePlainData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
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
    if (ra[k] === undefined) continue; // JSON drops undefined fields
    countA++;
    if (!samePlainData(ra[k], rb[k])) return false;
  }
  let countB = 0;
  for (const k in rb) if (rb[k] !== undefined) countB++;
  return countA === countB;
}
