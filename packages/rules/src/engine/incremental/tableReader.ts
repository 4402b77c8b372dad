/**
 * The one way a rule set's queries read the table. Every method records what was read for the query
 * running at the time, so the engine can recompute exactly the queries a change meets:
 * - the table's globals (size, terrain, commanders, optional rules, parameters, the roll of units): a
 *   change to one recomputes the queries that read it;
 * - a unit by id: a change to its fields (`unit`), or to its fields or any of its stands (`unitStands`);
 *   a stand by id: a change to that stand;
 * - the stands in a box or along a segment (`standsIn`, `standsAlong`): a stand's footprint box that
 *   meets it before or after the change;
 * - the units in a box (`unitsIn`, ids only): a unit's box coming into it or leaving it;
 * - another query (`get`): its answer changing.
 * Nothing here is a pixel: inches, degrees counter-clockwise.
 */
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import type { Commander, OptionalRule, RulesetValues, Stand, TableState, Terrain, Unit } from '../../model/tableState.ts';
import type { Query } from './query.ts';
import type { PointIn } from '../../model/units.ts';

/** A channel for things queries report beside their answers (e.g. a parameter the table lacks). */
export interface Accumulator<T> {
  readonly name: string;
  /** Only for typing: never set. */
  readonly _item?: T;
}

export function accumulator<T>(name: string): Accumulator<T> {
  return { name };
}

export interface TableReader<C> {
  /** Table size, inches. */
  table(): TableState['table'];
  terrain(): Terrain;
  commanders(): readonly Commander[];
  optionalRules(): readonly OptionalRule[] | undefined;
  rulesetParameters(): RulesetValues | undefined;
  /** Ids of every unit, in the state's order (the same array while the roll of units is the same). */
  unitIds(): readonly string[];
  /**
   * A unit's own fields (reads those alone: a change to them, not a move of its stands; read its stands
   * with `unitStands`, `stand` or a box).
   */
  unit(id: string): Unit | undefined;
  /** A unit's stands on the table, in `standIds` order (reads that unit). */
  unitStands(id: string): readonly Stand[];
  /** A stand by id (reads that stand). */
  stand(id: string): Stand | undefined;
  /**
   * Every stand whose footprint box (its centre plus half its diagonal each way) meets `box`, in the
   * state's order: units' stands and commanders' alike. Reads that box: the query is recomputed when a
   * stand's footprint box meets it before or after a change. Test each stand exactly; this only culls.
   */
  standsIn(box: BoundingBoxIn): readonly Stand[];
  /**
   * Every stand whose footprint box, grown by `marginIn`, the segment from `from` to `to` meets, in the
   * state's order: the stands that may touch a line of sight or a path. Reads that segment: the query is
   * recomputed only when a stand's footprint box comes within `marginIn` of the segment before or after a
   * change (a tighter read than the segment's box). Test each stand exactly; this only culls.
   */
  standsAlong(from: PointIn, to: PointIn, marginIn: number): readonly Stand[];
  /**
   * `standsAlong` for several segments at once (the sight lines between two units): each stand once, in the
   * state's order. `segmentsIn` holds 5 numbers per segment, inches: from x, from y, to x, to y, margin.
   */
  standsAlongAny(segmentsIn: readonly number[]): readonly Stand[];
  /**
   * Ids of the units whose box (the union of their stands' footprint boxes) meets `box`, in the state's
   * order; units with no stands on the table are never in it. Reads which units are in that box: recomputed
   * when a unit's box comes into it or leaves it (a unit moving about inside it changes nothing here; read
   * the unit itself for where it is). A unit's outline, and anything within `d` of it, lies inside its box
   * grown by `d`: read the box you care about grown by how far a unit's effect reaches.
   */
  unitsIn(box: BoundingBoxIn): readonly string[];
  /** Every stand, in the state's order (reads them all: prefer `standsIn`). */
  allStands(): readonly Stand[];
  /**
   * Another query's answer for a key ('' by default), or a pair of keys (a firer and a target), computed
   * once and kept while its reads hold.
   */
  get<V>(q: Query<C, V>, key?: string, key2?: string): V;
  /** Report an item beside the running query's answer (collected by `reported`). */
  report<T>(channel: Accumulator<T>, item: T): void;
  /**
   * Every item reported on a channel by a query and by all it read, in no set order (sort them). Reads
   * that query.
   */
  reported<V, T>(channel: Accumulator<T>, q: Query<C, V>, key?: string): T[];
}

/** The engine's side of a rule set built of queries: the context it reads through and the root query. */
export interface QueryRuleset<C, V> {
  /** Made once per engine (one-shot evaluation or live session) from the reader: plain getters, no state. */
  readonly context: (reader: TableReader<C>) => C;
  /** The whole answer, e.g. the rule set's Evaluation, under the key ''. */
  readonly root: Query<C, V>;
}
