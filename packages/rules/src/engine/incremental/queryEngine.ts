/**
 * The incremental engine: it runs a rule set's queries (query.ts) over a table state, records what each
 * one read (tableReader.ts), and when the table changes recomputes only the queries whose reads the change
 * meets. The pattern is dependency-tracked memoisation (Salsa's red-green revisions, Adapton's dirtying),
 * with spatial keys for this domain:
 * - a new state is compared with the last one (tableChanges.ts): changed globals, units, stands, and the
 *   footprint boxes the changed stands left and entered;
 * - the queries that read a changed global, unit or stand, or a box one of those footprints meets, are
 *   stale; everything that read them, transitively, may be;
 * - the root is pulled: a query that may be stale checks what it read, in order; if none of those answers
 *   changed since it was last verified it is kept, otherwise it runs again. An answer that runs again to the
 *   same result (by the query's `equal`) counts as unchanged, so its readers are spared (early cut-off).
 * A one-shot evaluation runs the same queries with recording off: each is computed once, nothing kept.
 */
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import { samePlainData } from '../samePlainData.ts';
import type { Query, QueryRuleset } from './query.ts';
import type { Accumulator, TableReader } from './tableReader.ts';
import { StandGrid } from './standGrid.ts';
import {
  diffTables,
  GLOBAL_ALL_BOXES,
  GLOBAL_ALL_STANDS,
  GLOBAL_COMMANDERS,
  GLOBAL_OPTIONAL_RULES,
  GLOBAL_PARAMETERS,
  GLOBAL_ROSTER,
  GLOBAL_TABLE,
  GLOBAL_TERRAIN,
  indexTable,
  type TableChanges,
  type TableIndex,
} from './tableChanges.ts';

const CLEAN = 0;
/** Something it read may have changed: check its reads before using it. */
const MAYBE = 1;
/** Something it read directly did change: run it again. */
const STALE = 2;

const NO_STANDS: readonly Stand[] = [];

/** One query's answer for one key, with what it read. */
class MemoNode {
  readonly query: Query<unknown, unknown>;
  readonly key: string;
  value: unknown = undefined;
  /** Never computed yet. */
  fresh = true;
  state = STALE;
  computing = false;
  /** Revision at which the answer last changed, and at which it was last known good. */
  changedAt = 0;
  verifiedAt = 0;
  /** Queries it read, in order (each once). */
  deps: MemoNode[] = [];
  units: string[] = [];
  stands: string[] = [];
  globals = 0;
  /** Its slots in the engine's box store. */
  boxSlots: number[] = [];
  /** Queries that read it. */
  readonly dependents = new Set<MemoNode>();
  /** Items it reported itself, by channel. */
  items: [Accumulator<unknown>, unknown][] | undefined = undefined;
  /** Whether it or anything it read reported an item (so a walk for them can skip the rest). */
  itemsBelow = false;
  /** Revision at which the items it or anything it read reported last changed. */
  itemsChangedAt = 0;

  constructor(query: Query<unknown, unknown>, key: string) {
    this.query = query;
    this.key = key;
  }
}

const GLOBAL_BITS = [GLOBAL_TABLE, GLOBAL_TERRAIN, GLOBAL_COMMANDERS, GLOBAL_OPTIONAL_RULES, GLOBAL_PARAMETERS, GLOBAL_ROSTER, GLOBAL_ALL_STANDS];

/** Counters for tests and the bench: how much each update did. */
export interface EngineStats {
  /** Queries run since the engine started. */
  computed: number;
  /** Queries checked and kept without running. */
  verified: number;
  /** Queries marked stale directly by a change. */
  invalidated: number;
}

