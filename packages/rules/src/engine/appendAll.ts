/**
 * `into.push(...from)` without the spread: a spread call copies `from` into an argument list first, and the
 * rule sets assemble their shapes and warnings this way for every unit on every update.
 */
export function appendAll<T>(into: T[], from: readonly T[]): void {
  for (let i = 0; i < from.length; i++) into.push(from[i]!);
}
