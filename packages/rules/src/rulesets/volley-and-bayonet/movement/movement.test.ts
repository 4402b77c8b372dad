import { describe, expect, it } from 'vitest';
import type { MovementOption } from '../../../engine/evaluation.ts';
import type { Terrain } from '../../../model/tableState.ts';
import { buildContext } from '../context.ts';
import { evaluateCommand } from '../command.ts';
import { walkCost, type MoverProfile } from './costWalk.ts';
import { evaluateMovement, REACH_BINS } from './movement.ts';
import { buildTerrain } from './terrainScene.ts';
import { evaluateVolleyAndBayonet } from '../evaluate.ts';
import { scene, type UnitBuild } from '../../../../../../fixtures/rules/volley-and-bayonet/build.ts';

const sq = (x0: number, y0: number, x1: number, y1: number) => [{ xIn: x0, yIn: y0 }, { xIn: x1, yIn: y0 }, { xIn: x1, yIn: y1 }, { xIn: x0, yIn: y1 }];

function move(unit: Omit<UnitBuild, 'side' | 'id'>, terrain: Partial<Terrain> = {}, withCommander = true) {
  const state = scene({
    widthIn: 96,
    depthIn: 96,
    units: [{ id: 'u', side: 'a', brigadeId: 'b', ...unit }],
    commanders: withCommander ? [{ id: 'bc', side: 'a', brigadeId: 'b', x: 48, y: 46 }] : [],
    terrain,
  });
  const ctx = buildContext(state);
  const r = evaluateMovement(ctx, buildTerrain(state), ctx.units.get('u')!, evaluateCommand(ctx).standInCommand);
  return r;
}

const at48 = { x: 48, y: 48, heading: 90 } as const;
const dist = (p: { xIn: number; yIn: number }) => Math.hypot(p.xIn - 48, p.yIn - 48);

