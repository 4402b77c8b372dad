import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { polygonToPolygonDistanceIn } from '../../../geometry/distance.ts';
import { standCorners } from '../../../geometry/footprint.ts';
import type { Refusal } from '../../../engine/evaluation.ts';
import type { AreaTerrainKind, Formation, LinearTerrainKind, TableState } from '../../../model/tableState.ts';
import type { PointIn } from '../../../model/units.ts';
import { pointInPolygon } from '../../../geometry/intersect.ts';
import { buildContext } from '../context.ts';
import { movementOptions } from './movementOptions.ts';
import type { DtpMovementOption } from './movementResult.ts';
import { walkPenalties } from './walkPenalties.ts';
import { ARTILLERY_BASE, CAVALRY_BASE, INFANTRY_BASE, file, grid, stateOf, unitAt } from '../../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';
import type { LocalStand, UnitSpec } from '../../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';

/** A union unit whose front edge is at y = 10.75 (reference stand centre at (30, 10)), facing +y. */
const mover = (spec: Partial<UnitSpec> = {}, locals: readonly LocalStand[] = grid(5, 5, INFANTRY_BASE), base: { widthIn: number; depthIn: number } = INFANTRY_BASE) =>
  unitAt({ id: 'm', side: 'union', ...spec }, { xIn: 30, yIn: 10, headingDeg: 90, base }, locals);
const FRONT_Y = 10.75;

function move(state: TableState, unitId = 'm'): DtpMovementOption {
  const r = movementOptions(buildContext(state), unitId).movement;
  if (!r.ok) throw new Error(`expected movement, got ${r.reason}`);
  return r as DtpMovementOption;
}

const across = (kind: LinearTerrainKind, yIn: number) => ({ id: kind, kind, points: [{ xIn: 10, yIn }, { xIn: 50, yIn }] });
const band = (kind: AreaTerrainKind, y0: number, y1: number) => ({ id: kind, kind, vertices: [{ xIn: 10, yIn: y0 }, { xIn: 50, yIn: y0 }, { xIn: 50, yIn: y1 }, { xIn: 10, yIn: y1 }] });

describe('walkPenalties (Move: Terrain Penalties)', () => {
  it('the rulebook fence example: 12" loose order meets a fence after 10" and stops; next move 9"', () => {
    expect(walkPenalties(12, [{ atIn: 10, penaltyIn: 3, label: 'fence' }])).toEqual({ reachIn: 10, stoppedBy: 'fence', paidIn: 0 });
    expect(walkPenalties(12, [{ atIn: 0, penaltyIn: 3, label: 'fence' }])).toEqual({ reachIn: 9, paidIn: 3 });
  });

  it('pays penalties in path inches when the path bends', () => {
    // A wheel that uses 1.5" of path per inch of displacement: 12" of path reach 8"; a 3" fence at 2" costs 3".
    expect(walkPenalties(12, [{ atIn: 2, penaltyIn: 3, label: 'fence' }], 1.5).reachIn).toBeCloseTo(6, 9);
    expect(walkPenalties(12, [{ atIn: 1, penaltyIn: 0, stop: true, label: 'enemy' }]).reachIn).toBe(1);
  });
});

