import { describe, expect, it } from 'vitest';
import type { FireRefusal, FireTargetOption } from '../../../engine/evaluation.ts';
import type { RulesetValues, Terrain } from '../../../model/tableState.ts';
import { evaluateVolleyAndBayonet } from '../evaluate.ts';
import { scene, TEST_PARAMETERS, type BaseKind, type UnitBuild } from '../../../../../../fixtures/rules/volley-and-bayonet/build.ts';

interface Firer {
  readonly troopType?: string;
  readonly base?: BaseKind;
  readonly abilities?: string[];
  readonly status?: UnitBuild['status'];
  readonly stands?: number;
}

/** A firer facing north at y=10 (front edge at y 10.75 for a 1.5" deep base) and a target `gapIn` beyond its front edge. */
function fireAt(gapIn: number, f: Firer = {}, opts: { targetX?: number; terrain?: Partial<Terrain>; parameters?: RulesetValues; extra?: UnitBuild[]; targetBase?: BaseKind; targetStatus?: UnitBuild['status'] } = {}) {
  const base = f.base ?? 'infantry';
  const depth = base === 'artillery' ? 3 : 1.5;
  const front = 10 + depth / 2;
  const n = f.stands ?? 1;
  const firer: UnitBuild = {
    id: 'f', side: 'a', brigadeId: 'b',
    fields: { 'troop-type': f.troopType ?? 'fast-infantry', morale: 5, 'strength-points': 3, abilities: f.abilities ?? [] },
    ...(f.status ? { status: f.status } : {}),
    stands: Array.from({ length: n }, (_, i) => ({ id: `f-${i + 1}`, base, x: 20 + i * 3, y: 10, heading: 90 })),
  };
  const target: UnitBuild = {
    id: 't', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 },
    ...(opts.targetStatus ? { status: opts.targetStatus } : {}),
    stands: [{ id: 't-1', base: opts.targetBase ?? 'infantry', x: opts.targetX ?? 20, y: front + gapIn + 0.75, heading: 270 }],
  };
  const state = scene({
    widthIn: 96, depthIn: 96,
    units: [firer, target, ...(opts.extra ?? [])],
    commanders: [{ id: 'bc', side: 'a', brigadeId: 'b', x: 20, y: 6 }],
    terrain: opts.terrain ?? {},
    parameters: opts.parameters ?? TEST_PARAMETERS,
  });
  const ev = evaluateVolleyAndBayonet(state);
  return { ev, options: ev.units.f!.fire, on: (id = 't') => ev.units.f!.fire.find((o) => o.targetUnitId === id)! };
}
const ok = (o: FireTargetOption | FireRefusal): FireTargetOption => {
  if (!o.ok) throw new Error(`expected a fire option, got ${o.reason}: ${o.detail}`);
  return o;
};

