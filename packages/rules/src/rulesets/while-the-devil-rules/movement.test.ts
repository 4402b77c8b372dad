import { describe, expect, it } from 'vitest';
import type { MovementOption } from '../../engine/evaluation.ts';
import { parseTableState, type Terrain } from '../../index.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import { NO_TERRAIN, WTDR_BASES, row, swarmSlots, wtdrScene, type WtdrUnitSpec } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

const SHOT_DEPTH = WTDR_BASES.shot.d;
/** One base of commanded shot facing +y with its front edge centred on (36, 10). */
const mover = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 'm', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 1), at: { xIn: 36, yIn: 10 }, headingDeg: 90, ...extra });

function reachOf(units: WtdrUnitSpec[], params: Record<string, number | string>, terrain: Terrain = NO_TERRAIN): MovementOption {
  const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units, { params, terrain })));
  const m = ev.units['m']!.movement;
  if (!m.ok) throw new Error(`refused: ${m.reason}`);
  return m;
}

/** Distance from the unit centre to the reach point at ray k (10° steps from the facing, CCW). */
function along(m: MovementOption, k: number, centreY = 10 - SHOT_DEPTH / 2): number {
  const p = m.reach[k]!;
  return Math.hypot(p.xIn - 36, p.yIn - centreY);
}

const rect = (x0: number, y0: number, x1: number, y1: number) => [
  { xIn: x0, yIn: y0 }, { xIn: x1, yIn: y0 }, { xIn: x1, yIn: y1 }, { xIn: x0, yIn: y1 },
];

