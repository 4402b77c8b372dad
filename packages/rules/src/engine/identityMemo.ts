/**
 * A value derived from an object that is never changed once built, made once per object and kept in a weak
 * map. The object asked for last is held apart with its value: asks come in runs from one object, and a
 * weak-map look-up is dear on a hot path. For keys that outlive many evaluations (a terrain's areas list),
 * or values that point nowhere back into the evaluation (the box and longest range of a firing unit's
 * firers). An object made during one evaluation whose value points back into it belongs in `ownedMemo`
 * (ownedMemo.ts says why).
 */
export interface IdentityMemo<K extends object, V> {
  /** The value for `key`, built on the first ask. */
  get(key: K): V;
  /** The value for `key` if it was built, else undefined (never builds). */
  peek(key: K): V | undefined;
}

export function identityMemo<K extends object, V>(build: (key: K) => V): IdentityMemo<K, V> {
  const byKey = new WeakMap<K, V>();
  let lastKey: K | undefined;
  let lastValue: V | undefined;
  return {
    get(key) {
      if (key === lastKey) return lastValue as V;
      let value = byKey.get(key);
      if (value === undefined) byKey.set(key, (value = build(key)));
      lastKey = key;
      lastValue = value;
      return value;
    },
    peek: (key) => (key === lastKey ? lastValue : byKey.get(key)),
  };
}
