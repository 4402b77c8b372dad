/**
 * The incremental engine: it runs a rule set's queries (query.ts) over a table state, records what each
 * one read (tableReader.ts), and when the table changes recomputes only the queries whose reads the change
 * meets. The pattern is dependency-tracked memoisation (Salsa, Adapton), pushed from the change the way
 * Jane Street's Incremental pushes it, with spatial keys for this domain:
 * - a new state is compared with the last one (tableChanges.ts): changed globals, units, stands, and the
 *   footprint boxes the changed stands and units left and entered;
 * - the queries that read a changed global, unit or stand, or a box or segment one of those footprints
 *   meets (a `unitsIn` box only when a unit came into it or left it), are stale and run again, lowest
 *   first (a query is higher than everything it read);
 * - a query that runs again to an answer its `equal` calls the same (early cut-off) stops there, so a
 *   change travels only as far as answers really change; one whose answer changed makes the queries that
 *   read it stale in turn; the root is then read.
 * A query nothing reads any more is left stale until something asks for it. A query run early may meet a
 * table its readers would no longer ask it about (a fire pair of a unit that can no longer fire): if it
 * throws there, it is left stale and its readers run again, and they ask it again only if they need it.
 * A one-shot evaluation runs the same queries with recording off: each is computed once, nothing kept.
 * Pure queries (functions of their key alone) keep their answers across both (pureAnswers.ts).
 */
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { samePlainData } from '../samePlainData.ts';
import type { Query } from './query.ts';
import type { QueryRuleset } from './tableReader.ts';
import type { Accumulator, TableReader } from './tableReader.ts';
import { StandGrid, standFootprintBox } from './standGrid.ts';
import { BoxReads } from './boxReads.ts';
import { pureAnswer } from './pureAnswers.ts';
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
/** Something it read changed: run it again before using its answer. */
const STALE = 2;

const NO_STANDS: readonly Stand[] = [];
const NO_NODES: readonly MemoNode[] = [];
const COMPUTING = Symbol('computing');
const UNDEFINED = Symbol('undefined');

type Report = [Accumulator<unknown>, unknown];

/** One query's answer for one key, with what it read. */
class MemoNode {
  readonly query: Query<unknown, unknown>;
  readonly key: string;
  readonly key2: string;
  value: unknown = undefined;
  /** Never computed yet. */
  fresh = true;
  state = STALE;
  computing = false;
  /** Revision at which it last ran (what it read changed since, it reports as changed). */
  verifiedAt = 0;
  /** 1 + the highest of what it read (0 when it read no query): what it read runs again first. */
  height = 0;
  /** Waiting in the engine's queue of stale queries. */
  queued = false;
  /** Queries it read, in order (each once). Unset until it reads one (a one-shot engine records nothing). */
  deps: MemoNode[] | undefined = undefined;
  units: string[] | undefined = undefined;
  unitRecords: string[] | undefined = undefined;
  stands: string[] | undefined = undefined;
  globals = 0;
  /** Its slots in the engine's stand-box and unit-box stores. */
  standBoxSlots: number[] | undefined = undefined;
  unitBoxSlots: number[] | undefined = undefined;
  /**
   * During a run, its slots of the run before and how far its reads have gone through them: a read the
   * same as the one before at that place keeps its slot (most runs read the same boxes), and the slot is
   * marked -1 there so settling does not free it.
   */
  priorStandBoxSlots: number[] | undefined = undefined;
  priorUnitBoxSlots: number[] | undefined = undefined;
  priorStandAt = 0;
  priorUnitAt = 0;
  /** During a run, the queries the run before read, and the place of the next read among them. */
  priorDeps: MemoNode[] | undefined = undefined;
  priorDepsAt = 0;
  /** Number of its current run; the run that last recorded reading it; scratch for settling reads. */
  run = 0;
  readBy = 0;
  mark = 0;
  /** Queries that read it. */
  dependents: Set<MemoNode> | undefined = undefined;
  /** Items it reported itself, by channel. */
  items: [Accumulator<unknown>, unknown][] | undefined = undefined;
  /** Whether it or anything it read reported an item (so a walk for them can skip the rest). */
  itemsBelow = false;
  /** Revision at which the items it or anything it read reported last changed. */
  itemsChangedAt = 0;
  /** The last walk for reported items from this node, kept until the items below it change. */
  collected: { channel: Accumulator<unknown>; at: number; items: unknown[] } | undefined = undefined;

