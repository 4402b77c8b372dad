/**
 * `hypot2(x, y)` returns exactly what `Math.hypot(x, y)` returns, bit for bit, without its cost: V8's
 * variadic builtin allocates a scratch array on every call, which made it a leading source of garbage in
 * the rules engine (hundreds of thousands of calls per table evaluation). Same steps as V8's Math.hypot:
 * scale by the larger magnitude, Kahan-sum the squares, take the root, scale back. The equality with
 * Math.hypot is property-tested (hypot.test.ts), so swapping one for the other cannot move any result.
 */
export function hypot2(x: number, y: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (ax === Infinity || ay === Infinity) return Infinity;
  if (ax !== ax || ay !== ay) return NaN;
  const max = ax > ay ? ax : ay;
  if (max === 0) return 0;
  const nx = ax / max;
  const ny = ay / max;
  // Kahan summation, in argument order.
  let sum = 0;
  let compensation = 0;
  let summand = nx * nx - compensation;
  let preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  summand = ny * ny - compensation;
  preliminary = sum + summand;
  sum = preliminary;
  return Math.sqrt(sum) * max;
}