export class QueryEngine<C, V> {
  readonly #ruleset: QueryRuleset<C, V>;
  /** Record reads (a live session) or not (a one-shot evaluation). */
  readonly #tracking: boolean;
  readonly #context: C;
  readonly #reader: TableReader<C>;
  #index: TableIndex | undefined;
  #grid: StandGrid | undefined;
  #unitStands = new Map<string, readonly Stand[]>();
  readonly #nodes = new Map<Query<unknown, unknown>, Map<string, MemoNode>>();
  #revision = 0;
  #current: MemoNode | undefined;
  // Reverse indexes: which nodes read a unit, a stand, a global.
  readonly #byUnit = new Map<string, Set<MemoNode>>();
  readonly #byStand = new Map<string, Set<MemoNode>>();
  readonly #byGlobal = new Map<number, Set<MemoNode>>();
  // The box store: 4 numbers per slot, the node owning each slot, free slots.
  #boxes = new Float64Array(256);
  #boxOwners: (MemoNode | undefined)[] = [];
  #freeSlots: number[] = [];
  #slotCount = 0;
  readonly stats: EngineStats = { computed: 0, verified: 0, invalidated: 0 };
  /** For the engine's own tests: record reads of boxes (off to prove the chains catch a missed read). */
  recordBoxReads = true;

  constructor(ruleset: QueryRuleset<C, V>, options: { tracking: boolean }) {
    this.#ruleset = ruleset;
    this.#tracking = options.tracking;
    this.#reader = this.#makeReader();
    this.#context = ruleset.context(this.#reader);
  }

  /** The root's answer for `state`, recomputing only what the change from the last state meets. */
  evaluate(state: TableState): V {
    this.#setState(state);
    const root = this.#node(this.#ruleset.root as Query<unknown, unknown>, '');
    const saved = this.#current;
    this.#current = undefined;
    try {
      return this.#pull(root) as V;
    } finally {
      this.#current = saved;
    }
  }

  #setState(state: TableState): void {
    const prev = this.#index;
    if (prev?.state === state) return;
    this.#revision++;
    if (!prev || !this.#tracking) {
      if (prev && !this.#tracking) throw new Error('a one-shot engine evaluates one state');
      this.#index = indexTable(state);
      return;
    }
    const { changes, index } = diffTables(prev, state);
    this.#index = index;
    if (changes.stands.size > 0 || changes.globals & GLOBAL_ALL_STANDS) this.#grid = undefined;
    for (const id of changes.units) this.#unitStands.delete(id);
    if (changes.globals & GLOBAL_ROSTER) this.#unitStands.clear();
    this.#invalidate(changes);
  }

  #invalidate(changes: TableChanges): void {
    const stale: MemoNode[] = [];
    const mark = (set: Set<MemoNode> | undefined): void => {
      if (set) for (const n of set) if (n.state !== STALE) (n.state = STALE), stale.push(n);
    };
    for (const bit of GLOBAL_BITS) if (changes.globals & bit) mark(this.#byGlobal.get(bit));
    for (const id of changes.units) mark(this.#byUnit.get(id));
    for (const id of changes.stands) mark(this.#byStand.get(id));
    const cb = changes.boxes;
    const all = (changes.globals & GLOBAL_ALL_BOXES) !== 0;
    if (cb.length > 0 || all) {
      // One test against the union of the changed boxes first: most slots are nowhere near a change.
      let ux0 = Infinity, uy0 = Infinity, ux1 = -Infinity, uy1 = -Infinity;
      for (let j = 0; j < cb.length; j += 4) {
        if (cb[j]! < ux0) ux0 = cb[j]!;
        if (cb[j + 1]! < uy0) uy0 = cb[j + 1]!;
        if (cb[j + 2]! > ux1) ux1 = cb[j + 2]!;
        if (cb[j + 3]! > uy1) uy1 = cb[j + 3]!;
      }
      const boxes = this.#boxes;
      for (let s = 0; s < this.#slotCount; s++) {
        const owner = this.#boxOwners[s];
        if (owner === undefined || owner.state === STALE) continue;
        const x0 = boxes[4 * s]!, y0 = boxes[4 * s + 1]!, x1 = boxes[4 * s + 2]!, y1 = boxes[4 * s + 3]!;
        let hit = all;
        if (!hit && x0 <= ux1 && x1 >= ux0 && y0 <= uy1 && y1 >= uy0) {
          for (let j = 0; j < cb.length && !hit; j += 4) hit = x0 <= cb[j + 2]! && x1 >= cb[j]! && y0 <= cb[j + 3]! && y1 >= cb[j + 1]!;
        }
        if (hit) (owner.state = STALE), stale.push(owner);
      }
    }
    this.stats.invalidated += stale.length;
    // Whatever read a stale node may be stale (a clean node's reads are all clean, so stop at a non-clean one).
    const queue: MemoNode[] = [];
    for (const n of stale) for (const d of n.dependents) if (d.state === CLEAN) (d.state = MAYBE), queue.push(d);
    while (queue.length > 0) {
      const n = queue.pop()!;
      for (const d of n.dependents) if (d.state === CLEAN) (d.state = MAYBE), queue.push(d);
    }
  }

  #node(q: Query<unknown, unknown>, key: string): MemoNode {
    let byKey = this.#nodes.get(q);
    if (!byKey) this.#nodes.set(q, (byKey = new Map()));
    let n = byKey.get(key);
    if (!n) byKey.set(key, (n = new MemoNode(q, key)));
    return n;
  }

  #pull(n: MemoNode): unknown {
    if (n.state === CLEAN) return n.value;
    if (n.computing) throw new Error(`query cycle: ${n.query.name}(${n.key}) reads itself`);
    if (n.state === MAYBE) {
      let changed = false;
      for (const d of n.deps) {
        this.#pull(d);
        if (d.changedAt > n.verifiedAt || d.itemsChangedAt > n.verifiedAt) {
          changed = true;
          break;
        }
      }
      if (!changed) {
        n.state = CLEAN;
        n.verifiedAt = this.#revision;
        this.stats.verified++;
        return n.value;
      }
    }
    this.#compute(n);
    return n.value;
  }