  constructor(query: Query<unknown, unknown>, key: string, key2: string) {
    this.query = query;
    this.key = key;
    this.key2 = key2;
  }
}

const GLOBAL_BITS = [GLOBAL_TABLE, GLOBAL_TERRAIN, GLOBAL_COMMANDERS, GLOBAL_OPTIONAL_RULES, GLOBAL_PARAMETERS, GLOBAL_ROSTER, GLOBAL_ALL_STANDS];

/** Counters for tests and the bench: how much each update did. */
export interface EngineStats {
  /** Queries run since the engine started. */
  computed: number;
  /** Queries marked stale directly by a change. */
  invalidated: number;
}

/** Stale queries waiting to run, lowest first (a binary heap by height). */
class HeightQueue {
  readonly #items: MemoNode[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(n: MemoNode): void {
    const a = this.#items;
    let i = a.length;
    a.push(n);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]!.height <= n.height) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = n;
  }

  pop(): MemoNode {
    const a = this.#items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const c = l + 1 < a.length && a[l + 1]!.height < a[l]!.height ? l + 1 : l;
        if (a[c]!.height >= last.height) break;
        a[i] = a[c]!;
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
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
  /** A one-shot engine's answers per query (by its serial number), then per key, and its reports. */
  readonly #answers: (Map<string, Map<string, unknown>> | undefined)[] = [];
  readonly #answers1: (Map<string, unknown> | undefined)[] = [];
  readonly #reports: Report[] = [];
  /** Nodes per query (by its serial number), then per key and second key. */
  readonly #nodes: (Map<string, Map<string, MemoNode>> | undefined)[] = [];
  readonly #nodes1: (Map<string, MemoNode> | undefined)[] = [];
  #revision = 0;
  #current: MemoNode | undefined;
  readonly #queue = new HeightQueue();
  /** Runs of queries so far (each run's number marks what it read once). */
  #runs = 0;
  // Reverse indexes: which nodes read a unit, a stand, a global.
  readonly #byUnit = new Map<string, Set<MemoNode>>();
  readonly #byUnitRecord = new Map<string, Set<MemoNode>>();
  readonly #byStand = new Map<string, Set<MemoNode>>();
  readonly #byGlobal = new Map<number, Set<MemoNode>>();
  readonly #standBoxReads = new BoxReads<MemoNode>();
  readonly #unitBoxReads = new BoxReads<MemoNode>();
  /** Per unit, the union of its stands' footprint boxes in the current state (null: no stands). */
  readonly #unitBoxes = new Map<string, BoundingBoxIn | null>();
  /** The same in the state's order, made when first read after a change of the roll, kept up to date after. */
  #unitBoxArray: Float64Array | undefined;
  /** Each unit's place in `#unitBoxArray`, by id. */
  readonly #unitOrder = new Map<string, number>();
  readonly stats: EngineStats = { computed: 0, invalidated: 0 };
  /** Pure queries running now (reads are refused while any is). */
  #pureRunning = 0;
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
    this.load(state);
    const saved = this.#current;
    this.#current = undefined;
    try {
      if (!this.#tracking) return this.#getOnce(this.#ruleset.root as Query<unknown, unknown>, '', '') as V;
      const root = this.#node(this.#ruleset.root as Query<unknown, unknown>, '');
      this.#propagate(root);
      return this.#pull(root) as V;
    } finally {
      this.#current = saved;
    }
  }

  /**
   * Drops every kept answer and the table (a one-shot engine when its evaluation is done): whatever still
   * refers to the engine, such as a closure V8 keeps for its own bookkeeping, then holds nothing large.
   */
  release(): void {
    this.#answers.length = 0;
    this.#answers1.length = 0;
    this.#reports.length = 0;
    this.#nodes.length = 0;
    this.#nodes1.length = 0;
    this.#index = undefined;
    this.#grid = undefined;
    this.#unitStands.clear();
    this.#unitBoxes.clear();
    this.#unitBoxArray = undefined;
  }

  /** The rule set's context over `state`, for calling rule functions directly (tests, tools). */
  contextFor(state: TableState): C {
    this.load(state);
    return this.#context;
  }

  /** Makes `state` the table the queries read, marking what its change from the last one meets. */
  load(state: TableState): void {
    const prev = this.#index;
    if (prev?.state === state) return;
    this.#revision++;
    if (!prev || !this.#tracking) {
      if (prev && !this.#tracking) throw new Error('a one-shot engine evaluates one state');
      this.#index = indexTable(state);
      if (this.#tracking) for (const id of this.#index.unitIds) this.#unitBox(id);
      return;
    }
    const { changes, index } = diffTables(prev, state);
    // The boxes of changed units before and after, for `unitsIn` reads (8 numbers per unit). A live engine
    // keeps every unit's box of the last state (the last state's maps are updated in place by the diff).
    const before: (BoundingBoxIn | null)[] = [];
    for (const id of changes.units) before.push(this.#unitBoxes.get(id) ?? null);
    const unitMoves: number[] = [];
    this.#index = index;
    // The stand grid follows small moves in place; anything else builds it again when next read.
    if ((changes.stands.size > 0 || changes.globals & GLOBAL_ALL_STANDS) && !(this.#grid && !(changes.globals & GLOBAL_ALL_BOXES) && this.#grid.update(state.stands, changes.stands))) this.#grid = undefined;
    if (changes.globals & GLOBAL_ROSTER) {
      this.#unitBoxArray = undefined;
      this.#unitStands.clear();
      this.#unitBoxes.clear();
      for (const id of index.unitIds) this.#unitBox(id);
    }
    const inOrder = this.#unitBoxArray;
    let k = 0;
    for (const id of changes.units) {
      this.#unitStands.delete(id);
      this.#unitBoxes.delete(id);
      const after = index.units.has(id) ? this.#unitBox(id) : null;
      pushBoxOrEmpty(unitMoves, before[k++]!);
      pushBoxOrEmpty(unitMoves, after);
      // The same roll of units: the unit keeps its place in the boxes in order.
      const at = inOrder ? this.#unitOrder.get(id) : undefined;
      if (at !== undefined) writeBox(inOrder!, at, after);
    }
    this.#invalidate(changes, unitMoves);
  }

  /** Every unit's box in the state's order, 4 numbers each (an empty box for a unit with no stands). */
  #unitBoxesInOrder(): Float64Array {
    const ids = this.#index!.unitIds;
    const out = new Float64Array(4 * ids.length);
    this.#unitOrder.clear();
    for (let i = 0; i < ids.length; i++) {
      writeBox(out, i, this.#unitBox(ids[i]!));
      this.#unitOrder.set(ids[i]!, i);
    }
    return out;
  }

  #unitBox(id: string): BoundingBoxIn | null {
    let box = this.#unitBoxes.get(id);
    if (box === undefined) this.#unitBoxes.set(id, (box = unitBoxOf(this.#index!, id)));
    return box;
  }

  #invalidate(changes: TableChanges, unitMoves: readonly number[]): void {
    const hit = (n: MemoNode): void => {
      if (n.state !== STALE) this.stats.invalidated++;
      this.#markStale(n);
    };
    const mark = (set: Set<MemoNode> | undefined): void => {
      if (set) for (const n of set) hit(n);
    };
    for (const bit of GLOBAL_BITS) if (changes.globals & bit) mark(this.#byGlobal.get(bit));
    for (const id of changes.units) mark(this.#byUnit.get(id));
    for (const id of changes.unitRecords) mark(this.#byUnitRecord.get(id));
    for (const id of changes.stands) mark(this.#byStand.get(id));
    const all = (changes.globals & GLOBAL_ALL_BOXES) !== 0;
    const isStale = (n: MemoNode): boolean => n.state === STALE;
    this.#standBoxReads.meeting(changes.boxes, all, isStale, hit);
    // A `unitsIn` answer is ids: only a unit coming into or leaving a read box changes it.
    this.#unitBoxReads.meetingMembership(unitMoves, all || (changes.globals & GLOBAL_ROSTER) !== 0, isStale, hit);
  }

  #markStale(n: MemoNode): void {
    n.state = STALE;
    if (!n.queued) {
      n.queued = true;
      this.#queue.push(n);
    }
  }

  #markDependentsStale(n: MemoNode): void {
    if (n.dependents) for (const d of n.dependents) this.#markStale(d);
  }

  /** Runs the stale queries that something still reads, lowest first. */
  #propagate(root: MemoNode): void {
    const queue = this.#queue;
    while (queue.size > 0) {
      const n = queue.pop();
      n.queued = false;
      if (n.state !== STALE || n.computing) continue;
      // Nothing reads it any more: left stale until something asks for it.
      if (n !== root && (n.dependents === undefined || n.dependents.size === 0)) continue;
      try {
        this.#compute(n);
      } catch {
        // Run early, it met a table its readers may no longer ask it about: they run again (marked by
        // #compute) and ask it again only if they need it; a real failure comes out of the root.
      }
    }
  }

  #node(q: Query<unknown, unknown>, key: string, key2 = ''): MemoNode {
    if (key2 === '') {
      let byKey1 = this.#nodes1[q.serial];
      if (!byKey1) this.#nodes1[q.serial] = byKey1 = new Map();
      let n1 = byKey1.get(key);
      if (!n1) byKey1.set(key, (n1 = new MemoNode(q, key, '')));
      return n1;
    }
    let byKey = this.#nodes[q.serial];
    if (!byKey) this.#nodes[q.serial] = byKey = new Map();
    let byKey2 = byKey.get(key);
    if (!byKey2) byKey.set(key, (byKey2 = new Map()));
    let n = byKey2.get(key2);
    if (!n) byKey2.set(key2, (n = new MemoNode(q, key, key2)));
    return n;
  }

  #pull(n: MemoNode): unknown {
    if (n.state === CLEAN) return n.value;
    if (n.computing) throw new Error(`query cycle: ${n.query.name}(${[n.key, n.key2].filter((k) => k !== '').join(', ')}) reads itself`);
    this.#compute(n);
    return n.value;
  }

  #compute(n: MemoNode): void {
    const tracking = this.#tracking;
    const oldDeps = n.deps;
    const oldBelow = n.itemsBelow;
    const old: Reads | undefined = tracking ? { units: n.units, unitRecords: n.unitRecords, stands: n.stands, globals: n.globals, standBoxSlots: n.standBoxSlots, unitBoxSlots: n.unitBoxSlots } : undefined;
    n.deps = n.units = n.unitRecords = n.stands = n.standBoxSlots = n.unitBoxSlots = undefined;
    n.priorStandBoxSlots = old?.standBoxSlots;
    n.priorUnitBoxSlots = old?.unitBoxSlots;
    n.priorStandAt = n.priorUnitAt = 0;
    n.priorDeps = oldDeps;
    n.priorDepsAt = 0;
    n.globals = 0;
    n.run = ++this.#runs;
    const saved = this.#current;
    this.#current = n;
    n.computing = true;
    const verifiedBefore = n.verifiedAt;
    const oldItems = n.items;
    n.items = undefined;
    let value: unknown;
    try {
      value = n.query.pure ? this.#computePure(n.query, n.key, n.key2) : n.query.compute(this.#context, n.key, n.key2);
    } catch (e) {
      // Leave the node to run again next time (its reads may be half recorded), and what read it to check.
      n.state = STALE;
      n.fresh = true;
      this.#markDependentsStale(n);
      throw e;
    } finally {
      n.computing = false;
      this.#current = saved;
      if (old) this.#settleReads(n, oldDeps, old);
    }
    this.stats.computed++;
    if (!this.#tracking) {
      n.value = value;
      n.fresh = false;
      n.state = CLEAN;
      return;
    }
    // Reported items count as part of the answer for whoever collects them: a change in its own, or in
    // those of anything it read, is passed up as a change of items.
    const deps = n.deps ?? NO_NODES;
    let below = n.items !== undefined;
    let itemsChanged = (oldItems !== undefined || n.items !== undefined) && !samePlainData(oldItems, n.items);
    for (const d of deps) {
      if (d.itemsBelow) below = true;
      if (d.itemsChangedAt > verifiedBefore) itemsChanged = true;
    }
    // Reading other queries than before can leave out, or take in, what they reported.
    if (!itemsChanged && (below || oldBelow) && !sameNodes(oldDeps ?? NO_NODES, deps)) itemsChanged = true;
    n.itemsBelow = below;
    if (itemsChanged) n.itemsChangedAt = this.#revision;
    let height = 0;
    for (const d of deps) if (d.height >= height) height = d.height + 1;
    n.height = height;
    const changed = n.fresh || !n.query.equal(n.value, value);
    if (changed) n.value = value;
    n.fresh = false;
    n.state = CLEAN;
    n.verifiedAt = this.#revision;
    if (changed || itemsChanged) this.#markDependentsStale(n);
  }

  /**
   * Files what a node read this run in the reverse indexes, against what it read the run before: most
   * runs read the same things, so only the differences touch the indexes.
   */
  #settleReads(n: MemoNode, oldDeps: MemoNode[] | undefined, old: Reads): void {
    const deps = n.deps;
    // Most runs read the same queries in the same order as the run before: nothing to file then.
    if (!sameNodes(oldDeps ?? NO_NODES, deps ?? NO_NODES)) {
      const seen = ++this.#runs;
      if (oldDeps) for (const d of oldDeps) d.mark = seen;
      if (deps) {
        for (const d of deps) {
          if (d.mark !== seen) (d.dependents ??= new Set()).add(n);
          d.mark = -seen;
        }
      }
      if (oldDeps) for (const d of oldDeps) if (d.mark === seen) d.dependents!.delete(n);
    }
    settleIds(this.#byUnit, n, old.units, n.units);
    settleIds(this.#byUnitRecord, n, old.unitRecords, n.unitRecords);
    settleIds(this.#byStand, n, old.stands, n.stands);
    if (old.globals !== n.globals) {
      for (const bit of GLOBAL_BITS) {
        if ((old.globals & bit) === (n.globals & bit)) continue;
        let set = this.#byGlobal.get(bit);
        if (!set) this.#byGlobal.set(bit, (set = new Set()));
        if (n.globals & bit) set.add(n);
        else set.delete(n);
      }
    }
    if (old.standBoxSlots) for (const slot of old.standBoxSlots) if (slot >= 0) this.#standBoxReads.remove(slot);
    if (old.unitBoxSlots) for (const slot of old.unitBoxSlots) if (slot >= 0) this.#unitBoxReads.remove(slot);
    n.priorStandBoxSlots = n.priorUnitBoxSlots = n.priorDeps = undefined;
  }

  #readGlobal(bit: number): void {
    if (this.#pureRunning > 0) this.#notInPure('the table');
    const n = this.#current;
    if (n && this.#tracking) n.globals |= bit;
  }

  #readId(list: 'units' | 'unitRecords' | 'stands', id: string): void {
    if (this.#pureRunning > 0) this.#notInPure(`${list} ${id}`);
    const n = this.#current;
    if (!n || !this.#tracking) return;
    const ids = n[list];
    if (ids === undefined) n[list] = [id];
    else if (!ids.includes(id)) ids.push(id);
  }

  #readBox(kind: 'standBoxSlots' | 'unitBoxSlots', box: BoundingBoxIn): void {
    if (this.#pureRunning > 0) this.#notInPure('a box');
    const n = this.#current;
    if (!n || !this.#tracking || !this.recordBoxReads) return;
    if (kind === 'standBoxSlots') {
      const prior = n.priorStandBoxSlots;
      const at = n.priorStandAt++;
      const store = this.#standBoxReads;
      let slot = prior !== undefined && at < prior.length ? prior[at]! : -1;
      if (slot >= 0 && store.sameBox(slot, box)) prior![at] = -1;
      else slot = store.add(n, box);
      (n.standBoxSlots ??= []).push(slot);
    } else {
      const prior = n.priorUnitBoxSlots;
      const at = n.priorUnitAt++;
      const store = this.#unitBoxReads;
      let slot = prior !== undefined && at < prior.length ? prior[at]! : -1;
      if (slot >= 0 && store.sameBox(slot, box)) prior![at] = -1;
      else slot = store.add(n, box);
      (n.unitBoxSlots ??= []).push(slot);
    }
  }

  #readSegment(ax: number, ay: number, bx: number, by: number, marginIn: number): void {
    if (this.#pureRunning > 0) this.#notInPure('a segment');
    const n = this.#current;
    if (!n || !this.#tracking || !this.recordBoxReads) return;
    const prior = n.priorStandBoxSlots;
    const at = n.priorStandAt++;
    const store = this.#standBoxReads;
    let slot = prior !== undefined && at < prior.length ? prior[at]! : -1;
    if (slot >= 0 && store.sameSegment(slot, ax, ay, bx, by, marginIn)) prior![at] = -1;
    else slot = store.addSegment(n, ax, ay, bx, by, marginIn);
    (n.standBoxSlots ??= []).push(slot);
  }

  #readNode(d: MemoNode): void {
    const n = this.#current;
    if (!n || !this.#tracking || d.readBy === n.run) return;
    // A query read by a nested run in between is listed twice at worst: harmless.
    d.readBy = n.run;
    (n.deps ??= []).push(d);
  }

  #get(q: Query<unknown, unknown>, key: string, key2: string): unknown {
    if (this.#pureRunning > 0 && !q.pure) this.#notInPure(`query ${q.name}`);
    if (!this.#tracking) {
      // A one-shot answer already made: one lookup.
      if (key2 === '') {
        const known = this.#answers1[q.serial]?.get(key);
        if (known !== undefined && known !== COMPUTING) return known === UNDEFINED ? undefined : known;
      }
      return this.#getOnce(q, key, key2);
    }
    // The reader's run before read the same queries in the same order, mostly: try the one at this place.
    const n = this.#current;
    let d: MemoNode | undefined;
    if (n !== undefined) {
      const prior = n.priorDeps;
      const guess = prior !== undefined && n.priorDepsAt < prior.length ? prior[n.priorDepsAt++] : undefined;
      if (guess !== undefined && guess.query === q && guess.key === key && guess.key2 === key2) d = guess;
    }
    d ??= this.#node(q, key, key2);
    const value = d.state === CLEAN ? d.value : this.#pull(d);
    this.#readNode(d);
    return value;
  }

  /**
   * A one-shot engine keeps bare answers (no node, no reads): each query runs once per key. `COMPUTING`
   * marks a run under way, to name a query that reads itself.
   */
  #getOnce(q: Query<unknown, unknown>, key: string, key2: string): unknown {
    let byKey2: Map<string, unknown> | undefined;
    if (key2 === '') {
      byKey2 = this.#answers1[q.serial];
      if (!byKey2) this.#answers1[q.serial] = byKey2 = new Map();
      key2 = key;
    } else {
      let byKey = this.#answers[q.serial];
      if (!byKey) this.#answers[q.serial] = byKey = new Map();
      byKey2 = byKey.get(key);
      if (!byKey2) byKey.set(key, (byKey2 = new Map()));
    }
    const known = byKey2.get(key2);
    if (known !== undefined) {
      if (known === COMPUTING) throw new Error(`query cycle: ${q.name}(${[key, key2].filter((k) => k !== '').join(', ')}) reads itself`);
      return known === UNDEFINED ? undefined : known;
    }
    byKey2.set(key2, COMPUTING);
    let value: unknown;
    try {
      const k2 = byKey2 === this.#answers1[q.serial] ? '' : key2;
      value = q.pure ? this.#computePure(q, key, k2) : q.compute(this.#context, key, k2);
    } catch (e) {
      byKey2.delete(key2);
      throw e;
    }
    this.stats.computed++;
    byKey2.set(key2, value === undefined ? UNDEFINED : value);
    return value;
  }

  /** A pure query's answer, kept across evaluations; it may read nothing of the table while it runs. */
  #computePure(q: Query<unknown, unknown>, key: string, key2: string): unknown {
    return pureAnswer(q, key, key2, () => {
      this.#pureRunning++;
      try {
        return q.compute(this.#context, key, key2);
      } finally {
        this.#pureRunning--;
      }
    });
  }

  /** Throws when a pure query reads the table (its answer would be kept past the table it read). */
  #notInPure(what: string): void {
    if (this.#pureRunning > 0) throw new Error(`a pure query (a function of its key alone) read ${what}: declare it without \`pure\` or pass what it needs in its key`);
  }

  #report(channel: Accumulator<unknown>, item: unknown): void {
    if (!this.#tracking) {
      this.#reports.push([channel, item]);
      return;
    }
    const n = this.#current;
    // Outside any query (a rule function called directly from a test) there is no one to collect it.
    if (n) (n.items ??= []).push([channel, item]);
  }

  /** Every item on `channel` reported by `from` and what it read (each node once). */
  #reported(channel: Accumulator<unknown>, from: MemoNode): unknown[] {
    const out: unknown[] = [];
    if (!this.#tracking) {
      // One-shot: every query run was read on the way to the root, so everything reported counts.
      for (const [c, it] of this.#reports) if (c === channel) out.push(it);
      return out;
    }
    const kept = from.collected;
    if (kept && kept.channel === channel && kept.at >= from.itemsChangedAt) return kept.items;
    const seen = new Set<MemoNode>();
    const stack = [from];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n) || !n.itemsBelow) continue;
      seen.add(n);
      if (n.items) for (const [c, it] of n.items) if (c === channel) out.push(it);
      if (n.deps) for (const d of n.deps) stack.push(d);
    }
    from.collected = { channel, at: this.#revision, items: out };
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
      unit: (id: string): Unit | undefined => (this.#readId('unitRecords', id), this.#index!.units.get(id)),
      unitStands: (id: string) => (this.#readId('units', id), this.#standsOfUnit(id)),
      stand: (id: string) => (this.#readId('stands', id), this.#index!.stands.get(id)),
      standsIn: (box: BoundingBoxIn) => {
        this.#readBox('standBoxSlots', box);
        return (this.#grid ??= new StandGrid(state().stands)).standsIn(box);
      },
      standsAlongAny: (segmentsIn: readonly number[]) => {
        for (let j = 0; j + 4 < segmentsIn.length; j += 5) this.#readSegment(segmentsIn[j]!, segmentsIn[j + 1]!, segmentsIn[j + 2]!, segmentsIn[j + 3]!, segmentsIn[j + 4]!);
        return (this.#grid ??= new StandGrid(state().stands)).standsAlongAny(segmentsIn);
      },
      standsAlong: (from: PointIn, to: PointIn, marginIn: number) => {
        this.#readSegment(from.xIn, from.yIn, to.xIn, to.yIn, marginIn);
        return (this.#grid ??= new StandGrid(state().stands)).standsAlong(from.xIn, from.yIn, to.xIn, to.yIn, marginIn);
      },
      unitsIn: (box: BoundingBoxIn) => {
        this.#readBox('unitBoxSlots', box);
        const ids = this.#index!.unitIds;
        const boxes = (this.#unitBoxArray ??= this.#unitBoxesInOrder());
        const out: string[] = [];
        const x0 = box.minXIn, y0 = box.minYIn, x1 = box.maxXIn, y1 = box.maxYIn;
        for (let i = 0; i < ids.length; i++) {
          if (boxes[4 * i]! <= x1 && boxes[4 * i + 2]! >= x0 && boxes[4 * i + 1]! <= y1 && boxes[4 * i + 3]! >= y0) out.push(ids[i]!);
        }
        return out;
      },
      allStands: () => (this.#readGlobal(GLOBAL_ALL_STANDS), state().stands),
      get: <W>(q: Query<C, W>, key = '', key2 = '') => this.#get(q as Query<unknown, unknown>, key, key2) as W,
      report: <T>(channel: Accumulator<T>, item: T) => this.#report(channel as Accumulator<unknown>, item),
      reported: <W, T>(channel: Accumulator<T>, q: Query<C, W>, key = '') => {
        if (!this.#tracking) {
          this.#getOnce(q as Query<unknown, unknown>, key, '');
          return this.#reported(channel as Accumulator<unknown>, undefined as unknown as MemoNode) as T[];
        }
        const d = this.#node(q as Query<unknown, unknown>, key);
        this.#pull(d);
        this.#readNode(d);
        return this.#reported(channel as Accumulator<unknown>, d) as T[];
      },
    };
  }
}

/** Appends a box as 4 numbers, or an empty box (meeting nothing) for null. */
function pushBoxOrEmpty(out: number[], b: BoundingBoxIn | null): void {
  if (b) out.push(b.minXIn, b.minYIn, b.maxXIn, b.maxYIn);
  else out.push(Infinity, Infinity, -Infinity, -Infinity);
}

/** Writes box `i` of a flat box array (an empty box for null). */
function writeBox(out: Float64Array, i: number, b: BoundingBoxIn | null): void {
  out[4 * i] = b ? b.minXIn : Infinity;
  out[4 * i + 1] = b ? b.minYIn : Infinity;
  out[4 * i + 2] = b ? b.maxXIn : -Infinity;
  out[4 * i + 3] = b ? b.maxYIn : -Infinity;
}

/** The union of a unit's stands' footprint boxes in a state, or null when it has none there. */
function unitBoxOf(index: TableIndex, unitId: string): BoundingBoxIn | null {
  const u = index.units.get(unitId);
  if (!u) return null;
  let box: BoundingBoxIn | null = null;
  for (const sid of u.standIds) {
    const s = index.stands.get(sid);
    if (!s) continue;
    const b = standFootprintBox(s);
    box = box ? { minXIn: Math.min(box.minXIn, b.minXIn), minYIn: Math.min(box.minYIn, b.minYIn), maxXIn: Math.max(box.maxXIn, b.maxXIn), maxYIn: Math.max(box.maxYIn, b.maxYIn) } : b;
  }
  return box;
}

function sameIds(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameNodes(a: readonly MemoNode[], b: readonly MemoNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What a node read before a run, to settle against what it reads in the run. */
interface Reads {
  readonly units: string[] | undefined;
  readonly unitRecords: string[] | undefined;
  readonly stands: string[] | undefined;
  readonly globals: number;
  readonly standBoxSlots: number[] | undefined;
  readonly unitBoxSlots: number[] | undefined;
}

function settleIds(index: Map<string, Set<MemoNode>>, n: MemoNode, before: readonly string[] | undefined, after: readonly string[] | undefined): void {
  if (sameIds(before, after)) return;
  if (before) for (const id of before) if (!after?.includes(id)) index.get(id)?.delete(n);
  if (after) {
    for (const id of after) {
      if (before?.includes(id)) continue;
      let set = index.get(id);
      if (!set) index.set(id, (set = new Set()));
      set.add(n);
    }
  }
}
