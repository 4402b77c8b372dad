/**
 * A query: one piece of a rule set's evaluation (a unit's formation, a fire pair, the army's morale...),
 * written as a plain function of the table. It reads the table only through the reader the engine hands
 * it (`TableReader`, tableReader.ts) and other queries through `reader.get`, so the engine knows what it
 * read and can tell, when the table changes, whether its answer may have changed. A query never mentions a
 * cache: the engine keeps its answers (memoGraph.ts).
 */
import { samePlainData } from '../samePlainData.ts';

/**
 * What a query computes, from the rule set's context (made once per engine from the reader) and its key:
 * one string ('' for a query of the whole table, a unit id...), or two for a pair (a firer and a target:
 * `key2`, '' when not given).
 */
export type QueryFn<C, V> = (ctx: C, key: string, key2: string) => V;

export interface Query<C, V> {
  /** For messages and debugging: 'wtdr/fire-pair'. Unique per rule set. */
  readonly name: string;
  /** A number unique to this query in the process, for the engine's tables. */
  readonly serial: number;
  readonly compute: QueryFn<C, V>;
  /**
   * When a recomputed answer counts as the same as the last one, so that what read it is not recomputed:
   * by identity (the default), or structurally for answers that are plain data (`'plain'`).
   */
  readonly equal: (a: V, b: V) => boolean;
  /**
   * A function of its key alone (it reads nothing of the table): the engine keeps its answers across
   * evaluations and sessions, a bounded number per query (`pure` in `query`'s options).
   */
  readonly pure: boolean;
}

const identical = (a: unknown, b: unknown): boolean => a === b;

let nextSerial = 0;

/**
 * Declare a query.
 * @param name unique within the rule set, e.g. 'wtdr/fire-pair'
 * @param compute the rule, as if it evaluated from scratch
 * @param options.equal `'plain'` when the answer is plain JSON-like data (no Maps, no functions): then a
 *   recomputed answer equal to the last one keeps the last one, and its readers stay as they are
 * @param options.pure the answer depends on the key alone (a costly shape computed from numbers written
 *   into the key): the engine keeps answers across evaluations; reading the table from it is an error
 * @example const formationOf = query('wtdr/formation', (ctx: WtdrContext, unitId) => readFormation(...))
 */
export function query<C, V>(name: string, compute: QueryFn<C, V>, options: { equal?: 'plain' | 'identity'; pure?: boolean } = {}): Query<C, V> {
  return { name, serial: nextSerial++, compute, equal: options.equal === 'plain' ? samePlainData : identical, pure: options.pure === true };
}
