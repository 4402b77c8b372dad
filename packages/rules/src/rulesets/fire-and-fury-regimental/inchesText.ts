/**
 * Inches with one decimal for refusal texts, exactly as `x.toFixed(1)` writes them but several times faster:
 * every enemy unit gets a refusal naming its distance, thousands per table.
 */

/** "0.0" … "199.9", made on first use: a table's distances fall in it. */
let TENTHS: string[] | undefined;

export function inchesText(x: number): string {
  const tenths = x * 10;
  // Near a half tenth the product may have rounded across it; negatives, huge and odd values: leave it to toFixed.
  if (!(x >= 0 && x < 1e15) || Math.abs(tenths - Math.floor(tenths) - 0.5) < 1e-6) return x.toFixed(1);
  const n = Math.round(tenths);
  if (n < 2000) {
    TENTHS ??= Array.from({ length: 2000 }, (_, i) => `${Math.floor(i / 10)}.${i % 10}`);
    return TENTHS[n]!;
  }
  return `${Math.floor(n / 10)}.${n % 10}`;
}