describe('movementOptions: the Movement table (Move: Movement)', () => {
  const rows: [Formation, UnitSpec['arm'], number][] = [
    ['line', 'infantry', 9],
    ['double-line', 'infantry', 9],
    ['loose-order', 'infantry', 12],
    ['attack-column', 'infantry', 12],
    ['march-column', 'infantry', 12],
    ['disordered', 'infantry', 9],
    ['limbered', 'artillery', 12],
    ['unlimbered', 'artillery', 3],
  ];
  for (const [formation, arm, inches] of rows) {
    it(`${formation}: ${inches}" straight ahead on open ground`, () => {
      const base = arm === 'artillery' ? ARTILLERY_BASE : INFANTRY_BASE;
      const locals = arm === 'artillery' ? grid(3, 3, base).map((l) => ({ ...l, role: 'gun' as const })) : grid(5, 5, base);
      const m = move(stateOf([mover({ arm, status: { formation } }, locals, base)]));
      expect(m.allowanceIn).toBe(inches);
      expect(m.straightAheadIn).toBeCloseTo(inches, 6);
      expect(m.formation).toBe(formation);
    });
  }

  it('cavalry +6": mounted line 15"; dismounted line 9"; horse artillery limbered 18" but prolong stays 3"', () => {
    const cav = (roles: 'mounted' | 'dismounted') => grid(4, 4, CAVALRY_BASE).map((l, i) => ({ ...l, role: i === 0 && roles === 'mounted' ? ('command' as const) : roles }));
    expect(move(stateOf([mover({ arm: 'cavalry' }, cav('mounted'), CAVALRY_BASE)])).allowanceIn).toBe(15);
    expect(move(stateOf([mover({ arm: 'cavalry', status: { formation: 'line' } }, cav('dismounted'))])).allowanceIn).toBe(9);
    const guns = grid(3, 3, ARTILLERY_BASE).map((l) => ({ ...l, role: 'gun' as const }));
    expect(move(stateOf([mover({ arm: 'artillery', horseArtillery: true, status: { limbered: true } }, guns, ARTILLERY_BASE)])).allowanceIn).toBe(18);
    expect(move(stateOf([mover({ arm: 'artillery', horseArtillery: true }, guns, ARTILLERY_BASE)])).allowanceIn).toBe(3);
  });

  it('notes the formation-change rules that apply', () => {
    expect(move(stateOf([mover({ status: { formation: 'disordered' } })])).notes.some((n) => n.includes('RALLY'))).toBe(true);
    expect(move(stateOf([mover()])).notes.some((n) => n.includes('RALLY'))).toBe(false);
    expect(move(stateOf([mover({ status: { formation: 'attack-column' } }, grid(4, 2, INFANTRY_BASE))])).notes.some((n) => n.includes('at least five'))).toBe(true);
    const dis = [{ u: 0, v: -3, role: 'mounted' as const }, ...grid(4, 4, INFANTRY_BASE).map((l) => ({ ...l, role: 'dismounted' as const }))];
    expect(move(stateOf([mover({ arm: 'cavalry', status: { formation: 'line' } }, dis)])).notes.some((n) => n.includes('Dismounted cavalry may not'))).toBe(true);
  });

  it('an unrecognised formation moves as a line (9") and says so', () => {
    const scattered: LocalStand[] = [{ u: 0, v: 0, role: 'command' }, { u: 7, v: 3 }, { u: -6, v: -5 }, { u: 2, v: -9 }];
    const m = move(stateOf([mover({}, scattered)]));
    expect(m.formation).toBe('line');
    expect(m.allowanceIn).toBe(9);
    expect(m.notes[0]).toMatch(/not recognised/);
  });

  it('prone: N/A (a refusal, not an error)', () => {
    const r = movementOptions(buildContext(stateOf([mover({ status: { prone: true } })])), 'm').movement as Refusal;
    expect(r).toMatchObject({ ok: false, reason: 'movement/prone' });
  });

  it('fudge move: 3" in any direction, also for cavalry, regardless of terrain', () => {
    const cav = grid(4, 4, CAVALRY_BASE).map((l, i) => ({ ...l, role: i === 0 ? ('command' as const) : ('mounted' as const) }));
    const state = stateOf([mover({ arm: 'cavalry' }, cav, CAVALRY_BASE)], { areas: [band('thick-woods', 0, 40)] });
    const m = move(state);
    const ref = state.stands.find((s) => s.id === 'm-s0')!.pose;
    const r = m.fudgeReach.map((p) => Math.hypot(p.xIn - ref.xIn, p.yIn - ref.yIn));
    expect(r.length).toBeGreaterThanOrEqual(16);
    for (const d of r) expect(d).toBeCloseTo(3, 9);
  });

  it('unlimbered artillery prolongs 3" in any direction', () => {
    const guns = grid(3, 3, ARTILLERY_BASE).map((l) => ({ ...l, role: 'gun' as const }));
    const m = move(stateOf([mover({ arm: 'artillery' }, guns, ARTILLERY_BASE)]));
    const radii = m.reach.map((p) => Math.hypot(p.xIn - 30, p.yIn - 10));
    expect(Math.min(...radii)).toBeCloseTo(3, 9);
    expect(Math.max(...radii)).toBeCloseTo(3, 9);
  });

  it('Left/Right Face costs 3": a line faces into march column and moves 9"; a column into line moves 6"', () => {
    expect(move(stateOf([mover()])).face).toEqual({ toFormation: 'march-column', costIn: 3, remainingIn: 9 });
    expect(move(stateOf([mover({}, file(5, INFANTRY_BASE))])).face).toEqual({ toFormation: 'line', costIn: 3, remainingIn: 6 });
  });
});