describe('movement rates (Movement table, p. 2)', () => {
  it.each([
    ['slow-infantry', 'infantry', 12],
    ['fast-infantry', 'infantry', 16],
    ['light-cavalry', 'mounted', 24],
    ['light-artillery', 'artillery', 12],
    ['field-artillery', 'artillery', 8],
    ['field-howitzer', 'artillery', 8],
    ['heavy-artillery', 'artillery', 4],
  ] as const)('%s moves %s" in every direction on open ground (free facing change)', (troopType, base, rate) => {
    const r = move({ fields: { 'troop-type': troopType, morale: 5, 'strength-points': 2 }, stands: [{ id: 's', base, ...at48 }] });
    const m = r.movement as MovementOption;
    expect(m.ok).toBe(true);
    expect(m.allowanceIn).toBe(rate);
    expect(m.reach).toHaveLength(REACH_BINS);
    for (const p of m.reach) expect(dist(p)).toBeCloseTo(rate, 6);
  });

  it('a unit commander moves 24" (Commanders)', () => {
    const r = move({ fields: { 'troop-type': 'slow-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 's', base: 'infantry', ...at48 }, { id: 'uc', base: 'command', x: 48, y: 45, heading: 90 }] });
    expect(r.stands.find((s) => s.standId === 'uc')!.allowanceIn).toBe(24);
  });

  it('out of command: half the allowance (Command and Control)', () => {
    const r = move({ fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 's', base: 'infantry', ...at48 }] }, {}, false);
    expect((r.movement as MovementOption).allowanceIn).toBe(8);
  });

  it('out of command: never toward a visible enemy unit; an enemy hidden in a forest does not cut the reach (Command and Control, p. 2)', () => {
    const withEnemy = (terrain: Partial<Terrain>) => {
      const state = scene({
        widthIn: 96,
        depthIn: 96,
        units: [
          { id: 'u', side: 'a', brigadeId: 'b', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 's', base: 'infantry', ...at48 }] },
          // 20" straight ahead (the stand faces +y).
          { id: 'e', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 'e1', base: 'infantry', x: 48, y: 68, heading: 270 }] },
        ],
        terrain,
      });
      const ctx = buildContext(state);
      return evaluateMovement(ctx, buildTerrain(state), ctx.units.get('u')!, evaluateCommand(ctx).standInCommand);
    };
    const seen = withEnemy({});
    const reach = (seen.movement as MovementOption).reach;
    // Straight ahead and 78.75° off it go toward the enemy: nowhere. Square to it (90°) and back: the half move.
    expect(dist(reach[0]!)).toBeCloseTo(0, 9);
    expect(dist(reach[7]!)).toBeCloseTo(0, 9);
    expect(dist(reach[8]!)).toBeCloseTo(8, 6);
    expect(dist(reach[16]!)).toBeCloseTo(8, 6);
    expect((seen.movement as MovementOption).notes.join(' ')).toContain('the reach goes nowhere toward the enemy it sees');
    // A forest between them hides it (Stands outside a Forest may not trace a line of sight through it).
    const hidden = withEnemy({ areas: [{ id: 'f', kind: 'thick-woods', vertices: sq(30, 56, 66, 60) }] });
    expect(dist((hidden.movement as MovementOption).reach[0]!)).toBeCloseTo(8, 6);
  });

  it('a unit marked to cross bridges disordered pays no half move at a bridge (Bridges, p. 3)', () => {
    const bridge = { linear: [{ id: 'r', kind: 'river' as const, points: [{ xIn: 52, yIn: 0 }, { xIn: 52, yIn: 96 }] }], roads: [{ id: 'rd', points: [{ xIn: 0, yIn: 48 }, { xIn: 96, yIn: 48 }] }] };
    const unit = (status?: UnitBuild['status']) => ({ fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, ...(status ? { status } : {}), stands: [{ id: 's', base: 'infantry' as const, x: 48, y: 48, heading: 0 }] });
    // Fast infantry 16": the bridge 4" ahead costs half the move (8"), leaving 8" of ground; disordered, all 16".
    expect(dist((move(unit(), bridge).movement as MovementOption).reach[0]!)).toBeCloseTo(8, 6);
    expect(dist((move(unit({ rulesetStatus: { 'bridge-disorder': true } }), bridge).movement as MovementOption).reach[0]!)).toBeCloseTo(16, 6);
  });

  it('the notes name the second facing change (half the move; poorly trained, disorder) and going stationary (Movement: Facing, Charges, Stationary, p. 2)', () => {
    const notes = (abilities: string[]) => (move({ fields: { 'troop-type': 'slow-infantry', morale: 5, 'strength-points': 2, abilities }, stands: [{ id: 's', base: 'infantry', ...at48 }] }).movement as MovementOption).notes.join(' ');
    expect(notes([])).toContain('A second facing change (up to 180°) costs half the move');
    expect(notes([])).toContain('May go stationary instead (in command): no move, no recovering from disorder or road march; a free facing change does not count as moving');
    expect(notes(['PT'])).toContain('a second change puts it into disorder');
    expect(notes(['PT'])).not.toContain('a free facing change does not count as moving');
  });

  it('a superior commander moves 24" on his own, through woods at 2 per 1, stopped by enemy bases (Movement; Terrain Effects)', () => {
    const state = scene({
      widthIn: 96,
      depthIn: 96,
      units: [
        { id: 'e', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 'e1', base: 'infantry', x: 48, y: 60, heading: 270 }] },
      ],
      commanders: [{ id: 'bc', side: 'a', brigadeId: 'b', x: 48, y: 48, heading: 90 }],
      terrain: { areas: [{ id: 'f', kind: 'thick-woods', vertices: sq(50, 30, 90, 66) }] },
    });
    const shape = evaluateVolleyAndBayonet(state).shapes.find((sh) => sh.id === 'movement/reach/bc-stand');
    expect(shape?.kind).toBe('polygon');
    const reach = (shape as unknown as { vertices: { xIn: number; yIn: number }[] }).vertices;
    // Bin 0 faces +y: the enemy base 12" ahead (1.5" deep, the commander's 1.5") stops it at 10.5".
    expect(dist(reach[0]!)).toBeCloseTo(10.5, 6);
    // Straight back (-y): open ground, the full 24".
    expect(dist(reach[16]!)).toBeCloseTo(24, 6);
    // To the right (-x is bin 8, +x is bin 24): 2" of open ground to the forest edge (from the centre), then 2 per 1: 2 + 22 / 2 = 13".
    expect(dist(reach[24]!)).toBeCloseTo(13, 6);
  });

  it('in contact with the enemy a unit may not form up from road march nor recover from disorder (Movement: Road March, Disorder, p. 2)', () => {
    const notes = (enemyY: number) => {
      const state = scene({
        widthIn: 96,
        depthIn: 96,
        units: [
          { id: 'u', side: 'a', brigadeId: 'b', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, status: { disordered: true, rulesetStatus: { 'road-march': true } }, stands: [{ id: 's', base: 'infantry', ...at48 }] },
          { id: 'e', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 'e1', base: 'infantry', x: 48, y: enemyY, heading: 270 }] },
        ],
        commanders: [{ id: 'bc', side: 'a', brigadeId: 'b', x: 44, y: 46 }],
      });
      const ctx = buildContext(state);
      return (evaluateMovement(ctx, buildTerrain(state), ctx.units.get('u')!, evaluateCommand(ctx).standInCommand).movement as MovementOption).notes.join(' ');
    };
    // Bases 1.5" deep: centres 1.5" apart touch.
    expect(notes(49.5)).toContain('in contact with the enemy now: it may not form up');
    expect(notes(49.5)).toContain('in contact with the enemy now: it may not recover');
    expect(notes(52)).not.toContain('in contact with the enemy now');
  });

  it('poorly trained: full move within the 45° oblique, half beyond it (no free facing change)', () => {
    const r = move({ fields: { 'troop-type': 'slow-infantry', morale: 5, 'strength-points': 2, abilities: ['PT'] }, stands: [{ id: 's', base: 'infantry', ...at48 }] });
    const reach = (r.movement as MovementOption).reach;
    expect(dist(reach[0]!)).toBeCloseTo(12, 6); // straight ahead
    expect(dist(reach[4]!)).toBeCloseTo(12, 6); // 45° oblique
    expect(dist(reach[16]!)).toBeCloseTo(6, 6); // straight back
  });

  it('road march: doubled cross-country, tripled along the road (Road March)', () => {
    const r = move(
      { fields: { 'troop-type': 'slow-infantry', morale: 5, 'strength-points': 2 }, status: { rulesetStatus: { 'road-march': true } }, stands: [{ id: 's', base: 'infantry', ...at48 }] },
      { roads: [{ id: 'rd', points: [{ xIn: 48, yIn: 0 }, { xIn: 48, yIn: 96 }], widthIn: 2 }] },
    );
    expect((r.movement as MovementOption).allowanceIn).toBe(24);
    const road = r.stands[0]!.roadReach!;
    expect(road[0]!.yIn).toBeCloseTo(12, 6);
    expect(road[road.length - 1]!.yIn).toBeCloseTo(84, 6);
  });

  it('a routed unit is refused, and a unit without troop type too', () => {
    expect(move({ fields: { 'troop-type': 'slow-infantry', morale: 5, 'strength-points': 2 }, status: { rulesetStatus: { routed: true } }, stands: [{ id: 's', base: 'infantry', ...at48 }] }).movement).toMatchObject({ ok: false, reason: 'movement/routed' });
    expect(move({ fields: { morale: 5, 'strength-points': 2 }, stands: [{ id: 's', base: 'infantry', ...at48 }] }).movement).toMatchObject({ ok: false, reason: 'movement/no-troop-type' });
  });
});

