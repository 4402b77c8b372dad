/**
 * `next` with every part that equals the matching part of `prev` (as `samePlainData` compares: key order
 * ignored, undefined fields absent, NaN equal to NaN) replaced by `prev`'s own object. A state that crossed a
 * thread or a socket arrives as all-new objects; the sessions tell unchanged stands, units and terrain by
 * identity first and keep caches per object, so the rules worker shares each arriving state with the one
 * before it: one comparison of the state, after which every session's identity tests hold again. Lists
 * whose items have string ids (stands, units, commanders, terrain pieces) are paired by id when their order
 * changed. Pure: neither argument is changed; parts of both end up in the answer.
 */
export function shareUnchanged<T>(prev: unknown, next: T): T {
  return share(prev, next) as T;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function idsOf(list: readonly unknown[]): Map<string, unknown> {
  const byId = new Map<string, unknown>();
  for (const item of list) if (isRecord(item) && typeof item['id'] === 'string') byId.set(item['id'], item);
  return byId;
}

/** Whether `shared` is `before` itself (NaN counts as itself: it is the one value not equal to itself). */
function isKept(shared: unknown, before: unknown): boolean {
  return shared === before || (shared !== shared && before !== before);
}

function share(prev: unknown, next: unknown): unknown {
  if (prev === next) return next;
  if (typeof next !== 'object' || next === null || typeof prev !== 'object' || prev === null) {
    return typeof prev === 'number' && typeof next === 'number' && Number.isNaN(prev) && Number.isNaN(next) ? prev : next;
  }
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    let same = prev.length === next.length;
    let byId: Map<string, unknown> | undefined;
    const out: unknown[] = new Array<unknown>(next.length);
    for (let i = 0; i < next.length; i++) {
      const item: unknown = next[i];
      let before: unknown = i < prev.length ? prev[i] : undefined;
      // An item with an id meets the item of the same id, wherever the list had it.
      if (isRecord(item) && typeof item['id'] === 'string' && !(isRecord(before) && before['id'] === item['id'])) {
        byId ??= idsOf(prev);
        before = byId.get(item['id']);
      }
      const shared = share(before, item);
      out[i] = shared;
      if (!isKept(shared, prev[i])) same = false;
    }
    return same ? prev : out;
  }
  if (Array.isArray(prev)) return next;
  const before = prev as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  // Most parts are unchanged: compare first and make a new object only once something differs.
  let out: Record<string, unknown> | undefined;
  let countAfter = 0;
  for (const k in after) {
    const v = after[k];
    if (v === undefined) {
      if (out) out[k] = v;
      continue;
    }
    countAfter++;
    const was = before[k];
    const shared = share(was, v);
    if (out) out[k] = shared;
    else if (!isKept(shared, was)) {
      // The first difference: the keys before it are kept as they were.
      out = {};
      for (const j in after) {
        if (j === k) break;
        out[j] = after[j] === undefined ? undefined : before[j];
      }
      out[k] = shared;
    }
  }
  if (out) return out;
  let countBefore = 0;
  for (const k in before) if (before[k] !== undefined) countBefore++;
  if (countBefore === countAfter) return prev;
  // Only fields the new value lacks differ: a copy of it with the previous values of its own fields.
  const copy: Record<string, unknown> = {};
  for (const k in after) copy[k] = after[k] === undefined ? undefined : before[k];
  return copy;
}
