import { describe, expect, it } from 'vitest';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { inf, mapStands, mapUnit, table, withParams } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import type { MovementOption } from '../../engine/evaluation.ts';
import type { PolygonShape, PolylineShape } from '../../engine/shapes.ts';
import type { TableState } from '../../model/tableState.ts';

const ev = (s: TableState) => evaluateFireAndFuryRegimental(s);
const move = (s: TableState, id = 'u') => ev(s).units[id]!.movement as MovementOption;
/** How far the reach goes from `from` toward `dirDeg`: its farthest vertex in that direction (0 if none). */
const alongIn = (reach: readonly { xIn: number; yIn: number }[], from: { xIn: number; yIn: number }, dirDeg: number): number => {
  let best = 0;
  for (const p of reach) {
    const d = Math.hypot(p.xIn - from.xIn, p.yIn - from.yIn);
    if (d < 1e-9) continue;
    const off = Math.abs(((Math.atan2(p.yIn - from.yIn, p.xIn - from.xIn) * 180) / Math.PI - dirDeg + 540) % 360 - 180);
    if (off < 1e-6) best = Math.max(best, d);
  }
  return best;
};
/** Reach straight ahead for a unit facing +y whose reference stand centre is at (35.25, 9.25). */
const aheadIn = (m: MovementOption) => alongIn(m.reach, { xIn: 35.25, yIn: 9.25 }, 90);
const box = (x0: number, y0: number, x1: number, y1: number) => [
  { xIn: x0, yIn: y0 },
  { xIn: x1, yIn: y0 },
  { xIn: x1, yIn: y1 },
  { xIn: x0, yIn: y1 },
];