describe('fire: Attack Dice and Hit Numbers (Combat, p. 5)', () => {
  it('a musket stand rolls 3 dice hitting on 6 within 8"; beyond 8" the target is refused with a reason', () => {
    const o = ok(fireAt(7.9).on());
    expect(o.breakdown).toMatchObject({ kind: 'dice', baseDice: 3, dice: 3, hitOn: 6 });
    expect(o.rangeIn).toBeCloseTo(7.9, 9);
    expect(o.band).toContain('long 8"');
    expect(fireAt(8.1).on()).toMatchObject({ ok: false, reason: 'fire/out-of-range' });
  });

  it('rifles (R) reach 12"; sharpshooters (SS) hit on one less', () => {
    const o = ok(fireAt(11, { abilities: ['R', 'SS'] }).on());
    expect(o.breakdown.hitOn).toBe(5);
    expect(o.breakdown.modifiers.map((m) => m.source)).toContain('Volley & Bayonet: At War in the Americas, Combat: Hit Numbers (p. 5), note 1');
  });

  it('stationary infantry in command roll 5 dice; poorly trained 2 (no stationary figure, unless the option says otherwise)', () => {
    const s = ok(fireAt(5, { stands: 2, status: { rulesetStatus: { stationary: true } } }).on());
    expect(s.breakdown).toMatchObject({ baseDice: 6, dice: 10 });
    expect(s.breakdown.modifiers[0]).toMatchObject({ label: 'Stationary (2 stands)', dice: 4 });
    const pt = ok(fireAt(5, { abilities: ['PT'], status: { rulesetStatus: { stationary: true } } }).on());
    expect(pt.breakdown.dice).toBe(2);
    const ptRegular = ok(fireAt(5, { abilities: ['PT'], status: { rulesetStatus: { stationary: true } } }, { parameters: { ...TEST_PARAMETERS, 'poorly-trained-stationary': 'regular' } }).on());
    expect(ptRegular.breakdown.dice).toBe(5);
  });

  it('no stationary bonus in a forest (Terrain Effects): a stand whose centre is in it, firing out from its edge', () => {
    const forest = { areas: [{ id: 'f', kind: 'thick-woods' as const, vertices: [{ xIn: 15, yIn: 8 }, { xIn: 25, yIn: 8 }, { xIn: 25, yIn: 10.5 }, { xIn: 15, yIn: 10.5 }] }] };
    expect(ok(fireAt(0.5, { status: { rulesetStatus: { stationary: true } } }, { terrain: forest }).on()).breakdown.dice).toBe(3);
    const state = fireAt(5, { status: { rulesetStatus: { stationary: true } } });
    expect(ok(state.on()).breakdown.dice).toBe(5);
  });

  it('detachments roll 1 die; mounted stands do not fire', () => {
    expect(ok(fireAt(5, { base: 'detachment' }).on()).breakdown.dice).toBe(1);
    expect(fireAt(5, { troopType: 'light-cavalry', base: 'mounted' }).options).toEqual([]);
  });

  it('artillery: short range band and long range band (light guns 12" on 5-6, 48" on 6; field guns 16" on 4-6)', () => {
    const short = ok(fireAt(11, { troopType: 'light-artillery', base: 'artillery' }).on());
    expect(short.breakdown).toMatchObject({ dice: 1, hitOn: 5 });
    expect(short.band).toContain('short 12"');
    expect(ok(fireAt(30, { troopType: 'light-artillery', base: 'artillery' }).on()).breakdown.hitOn).toBe(6);
    expect(ok(fireAt(15, { troopType: 'field-artillery', base: 'artillery' }).on()).breakdown.hitOn).toBe(4);
    expect(ok(fireAt(19, { troopType: 'heavy-artillery', base: 'artillery', status: { rulesetStatus: { stationary: true } } }).on()).breakdown).toMatchObject({ dice: 2, hitOn: 4 });
  });

  it('the arc is a parameter: 0 = straight ahead only; 45 opens from the front corners', () => {
    // Target 5" ahead and 6" to the side: outside a straight-ahead corridor, inside a 45° arc.
    expect(fireAt(5, {}, { targetX: 27, parameters: { ...TEST_PARAMETERS, 'fire-arc-corner-deg': 0 } }).on()).toMatchObject({ ok: false, reason: 'fire/out-of-arc' });
    expect(fireAt(5, {}, { targetX: 27 }).on().ok).toBe(true);
  });

  it('range from the front edge or from its centre is a parameter and changes the range', () => {
    // Target base 21-24" across, firer 18.5-21.5": edges overlap, so the front edge is 5" away; its centre (20) is not.
    const edge = ok(fireAt(5, {}, { targetX: 22.5 }).on()).rangeIn;
    const centre = ok(fireAt(5, {}, { targetX: 22.5, parameters: { ...TEST_PARAMETERS, 'range-measured-from': 'front-centre' } }).on()).rangeIn;
    expect(edge).toBeCloseTo(5, 9);
    expect(centre).toBeCloseTo(Math.hypot(1, 5), 9);
  });
});