describe('movementOptions: terrain (Move: Terrain Penalties)', () => {
  it('the rulebook example on the table: loose order meets a fence after 10" and stops; from the fence, 9"', () => {
    const loose = grid(5, 5, INFANTRY_BASE, 1.5);
    const first = move(stateOf([mover({}, loose)], { linear: [across('fence', FRONT_Y + 10)] }));
    expect(first.formation).toBe('loose-order');
    expect(first.straightAheadIn).toBeCloseTo(10, 6);
    expect(first.straightAheadStoppedBy).toBe("fence 'fence'");
    const second = move(stateOf([mover({}, loose)], { linear: [across('fence', FRONT_Y + 0.01)] }));
    expect(second.straightAheadIn).toBeCloseTo(9, 6);
    expect(second.straightAheadStoppedBy).toBeUndefined();
  });

  const linearRows: [LinearTerrainKind, number][] = [
    ['fence', 3],
    ['wall', 3],
    ['brook', 3],
    ['hasty-works', 6],
    ['entrenchment', 6],
    ['stream', 6],
    ['abatis', 6],
    ['chevaux-de-frise', 6],
  ];
  for (const [kind, penalty] of linearRows) {
    it(`${kind}: -${penalty}" when crossed`, () => {
      const m = move(stateOf([mover({ status: { formation: 'loose-order' } }, grid(5, 5, INFANTRY_BASE, 1.5))], { linear: [across(kind, FRONT_Y + 2)] }));
      expect(m.straightAheadIn).toBeCloseTo(12 - penalty, 6);
    });
  }

  it('passage of lines through a friendly unit: -3"', () => {
    const friend = unitAt({ id: 'f', side: 'union' }, { xIn: 30, yIn: FRONT_Y + 2.75, headingDeg: 90 }, grid(5, 5, INFANTRY_BASE));
    const m = move(stateOf([mover({}, grid(5, 5, INFANTRY_BASE, 1.5)), friend]));
    expect(m.straightAheadIn).toBeCloseTo(9, 6);
  });

  it('a river cannot be crossed off road; a sunken road costs nothing', () => {
    expect(move(stateOf([mover()], { linear: [across('river', FRONT_Y + 4)] })).straightAheadIn).toBeCloseTo(4, 6);
    expect(move(stateOf([mover()], { linear: [across('sunken-road', FRONT_Y + 4)] })).straightAheadIn).toBeCloseTo(9, 6);
  });

  const areaRows: [AreaTerrainKind, number][] = [
    ['rough', 3],
    ['swamp', 3],
    ['open-woods', 3],
    ['farm', 3],
    ['thick-woods', 6],
    ['thicket', 6],
    ['town', 6],
    ['city', 6],
  ];
  for (const [kind, penalty] of areaRows) {
    it(`${kind}: -${penalty}" on entering, also when starting inside`, () => {
      const loose = grid(5, 5, INFANTRY_BASE, 1.5);
      expect(move(stateOf([mover({}, loose)], { areas: [band(kind, FRONT_Y + 2, 40)] })).straightAheadIn).toBeCloseTo(12 - penalty, 6);
      expect(move(stateOf([mover({}, loose)], { areas: [band(kind, 0, 40)] })).straightAheadIn).toBeCloseTo(12 - penalty, 6);
    });
  }

  it('a penalty bigger than what is left stops the unit at the edge of the area', () => {
    // Line 9": thick woods after 5" (needs 6", has 4") → stops at 5".
    const m = move(stateOf([mover()], { areas: [band('thick-woods', FRONT_Y + 5, 40)] }));
    expect(m.straightAheadIn).toBeCloseTo(5, 6);
    expect(m.straightAheadStoppedBy).toBe("thick-woods 'thick-woods'");
  });

  it('artillery and mounted cavalry cannot cross fences, walls, hasty works, entrenchments, abatis, chevaux-de-frise', () => {
    const guns = grid(3, 3, ARTILLERY_BASE).map((l) => ({ ...l, role: 'gun' as const }));
    const cav = grid(4, 4, CAVALRY_BASE).map((l, i) => ({ ...l, role: i === 0 ? ('command' as const) : ('mounted' as const) }));
    for (const kind of ['fence', 'wall', 'hasty-works', 'entrenchment', 'abatis', 'chevaux-de-frise'] as const) {
      const arty = move(stateOf([mover({ arm: 'artillery', status: { limbered: true } }, guns, ARTILLERY_BASE)], { linear: [across(kind, 10 + 1.5 + 2)] }));
      expect(arty.straightAheadIn).toBeCloseTo(2, 6);
      const horse = move(stateOf([mover({ arm: 'cavalry' }, cav, CAVALRY_BASE)], { linear: [across(kind, 11 + 2)] }));
      expect(horse.straightAheadIn).toBeCloseTo(2, 6);
    }
    // A brook only costs 3" (15" - 3").
    expect(move(stateOf([mover({ arm: 'cavalry' }, cav, CAVALRY_BASE)], { linear: [across('brook', 13)] })).straightAheadIn).toBeCloseTo(12, 6);
  });
});