  #compute(n: MemoNode): void {
    if (this.#tracking) this.#forgetReads(n);
    const saved = this.#current;
    this.#current = n;
    n.computing = true;
    const verifiedBefore = n.verifiedAt;
    const oldItems = n.items;
    n.items = undefined;
    let value: unknown;
    try {
      value = n.query.compute(this.#context, n.key);
    } catch (e) {
      // Leave the node to run again next time (its reads may be half recorded).
      n.state = STALE;
      n.fresh = true;
      throw e;
    } finally {
      n.computing = false;
      this.#current = saved;
    }
    this.stats.computed++;
    // Reported items count as part of the answer for whoever collects them: a change in its own, or in
    // those of anything it read, is passed up as a change of items.
    let below = n.items !== undefined;
    let itemsChanged = !samePlainData(oldItems, n.items);
    for (const d of n.deps) {
      if (d.itemsBelow) below = true;
      if (d.itemsChangedAt > verifiedBefore) itemsChanged = true;
    }
    n.itemsBelow = below;
    if (itemsChanged) n.itemsChangedAt = this.#revision;
    if (n.fresh || !n.query.equal(n.value, value)) {
      n.value = value;
      n.changedAt = this.#revision;
    }
    n.fresh = false;
    n.state = CLEAN;
    n.verifiedAt = this.#revision;
  }

  #forgetReads(n: MemoNode): void {
    for (const d of n.deps) d.dependents.delete(n);
    for (const id of n.units) this.#byUnit.get(id)?.delete(n);
    for (const id of n.stands) this.#byStand.get(id)?.delete(n);
    if (n.globals !== 0) for (const bit of GLOBAL_BITS) if (n.globals & bit) this.#byGlobal.get(bit)?.delete(n);
    for (const s of n.boxSlots) {
      this.#boxOwners[s] = undefined;
      this.#freeSlots.push(s);
    }
    n.deps = [];
    n.units = [];
    n.stands = [];
    n.globals = 0;
    n.boxSlots = [];
  }

  #readGlobal(bit: number): void {
    const n = this.#current;
    if (!n || !this.#tracking || n.globals & bit) return;
    n.globals |= bit;
    let set = this.#byGlobal.get(bit);
    if (!set) this.#byGlobal.set(bit, (set = new Set()));
    set.add(n);
  }

  #readId(index: Map<string, Set<MemoNode>>, list: 'units' | 'stands', id: string): void {
    const n = this.#current;
    if (!n || !this.#tracking) return;
    let set = index.get(id);
    if (!set) index.set(id, (set = new Set()));
    if (set.has(n)) return;
    set.add(n);
    n[list].push(id);
  }