describe('movement reach (Movement)', () => {
  it('moves the base allowance straight ahead, pays 3" to face about and the wheeling corner for small turns', () => {
    const m = reachOf([mover()], { 'advance-commanded-shot': 6 });
    expect(m.allowanceIn).toBe(6);
    expect(m.reach).toHaveLength(36);
    expect(along(m, 0)).toBeCloseTo(6, 4);
    expect(along(m, 18)).toBeCloseTo(3, 4); // facing change
    expect(along(m, 9)).toBeCloseTo(3, 4); // a facing change is cheaper than a 90° wheel of 3.15"
    expect(along(m, 1)).toBeCloseTo(6 - WTDR_BASES.shot.w * (Math.PI / 18), 4); // 10° wheel paid by the moving corner
  });

  it('answers that a wheel is legal only to the front (Movement: "Wheels may only be made to a unit\'s front")', () => {
    expect(reachOf([mover()], { 'advance-commanded-shot': 6 }).notes).toContain('wheels only to the front, up to 90° either way ("Wheels may only be made to a unit\'s front", Movement)');
  });

  it('says what a formation change costs, and when: the app\'s figure, a parameter (Movement, Formation Changes)', () => {
    expect(reachOf([mover()], { 'advance-commanded-shot': 6 }).notes).toContain('a March order forms column first: it costs the app\'s penalty ("formation-change-cost", not entered) of the March, the column facing front, rear or a flank (Movement, Formation Changes; not drawn)');
    expect(reachOf([mover()], { 'advance-commanded-shot': 6, 'formation-change-cost': 2 }).notes).toContainEqual(expect.stringMatching(/^a March order forms column first: it costs 2" of the March/));
  });

  it('halves progress in rough ground but not for a forlorn hope', () => {
    const terrain: Terrain = { ...NO_TERRAIN, areas: [{ id: 'r', kind: 'rough', vertices: rect(20, 12, 50, 30) }] };
    const open = 12 - (10 - SHOT_DEPTH / 2);
    expect(along(reachOf([mover()], { 'advance-commanded-shot': 6 }, terrain), 0)).toBeCloseTo(open + (6 - open) / 2, 4);
    const fh = reachOf([mover({ troopType: 'forlorn-hope', slots: swarmSlots(2, WTDR_BASES.figureFoot, 1.2) })], { 'advance-forlorn-hope': 6 }, terrain);
    // No facing cost and full speed in rough: 6" ahead into the rough and 6" straight back.
    const [ahead, back] = [fh.reach[0]!, fh.reach[18]!];
    expect(Math.hypot(ahead.xIn - back.xIn, ahead.yIn - back.yIn)).toBeCloseTo(12, 4);
  });

  it('stops medium guns at very rough ground and charges 2" for a fence', () => {
    const swamp: Terrain = { ...NO_TERRAIN, areas: [{ id: 's', kind: 'swamp', vertices: rect(20, 12, 50, 30) }] };
    const guns = reachOf([mover({ troopType: 'medium-artillery', slots: [{ size: WTDR_BASES.artillery, back: 0, left: 0 }] })], { 'advance-medium-artillery': 6 }, swamp);
    const gunCentreY = 10 - WTDR_BASES.artillery.d / 2;
    expect(along(guns, 0, gunCentreY)).toBeCloseTo(12 - gunCentreY, 4);
    const fence: Terrain = { ...NO_TERRAIN, linear: [{ id: 'f', kind: 'fence', points: [{ xIn: 20, yIn: 12 }, { xIn: 50, yIn: 12 }] }] };
    const open = 12 - (10 - SHOT_DEPTH / 2);
    expect(along(reachOf([mover()], { 'advance-commanded-shot': 6 }, fence), 0)).toBeCloseTo(6 - 2, 4);
    expect(open).toBeLessThan(4);
  });

  it('crosses a river only by a bridge (choke point: 3" plus distance)', () => {
    const terrain: Terrain = {
      ...NO_TERRAIN,
      linear: [{ id: 'river', kind: 'river', points: [{ xIn: 0, yIn: 12 }, { xIn: 72, yIn: 12 }] }],
      roads: [{ id: 'bridge-road', points: [{ xIn: 36, yIn: 0 }, { xIn: 36, yIn: 40 }], widthIn: 1 }],
    };
    const m = reachOf([mover()], { 'advance-commanded-shot': 6 }, terrain);
    expect(along(m, 0)).toBeCloseTo(6 - 3, 4); // over the bridge
    const open = 12 - (10 - SHOT_DEPTH / 2);
    expect(m.reach[4]!.yIn).toBeLessThanOrEqual(12 + 1e-9); // 40° off the road: stopped at the bank
    expect(open).toBeGreaterThan(0);
  });

  it('moves 1" per 1.5" on a road only in march column', () => {
    const terrain: Terrain = { ...NO_TERRAIN, roads: [{ id: 'road', points: [{ xIn: 36, yIn: 0 }, { xIn: 36, yIn: 40 }], widthIn: 1 }] };
    const deployed = reachOf([mover()], { 'advance-commanded-shot': 6, 'march-commanded-shot': 8 }, terrain);
    expect(along(deployed, 0)).toBeCloseTo(6, 4);
    const march = reachOf([mover({ status: { formation: 'march-column' } })], { 'advance-commanded-shot': 6, 'march-commanded-shot': 8 }, terrain);
    expect(march.allowanceIn).toBe(8);
    expect(along(march, 0)).toBeCloseTo(12, 4);
  });

  it('moves straight ahead beside a friend touching its flank', () => {
    const friend = mover({ id: 'f', at: { xIn: 36 + WTDR_BASES.shot.w, yIn: 10 } });
    const m = reachOf([mover(), friend], { 'advance-commanded-shot': 6 });
    expect(along(m, 0)).toBeCloseTo(6, 4);
    expect(along(m, 18)).toBeCloseTo(3, 4);
  });

  it('passes through a friendly forlorn hope but does not end its move on it (Movement: "may not end their move in the same space")', () => {
    const swarm = (frontY: number): WtdrUnitSpec => ({ id: 'f', name: 'Forlorn hope', side: 'a', troopType: 'forlorn-hope', slots: swarmSlots(8, WTDR_BASES.figureFoot, 1.5), at: { xIn: 36, yIn: frontY }, headingDeg: 90 });
    const params = { 'advance-commanded-shot': 6 };
    // The figures 13.0-15.5" up the table: the 6" move straight ahead (centre to y 15.2) would end on them,
    // so it stops where the mover would first touch them (its centre at 13.0 - half its depth).
    const onIt = reachOf([mover(), swarm(15.5)], params);
    const swarmRearY = 15.5 - (1.5 + WTDR_BASES.figureFoot.d); // two ranks 1.5" apart
    expect(along(onIt, 0)).toBeCloseTo(swarmRearY - SHOT_DEPTH / 2 - (10 - SHOT_DEPTH / 2), 2);
    expect(onIt.notes).toContain('may pass through Forlorn hope but not end its move on them (Movement)');
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene([mover(), swarm(15.5)], { params })));
    expect(ev.shapes.find((sh) => sh.id === 'wtdr/m/movement/no-stop/f')).toMatchObject({ kind: 'polygon', style: 'blocked', layer: 'movement' });
    // Figures nearer (10.0-12.5"): it passes through them and ends beyond, the full 6".
    expect(along(reachOf([mover(), swarm(12.5)], params), 0)).toBeCloseTo(6, 4);
  });

  it('never comes within 1" of an enemy front', () => {
    const enemy: WtdrUnitSpec = { id: 'e', side: 'b', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: 36, yIn: 14 }, headingDeg: 270 };
    const m = reachOf([mover(), enemy], { 'advance-commanded-shot': 6 });
    expect(along(m, 0)).toBeCloseTo(3, 4); // front stops at 13, 1" short of the enemy front at 14
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene([mover(), enemy], { params: { 'advance-commanded-shot': 6 } })));
    const zone = ev.shapes.find((s) => s.id === 'wtdr/e/front-zone');
    expect(zone).toMatchObject({ kind: 'polygon', layer: 'movement', style: 'blocked', unitId: 'e', side: 'b' });
    const ys = zone && zone.kind === 'polygon' ? zone.vertices.map((p) => p.yIn) : [];
    expect(Math.min(...ys)).toBeCloseTo(13, 4);
    expect(Math.max(...ys)).toBeCloseTo(14, 4);
  });

  it('refuses without the base move, names the parameter, and moves once it is given', () => {
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene([mover()])));
    expect(ev.units['m']!.movement).toMatchObject({ ok: false, reason: 'movement/allowance-not-entered' });
    expect(ev.warnings).toContainEqual(expect.objectContaining({ code: 'parameter/missing', parameterId: 'advance-commanded-shot', unitId: 'm' }));
    const given = evaluateWhileTheDevilRules(parseTableState(wtdrScene([mover()], { params: { 'advance-commanded-shot': 5 } })));
    expect(given.units['m']!.movement).toMatchObject({ ok: true, allowanceIn: 5 });
    expect(given.warnings.filter((w) => w.parameterId === 'advance-commanded-shot')).toEqual([]);
  });

  it('lets heavy guns only pivot', () => {
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene([mover({ troopType: 'heavy-artillery', slots: [{ size: WTDR_BASES.artillery, back: 0, left: 0 }] })])));
    expect(ev.units['m']!.movement).toMatchObject({ ok: false, reason: 'movement/pivot-only' });
  });
});
