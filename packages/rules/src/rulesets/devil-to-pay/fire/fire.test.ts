import { describe, expect, it } from 'vitest';
import type { TableState } from '../../../model/tableState.ts';
import { buildContext } from '../context.ts';
import { evaluateFire } from './fire.ts';
import { buildFireScene } from './fireScene.ts';
import { maxRangeIn, weaponRow } from '../tables/fireTables.ts';
import { facingPair, fireOn, fireOption, modifierLabels, rect, scene, type SceneUnit } from '../../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';

const fire = fireOn;
const ok = fireOption;
const labels = modifierLabels;
const facing = facingPair;

describe('fire: the rule book example', () => {
  it('crack rifled musket, 5 stands, at a line in open woods at 14": 3 dice', () => {
    // Range is measured from the centre of the eligible stands (the firer's centre, y=10) to the target's
    // front edge: 14" means the gap between front edges is 14 - 0.75.
    const state = scene(facing(14 - 0.75, { quality: 'crack' }), { areas: [{ id: 'woods', kind: 'open-woods', vertices: rect(25, 23, 55, 32) }] });
    const o = ok(fire(state, 'f', 't'));
    expect(o.eligibleStandIds).toHaveLength(5);
    expect(o.rangeIn).toBeCloseTo(14, 6);
    expect(o.band).toBe('24"');
    expect(o.breakdown.baseDice).toBe(5);
    expect(o.breakdown.hitOn).toBe(4); // Fire: "4, 5 or 6 scoring a hit"
    expect(labels(o)).toEqual(['Range 14.0" (24" band), Rifled Musket:-2', 'Open woods:-1', 'Crack:1']);
    expect(o.breakdown.dice).toBe(3);
    expect(o.breakdown.modifiers.every((m) => m.source.length > 0)).toBe(true);
  });
});

describe('fire: eligible stands', () => {
  it('refuses a target behind the firer as out of arc', () => {
    const state = scene([{ id: 'f', xIn: 40, yIn: 30, headingDeg: 90 }, { id: 't', side: 'confederate', xIn: 40, yIn: 20, headingDeg: 90 }]);
    expect(fire(state, 'f', 't')).toMatchObject({ ok: false, reason: 'fire/target-out-of-arc' });
  });

  it('leaves out stands with a hit and stands outside the arc', () => {
    const state = scene(facing(5, { status: { hitsByStand: { 'f-s1': 1 } } }, { stands: 2 }));
    const o = ok(fire(state, 'f', 't'));
    expect(o.eligibleStandIds).not.toContain('f-s1');
    // The 45° diagonals from the front corners reach 5" sideways at 5" range: every unhit stand sees it.
    expect(o.eligibleStandIds).toHaveLength(4);
    expect(o.breakdown.baseDice).toBe(4);
  });

  it('lets only the front rank of a double line fire', () => {
    const state = scene(facing(8, { stands: 6, perRank: 3 }));
    const o = ok(fire(state, 'f', 't'));
    expect(o.eligibleStandIds).toHaveLength(3);
  });

  it('gives the narrower artillery arc: a target off to the side is out of arc for guns, in arc for infantry', () => {
    // Target 10" ahead, 8" to the side: 38.7° off the facing, inside 45° but outside 26.6°.
    const units = (arm: 'infantry' | 'artillery'): SceneUnit[] => [
      { id: 'f', xIn: 40, yIn: 10, headingDeg: 90, arm, stands: 1 },
      { id: 't', side: 'confederate', xIn: 48 + 0.75 + 1, yIn: 10 + 10, headingDeg: 270, stands: 1 },
    ];
    expect(fire(scene(units('artillery')), 'f', 't')).toMatchObject({ ok: false, reason: 'fire/target-out-of-arc' });
    expect(fire(scene(units('infantry')), 'f', 't').ok).toBe(true);
  });
});

