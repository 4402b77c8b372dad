/** Whole-table moves for the conformance suite: shift, quarter and half turns, and reordering every list. */
import { normalizeDeg, type PointIn, type TableState } from '@muster/rules';

/** `state` with every point mapped by `map`, every heading turned `turnDeg`, and the table resized. */
export function transformTable(state: TableState, map: (p: PointIn) => PointIn, turnDeg: number, table: TableState['table']): TableState {
  const pts = (ps: readonly PointIn[]): PointIn[] => ps.map(map);
  return {
    ...state,
    table,
    stands: state.stands.map((s) => {
      const c = map(s.pose);
      return { ...s, pose: { xIn: c.xIn, yIn: c.yIn, headingDeg: normalizeDeg(s.pose.headingDeg + turnDeg) } };
    }),
    terrain: {
      areas: state.terrain.areas.map((a) => ({ ...a, vertices: pts(a.vertices) })),
      linear: state.terrain.linear.map((l) => ({ ...l, points: pts(l.points) })),
      roads: state.terrain.roads.map((r) => ({ ...r, points: pts(r.points) })),
      elevations: state.terrain.elevations.map((e) => ({ ...e, vertices: pts(e.vertices) })),
    },
  };
}

/** Shifted by (dx, dy) inches; the table grows so everything stays on it. */
export function shifted(state: TableState, dxIn: number, dyIn: number): TableState {
  return transformTable(state, (p) => ({ xIn: p.xIn + dxIn, yIn: p.yIn + dyIn }), 0, {
    widthIn: state.table.widthIn + dxIn,
    depthIn: state.table.depthIn + dyIn,
  });
}

/** Turned a quarter counter-clockwise about the origin and put back on the table: width and depth swap. */
export function quarterTurned(state: TableState): TableState {
  const { widthIn, depthIn } = state.table;
  return transformTable(state, (p) => ({ xIn: depthIn - p.yIn, yIn: p.xIn }), 90, { widthIn: depthIn, depthIn: widthIn });
}

/** Turned half round about the table's centre. */
export function halfTurned(state: TableState): TableState {
  const { widthIn, depthIn } = state.table;
  return transformTable(state, (p) => ({ xIn: widthIn - p.xIn, yIn: depthIn - p.yIn }), 180, state.table);
}

/** Units, stands, commanders and every terrain list in reverse order (unit stand lists keep their order: it means something). */
export function reordered(state: TableState): TableState {
  const rev = <T>(xs: readonly T[]): T[] => [...xs].reverse();
  return {
    ...state,
    units: rev(state.units),
    stands: rev(state.stands),
    commanders: rev(state.commanders),
    terrain: {
      areas: rev(state.terrain.areas),
      linear: rev(state.terrain.linear),
      roads: rev(state.terrain.roads),
      elevations: rev(state.terrain.elevations),
    },
  };
}
