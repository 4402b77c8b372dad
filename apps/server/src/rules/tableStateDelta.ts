/**
 * What the rules worker is sent for each table state after its first: only what changed since the state
 * sent before it. A 1,000-stand state posted whole was structured-cloned on the frame loop every frame
 * (about 1.5 ms), and arrived in the worker as all-new objects, so the sessions' identity tests and
 * per-object caches missed on every update. With a delta, the worker rebuilds the state from the last one:
 * every stand and field that did not change is the last state's own object.
 * - Stands are compared by value (`sameStand`: the tracker holds a still stand's pose exactly, see
 *   apps/vision/src/track), so a stand rebuilt with the same pose is not sent.
 * - Other fields (units, commanders, terrain, table, parameters) are sent when they differ by identity and
 *   by value (`samePlainData`), and named in `removed` when they are gone.
 */
import type { Stand, TableState } from '@muster/rules';
import { samePlainData } from '@muster/rules/plainData';

export interface TableStateDelta {
  /** Fields other than the stands that changed since the last state (the others are the last state's). */
  readonly fields: Partial<Omit<TableState, 'stands'>>;
  /** Fields the last state had and this one has not. */
  readonly removed: readonly string[];
  /** Stands new or changed since the last state. */
  readonly changedStands: readonly Stand[];
  /** The stands' ids in order, when they are not the last state's ids in the same order. */
  readonly standIds?: readonly string[];
  /**
   * Without `standIds`: each changed stand's place in the stands array, in the order of `changedStands`
   * (the worker then copies the last array and writes those places, instead of looking up every stand).
   */
  readonly changedPlaces?: readonly number[];
}

// Every field of Stand is compared (a field added to Stand must be added here: compile-time check).
const STAND_FIELDS = ['id', 'unitId', 'pose', 'widthIn', 'depthIn', 'role'] as const;
type Unlisted = Exclude<keyof Stand, (typeof STAND_FIELDS)[number]>;
const EVERY_STAND_FIELD_COMPARED: [Unlisted] extends [never] ? true : never = true;
void EVERY_STAND_FIELD_COMPARED;

export function sameStand(a: Stand, b: Stand): boolean {
  return (
    a === b ||
    (a.id === b.id &&
      a.unitId === b.unitId &&
      a.role === b.role &&
      a.widthIn === b.widthIn &&
      a.depthIn === b.depthIn &&
      a.pose.xIn === b.pose.xIn &&
      a.pose.yIn === b.pose.yIn &&
      a.pose.headingDeg === b.pose.headingDeg)
  );
}

/** The delta from `last` (the state sent before) to `next`. */
export function encodeTableStateDelta(last: TableState, next: TableState): TableStateDelta {
  const fields: Record<string, unknown> = {};
  const removed: string[] = [];
  const before = last as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  for (const k in after) {
    if (k === 'stands' || after[k] === undefined) continue;
    if (after[k] !== before[k] && !samePlainData(after[k], before[k])) fields[k] = after[k];
  }
  for (const k in before) if (k !== 'stands' && before[k] !== undefined && after[k] === undefined) removed.push(k);
  const changedStands: Stand[] = [];
  const changedPlaces: number[] = [];
  let sameOrder = last.stands.length === next.stands.length;
  let lastById: Map<string, Stand> | undefined;
  for (let i = 0; i < next.stands.length; i++) {
    const s = next.stands[i]!;
    let was: Stand | undefined = last.stands[i];
    if (was === undefined || was.id !== s.id) {
      sameOrder = false;
      if (!lastById) {
        lastById = new Map();
        for (const p of last.stands) lastById.set(p.id, p);
      }
      was = lastById.get(s.id);
    }
    if (was === undefined || !sameStand(was, s)) {
      changedStands.push(s);
      changedPlaces.push(i);
    }
  }
  const order = sameOrder ? (changedPlaces.length > 0 ? { changedPlaces } : {}) : { standIds: next.stands.map((s) => s.id) };
  return { fields: fields as TableStateDelta['fields'], removed, changedStands, ...order };
}

/** Whether each changed stand's place holds a stand of its id in `stands` (else look them up by id). */
function placesHold(stands: readonly Stand[], changedStands: readonly Stand[], places: readonly number[]): boolean {
  if (places.length !== changedStands.length) return false;
  for (let k = 0; k < places.length; k++) if (stands[places[k]!]?.id !== changedStands[k]!.id) return false;
  return true;
}

/** The state `delta` describes after `last`: unchanged stands and fields are `last`'s own objects. */
export function applyTableStateDelta(last: TableState, delta: TableStateDelta): TableState {
  const changedById = (): Map<string, Stand> => new Map(delta.changedStands.map((s) => [s.id, s]));
  let stands: Stand[];
  if (delta.standIds) {
    const changed = changedById();
    const lastById = new Map<string, Stand>();
    for (const s of last.stands) lastById.set(s.id, s);
    stands = delta.standIds.map((id) => {
      const s = changed.get(id) ?? lastById.get(id);
      if (!s) throw new Error(`table state delta names stand ${id}, which neither it nor the last state has`);
      return s;
    });
  } else if (delta.changedPlaces !== undefined && placesHold(last.stands, delta.changedStands, delta.changedPlaces)) {
    stands = last.stands.slice();
    for (let k = 0; k < delta.changedPlaces.length; k++) stands[delta.changedPlaces[k]!] = delta.changedStands[k]!;
  } else {
    const changed = changedById();
    stands = last.stands.map((s) => changed.get(s.id) ?? s);
  }
  const out: Record<string, unknown> = { ...(last as unknown as Record<string, unknown>), ...(delta.fields as Record<string, unknown>), stands };
  for (const k of delta.removed) delete out[k];
  return out as unknown as TableState;
}