describe('fire: line of sight and firing lanes', () => {
  const woods = (kind: 'open-woods' | 'swamp') => ({ areas: [{ id: 'w', kind, vertices: [{ xIn: 10, yIn: 12 }, { xIn: 30, yIn: 12 }, { xIn: 30, yIn: 14 }, { xIn: 10, yIn: 14 }] }] });
  it('woods between the stands block the line; a swamp does not (Terrain Effects)', () => {
    expect(fireAt(6, {}, { terrain: woods('open-woods') }).on()).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
    expect(fireAt(6, {}, { terrain: woods('swamp') }).on().ok).toBe(true);
  });

  it('a hill between two stands on the flat blocks the line; not when the firer is two contours above it and it is 8" from the target', () => {
    const hill = (level: number, y0: number, y1: number, id = `h${level}`) => ({ id, level, vertices: [{ xIn: 0, yIn: y0 }, { xIn: 60, yIn: y0 }, { xIn: 60, yIn: y1 }, { xIn: 0, yIn: y1 }] });
    expect(fireAt(6, {}, { terrain: { elevations: [hill(1, 13, 14)] } }).on()).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
    // Artillery on a level-3 hill fires over a level-1 rise 18" short of its target (two contours
    // above it), and over a level-2 rise nearer itself than the target (one contour above); a rise as high as the gun blocks.
    const terrain = (riseLevel: number) => ({ elevations: [hill(1, 0, 13, 'base'), hill(2, 0, 12.5, 'mid'), hill(3, 0, 12, 'top'), hill(riseLevel, 14, 15, 'rise')] });
    expect(fireAt(22, { troopType: 'light-artillery', base: 'artillery' }, { terrain: terrain(1) }).on().ok).toBe(true);
    expect(fireAt(22, { troopType: 'light-artillery', base: 'artillery' }, { terrain: terrain(2) }).on().ok).toBe(true);
    expect(fireAt(22, { troopType: 'light-artillery', base: 'artillery' }, { terrain: terrain(3) }).on()).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
    // A level-1 rise within 8" of the (lower) target blocks even the gun two contours above it.
    const nearTarget = { elevations: [hill(1, 0, 13, 'base'), hill(2, 0, 12.5, 'mid'), hill(3, 0, 12, 'top'), hill(1, 30, 31, 'rise')] };
    expect(fireAt(22, { troopType: 'light-artillery', base: 'artillery' }, { terrain: nearTarget }).on()).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
  });

  it('small arms must fire at skirmishers in front; artillery fires past them', () => {
    const skirm: UnitBuild = { id: 'sk', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 6, 'strength-points': 1 }, status: { rulesetStatus: { 'skirmish-order': true } }, stands: [{ id: 'sk-1', base: 'infantry-skirmisher', x: 20, y: 13.5, heading: 270 }] };
    const small = fireAt(7, {}, { extra: [skirm] });
    expect(small.on('t')).toMatchObject({ ok: false, reason: 'fire/must-fire-at-skirmishers' });
    const onSk = ok(small.on('sk'));
    expect(onSk.priority).toBe(true);
    expect(onSk.breakdown.modifiers.map((m) => m.label)).toContain('Target saves: Stands in skirmish order, from any hits from fire (save roll not entered: save-skirmish-order)');
    expect(small.ev.warnings.map((w) => w.parameterId)).toContain('save-skirmish-order');
    const guns = fireAt(7, { troopType: 'light-artillery', base: 'artillery' }, { extra: [skirm] });
    expect(guns.on('t').ok).toBe(true);
  });

  it('other formed stands in the way block fire', () => {
    const wall: UnitBuild = { id: 'w', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 1 }, stands: [{ id: 'w-1', base: 'infantry', x: 20, y: 13.5, heading: 270 }, { id: 'w-2', base: 'infantry', x: 23, y: 13.5, heading: 270 }, { id: 'w-3', base: 'infantry', x: 17, y: 13.5, heading: 270 }] };
    expect(fireAt(7, {}, { extra: [wall] }).on('t')).toMatchObject({ ok: false, reason: 'fire/blocked-by-stands' });
  });
});

describe('fire parameters', () => {
  it('without the arc and measuring point no fire is offered and both are named in warnings; giving them brings fire back', () => {
    const none = fireAt(5, {}, { parameters: {} });
    expect(none.options).toEqual([]);
    expect(none.ev.warnings.filter((w) => w.code === 'parameter/missing').map((w) => w.parameterId)).toEqual(['fire-arc-corner-deg', 'range-measured-from']);
    // Movement and charges need neither.
    expect(none.ev.units.f!.movement.ok).toBe(true);
    const given = fireAt(5);
    expect(given.options.length).toBe(1);
    expect(given.ev.warnings.filter((w) => w.code === 'parameter/missing')).toEqual([]);
  });

  it('a given save roll is shown on the dice', () => {
    const o = ok(fireAt(5, { status: { disordered: true } }, { parameters: { ...TEST_PARAMETERS, 'save-hit-by-disordered': 6 } }).on());
    expect(o.breakdown.modifiers.map((m) => m.label)).toContain('Target saves: All stands, from hits by disordered stands: saves on 6+');
  });
});
