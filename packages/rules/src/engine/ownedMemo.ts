/**
 * A value derived from an object made during one evaluation (a context, a unit reading), kept in a slot on
 * that object rather than in a module-level weak map keyed by it.
 *
 * Why not a weak map: V8's young-generation collector keeps the value of a long-lived weak map alive while
 * its key is young, whether the key is still reachable or not; only a full collection drops it. A value
 * that points into its evaluation (a sight scene, a movement cache) then keeps the whole evaluation alive:
 * it is copied at the next young collection and promoted at the one after. Measured on 2026-11-25 with
 * 32 MB semi-spaces (`--trace-gc`, evaluating the bench table over and over): Volley & Bayonet promoted
 * 2.65 MB per young collection, each taking 4.4 ms, and The Devil to Pay 3.11 MB at 2.6 ms; with their
 * context-keyed memos moved here, 0.14 MB at 2.4 ms and 0.11 MB at 1.6 ms.
 * `identityMemo` stays right for keys that outlive many evaluations (a terrain's lists, a weapon row).
 */
export type MemoSlots = unknown[];

/** An owner's empty slots: give each evaluation object its own. */
export function memoSlots(): MemoSlots {
  return [];
}

export interface MemoOwner {
  readonly memos: MemoSlots;
}

/** A value kept on an owner by whoever sets it. */
export interface OwnedSlot<K extends MemoOwner, V> {
  /** The value for `owner` if one was set (or built), else undefined. */
  peek(owner: K): V | undefined;
  /** Puts (or, with undefined, drops) the value for `owner`. */
  set(owner: K, value: V | undefined): void;
}

/** A value built from its owner on the first ask. */
export interface OwnedMemo<K extends MemoOwner, V> extends OwnedSlot<K, V> {
  get(owner: K): V;
}

/** Slot numbers are handed out once per slot, at module load: every owner's slots line up. */
let nextSlot = 0;

function slotAt<K extends MemoOwner, V>(slot: number): OwnedSlot<K, V> {
  return {
    peek: (owner) => owner.memos[slot] as V | undefined,
    set(owner, value) {
      owner.memos[slot] = value;
    },
  };
}

export function ownedSlot<K extends MemoOwner, V>(): OwnedSlot<K, V> {
  return slotAt(nextSlot++);
}

export function ownedMemo<K extends MemoOwner, V>(build: (owner: K) => V): OwnedMemo<K, V> {
  const slot = nextSlot++;
  return {
    ...slotAt<K, V>(slot),
    get(owner) {
      let value = owner.memos[slot] as V | undefined;
      if (value === undefined) owner.memos[slot] = value = build(owner);
      return value;
    },
  };
}
