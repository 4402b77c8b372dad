import { describe, expect, it } from 'vitest';
import type { Stand } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { standPolygon } from '../../geometry/footprint.ts';
import { pointsBoundingBox } from '../../geometry/polygon.ts';
import { changeFrontWheels, type ChangeFrontWheel, type WheelGround } from './wheel.ts';
import type { TerrainClass } from './tables/terrainClasses.ts';
import type { TableState } from '../../model/tableState.ts';
import type { MovementOption } from '../../engine/evaluation.ts';
import type { PolygonShape } from '../../engine/shapes.ts';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { inf, table } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';

/** A line of `n` stands 1.5" wide and 1" deep facing +y, front edge at y = 10.5, from x = 30 rightwards (as seen from above). */
function line(n: number): Stand[] {
  return Array.from({ length: n }, (_, i) => ({ id: `s${i}`, unitId: 'u', role: 'base' as const, widthIn: 1.5, depthIn: 1, pose: { xIn: 30.75 + 1.5 * i, yIn: 10, headingDeg: 90 } }));
}
const OPEN: WheelGround = { classAt: () => 'open', blockers: [], walls: [] };
const rates = { full: (g: TerrainClass) => ({ open: 12, broken: 8, rough: 6, impassable: 0 })[g], doubleQuick: (g: TerrainClass) => ({ open: 16, broken: 12, rough: 10, impassable: 0 })[g] };
const find = (ws: ChangeFrontWheel[], flank: 'left' | 'right', way: 'forward' | 'backward') => ws.find((w) => w.pivotFlank === flank && w.way === way)!;
const dist = (a: PointIn, b: PointIn) => Math.hypot(a.xIn - b.xIn, a.yIn - b.yIn);

describe('change front (QRS II, Change Front, Figure 7)', () => {
  it('wheels on either inside flank, forward or backward, as far as the outside corner may travel at the full move', () => {
    // Frontage 9": 12" of travel is 12/9 rad = 76.39°, floored to 76.3°; at the double quick 16/9 rad > 90°.
    const ws = changeFrontWheels(line(6), 90, rates, OPEN);
    expect(ws).toHaveLength(4);
    for (const w of ws) {
      expect(w.frontageIn).toBeCloseTo(9, 9);
      expect(w.maxDeg).toBe(76.3);
      expect(w.maxDegDoubleQuick).toBe(90);
      expect(w.limitedBy).toBe('movement-rate');
      expect(w.ground).toBe('open');
    }
    // Facing +y, the left flank is at low x: pivoting there and wheeling forward brings the right flank forward.
    const lf = find(ws, 'left', 'forward');
    expect(lf.pivot).toEqual({ xIn: 30, yIn: 10.5 });
    expect(lf.headingAfterDeg).toBeCloseTo(166.3, 9);
    const end = lf.sweep[lf.sweep.length - 1]!;
    expect(dist(end, lf.pivot)).toBeCloseTo(9, 9);
    expect(end.yIn).toBeGreaterThan(10.5 + 8.5);
    expect(find(ws, 'left', 'backward').headingAfterDeg).toBeCloseTo(13.7, 9);
    expect(find(ws, 'right', 'forward').pivot).toEqual({ xIn: 39, yIn: 10.5 });
    expect(find(ws, 'right', 'forward').headingAfterDeg).toBeCloseTo(13.7, 9);
    // Arc length at the limit never exceeds the rate.
    for (const w of ws) expect((w.maxDeg * Math.PI * w.frontageIn) / 180).toBeLessThanOrEqual(12 + 1e-9);
  });

  it('stops at 90 degrees for a short frontage', () => {
    const ws = changeFrontWheels(line(2), 90, rates, OPEN);
    for (const w of ws) {
      expect(w.maxDeg).toBe(90);
      expect(w.limitedBy).toBe('ninety-degrees');
      expect(w.headingAfterDeg % 90).toBeCloseTo(0, 9);
    }
  });

  it('takes the rate of the slowest ground the wheeling faces reach', () => {
    // Rough ground beyond y = 14.5: the forward wheels reach it past 26.4°, so 6" of travel (38.19°) is the limit.
    const ground: WheelGround = { classAt: (p) => (p.yIn > 14.5 ? 'rough' : 'open'), blockers: [], walls: [] };
    const ws = changeFrontWheels(line(6), 90, rates, ground);
    for (const flank of ['left', 'right'] as const) {
      const w = find(ws, flank, 'forward');
      expect(w.maxDeg).toBe(38.1);
      expect(w.ground).toBe('rough');
      expect(w.limitedBy).toBe('movement-rate');
      // At the double quick the rough rate (10") allows 63.66°.
      expect(w.maxDegDoubleQuick).toBe(63.6);
      expect(find(ws, flank, 'backward').maxDeg).toBe(76.3);
    }
    // Rough ground met only past 45° (y > 17), beyond what its 6" would allow: the wheel stops short of it.
    const far: WheelGround = { classAt: (p) => (p.yIn > 17 ? 'rough' : 'open'), blockers: [], walls: [] };
    const w = find(changeFrontWheels(line(6), 90, rates, far), 'left', 'forward');
    expect(w.maxDeg).toBe(45);
    expect(w.ground).toBe('open');
    expect(w.limitedBy).toBe('movement-rate');
  });

  it('does not wheel through an enemy stand or across a river', () => {
    // An enemy stand 45° ahead of the left-pivot wheel's outside corner.
    const at = { xIn: 30 + 9 * Math.cos(Math.PI / 4), yIn: 10.5 + 9 * Math.sin(Math.PI / 4) };
    const enemy = standPolygon({ widthIn: 1.5, depthIn: 1, pose: { ...at, headingDeg: 270 } });
    const ws = changeFrontWheels(line(6), 90, rates, { ...OPEN, blockers: [{ polygon: enemy, box: pointsBoundingBox(enemy) }] });
    const lf = find(ws, 'left', 'forward');
    expect(lf.limitedBy).toBe('enemy');
    expect(lf.maxDeg).toBeGreaterThan(30);
    expect(lf.maxDeg).toBeLessThan(45);
    expect(find(ws, 'left', 'backward').maxDeg).toBe(76.3);
    // A river 2" behind the line stops the backward wheels.
    const river: WheelGround = { ...OPEN, walls: [[{ xIn: 0, yIn: 7.5 }, { xIn: 72, yIn: 7.5 }]] };
    const rb = find(changeFrontWheels(line(6), 90, rates, river), 'right', 'backward');
    expect(rb.limitedBy).toBe('impassable');
    expect(rb.maxDeg).toBeLessThan(15);
    expect(find(changeFrontWheels(line(6), 90, rates, river), 'right', 'forward').maxDeg).toBe(76.3);
  });

  it('turns the same for a rotated table', () => {
    const turned = line(6).map((s) => {
      const r = Math.PI / 3;
      const x = s.pose.xIn - 36;
      const y = s.pose.yIn - 10;
      return { ...s, pose: { xIn: 36 + x * Math.cos(r) - y * Math.sin(r), yIn: 10 + x * Math.sin(r) + y * Math.cos(r), headingDeg: 150 } };
    });
    const a = changeFrontWheels(line(6), 90, rates, OPEN);
    const b = changeFrontWheels(turned, 150, rates, OPEN);
    expect(b.map((w) => w.maxDeg)).toEqual(a.map((w) => w.maxDeg));
    expect(b.map((w) => w.headingAfterDeg - 60)).toEqual(a.map((w) => expect.closeTo(w.headingAfterDeg, 9)));
  });
});