describe('movement reach (QRS II, Figure 2 Movement Rate; Road Movement)', () => {
  it('gives an infantry line its 12" full move within 45° of its front and rear, a flank march\'s 6" beyond', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90)]);
    const ref = s.stands.find((x) => x.id === 'u-1')!.pose;
    const m = move(s);
    expect(m.ok).toBe(true);
    expect(m.allowanceIn).toBe(12);
    // 48 rays from the front, the four on the sector edges with both the full and the half move.
    expect(m.reach).toHaveLength(52);
    for (const p of m.reach) {
      const d = Math.hypot(p.xIn - ref.xIn, p.yIn - ref.yIn);
      const offFrontDeg = Math.abs(((Math.atan2(p.yIn - ref.yIn, p.xIn - ref.xIn) * 180) / Math.PI - 90 + 540) % 360 - 180);
      const oblique = offFrontDeg <= 45 + 1e-6 || offFrontDeg >= 135 - 1e-6;
      const edge = Math.abs(offFrontDeg - 45) < 1e-6 || Math.abs(offFrontDeg - 135) < 1e-6;
      if (edge) expect([6, 12].some((x) => Math.abs(d - x) < 1e-6)).toBe(true);
      else expect(d).toBeCloseTo(oblique ? 12 : 6, 6);
    }
    // Straight ahead, a full oblique, straight back: 12"; square to the flank: 6".
    for (const dir of [90, 135, 45, 270, 225]) expect(alongIn(m.reach, ref, dir)).toBeCloseTo(12, 6);
    for (const dir of [0, 180, 37.5, 142.5, 322.5]) expect(alongIn(m.reach, ref, dir)).toBeCloseTo(6, 6);
    expect(m.notes.join(' ')).toContain('obliquing up to 45°');
    // "A unit may oblique either left or right, but not both in the same phase." (Oblique)
    expect(m.notes.join(' ')).toContain('once and to one side only: not left then right in the same phase');
    expect(m.notes.join(' ')).toContain('marching by the flank, a half move');
    // The table edge clips the reach: 9.25" behind a line 10" from the near edge.
    expect(alongIn(move(table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90)])).reach, { xIn: 35.25, yIn: 9.25 }, 270)).toBeCloseTo(9.25, 6);
    expect(m.notes.join(' ')).toContain('Double quick (Double Quick effect): 16" open');
  });

  it('turns the sectors with the unit: a line facing 30° reaches 12" along 30° and 75°, 6" along 120°', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 24 }, 30)]);
    const ref = s.stands.find((x) => x.id === 'u-1')!.pose;
    const m = move(s);
    expect(alongIn(m.reach, ref, 30)).toBeCloseTo(12, 6);
    expect(alongIn(m.reach, ref, 75)).toBeCloseTo(12, 6);
    expect(alongIn(m.reach, ref, 210)).toBeCloseTo(12, 6);
    expect(alongIn(m.reach, ref, 120)).toBeCloseTo(6, 6);
    expect(alongIn(m.reach, ref, 300)).toBeCloseTo(6, 6);
  });

  it('leaves a march column its full move every way (it follows its head)', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90, { files: 1 })]);
    const ref = s.stands.find((x) => x.id === 'u-1')!.pose;
    const m = move(s);
    expect(m.reach).toHaveLength(48);
    for (const p of m.reach) expect(Math.hypot(p.xIn - ref.xIn, p.yIn - ref.yIn)).toBeCloseTo(12, 6);
    expect(m.notes.join(' ')).not.toContain('obliquing');
  });

  it('moves at the slowest ground crossed: broken woods 5" ahead hold a line to 8"', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90)], { terrain: { areas: [{ id: 'w', kind: 'open-woods', vertices: box(30, 14.25, 42, 30) }] } });
    expect(aheadIn(move(s))).toBeCloseTo(8, 6);
    // Rated rough ground by the scenario, the same woods allow only 6".
    expect(aheadIn(move(withParams(s, { 'terrain-open-woods': 'rough' })))).toBeCloseTo(6, 6);
    // A field column is quicker through broken ground (10").
    const column = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { stands: 6, files: 2 })], { terrain: s.terrain });
    expect(move(column).notes[0]).toContain('Infantry, field column or extended line');
  });

  it('starts a unit inside woods at the broken-ground rate', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90)], { terrain: { areas: [{ id: 'w', kind: 'open-woods', vertices: box(20, 0, 50, 30) }] } });
    expect(move(s).allowanceIn).toBe(8);
  });

  it('stops at an enemy unit and at a river', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('e', 'b', { xIn: 36, yIn: 16 }, 270)]);
    expect(aheadIn(move(s))).toBeCloseTo(6.75, 6);
    const river = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90)], { terrain: { linear: [{ id: 'r', kind: 'river', points: [{ xIn: 0, yIn: 13.25 }, { xIn: 72, yIn: 13.25 }] }] } });
    expect(aheadIn(move(river))).toBeCloseTo(4, 6);
  });

  it('gives a march column touching a good road 18" along it, 12" on a poor road', () => {
    const s = table([inf('u', 'a', { xIn: 10, yIn: 20 }, 90, { files: 1 })], { terrain: { roads: [{ id: 'pike', points: [{ xIn: 10, yIn: 0 }, { xIn: 10, yIn: 48 }] }] } });
    const road = (st: TableState) => ev(st).shapes.find((x) => x.id === 'movement/u/road/0') as PolylineShape;
    const lengthIn = (p: PolylineShape) => p.points.slice(1).reduce((sum, q, i) => sum + Math.hypot(q.xIn - p.points[i]!.xIn, q.yIn - p.points[i]!.yIn), 0);
    expect(road(s).style).toBe('reach-road');
    expect(lengthIn(road(s))).toBeCloseTo(36, 6);
    expect(lengthIn(road(withParams(s, { 'road-condition': 'poor' })))).toBeCloseTo(24, 6);
    // A line touching the road does not move on it as a line (the chart's "-"); it may only change formation
    // and half move in march column on it (Road Movement), drawn apart as road-march.
    const line = table([inf('u', 'a', { xIn: 10, yIn: 20 }, 0)], { terrain: s.terrain });
    expect(ev(line).shapes.some((x) => x.id.startsWith('movement/u/road/'))).toBe(false);
    expect(ev(line).shapes.some((x) => x.id.startsWith('movement/u/road-march/'))).toBe(true);
  });

  it('multiplies the open-ground rate on a good road: x1.5 troops, x2 limbered guns, and the note says the reach drawn (Road Movement)', () => {
    const pike = { roads: [{ id: 'pike', points: [{ xIn: 10, yIn: 0 }, { xIn: 10, yIn: 60 }] }] };
    const road = (st: TableState) => ev(st).shapes.find((x) => x.id === 'movement/u/road/0') as PolylineShape;
    const lengthIn = (p: PolylineShape) => p.points.slice(1).reduce((sum, q, i) => sum + Math.hypot(q.xIn - p.points[i]!.xIn, q.yIn - p.points[i]!.yIn), 0);
    const at = (spec: Parameters<typeof inf>[4]) => {
      const s = table([inf('u', 'a', { xIn: 10, yIn: 30 }, 90, spec)], { terrain: pike });
      return { ...s, table: { ...s.table, depthIn: 60 } };
    };
    // Cavalry march column: 18" open x1.5 = 27" each way (the chart's Road column says 24").
    const cav = at({ arm: 'cavalry', files: 1, stands: 4 });
    expect(lengthIn(road(cav))).toBeCloseTo(54, 6);
    expect(move(cav).notes.join(' ')).toContain('On the road: 27" (18" open-ground/road rate x1.5 good-road bonus');
    // Limbered field guns: 12" x2 = 24" each way (chart: 18"); horse guns 18" x2 = 36".
    const limbered = () => mapStands(at({ arm: 'artillery', weapon: 'LR', files: 1, stands: 2 }), 'u', (st, i) => (i === 1 ? { ...st, role: 'limber' } : st));
    expect(lengthIn(road(limbered()))).toBeCloseTo(48, 6);
    expect(move(limbered()).notes.join(' ')).toContain('On the road: 24" (12" open-ground/road rate x2 good-road bonus');
    const horse = mapUnit(limbered(), 'u', (u) => ({ ...u, horseArtillery: true }));
    expect(move(horse).notes.join(' ')).toContain('On the road: 36" (18" open-ground/road rate x2 good-road bonus');
    // 36" each way from about y 28.5 is cut by the table's ends at 0 and 60: the whole road.
    expect(lengthIn(road(horse))).toBeCloseTo(60, 6);
    // The chart's column is the other reading, one parameter away.
    expect(lengthIn(road(withParams(cav, { 'road-rate-reading': 'chart' })))).toBeCloseTo(48, 6);
    expect(lengthIn(road(withParams(limbered(), { 'road-rate-reading': 'chart' })))).toBeCloseTo(36, 6);
  });

  it('hand hauls unlimbered guns 2", mountain howitzers 4", and refuses heavy guns', () => {
    const guns = (weapon: string) => table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { arm: 'artillery', weapon, stands: 2, files: 2 })]);
    expect(move(guns('LR')).allowanceIn).toBe(2);
    expect(move(guns('MH')).allowanceIn).toBe(4);
    const hh = ev(guns('HH')).units['u']!.movement;
    expect(hh).toMatchObject({ ok: false, reason: 'movement/no-hand-haul' });
  });

  it('hand hauls forward or backward only, changing direction up to 45° (Gun Maneuvers, Hand Haul)', () => {
    // Two LR gun stands facing +y; the reference stand (the first gun) is the reach's origin.
    const s = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 })]);
    const ref = s.stands.find((x) => x.id === 'u-1')!.pose;
    const m = move(s);
    for (const dir of [90, 45, 135, 270, 225, 315]) expect(alongIn(m.reach, ref, dir)).toBeCloseTo(2, 6);
    // Square to the flank, or 52.5° off the front: no move.
    for (const dir of [0, 180, 37.5, 142.5]) expect(alongIn(m.reach, ref, dir)).toBe(0);
    expect(m.notes.join(' ')).toContain('forward or backward, changing direction up to 45°');
    // The sectors turn with the guns: facing 0°, straight along +x and -x, not along +y.
    const east = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 0, { arm: 'artillery', weapon: 'MH', stands: 2, files: 2 })]);
    const eastRef = east.stands.find((x) => x.id === 'u-1')!.pose;
    expect(alongIn(move(east).reach, eastRef, 0)).toBeCloseTo(4, 6);
    expect(alongIn(move(east).reach, eastRef, 180)).toBeCloseTo(4, 6);
    expect(alongIn(move(east).reach, eastRef, 90)).toBe(0);
  });

  it('moves limbered horse guns at 18" and says heavy guns have no double quick', () => {
    const limbered = (weapon: string, horse: boolean) => {
      const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { arm: 'artillery', weapon, stands: 2, files: 2 })]);
      return { ...s, units: s.units.map((u) => ({ ...u, horseArtillery: horse, status: { limbered: true } })) };
    };
    expect(move(limbered('LR', true)).allowanceIn).toBe(18);
    expect(move(limbered('HR', false)).notes.join(' ')).toContain('No double quick for HR guns');
  });
});

