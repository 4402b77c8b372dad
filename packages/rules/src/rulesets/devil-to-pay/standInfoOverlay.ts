/**
 * A session's stand infos by id for one state, as a full map of an earlier state (`base`) with the entries
 * of the stands changed since (`changes`) laid over it: a session update then makes a small map of what
 * changed instead of a thousand-entry map per update. Only for states whose stands have the same ids in
 * the same places as the base's (the session checks), so keys, their order and the size are the base's.
 * Neither map is ever written once handed in: earlier contexts keep seeing what they saw.
 */
import type { StandInfo } from './context.ts';

export class StandInfoOverlay implements ReadonlyMap<string, StandInfo> {
  readonly base: ReadonlyMap<string, StandInfo>;
  readonly changes: ReadonlyMap<string, StandInfo>;

  constructor(base: ReadonlyMap<string, StandInfo>, changes: ReadonlyMap<string, StandInfo>) {
    this.base = base;
    this.changes = changes;
  }

  get(id: string): StandInfo | undefined {
    const changed = this.changes.get(id);
    return changed !== undefined ? changed : this.base.get(id);
  }

  has(id: string): boolean {
    return this.base.has(id);
  }

  get size(): number {
    return this.base.size;
  }

  forEach(callback: (value: StandInfo, key: string, map: ReadonlyMap<string, StandInfo>) => void, thisArg?: unknown): void {
    this.base.forEach((value, key) => callback.call(thisArg, this.changes.get(key) ?? value, key, this));
  }

  *entries(): MapIterator<[string, StandInfo]> {
    for (const [key, value] of this.base) yield [key, this.changes.get(key) ?? value];
  }

  keys(): MapIterator<string> {
    return this.base.keys();
  }

  *values(): MapIterator<StandInfo> {
    for (const [key, value] of this.base) yield this.changes.get(key) ?? value;
  }

  [Symbol.iterator](): MapIterator<[string, StandInfo]> {
    return this.entries();
  }
}