describe('fire: line of sight', () => {
  const blocker: SceneUnit = { id: 'b', xIn: 40, yIn: 16, headingDeg: 90, stands: 7 };
  it('is blocked by troops in between', () => {
    expect(fire(scene([...facing(12), blocker]), 'f', 't')).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
  });
  it('is blocked by more than 6" of woods, not by 6" of rough ground', () => {
    const woods = scene(facing(16), { areas: [{ id: 'w', kind: 'thick-woods', vertices: rect(20, 14, 60, 22) }] });
    expect(fire(woods, 'f', 't')).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
    const rough = scene(facing(16), { areas: [{ id: 'r', kind: 'rough', vertices: rect(20, 14, 60, 22) }] });
    expect(fire(rough, 'f', 't').ok).toBe(true);
  });
  it('finds blocking woods listed after rough ground elsewhere on the table', () => {
    const areas = [
      { id: 'r', kind: 'rough' as const, vertices: rect(70, 0, 90, 10) },
      { id: 'w', kind: 'thick-woods' as const, vertices: rect(20, 14, 60, 22) },
    ];
    expect(fire(scene(facing(16), { areas }), 'f', 't')).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
  });

  it('lets a firer on a hill fire over troops when the target is 12" beyond them', () => {
    const hill = { id: 'h', level: 1, vertices: rect(20, 0, 60, 12) };
    const near: SceneUnit = { id: 'b', xIn: 40, yIn: 14, headingDeg: 90, stands: 7 };
    const far = scene([...facing(20, { weapon: 'rifled-musket' }), near], { elevations: [hill] });
    expect(fire(far, 'f', 't').ok).toBe(true);
    const tooClose: SceneUnit = { ...near, yIn: 24 };
    expect(fire(scene([...facing(20), tooClose], { elevations: [hill] }), 'f', 't')).toMatchObject({ reason: 'fire/no-line-of-sight' });
  });
});

describe('fire: elevated targets, range and hits', () => {
  it('lets a firer 12" or more short of troops see a target on a hill behind them', () => {
    const hill = { id: 'h', level: 1, vertices: rect(20, 25, 60, 40) };
    // Blocker's near edge 12.5" from the firers' front edges: every stand sees over it to the hill.
    const far: SceneUnit = { id: 'b', xIn: 40, yIn: 24, headingDeg: 90, stands: 7 };
    expect(fire(scene([...facing(16), far], { elevations: [hill] }), 'f', 't')).toMatchObject({ ok: true, eligibleStandIds: expect.toSatisfy((ids: string[]) => ids.length === 5) });
    // The same troops on the flat block every line.
    expect(fire(scene([...facing(16), far]), 'f', 't')).toMatchObject({ reason: 'fire/no-line-of-sight' });
    // Troops 8" away are too close to fire over, hill or not.
    const near: SceneUnit = { ...far, yIn: 19.5 };
    expect(fire(scene([...facing(16), near], { elevations: [hill] }), 'f', 't')).toMatchObject({ reason: 'fire/no-line-of-sight' });
  });

  it('refuses a target beyond the weapon range and a unit whose firing stands all have hits', () => {
    expect(fire(scene(facing(13, { weapon: 'smoothbore-musket' })), 'f', 't')).toMatchObject({ reason: 'fire/target-out-of-range' });
    const hits = Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`f-s${i}`, 1]));
    expect(fire(scene(facing(5, { status: { hitsByStand: hits } })), 'f', 't')).toMatchObject({ reason: 'fire/no-eligible-stands' });
  });
});

describe('fire: modifiers', () => {
  it('applies formation modifiers as firer and target', () => {
    const o = ok(fire(scene(facing(8, { status: { disordered: true } }, { status: { formation: 'loose-order' } })), 'f', 't'));
    expect(labels(o)).toEqual(['Firer disordered:-2', 'Target in loose order:-1']);
    expect(o.breakdown.dice).toBe(5 - 3);
  });

  it('takes only the highest obstacle, and none when the firer is at it', () => {
    const fence = { id: 'fe', kind: 'fence' as const, points: [{ xIn: 20, yIn: 15 }, { xIn: 60, yIn: 15 }] };
    const wall = { id: 'wa', kind: 'wall' as const, points: [{ xIn: 20, yIn: 17 }, { xIn: 60, yIn: 17 }] };
    const both = ok(fire(scene(facing(10), { linear: [fence, wall] }), 'f', 't'));
    expect(labels(both)).toEqual(['Target behind wall:-2']);
    const atFence = { ...fence, points: [{ xIn: 20, yIn: 11 }, { xIn: 60, yIn: 11 }] };
    expect(labels(ok(fire(scene(facing(10), { linear: [atFence] }), 'f', 't')))).toEqual([]);
  });

  it('counts prone once for firer and target', () => {
    const o = ok(fire(scene(facing(8, { status: { prone: true } }, { status: { prone: true } })), 'f', 't'));
    expect(o.breakdown.modifiers.filter((m) => m.label.includes('prone'))).toHaveLength(1);
    expect(o.breakdown.dice).toBe(3);
  });

  it('gives flanking fire from behind the target front line, but not against an attack column', () => {
    // Target faces +x; the firer stands to its side (below it in y), facing +y, behind its front line.
    const units = (formation?: 'attack-column'): SceneUnit[] => [
      { id: 'f', xIn: 40, yIn: 10, headingDeg: 90 },
      { id: 't', side: 'confederate', xIn: 42, yIn: 22, headingDeg: 0, stands: 5, ...(formation ? { status: { formation } } : {}) },
    ];
    expect(labels(ok(fire(scene(units()), 'f', 't')))).toContain('Flanking fire:2');
    expect(labels(ok(fire(scene(units('attack-column')), 'f', 't')))).toEqual(['Target in attack column:2']);
  });

  it('floors a battery at 1 die and caps an independent section at 2', () => {
    const far = ok(fire(scene(facing(60, { arm: 'artillery', stands: 2, quality: 'green', status: { prone: true } })), 'f', 't'));
    expect(far.breakdown.dice).toBe(1);
    expect(far.breakdown.limits).toHaveLength(1);
    const close = ok(fire(scene(facing(4, { arm: 'artillery', stands: 1, quality: 'crack' })), 'f', 't'));
    // 1 stand + 2 (6" band) + 1 crack = 4, capped at 2.
    expect(close.breakdown.dice).toBe(2);
    expect(close.breakdown.limits[0]!.dice).toBe(-2);
  });
});