describe('Tardy move allowances (QRS II, Tardy: "half the full move rate in good order, or at the full move rate disordered")', () => {
  it('gives a line the Tardy half move (6" open, 4" broken, 3" rough) and the full move disordered without a flank march', () => {
    const notes = move(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90)])).notes.join(' ');
    expect(notes).toContain('Tardy: a half move in good order, 6" open, 4" broken, 3" rough');
    expect(notes).toContain('or the full move disordered, advancing or withdrawing');
    // A march column's half move: 6", 5", 4".
    expect(move(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { files: 1 })])).notes.join(' ')).toContain('6" open, 5" broken, 4" rough');
  });

  it('gives limbered guns their full move limbered', () => {
    const s = mapStands(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { arm: 'artillery', weapon: 'LR', stands: 2, files: 1 })]), 'u', (st, i) => (i === 1 ? { ...st, role: 'limber' } : st));
    expect(move(s).notes.join(' ')).toContain('Tardy: full move limbered, 12" open, 8" broken, 4" rough');
  });
});

describe('prolong (QRS II, Prolong; Gun Maneuver Changes 9-10)', () => {
  it('lets unlimbered guns retreat a half move (6" field guns) within 45° of straight back, not forward; heavy guns not at all', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 })]);
    const ref = s.stands.find((x) => x.id === 'u-1')!.pose;
    const prolong = ev(s).shapes.find((x) => x.id === 'movement/u/prolong') as PolygonShape;
    for (const dir of [270, 225, 315]) expect(alongIn(prolong.vertices, ref, dir)).toBeCloseTo(6, 6);
    for (const dir of [90, 0, 180]) expect(alongIn(prolong.vertices, ref, dir)).toBe(0);
    expect(move(s).notes.join(' ')).toContain('Prolong (Well Handled): retreat unlimbered up to a half move, 6" open, 4" broken, 2" rough');
    // Horse guns: half of 18".
    const horse = mapUnit(s, 'u', (u) => ({ ...u, horseArtillery: true }));
    expect(alongIn((ev(horse).shapes.find((x) => x.id === 'movement/u/prolong') as PolygonShape).vertices, ref, 270)).toBeCloseTo(9, 6);
    const hh = mapUnit(s, 'u', (u) => ({ ...u, weapon: 'HH' }));
    expect(ev(hh).shapes.some((x) => x.id === 'movement/u/prolong')).toBe(false);
  });
});

