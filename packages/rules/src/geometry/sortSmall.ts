/**
 * Stable in-place sort for the short lists the engine sorts thousands of times per evaluation (crossings
 * along a sight line, target stands by distance, stands of a rank). Same order as `Array.prototype.sort`
 * (also stable) for any consistent comparator, without the scratch allocation V8's sort makes on every
 * call. Longer lists go to the built-in sort.
 */
const INSERTION_MAX = 24;

export function sortSmall<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > INSERTION_MAX) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const x = items[i]!;
    let j = i - 1;
    // Only strictly greater items move past x: equal ones keep their order (stable).
    while (j >= 0 && compare(items[j]!, x) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = x;
  }
  return items;
}

/**
 * Puts the indices 0..count-1 into `order` by ascending `keys[index]`, equal keys in index order (a stable
 * insertion sort of indices): for short columnar lists, sorted without moving their columns or allocating.
 */
export function orderByKey(keys: Float64Array, count: number, order: Int32Array): void {
  for (let i = 0; i < count; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[order[j]!]! > key; j--) order[j + 1] = order[j]!;
    order[j + 1] = i;
  }
}
