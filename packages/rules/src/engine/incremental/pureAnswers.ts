/**
 * Answers of pure queries (`query(..., { pure: true })`: functions of their key alone), kept across
 * evaluations and sessions: a table evaluated again, or a unit of a shape seen before, finds the answer
 * made. Bounded per query; when full, the oldest half is dropped.
 */
import type { Query } from './query.ts';

/** Answers kept per pure query. */
const MAX_PER_QUERY = 2048;

const kept = new Map<number, Map<string, unknown>>();

/** The pure query's answer for `key` (and `key2`), computed by `compute` when not kept. */
export function pureAnswer(q: Query<unknown, unknown>, key: string, key2: string, compute: () => unknown): unknown {
  let answers = kept.get(q.serial);
  if (!answers) kept.set(q.serial, (answers = new Map()));
  const k = key2 === '' ? key : `${key}\u0000${key2}`;
  if (answers.has(k)) return answers.get(k);
  const value = compute();
  if (answers.size >= MAX_PER_QUERY) {
    // A Map iterates in insertion order: the first half are the oldest.
    let drop = answers.size >> 1;
    for (const old of answers.keys()) {
      if (drop-- <= 0) break;
      answers.delete(old);
    }
  }
  answers.set(k, value);
  return value;
}
