/** Small edits of a table state for the session tests' seeded chains of changes. */
import type { Stand, TableState, Unit } from '@muster/rules';

/** One of `items`, chosen by `rand()` in [0, 1). */
export function pick<T>(items: readonly T[], rand: () => number): T {
  return items[Math.floor(rand() * items.length) % items.length]!;
}

/** The state with unit `id` replaced by `patch(unit)`; every other unit the same object. */
export function withUnit(s: TableState, id: string, patch: (u: Unit) => Unit): TableState {
  return { ...s, units: s.units.map((u) => (u.id === id ? patch(u) : u)) };
}

/** The state with the stands in `ids` replaced by `f(stand)`; every other stand the same object. */
export function mapStands(s: TableState, ids: ReadonlySet<string>, f: (st: Stand) => Stand): TableState {
  return { ...s, stands: s.stands.map((st) => (ids.has(st.id) ? f(st) : st)) };
}

/** Every stand of `unit` turned `turnDeg` about its first stand, then moved by (dx, dy). */
export function shiftUnit(s: TableState, unit: Unit, dx: number, dy: number, turnDeg: number): TableState {
  const first = s.stands.find((st) => st.id === unit.standIds[0]);
  if (!first) return s;
  const a = (turnDeg * Math.PI) / 180;
  return mapStands(s, new Set(unit.standIds), (st) => {
    const ox = st.pose.xIn - first.pose.xIn;
    const oy = st.pose.yIn - first.pose.yIn;
    return {
      ...st,
      pose: {
        xIn: first.pose.xIn + ox * Math.cos(a) - oy * Math.sin(a) + dx,
        yIn: first.pose.yIn + ox * Math.sin(a) + oy * Math.cos(a) + dy,
        headingDeg: (((st.pose.headingDeg + turnDeg) % 360) + 360) % 360,
      },
    };
  });
}
