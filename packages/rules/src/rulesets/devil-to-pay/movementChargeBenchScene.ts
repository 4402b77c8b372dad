/**
 * A busy table for timing movement and charge: 60 five-stand units (300 stands) on a 72" x 48" table,
 * two armies facing each other 8" apart, with fences, woods and a road. Used by the bench, not by tests.
 */
import type { TableState, Terrain } from '../../model/tableState.ts';
import { INFANTRY_BASE, grid, stateOf, unitAt } from './movementChargeTestScenes.ts';

/** The scene; `shiftIn` moves unit 'u0' forward so a session sees a one-unit change. */
export function busyTable(shiftIn = 0): TableState {
  const parts = [];
  for (let i = 0; i < 60; i++) {
    const union = i < 30;
    const col = i % 10;
    const row = Math.floor((i % 30) / 10);
    const xIn = 4 + col * 7;
    const yIn = union ? 16 - row * 5 + (i === 0 ? shiftIn : 0) : 32 + row * 5;
    const formation = i % 7 === 0 ? grid(5, 2, INFANTRY_BASE) : i % 5 === 0 ? grid(5, 5, INFANTRY_BASE, 1.5) : grid(5, 5, INFANTRY_BASE);
    parts.push(unitAt({ id: `u${i}`, side: union ? 'union' : 'csa', quality: i % 4 === 0 ? 'green' : 'veteran' }, { xIn, yIn, headingDeg: union ? 90 : 270 }, formation));
  }
  const fence = (id: string, x0: number, y0: number, x1: number, y1: number) => ({ id, kind: 'fence' as const, points: [{ xIn: x0, yIn: y0 }, { xIn: (x0 + x1) / 2, yIn: (y0 + y1) / 2 + 0.5 }, { xIn: x1, yIn: y1 }] });
  const box = (id: string, kind: 'open-woods' | 'thick-woods' | 'rough' | 'town', x: number, y: number, w: number, h: number) => ({
    id,
    kind,
    vertices: [{ xIn: x, yIn: y }, { xIn: x + w, yIn: y + 1 }, { xIn: x + w, yIn: y + h }, { xIn: x + 1, yIn: y + h - 1 }, { xIn: x, yIn: y + h / 2 }],
  });
  const terrain: Partial<Terrain> = {
    linear: [fence('f1', 0, 24, 20, 24), fence('f2', 26, 23, 46, 25), fence('f3', 52, 24, 72, 24), { id: 'w1', kind: 'wall', points: [{ xIn: 10, yIn: 28 }, { xIn: 30, yIn: 28 }] }, { id: 's1', kind: 'stream', points: [{ xIn: 0, yIn: 40 }, { xIn: 20, yIn: 44 }, { xIn: 40, yIn: 42 }, { xIn: 72, yIn: 46 }] }],
    areas: [box('a1', 'open-woods', 2, 2, 10, 6), box('a2', 'thick-woods', 50, 20, 8, 8), box('a3', 'rough', 30, 18, 6, 4), box('a4', 'town', 60, 36, 8, 8)],
    roads: [{ id: 'r1', points: [{ xIn: 36, yIn: 0 }, { xIn: 36, yIn: 48 }] }],
  };
  return stateOf(parts, terrain);
}
