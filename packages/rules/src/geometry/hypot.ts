/**
 * `hypot2(x, y)` returns exactly what `Math.hypot(x, y)` returns, bit for bit, without its cost: V8's
 * variadic builtin allocates a scratch array on every call, which made it a leading source of garbage in
 * the rules engine (hundreds of thousands of calls per table evaluation). Same steps as V8's Math.hypot
 * (math.tq): scale by the larger magnitude, sum the squares, take the root, scale back. V8 sums with Kahan
 * compensation, which for two terms is always 0 (the first term is added to 0 exactly), so the plain sum
 * is the same number. Non-finite input goes to the builtin (Infinity wins over NaN, as there). The
 * equality with Math.hypot is property-tested (hypot.test.ts), so swapping one for the other cannot move
 * any result.
 */
export function hypot2(x: number, y: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (!(ax < Infinity && ay < Infinity)) return Math.hypot(x, y);
  const max = ax > ay ? ax : ay;
  if (max === 0) return 0;
  const nx = ax / max;
  const ny = ay / max;
  return Math.sqrt(nx * nx + ny * ny) * max;
}