describe('change front in the movement evaluation', () => {
  const ev = (s: TableState) => evaluateFireAndFuryRegimental(s);
  const changeFrontIds = (s: TableState, id = 'u') => ev(s).shapes.filter((x) => x.id.startsWith(`movement/${id}/change-front/`)).map((x) => x.id).sort();
  const note = (s: TableState, id = 'u') => (ev(s).units[id]!.movement as MovementOption).notes.find((n) => n.startsWith('Change front'));

  it('gives a line its four wheels: a note with each angle and a sector per wheel', () => {
    // Six 1.5" stands: 9" of frontage, 12" full move (76.3°), 16" at the double quick (90°).
    const s = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90)]);
    expect(note(s)).toContain('pivot on the left flank forward 76.3° (the rate), 90° at the double quick, backward 76.3° (the rate)');
    expect(note(s)).toContain('frontage 9.0"');
    expect(changeFrontIds(s)).toEqual(['left-backward', 'left-forward', 'right-backward', 'right-forward'].map((w) => `movement/u/change-front/${w}`));
    const sector = ev(s).shapes.find((x) => x.id === 'movement/u/change-front/left-forward') as PolygonShape;
    expect(sector.layer).toBe('movement');
    expect(sector.vertices[0]).toEqual({ xIn: 31.5, yIn: 20 });
  });

  it('has no change front for columns, guns or broken units, and waits for a rally when disordered', () => {
    expect(note(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { stands: 6, files: 2 })]))).toBeUndefined();
    expect(changeFrontIds(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { stands: 6, files: 1 })]))).toEqual([]);
    const disordered = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { status: { disordered: true } })]);
    expect(note(disordered)).toContain('after a Rally with Élan');
  });

  it('stops a wheel at an enemy unit and takes the slowest ground swept', () => {
    // Two enemy stands 3" ahead of the line's right half (x 36.5 to 39.5): the left-pivot forward wheel's
    // face meets them a little past 20°, the right-pivot one's a little past 35°; the backward wheels are free.
    const s = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90), inf('e', 'b', { xIn: 38, yIn: 23 }, 270, { stands: 2, files: 2 })]);
    expect(note(s)).toContain('pivot on the left flank forward 20° (an enemy unit in the way), backward 76.3° (the rate)');
    expect(note(s)).toContain('on the right flank forward 35° (an enemy unit in the way), backward 76.3° (the rate)');
    const woods = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90)], { terrain: { areas: [{ id: 'w', kind: 'thick-woods', vertices: [{ xIn: 20, yIn: 25 }, { xIn: 52, yIn: 25 }, { xIn: 52, yIn: 40 }, { xIn: 20, yIn: 40 }] }] } });
    expect(note(woods)).toContain('over rough ground');
  });
});
