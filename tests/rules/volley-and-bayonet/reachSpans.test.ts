/**
 * A stand's reach skips the walk of a ray that no enemy base or terrain piece can meet (each piece's span
 * of directions, read once per stand). These tests walk every ray against every piece instead and demand
 * the same reach: a span that is too narrow drops a piece a ray does meet, and the reach moves.
 */
import { describe, expect, it } from 'vitest';
import { getRuleset, parseTableStateFor, type PointIn, type TableState } from '@muster/rules';
import { buildContext } from '../../../packages/rules/src/rulesets/volley-and-bayonet/context.ts';
import { evaluateCommand } from '../../../packages/rules/src/rulesets/volley-and-bayonet/command.ts';
import { walkCost } from '../../../packages/rules/src/rulesets/volley-and-bayonet/movement/costWalk.ts';
import { blockersFor, evaluateMovement, REACH_BINS } from '../../../packages/rules/src/rulesets/volley-and-bayonet/movement/movement.ts';
import { cutTowardEnemies, visibleEnemyCentres } from '../../../packages/rules/src/rulesets/volley-and-bayonet/movement/outOfCommand.ts';
import { moverProfile, standRate } from '../../../packages/rules/src/rulesets/volley-and-bayonet/movement/standMovement.ts';
import { buildTerrain } from '../../../packages/rules/src/rulesets/volley-and-bayonet/movement/terrainScene.ts';
import { scene } from '../../../fixtures/rules/volley-and-bayonet/build.ts';
import { largeScene } from '../../../fixtures/rules/largeScene.ts';
import { megaScene } from '../../../fixtures/rules/megaScene.ts';
import { boxesApart } from '../../../packages/rules/src/rulesets/volley-and-bayonet/context.ts';
import { pointInPolygon } from '../../../packages/rules/src/geometry/intersect.ts';
import { benchTableFor } from '../../../fixtures/rules/rulesetAdapters.ts';

const ruleset = getRuleset('volley-and-bayonet');

/** Every stand's reach against one walk per ray over all the terrain and every enemy base near: the largest gap, inches, and rays compared. */
function largestGapIn(state: TableState): { gapIn: number; rays: number } {
  const ctx = buildContext(state);
  const terrain = buildTerrain(state);
  const command = evaluateCommand(ctx);
  let gapIn = 0;
  let rays = 0;
  for (const info of ctx.units.values()) {
    if (info.poorlyTrained) throw new Error('this check walks every ray at the full allowance: no poorly trained units');
    const result = evaluateMovement(ctx, terrain, info, command.standInCommand);
    for (const reached of result.stands) {
      const s = ctx.standById.get(reached.standId)!;
      const rate = standRate(ctx, info, s);
      if ('missing' in rate) throw new Error(`no rate for ${s.stand.id}`);
      const profile = moverProfile(info, s, rate.rateIn);
      const a = reached.allowanceIn;
      const blockers = blockersFor(ctx, s, info.unit.side, a);
      const c = s.center;
      const walkedEnds: PointIn[] = [];
      for (let b = 0; b < REACH_BINS; b++) {
        const th = (s.stand.pose.headingDeg * Math.PI) / 180 + (b * 2 * Math.PI) / REACH_BINS;
        const end: PointIn = { xIn: c.xIn + Math.cos(th) * a, yIn: c.yIn + Math.sin(th) * a };
        const walked = walkCost(terrain, c, end, profile, a, blockers).reachedIn;
        walkedEnds.push({ xIn: c.xIn + Math.cos(th) * walked, yIn: c.yIn + Math.sin(th) * walked });
      }
      // Out of command, the rays toward a visible enemy go nowhere (Command and Control, p. 2): cut the walked ends alike.
      const expected = cutTowardEnemies(s, walkedEnds, command.standInCommand.get(s.stand.id) === false ? visibleEnemyCentres(ctx, info, s) : []);
      for (let b = 0; b < REACH_BINS; b++) {
        const p = reached.reach[b]!;
        gapIn = Math.max(gapIn, Math.hypot(p.xIn - expected[b]!.xIn, p.yIn - expected[b]!.yIn));
        rays++;
      }
    }
  }
  return { gapIn, rays };
}

const box = (x0: number, y0: number, x1: number, y1: number): PointIn[] => [{ xIn: x0, yIn: y0 }, { xIn: x1, yIn: y0 }, { xIn: x1, yIn: y1 }, { xIn: x0, yIn: y1 }];

