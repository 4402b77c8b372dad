/**
 * What changed between two table states, as the engine invalidates by it: which globals, which units
 * (their fields or any of their stands), which stands, and the footprint boxes those stands left and
 * entered. Change is found by identity first, then by comparing plain data, never by building text.
 */
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import { samePlainData } from '../samePlainData.ts';
import { standFootprintBox } from './standGrid.ts';

/** Bits of `TableChanges.globals`, one per kind of global read (tableReader.ts). */
export const GLOBAL_TABLE = 1; // table size, version, and any top-level field not listed below
export const GLOBAL_TERRAIN = 2;
export const GLOBAL_COMMANDERS = 4;
export const GLOBAL_OPTIONAL_RULES = 8;
export const GLOBAL_PARAMETERS = 16;
export const GLOBAL_ROSTER = 32; // unit ids and their order
export const GLOBAL_ALL_STANDS = 64; // any stand at all
/** Every box read: the stands' order changed, so any list of stands in a box may be in a new order. */
export const GLOBAL_ALL_BOXES = 128;

const FIELD_BITS: Readonly<Record<string, number>> = {
  terrain: GLOBAL_TERRAIN,
  commanders: GLOBAL_COMMANDERS,
  optionalRules: GLOBAL_OPTIONAL_RULES,
  rulesetParameters: GLOBAL_PARAMETERS,
};

export interface TableChanges {
  globals: number;
  /** Units whose own fields changed (or that came or went). */
  readonly unitRecords: Set<string>;
  /** Units whose fields or any of whose stands changed. */
  readonly units: Set<string>;
  readonly stands: Set<string>;
  /** Footprint boxes of changed stands, before and after (4 numbers each). */
  readonly boxes: number[];
}

/** The by-id views of one state the engine keeps between updates. */
export interface TableIndex {
  readonly state: TableState;
  readonly units: Map<string, Unit>;
  readonly stands: Map<string, Stand>;
  readonly unitIds: readonly string[];
}

export function indexTable(state: TableState): TableIndex {
  const units = new Map<string, Unit>();
  for (const u of state.units) units.set(u.id, u);
  const stands = new Map<string, Stand>();
  for (const s of state.stands) stands.set(s.id, s);
  return { state, units, stands, unitIds: state.units.map((u) => u.id) };
}

function pushBox(out: number[], b: BoundingBoxIn): void {
  out.push(b.minXIn, b.minYIn, b.maxXIn, b.maxYIn);
}

/**
 * The changes from `prev` to `next`, and the index of `next` (reusing `prev`'s maps where the units or
 * stands are the same arrays).
 */
export function diffTables(prev: TableIndex, next: TableState): { changes: TableChanges; index: TableIndex } {
  const changes: TableChanges = { globals: 0, unitRecords: new Set(), units: new Set(), stands: new Set(), boxes: [] };
  const a = prev.state as unknown as Record<string, unknown>;
  const b = next as unknown as Record<string, unknown>;
  for (const k in b) {
    if (k === 'stands' || k === 'units') continue;
    if (a[k] !== b[k] && !samePlainData(a[k], b[k])) changes.globals |= FIELD_BITS[k] ?? GLOBAL_TABLE;
  }
  for (const k in a) if (k !== 'stands' && k !== 'units' && !(k in b) && a[k] !== undefined) changes.globals |= FIELD_BITS[k] ?? GLOBAL_TABLE;

  // Units: the roll (ids in order), then each unit's fields.
  let units = prev.units;
  let unitIds = prev.unitIds;
  if (next.units !== prev.state.units) {
    let sameRoll = next.units.length === prev.unitIds.length;
    for (let i = 0; sameRoll && i < next.units.length; i++) sameRoll = next.units[i]!.id === prev.unitIds[i];
    if (!sameRoll) {
      changes.globals |= GLOBAL_ROSTER;
      units = new Map();
      for (const u of next.units) units.set(u.id, u);
      unitIds = next.units.map((u) => u.id);
      for (const id of prev.units.keys()) {
        if (units.has(id)) continue;
        changes.units.add(id);
        changes.unitRecords.add(id);
      }
    } else units = prev.units; // the last state's index is dropped after this diff: its map is updated in place
    for (const u of next.units) {
      const old = prev.units.get(u.id);
      if (old !== u && (old === undefined || !samePlainData(old, u))) {
        changes.units.add(u.id);
        changes.unitRecords.add(u.id);
      }
      units.set(u.id, u);
    }
  }

  // Stands: each changed one, its unit(s) and its boxes before and after.
  let stands = prev.stands;
  if (next.stands !== prev.state.stands) {
    const before = prev.state.stands;
    const after = next.stands;
    let sameIds = before.length === after.length;
    for (let i = 0; sameIds && i < after.length; i++) sameIds = after[i] === before[i] || after[i]!.id === before[i]!.id;
    // The same stands in the same places (a tracker moving some of them): update the last map in place.
    stands = sameIds ? prev.stands : new Map();
    let sameOrder = true;
    let kept = 0;
    for (let i = 0; i < after.length; i++) {
      const s = after[i]!;
      const old = before[i] === s ? s : prev.stands.get(s.id);
      if (old === s) {
        kept++;
        if (!sameIds) stands.set(s.id, s);
        continue;
      }
      stands.set(s.id, s);
      if (old === undefined) {
        changes.stands.add(s.id);
        changes.units.add(s.unitId);
        pushBox(changes.boxes, standFootprintBox(s));
        continue;
      }
      kept++;
      if (!samePlainData(old, s)) {
        changes.stands.add(s.id);
        changes.units.add(s.unitId);
        changes.units.add(old.unitId);
        pushBox(changes.boxes, standFootprintBox(old));
        pushBox(changes.boxes, standFootprintBox(s));
      }
    }
    if (!sameIds) {
      for (const s of before) {
        if (stands.has(s.id)) continue;
        changes.stands.add(s.id);
        changes.units.add(s.unitId);
        pushBox(changes.boxes, standFootprintBox(s));
      }
    }
    // The kept stands in the same relative order? Then a list of stands in a box changes only where a
    // changed stand's box meets it.
    if (kept !== before.length || kept !== after.length) {
      let j = 0;
      for (const s of after) {
        if (!prev.stands.has(s.id)) continue;
        while (j < before.length && !stands.has(before[j]!.id)) j++;
        if (before[j]?.id !== s.id) {
          sameOrder = false;
          break;
        }
        j++;
      }
    } else {
      for (let i = 0; sameOrder && i < after.length; i++) sameOrder = after[i] === before[i] || after[i]!.id === before[i]!.id;
    }
    if (!sameOrder) changes.globals |= GLOBAL_ALL_BOXES;
    if (changes.stands.size > 0 || !sameOrder) changes.globals |= GLOBAL_ALL_STANDS;
  }
  return { changes, index: { state: next, units, stands, unitIds } };
}