describe('terrain costs (Terrain Effects, p. 3)', () => {
  const terrain = (t: Partial<Terrain>) => buildTerrain(scene({ widthIn: 96, depthIn: 96, units: [], terrain: t }));
  const prof = (mover: MoverProfile['mover'], extra: Partial<MoverProfile> = {}): MoverProfile => ({ mover, slowInfantry: false, hills: 'two-contours', moveIn: 12, roadMarch: false, ...extra });
  const from = { xIn: 10, yIn: 10 };
  const to = (d: number) => ({ xIn: 10 + d, yIn: 10 });

  it('woods: infantry free, mounted 2 per 1, wagons 4 per 1', () => {
    const t = terrain({ areas: [{ id: 'w', kind: 'open-woods', vertices: sq(14, 0, 60, 20) }] });
    expect(walkCost(t, from, to(12), prof('infantry'), 12).reachedIn).toBeCloseTo(12, 6);
    expect(walkCost(t, from, to(12), prof('mounted'), 12).reachedIn).toBeCloseTo(4 + 8 / 2, 6);
    expect(walkCost(t, from, to(12), prof('wheeled'), 12).reachedIn).toBeCloseTo(4 + 8 / 4, 6);
  });

  it('forest: foot 2 per 1; artillery may not enter', () => {
    const t = terrain({ areas: [{ id: 'f', kind: 'thick-woods', vertices: sq(14, 0, 60, 20) }] });
    expect(walkCost(t, from, to(12), prof('infantry'), 12).reachedIn).toBeCloseTo(8, 6);
    const art = walkCost(t, from, to(12), prof('artillery'), 12);
    expect(art.reachedIn).toBeCloseTo(4, 6);
    expect(art.stoppedBy).toBe('impassable:f');
    expect(walkCost(t, from, to(12), prof('infantry'), 12).disorderedBy).toEqual(['f']);
  });

  it('broken ground: slow infantry 2 per 1, fast infantry free', () => {
    const t = terrain({ areas: [{ id: 'r', kind: 'rough', vertices: sq(14, 0, 60, 20) }] });
    expect(walkCost(t, from, to(12), prof('infantry', { slowInfantry: true }), 12).reachedIn).toBeCloseTo(8, 6);
    expect(walkCost(t, from, to(12), prof('infantry'), 12).reachedIn).toBeCloseTo(12, 6);
  });

  it('fence: 2" for infantry, 4" for mounted; stream: half the move; river: no crossing', () => {
    const line = (kind: 'fence' | 'stream' | 'river') => terrain({ linear: [{ id: 'l', kind, points: [{ xIn: 14, yIn: 0 }, { xIn: 14, yIn: 20 }] }] });
    expect(walkCost(line('fence'), from, to(12), prof('infantry'), 12).reachedIn).toBeCloseTo(10, 6);
    expect(walkCost(line('fence'), from, to(12), prof('mounted'), 12).reachedIn).toBeCloseTo(8, 6);
    expect(walkCost(line('stream'), from, to(12), prof('infantry'), 12).reachedIn).toBeCloseTo(6, 6);
    const river = walkCost(line('river'), from, to(12), prof('infantry'), 12);
    expect(river.reachedIn).toBeLessThan(4);
    expect(river.stoppedBy).toBe('impassable:l');
  });

  it('a road across a river is a bridge: half the move, or free in road march', () => {
    const t = terrain({ linear: [{ id: 'l', kind: 'river', points: [{ xIn: 14, yIn: 0 }, { xIn: 14, yIn: 20 }] }], roads: [{ id: 'rd', points: [{ xIn: 0, yIn: 10 }, { xIn: 40, yIn: 10 }] }] });
    expect(walkCost(t, from, to(12), prof('infantry'), 12).reachedIn).toBeCloseTo(6, 6);
    expect(walkCost(t, from, to(12), prof('infantry', { roadMarch: true }), 12).reachedIn).toBeCloseTo(12, 6);
    // "pay half their movement or suffer disorder, at the owners option" (Bridges, p. 3): disordered, it pays nothing.
    const disordered = walkCost(t, from, to(12), prof('infantry', { bridgeDisorders: true }), 12);
    expect(disordered.reachedIn).toBeCloseTo(12, 6);
    expect(disordered.disorderedBy).toEqual(['l']);
    expect(walkCost(t, from, to(12), prof('infantry'), 12).disorderedBy).toEqual([]);
  });

  it('hills: two contours cost half the move; artillery half to climb one and never two', () => {
    const t = terrain({ elevations: [{ id: 'h1', level: 1, vertices: sq(13, 0, 30, 20) }, { id: 'h2', level: 2, vertices: sq(15, 0, 28, 20) }] });
    // 5" to the second contour, where half the move (6") is paid: 1" left.
    expect(walkCost(t, from, to(12), prof('infantry'), 12).reachedIn).toBeCloseTo(6, 6);
    const art = walkCost(t, from, to(12), prof('artillery', { hills: 'artillery' }), 12);
    expect(art.stoppedBy).toBe('impassable:h2');
    expect(art.reachedIn).toBeCloseTo(5, 2); // climbed one contour at 3" (half the move), stopped at the second
    expect(walkCost(t, from, to(12), prof('infantry', { hills: 'free' }), 12).reachedIn).toBeCloseTo(12, 6);
  });

  it('enemy stands stop the walk; the table edge too', () => {
    const t = terrain({});
    const r = walkCost(t, from, to(12), prof('infantry'), 12, [{ polygon: sq(15, 5, 17, 15), box: { minXIn: 15, minYIn: 5, maxXIn: 17, maxYIn: 15 } }]);
    expect(r).toMatchObject({ reachedIn: 5, stoppedBy: 'enemy' });
    const edge = walkCost(t, from, { xIn: -2, yIn: 10 }, prof('infantry'), 12);
    expect(edge).toMatchObject({ reachedIn: 10, stoppedBy: 'table-edge' });
  });
});