describe('movementOptions: reach region', () => {
  const radiusAt = (reach: readonly PointIn[], deg: number): number => {
    // Farthest reach point along a direction from the reference point (30, 10).
    const r = (deg * Math.PI) / 180;
    let best = 0;
    for (const p of reach) {
      const dx = p.xIn - 30;
      const dy = p.yIn - 10;
      const d = Math.hypot(dx, dy);
      if (d > 1e-9 && Math.abs(Math.atan2(dy, dx) - r) < 1e-6) best = Math.max(best, d);
    }
    return best;
  };

  it('forward and 45° oblique at full allowance; green troops may not oblique', () => {
    const vet = move(stateOf([mover()]));
    expect(radiusAt(vet.reach, 90)).toBeCloseTo(9, 6);
    expect(radiusAt(vet.reach, 135)).toBeCloseTo(9, 6);
    expect(radiusAt(vet.reach, 45)).toBeCloseTo(9, 6);
    expect(vet.oblique).toBe(true);
    const green = move(stateOf([mover({ quality: 'green' })]));
    expect(green.oblique).toBe(false);
    expect(radiusAt(green.reach, 90)).toBeCloseTo(9, 6);
    expect(radiusAt(green.reach, 135)).toBeLessThan(8.5);
  });

  it('wheels are measured on the outside of the arc: a long line cannot turn as far as a column', () => {
    // A six-stand line (9" frontage) with 9" can wheel at most 1 radian; a march column turns freely.
    const line = move(stateOf([mover({}, grid(6, 6, INFANTRY_BASE))]));
    const column = move(stateOf([mover({}, file(6, INFANTRY_BASE))]));
    // Straight out to the left (table 180°, the unit faces 90°): the column gets far, the line barely moves.
    expect(radiusAt(line.reach, 180)).toBeLessThan(1.5);
    expect(radiusAt(column.reach, 180)).toBeGreaterThan(5);
    // Nothing straight behind the line on a normal move.
    expect(radiusAt(line.reach, 270)).toBe(0);
  });

  it('keeps 1" from the enemy', () => {
    // Enemy front edge 5" ahead of ours: we stop 4" on.
    const enemy = unitAt({ id: 'e', side: 'csa' }, { xIn: 30, yIn: FRONT_Y + 5 + 0.75, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
    const m = move(stateOf([mover(), enemy]));
    expect(m.straightAheadIn).toBeCloseTo(4, 6);
    expect(m.straightAheadStoppedBy).toBe(`1" from enemy 'e'`);
    // The reach polygon does not contain any point that would bring the front within 1".
    expect(pointInPolygon({ xIn: 30, yIn: 10 + 4.5 }, m.reach)).toBe(false);
    expect(pointInPolygon({ xIn: 30, yIn: 10 + 3.5 }, m.reach)).toBe(true);
    // A fudge move may still fall back away from the enemy.
    expect(Math.min(...m.fudgeReach.map((p) => p.yIn))).toBeCloseTo(7, 6);
  });

  it('catches a narrow enemy that sits between the leading corners and the front centre', () => {
    // A single enemy stand 5" ahead of our front, centred 1.875" left of our centre: between the front-left
    // corner and the front centre of a 7.5" line, narrower (with its 1") than the gap between them.
    const lone = unitAt({ id: 'e', side: 'csa' }, { xIn: 30 - 1.875, yIn: FRONT_Y + 5 + 0.75, headingDeg: 270 }, [{ u: 0, v: 0, role: 'command' }]);
    const m = move(stateOf([mover(), lone]));
    expect(m.straightAheadIn).toBeCloseTo(4, 6);
  });

  it('a fudge move also keeps 1" from a narrow enemy between the leading corners', () => {
    // One enemy stand 2.5" ahead of our 7.5" front, off-centre: the fudge forward stops 1.5" on.
    const lone = unitAt({ id: 'e', side: 'csa' }, { xIn: 30 - 1.875, yIn: FRONT_Y + 2.5 + 0.75, headingDeg: 270 }, [{ u: 0, v: 0, role: 'command' }]);
    const m = move(stateOf([mover(), lone]));
    expect(Math.max(...m.fudgeReach.map((p) => p.yIn)) - 10).toBeCloseTo(1.5, 6);
  });

  it('draws the reach as a polygon on the movement layer', () => {
    const r = movementOptions(buildContext(stateOf([mover()])), 'm');
    expect(r.shapes[0]).toMatchObject({ id: 'm/movement/reach', kind: 'polygon', layer: 'movement', style: 'reach', unitId: 'm' });
  });
});

describe('movementOptions: roads', () => {
  const road = { id: 'pike', points: [{ xIn: 30, yIn: 0 }, { xIn: 30, yIn: 48 }] };
  const roadLength = (line: readonly PointIn[]) => line.slice(1).reduce((acc, p, i) => acc + Math.hypot(p.xIn - line[i]!.xIn, p.yIn - line[i]!.yIn), 0);

  it('march column on a road moves 18" beyond 12" of the enemy', () => {
    const m = move(stateOf([mover({}, file(5, INFANTRY_BASE))], { roads: [road] }));
    expect(m.formation).toBe('march-column');
    expect(m.roadAllowanceIn).toBe(18);
    const lengths = m.roadReach!.map(roadLength);
    expect(Math.max(...lengths)).toBeCloseTo(18, 6);
  });

  it('no road bonus within 12" of an enemy, and none for a line', () => {
    const enemy = unitAt({ id: 'e', side: 'csa' }, { xIn: 40, yIn: 10, headingDeg: 180 }, grid(3, 3, INFANTRY_BASE));
    const near = move(stateOf([mover({}, file(5, INFANTRY_BASE)), enemy], { roads: [road] }));
    expect(near.roadAllowanceIn).toBeUndefined();
    expect(near.notes.some((n) => n.includes('within 12"'))).toBe(true);
    expect(move(stateOf([mover()], { roads: [road] })).roadAllowanceIn).toBeUndefined();
  });
});

describe('movementOptions: invariants (fast-check)', () => {
  const ref = { xIn: 30, yIn: 10 };
  const radii = (reach: readonly PointIn[]) => reach.map((p) => Math.hypot(p.xIn - ref.xIn, p.yIn - ref.yIn));

  it('terrain never lengthens the reach in any direction', () => {
    const open = move(stateOf([mover()]));
    const openR = Math.max(...radii(open.reach));
    fc.assert(
      fc.property(
        fc.constantFrom<LinearTerrainKind>('fence', 'wall', 'stream', 'river', 'abatis'),
        fc.double({ min: 11, max: 25, noNaN: true }),
        fc.double({ min: -40, max: 40, noNaN: true }),
        (kind, yIn, slopeDeg) => {
          const t = Math.tan((slopeDeg * Math.PI) / 180);
          const line = { id: 'x', kind, points: [{ xIn: 10, yIn: yIn - 20 * t }, { xIn: 50, yIn: yIn + 20 * t }] };
          const m = move(stateOf([mover()], { linear: [line] }));
          expect(m.straightAheadIn).toBeLessThanOrEqual(open.straightAheadIn + 1e-9);
          for (const r of radii(m.reach)) expect(r).toBeLessThanOrEqual(openR + 1e-9);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('moving straight ahead by the reported distance never brings a stand within 1" of the enemy', () => {
    fc.assert(
      fc.property(fc.double({ min: 12.5, max: 24, noNaN: true }), fc.double({ min: 20, max: 40, noNaN: true }), fc.double({ min: 0, max: 359, noNaN: true }), (yIn, xIn, headingDeg) => {
        const enemy = unitAt({ id: 'e', side: 'csa' }, { xIn, yIn, headingDeg }, grid(3, 3, INFANTRY_BASE));
        const state = stateOf([mover(), enemy]);
        const m = move(state);
        const ours = state.stands.filter((s) => s.unitId === 'm').map((s) => ({ ...s, pose: { ...s.pose, yIn: s.pose.yIn + m.straightAheadIn } }));
        const theirs = state.stands.filter((s) => s.unitId === 'e');
        let gap = Infinity;
        for (const a of ours) for (const b of theirs) gap = Math.min(gap, polygonToPolygonDistanceIn(standCorners(a), standCorners(b)));
        // Either it started closer than 1" (and then cannot move toward it) or it keeps 1".
        const startGap = Math.min(...state.stands.filter((s) => s.unitId === 'm').flatMap((a) => theirs.map((b) => polygonToPolygonDistanceIn(standCorners(a), standCorners(b)))));
        if (startGap >= 1) expect(gap).toBeGreaterThanOrEqual(1 - 1e-5);
      }),
      { numRuns: 40 },
    );
  });
});
