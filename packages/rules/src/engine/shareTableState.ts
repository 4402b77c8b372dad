/**
 * `shareUnchanged` for a table state, with its stands compared field by field: a stand is a handful of
 * numbers and strings, and the mega-game table has a thousand of them, so the generic walk (key by key,
 * both ways) was most of the cost. The fields are the `Stand` type's, checked at compile time: a field added
 * to `Stand` must be added here, or this file stops compiling.
 */
import type { Stand, TableState } from '../model/tableState.ts';
import { shareUnchanged } from './shareUnchanged.ts';

const STAND_FIELDS = ['id', 'unitId', 'pose', 'widthIn', 'depthIn', 'role'] as const;
// Every field of Stand is listed (and nothing else): compile-time only.
type Unlisted = Exclude<keyof Stand, (typeof STAND_FIELDS)[number]>;
const EVERY_STAND_FIELD_LISTED: [Unlisted] extends [never] ? true : never = true;
void EVERY_STAND_FIELD_LISTED;

function sameStand(a: Stand, b: Stand): boolean {
  return (
    a.id === b.id &&
    a.unitId === b.unitId &&
    a.role === b.role &&
    a.widthIn === b.widthIn &&
    a.depthIn === b.depthIn &&
    a.pose.xIn === b.pose.xIn &&
    a.pose.yIn === b.pose.yIn &&
    a.pose.headingDeg === b.pose.headingDeg
  );
}

/** The new stands, each an equal previous stand's own object where there is one (paired by place, else by id). */
function shareStands(prev: readonly Stand[], next: readonly Stand[]): readonly Stand[] {
  let same = prev.length === next.length;
  let byId: Map<string, Stand> | undefined;
  const out: Stand[] = new Array<Stand>(next.length);
  for (let i = 0; i < next.length; i++) {
    const s = next[i]!;
    let before = i < prev.length ? prev[i] : undefined;
    if (before === undefined || before.id !== s.id) {
      if (!byId) {
        byId = new Map();
        for (const p of prev) byId.set(p.id, p);
      }
      before = byId.get(s.id);
    }
    const kept = before !== undefined && (before === s || sameStand(before, s)) ? before : s;
    out[i] = kept;
    if (kept !== prev[i]) same = false;
  }
  return same ? prev : out;
}

function definedKeys(o: object): number {
  let n = 0;
  for (const k in o) if ((o as Record<string, unknown>)[k] !== undefined) n++;
  return n;
}

export function shareTableState(prev: TableState | undefined, next: TableState): TableState {
  if (!prev || prev === next) return next;
  const before = prev as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let same = true;
  for (const k in after) {
    const was = before[k];
    // The stands field by field; units, commanders, terrain and the rest by the generic walk.
    const shared = k === 'stands' && Array.isArray(was) ? shareStands(was as Stand[], next.stands) : shareUnchanged(was, after[k]);
    out[k] = shared;
    if (shared !== was) same = false;
  }
  return same && definedKeys(before) === definedKeys(after) ? prev : (out as unknown as TableState);
}
