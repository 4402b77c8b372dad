/** Small edits of a table state for the session tests' seeded chains of changes. */
import type { TableState, Unit } from '@muster/rules';

/** One of `items`, chosen by `rand()` in [0, 1). */
export function pick<T>(items: readonly T[], rand: () => number): T {
  return items[Math.floor(rand() * items.length) % items.length]!;
}

/** The state with unit `id` replaced by `patch(unit)`; every other unit the same object. */
export function withUnit(s: TableState, id: string, patch: (u: Unit) => Unit): TableState {
  return { ...s, units: s.units.map((u) => (u.id === id ? patch(u) : u)) };
}