  #readBox(box: BoundingBoxIn): void {
    const n = this.#current;
    if (!n || !this.#tracking || !this.recordBoxReads) return;
    const slot = this.#freeSlots.length > 0 ? this.#freeSlots.pop()! : this.#slotCount++;
    if (4 * slot + 4 > this.#boxes.length) {
      const grown = new Float64Array(this.#boxes.length * 2);
      grown.set(this.#boxes);
      this.#boxes = grown;
    }
    this.#boxes[4 * slot] = box.minXIn;
    this.#boxes[4 * slot + 1] = box.minYIn;
    this.#boxes[4 * slot + 2] = box.maxXIn;
    this.#boxes[4 * slot + 3] = box.maxYIn;
    this.#boxOwners[slot] = n;
    n.boxSlots.push(slot);
  }

  #readNode(d: MemoNode): void {
    const n = this.#current;
    if (!n || !this.#tracking) return;
    if (d.dependents.has(n)) return;
    d.dependents.add(n);
    n.deps.push(d);
  }

  #get(q: Query<unknown, unknown>, key: string): unknown {
    const d = this.#node(q, key);
    const value = this.#pull(d);
    this.#readNode(d);
    return value;
  }

  #report(channel: Accumulator<unknown>, item: unknown): void {
    const n = this.#current;
    if (!n) throw new Error(`report on "${channel.name}" outside a query`);
    (n.items ??= []).push([channel, item]);
  }

  /** Every item on `channel` reported by `from` and what it read (each node once). */
  #reported(channel: Accumulator<unknown>, from: MemoNode): unknown[] {
    const out: unknown[] = [];
    if (!this.#tracking) {
      // One-shot: every node computed was read by the root, so every node's items count.
      for (const byKey of this.#nodes.values()) for (const n of byKey.values()) if (n.items) for (const [c, it] of n.items) if (c === channel) out.push(it);
      return out;
    }
    const seen = new Set<MemoNode>();
    const stack = [from];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n) || !n.itemsBelow) continue;
      seen.add(n);
      if (n.items) for (const [c, it] of n.items) if (c === channel) out.push(it);
      for (const d of n.deps) stack.push(d);
    }
    return out;
  }

  #standsOfUnit(id: string): readonly Stand[] {
    let stands = this.#unitStands.get(id);
    if (stands === undefined) {
      const u = this.#index!.units.get(id);
      if (!u || u.standIds.length === 0) stands = NO_STANDS;
      else {
        const list: Stand[] = [];
        for (const sid of u.standIds) {
          const s = this.#index!.stands.get(sid);
          if (s !== undefined) list.push(s);
        }
        stands = list;
      }
      this.#unitStands.set(id, stands);
    }
    return stands;
  }

  #makeReader(): TableReader<C> {
    const state = (): TableState => this.#index!.state;
    return {
      table: () => (this.#readGlobal(GLOBAL_TABLE), state().table),
      terrain: () => (this.#readGlobal(GLOBAL_TERRAIN), state().terrain),
      commanders: () => (this.#readGlobal(GLOBAL_COMMANDERS), state().commanders),
      optionalRules: () => (this.#readGlobal(GLOBAL_OPTIONAL_RULES), state().optionalRules),
      rulesetParameters: () => (this.#readGlobal(GLOBAL_PARAMETERS), state().rulesetParameters),
      unitIds: () => (this.#readGlobal(GLOBAL_ROSTER), this.#index!.unitIds),
      unit: (id: string): Unit | undefined => (this.#readId(this.#byUnit, 'units', id), this.#index!.units.get(id)),
      unitStands: (id: string) => (this.#readId(this.#byUnit, 'units', id), this.#standsOfUnit(id)),
      stand: (id: string) => (this.#readId(this.#byStand, 'stands', id), this.#index!.stands.get(id)),
      standsIn: (box: BoundingBoxIn) => {
        this.#readBox(box);
        return (this.#grid ??= new StandGrid(state().stands)).standsIn(box);
      },
      allStands: () => (this.#readGlobal(GLOBAL_ALL_STANDS), state().stands),
      get: <W>(q: Query<C, W>, key = '') => this.#get(q as Query<unknown, unknown>, key) as W,
      report: <T>(channel: Accumulator<T>, item: T) => this.#report(channel as Accumulator<unknown>, item),
      reported: <W, T>(channel: Accumulator<T>, q: Query<C, W>, key = '') => {
        const d = this.#node(q as Query<unknown, unknown>, key);
        this.#pull(d);
        this.#readNode(d);
        return this.#reported(channel as Accumulator<unknown>, d) as T[];
      },
    };
  }
}