describe('volley-and-bayonet reach: skipped rays are the rays a walk finds open', () => {
  it.each([1, 2, 3])('on the 300-stand bench table (seed %i), every ray of every stand', (seed) => {
    const { gapIn, rays } = largestGapIn(parseTableStateFor(benchTableFor(ruleset.id, largeScene(seed)), ruleset));
    expect(rays).toBeGreaterThan(8000);
    expect(gapIn).toBeLessThan(1e-9);
  });

  it('among awkward pieces: a wood wrapped around the stand, a fence through its centre, a hill it stands on, enemies at odd angles and the table edge', () => {
    // A U-shaped wood open to the east, around a slow infantry stand (it does not hold the centre).
    const wood = [
      { xIn: 30, yIn: 30 }, { xIn: 50, yIn: 30 }, { xIn: 50, yIn: 33 }, { xIn: 33, yIn: 33 },
      { xIn: 33, yIn: 47 }, { xIn: 50, yIn: 47 }, { xIn: 50, yIn: 50 }, { xIn: 30, yIn: 50 },
    ];
    const state = scene({
      widthIn: 60,
      depthIn: 60,
      units: [
        { id: 'u', side: 'a', brigadeId: 'b', fields: { 'troop-type': 'slow-infantry', morale: 5, 'strength-points': 3 }, stands: [{ id: 's1', base: 'infantry', x: 40, y: 40, heading: 17 }, { id: 's2', base: 'infantry', x: 54, y: 6, heading: 200 }, { id: 's3', base: 'infantry', x: 8, y: 52, heading: 301 }] },
        { id: 'cav', side: 'a', brigadeId: 'b', fields: { 'troop-type': 'light-cavalry', morale: 5, 'strength-points': 1 }, stands: [{ id: 'k1', base: 'mounted', x: 20, y: 20, heading: 45 }] },
        { id: 'e', side: 'b', brigadeId: 'c', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 4 }, stands: [{ id: 'e1', base: 'infantry', x: 44, y: 43, heading: 33 }, { id: 'e2', base: 'infantry', x: 37.6, y: 37, heading: 250 }, { id: 'e3', base: 'infantry', x: 24, y: 17, heading: 128 }, { id: 'e4', base: 'infantry', x: 50, y: 10, heading: 0 }] },
      ],
      commanders: [{ id: 'bc', side: 'a', brigadeId: 'b', x: 30, y: 25 }, { id: 'ec', side: 'b', brigadeId: 'c', x: 45, y: 20 }],
      terrain: {
        areas: [{ id: 'w', kind: 'thick-woods', vertices: wood }, { id: 'r', kind: 'rough', vertices: box(10, 10, 26, 18) }],
        linear: [
          { id: 'f1', kind: 'fence', points: [{ xIn: 36, yIn: 36 }, { xIn: 44, yIn: 44 }, { xIn: 44, yIn: 36 }] },
          { id: 'f2', kind: 'stream', points: [{ xIn: 15, yIn: 5 }, { xIn: 20, yIn: 20 }, { xIn: 25, yIn: 35 }] },
        ],
        elevations: [{ id: 'h', level: 1, vertices: box(16, 14, 30, 28) }, { id: 'h2', level: 2, vertices: box(19, 18, 22, 24) }],
      },
    });
    const { gapIn, rays } = largestGapIn(parseTableStateFor(state, ruleset));
    expect(rays).toBe(8 * REACH_BINS);
    expect(gapIn).toBeLessThan(1e-9);
  });

  it.each([
    ['the 300-stand bench table', () => largeScene(2)],
    ['the 1,000-stand mega-game table (more enemy stands than the insertion sort takes)', () => megaScene(1)],
  ])('the enemy bases a stand looks at are those a scan of every stand finds, on %s', (_name, build) => {
    const state = parseTableStateFor(benchTableFor(ruleset.id, build()), ruleset);
    const ctx = buildContext(state);
    let looks = 0;
    let listed = 0;
    for (const info of ctx.units.values()) {
      for (const s of info.combatStands) {
        const reachIn = 30;
        const growIn = s.stand.depthIn / 2;
        const found = blockersFor(ctx, s, info.unit.side, reachIn).map((b) => b.polygon);
        const scanned = ctx.allStands
          .filter((e) => e.side !== info.unit.side && !boxesApart(s.box, e.box, reachIn + growIn))
          .map((e) => ctx.grown(e, growIn))
          .filter((g) => !pointInPolygon(s.center, g.polygon))
          .map((g) => g.polygon);
        expect(found).toEqual(scanned);
        looks++;
        listed += found.length;
      }
    }
    // Enough looks that the index by left edge is built and used for most of them.
    expect(looks).toBeGreaterThan(200);
    // Reaching across the gap between the armies: most looks list enemy bases.
    expect(listed).toBeGreaterThan(looks * 3);
  });
});