describe('fire: unit refusals and target priority', () => {
  it('refuses march columns, mounted cavalry and limbered artillery for every target', () => {
    const ctxOf = (s: TableState) => buildContext(s);
    for (const [spec, reason] of [
      [{ status: { formation: 'march-column' } }, 'fire/march-column'],
      [{ arm: 'cavalry' }, 'fire/mounted'],
      [{ arm: 'artillery', status: { limbered: true } }, 'fire/limbered'],
      [{ arm: 'artillery', status: { disordered: true } }, 'fire/disordered-artillery'],
    ] as const) {
      const ctx = ctxOf(scene(facing(8, spec as Partial<SceneUnit>)));
      expect(evaluateFire(ctx, buildFireScene(ctx), 'f')).toEqual([expect.objectContaining({ ok: false, reason, targetUnitId: '*' })]);
    }
  });

  it('must fire at the closest enemy within 12"', () => {
    const state = scene([
      { id: 'f', xIn: 40, yIn: 10, headingDeg: 90 },
      { id: 'near', side: 'confederate', xIn: 36, yIn: 19, headingDeg: 270, stands: 2 },
      { id: 'far', side: 'confederate', xIn: 45, yIn: 21, headingDeg: 270, stands: 2 },
      { id: 'distant', side: 'confederate', xIn: 40, yIn: 60, headingDeg: 270, stands: 2 },
    ]);
    const ctx = buildContext(state);
    const opts = evaluateFire(ctx, buildFireScene(ctx), 'f');
    const byId = new Map(opts.map((o) => [o.targetUnitId, o]));
    expect(byId.get('near')).toMatchObject({ ok: true, priority: true });
    expect(byId.get('far')).toMatchObject({ ok: false, reason: 'fire/target-priority' });
    // 'distant' is ~50" away, beyond every infantry band: refused with a reason, not left out.
    const longestIn = maxRangeIn(weaponRow(state.units[0]!.weapon)!);
    expect(longestIn).toBeLessThan(45);
    expect(byId.get('distant')).toMatchObject({ ok: false, reason: 'fire/target-out-of-range' });
    const distant = byId.get('distant');
    expect(distant && !distant.ok ? distant.detail : '').toContain(`more than ${longestIn}" away, beyond the ${longestIn}" band`);
    expect(opts.map((o) => o.targetUnitId)).toEqual(['near', 'far', 'distant']);
  });

  it('refuses a target far beyond the longest range with one stable refusal', () => {
    const f = { id: 'f', xIn: 40, yIn: 10, headingDeg: 90 };
    const ctx0 = buildContext(scene([f]));
    const longestIn = maxRangeIn(weaponRow(ctx0.units.get('f')!.unit.weapon)!);
    const state = scene([
      f,
      { id: 'gone', side: 'confederate', xIn: 40, yIn: 10 + longestIn + 30, headingDeg: 270, stands: 2 },
    ]);
    const ctx = buildContext(state);
    const opts = evaluateFire(ctx, buildFireScene(ctx), 'f');
    expect(opts).toEqual([expect.objectContaining({ ok: false, targetUnitId: 'gone', reason: 'fire/target-out-of-range' })]);
    // The same refusal for the same weapon and target, wherever the target stands out of range (so a live
    // evaluator's firer list comes out equal and is kept).
    const moved = buildContext(scene([f, { id: 'gone', side: 'confederate', xIn: 10, yIn: 10 + longestIn + 35, headingDeg: 270, stands: 2 }]));
    expect(evaluateFire(moved, buildFireScene(moved), 'f')[0]).toStrictEqual(opts[0]);
  });
});