describe('on and off the road (QRS II, Road Movement; Figure 9)', () => {
  const lengthIn = (pts: readonly { xIn: number; yIn: number }[]) => pts.slice(1).reduce((sum, q, i) => sum + Math.hypot(q.xIn - pts[i]!.xIn, q.yIn - pts[i]!.yIn), 0);
  const line = (id: string, s: TableState) => (ev(s).shapes.find((x) => x.id === id) as PolylineShape | undefined)?.points;

  it("works Figure 9's three moves: 18\" on the road, 15\" leaving it into open ground, 13\" into broken woods", async () => {
    const { roadThenOffRoad } = await import('./movement.ts');
    expect(roadThenOffRoad(12, 1.5, 18)).toEqual({ spentIn: 12, offRoadIn: 0, totalIn: 18 });
    expect(roadThenOffRoad(12, 1.5, 9)).toEqual({ spentIn: 6, offRoadIn: 6, totalIn: 15 });
    expect(roadThenOffRoad(10, 1.5, 9)).toEqual({ spentIn: 6, offRoadIn: 4, totalIn: 13 });
    const s = table([inf('u', 'a', { xIn: 10, yIn: 20 }, 90, { files: 1 })], { terrain: { roads: [{ id: 'pike', points: [{ xIn: 10, yIn: 0 }, { xIn: 10, yIn: 48 }] }] } });
    expect(move(s).notes.join(' ')).toContain('Leaving a good road: each inch on it costs 1/1.5 of the rate of the slowest ground of the whole move');
  });

  it('lets a march column reach a road during its move: the rest of its rate x1.5 along it, slower when it crosses broken ground', () => {
    // Reference stand centre at (20, 19.25); the road runs along x = 26, 6" away (its stands reach x 20.75).
    const pike = { id: 'pike', points: [{ xIn: 26, yIn: 0 }, { xIn: 26, yIn: 48 }] };
    const open = table([inf('u', 'a', { xIn: 20, yIn: 20 }, 90, { files: 1, stands: 4 })], { terrain: { roads: [pike] } });
    const pts = line('movement/u/road-entry/0', open)!;
    expect(pts[0]).toEqual({ xIn: 20, yIn: 19.25 });
    // 6" to the road, then (12 - 6) x 1.5 = 9" each way along it.
    expect(lengthIn(pts.slice(1))).toBeCloseTo(18, 6);
    expect(move(open).notes.join(' ')).toContain('To a road and along it');
    // Through broken woods on the way: 10" rate, (10 - 6) x 1.5 = 6" each way.
    const woods = { id: 'w', kind: 'open-woods' as const, vertices: [{ xIn: 22, yIn: 0 }, { xIn: 24, yIn: 0 }, { xIn: 24, yIn: 48 }, { xIn: 22, yIn: 48 }] };
    const broken = table([inf('u', 'a', { xIn: 20, yIn: 20 }, 90, { files: 1, stands: 4 })], { terrain: { roads: [pike], areas: [woods] } });
    expect(lengthIn(line('movement/u/road-entry/0', broken)!.slice(1))).toBeCloseTo(12, 6);
    // A road 13" away is beyond the move; a line (the chart's "-") does not enter a road this way.
    const far = table([inf('u', 'a', { xIn: 20, yIn: 20 }, 90, { files: 1, stands: 4 })], { terrain: { roads: [{ id: 'far', points: [{ xIn: 33, yIn: 0 }, { xIn: 33, yIn: 48 }] }] } });
    expect(line('movement/u/road-entry/0', far)).toBeUndefined();
    expect(line('movement/u/road-entry/0', table([inf('u', 'a', { xIn: 20, yIn: 20 }, 90)], { terrain: { roads: [pike] } }))).toBeUndefined();
  });

  it('lets a line touching a road change formation and half move in march column on it: 9"', () => {
    const s = table([inf('u', 'a', { xIn: 10, yIn: 20 }, 0)], { terrain: { roads: [{ id: 'pike', points: [{ xIn: 10, yIn: 0 }, { xIn: 10, yIn: 48 }] }] } });
    expect(lengthIn(line('movement/u/road-march/0', s)!)).toBeCloseTo(18, 6);
    expect(move(s).notes.join(' ')).toContain('half move in march column on the road, 9"');
  });

  it('lets an unlimbered battery touching a road limber and move on it: 12" x2 = 24" each way', () => {
    const s = table([inf('u', 'a', { xIn: 10, yIn: 24 }, 0, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 })], { terrain: { roads: [{ id: 'pike', points: [{ xIn: 10, yIn: 0 }, { xIn: 10, yIn: 60 }] }] } });
    const big = { ...s, table: { ...s.table, depthIn: 60 } };
    expect(lengthIn(line('movement/u/road-limber/0', big)!)).toBeCloseTo(48, 6);
  });
});
