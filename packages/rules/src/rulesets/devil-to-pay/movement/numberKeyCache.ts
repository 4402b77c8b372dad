/**
 * Keys for movement's shape caches (`openReach.ts`): a cache keyed by five numbers without building key
 * strings, and `fixed2Class`, a number standing for a value's toFixed(2).
 */

/**
 * A cache keyed by five numbers through nested maps (no key string to build), emptied when it holds more
 * than 2000 entries, as the string-keyed maps it replaces were.
 */
export class NumberKeyCache<T> {
  private root = new Map<number, Map<number, Map<number, Map<number, Map<number, T>>>>>();
  private entries = 0;

  get(a: number, b: number, c: number, d: number, e: number): T | undefined {
    return this.root.get(a)?.get(b)?.get(c)?.get(d)?.get(e);
  }

  /** Adds a key that is not in the cache. */
  add(a: number, b: number, c: number, d: number, e: number, value: T): void {
    if (this.entries > 2000) {
      this.root = new Map();
      this.entries = 0;
    }
    let m1 = this.root.get(a);
    if (m1 === undefined) this.root.set(a, (m1 = new Map()));
    let m2 = m1.get(b);
    if (m2 === undefined) m1.set(b, (m2 = new Map()));
    let m3 = m2.get(c);
    if (m3 === undefined) m2.set(c, (m3 = new Map()));
    let m4 = m3.get(d);
    if (m4 === undefined) m3.set(d, (m4 = new Map()));
    m4.set(e, value);
    this.entries++;
  }
}

/**
 * The shape caches (`openReach.ts`) are keyed by each number's toFixed(2) (a result is computed from the first
 * caller's exact numbers and shared by every later one with the same key). `fixed2Class` gives that same
 * partition as a number, cheaply: an integer for ordinary values (hundredths, negative ones shifted by one
 * so "-0.00" stays apart from "0.00"), falling back to the string itself near a rounding tie or out of
 * range. Building four toFixed strings per call cost more than the rest of the cache lookup.
 */
export function fixed2Class(x: number): number {
  const a = x < 0 ? -x : x;
  if (a < 1e6) {
    const y = a * 100;
    const whole = Math.floor(y);
    const frac = y - whole;
    // y is within 1e-8 of the exact hundredths; only a value that close to a tie needs the string.
    if (frac < 0.5 - 1e-6 || frac > 0.5 + 1e-6) {
      const n = frac > 0.5 ? whole + 1 : whole;
      return x < 0 ? -n - 1 : n;
    }
  }
  return fixed2ClassOfString(x.toFixed(2));
}

const otherFixed2Classes = new Map<string, number>();

/** The class of a toFixed(2) string: "-12.34" -> -1235, "12.34" -> 1234; anything else gets a non-integer id. */
function fixed2ClassOfString(text: string): number {
  const m = /^(-?)(\d{1,12})\.(\d\d)$/.exec(text);
  if (m) {
    const n = Number(m[2]! + m[3]!);
    return m[1] ? -n - 1 : n;
  }
  let c = otherFixed2Classes.get(text);
  if (c === undefined) otherFixed2Classes.set(text, (c = otherFixed2Classes.size + 0.5));
  return c;
}
