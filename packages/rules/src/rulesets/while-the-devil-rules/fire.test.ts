import { describe, expect, it } from 'vitest';
import type { FireRefusal, FireTargetOption } from '../../engine/evaluation.ts';
import { parseTableState, type Terrain } from '../../index.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import {
  NO_TERRAIN, WTDR_BASES, dutchSlots, row, swedishSlots, tercioExtendedSlots, wtdrScene, type WtdrUnitSpec,
} from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

const firer = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 'f', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: 36, yIn: 10 }, headingDeg: 90, ...extra });
const target = (x: number, y: number, extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 't', side: 'b', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 1), at: { xIn: x, yIn: y }, headingDeg: 270, ...extra });

function fireOf(units: WtdrUnitSpec[], opts: { terrain?: Terrain; params?: Record<string, number | string> } = {}, unitId = 'f') {
  const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units, opts)));
  return { ev, fire: ev.units[unitId]!.fire };
}
const at = (fire: readonly (FireTargetOption | FireRefusal)[], id = 't') => fire.find((f) => f.targetUnitId === id)!;

describe('fire (Fire)', () => {
  it('measures from the firing bases\' front edges to the nearest point of the target: 6" short, 12" long', () => {
    const long = at(fireOf([firer(), target(36, 18)]).fire);
    expect(long).toMatchObject({ ok: true, rangeIn: expect.closeTo(8, 4), band: 'long (≤12")', eligibleStandIds: ['f-1', 'f-2'] });
    const short = at(fireOf([firer(), target(36, 15)]).fire);
    expect(short).toMatchObject({ ok: true, rangeIn: expect.closeTo(5, 4), band: 'short (≤6")' });
    expect(at(fireOf([firer(), target(36, 23)]).fire)).toMatchObject({ ok: false, reason: 'fire/out-of-range' });
  });

  it('fires only within 45° of a base\'s front, from its front corners', () => {
    // 4" ahead and 10" to the right of the right base's front-right corner: outside 45°.
    const right = 36 + WTDR_BASES.shot.w;
    expect(at(fireOf([firer(), target(right + 10 + WTDR_BASES.shot.w / 2, 14)]).fire)).toMatchObject({ ok: false, reason: 'fire/out-of-arc' });
    // 8" ahead and 6" out: inside the right base's arc only.
    const inArc = at(fireOf([firer(), target(right + 6 + WTDR_BASES.shot.w / 2, 18)]).fire);
    expect(inArc).toMatchObject({ ok: true, eligibleStandIds: ['f-2'] });
  });

  it('needs a 2"-wide gap: a unit in the line blocks, one well aside does not', () => {
    const blocker = (x: number): WtdrUnitSpec => ({ id: 'x', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 1), at: { xIn: x, yIn: 14 }, headingDeg: 90 });
    expect(at(fireOf([firer(), target(36, 18), blocker(36)]).fire)).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
    expect(at(fireOf([firer(), target(36, 18), blocker(36 + 6)]).fire)).toMatchObject({ ok: true });
  });

  it('sees 2" into woods but no further', () => {
    const woods = (y0: number): Terrain => ({ ...NO_TERRAIN, areas: [{ id: 'w', kind: 'open-woods', vertices: [{ xIn: 20, yIn: y0 }, { xIn: 50, yIn: y0 }, { xIn: 50, yIn: 30 }, { xIn: 20, yIn: 30 }] }] });
    const deep = at(fireOf([firer(), target(36, 18)], { terrain: woods(15) }).fire);
    expect(deep).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
    const edge = at(fireOf([firer(), target(36, 18)], { terrain: woods(16.5) }).fire) as FireTargetOption;
    expect(edge.ok).toBe(true);
    expect(edge.breakdown.modifiers.map((m) => m.label)).toContainEqual(expect.stringMatching(/^Target in soft cover \(Cover\/Ground\)/));
  });

  it('caps pike & shot fire per face: Dutch 2 ahead and 1 to a flank, Swedish 3 ahead, tercio 2 any side', () => {
    const dutch = firer({ troopType: 'dutch-battalion', slots: dutchSlots() });
    const ahead = at(fireOf([dutch, target(36, 18)]).fire) as FireTargetOption;
    expect(ahead.eligibleStandIds).toHaveLength(2);
    const flank = at(fireOf([dutch, target(36 - 12, 9, { headingDeg: 0 })]).fire) as FireTargetOption;
    expect(flank.ok).toBe(true);
    expect(flank.eligibleStandIds).toHaveLength(1);
    expect(flank.breakdown.modifiers[0]!.label).toMatch(/^Force Even \(1 firing v 1 bases\)/);
    const swedes = at(fireOf([firer({ troopType: 'swedish-brigade', slots: swedishSlots() }), target(36, 18, { slots: row(WTDR_BASES.shot, 3) })]).fire) as FireTargetOption;
    expect(swedes.eligibleStandIds).toHaveLength(3);
    const tercioRear = at(fireOf([firer({ troopType: 'tercio', slots: tercioExtendedSlots() }), target(36, 0, { headingDeg: 90 })]).fire) as FireTargetOption;
    expect(tercioRear.ok).toBe(true);
    expect(tercioRear.eligibleStandIds).toHaveLength(2);
  });

  it('a Swedish brigade that has fired into one arc this turn fires into no other (Formations: "one arc in any given turn")', () => {
    const brigade = (arc?: string) => firer({ troopType: 'swedish-brigade', slots: swedishSlots(), ...(arc ? { status: { rulesetStatus: { 'fire-arc': arc } } } : {}) });
    const ahead = target(36, 18, { slots: row(WTDR_BASES.shot, 3) });
    expect(at(fireOf([brigade('front'), ahead]).fire)).toMatchObject({ ok: true });
    const refused = at(fireOf([brigade('rear'), ahead]).fire);
    expect(refused).toMatchObject({ ok: false, reason: 'fire/out-of-arc' });
    expect((refused as FireRefusal).detail).toMatch(/only to its rear arc/);
    // Other pike & shot formations are not bound to one arc.
    expect(at(fireOf([firer({ troopType: 'tercio', slots: tercioExtendedSlots(), status: { rulesetStatus: { 'fire-arc': 'rear' } } }), target(36, 18)]).fire)).toMatchObject({ ok: true });
  });

  it('prefers the closer target, except for cannon', () => {
    const two = [firer(), target(36, 18), { ...target(40, 15), id: 't2' }];
    const { fire } = fireOf(two);
    expect(at(fire, 't2')).toMatchObject({ ok: true, priority: true });
    expect(at(fire, 't')).toMatchObject({ ok: true, priority: false });
    const guns = fireOf([firer({ troopType: 'light-artillery', slots: [{ size: WTDR_BASES.artillery, back: 0, left: 0 }] }), target(36, 18), { ...target(38, 15), id: 't2' }]).fire;
    expect(guns.filter((f) => f.ok && f.priority)).toEqual([]);
  });

  it('names the app\'s fields as modifiers and warns for each value not entered; given values add up', () => {
    const units = [firer({ status: { rulesetStatus: { status: 'disordered' } } }), target(36, 15)];
    const missing = fireOf(units);
    const opt = at(missing.fire) as FireTargetOption;
    expect(opt.breakdown.kind).toBe('modifier');
    expect(opt.breakdown.modifiers.map((m) => m.label)).toEqual([
      'Target Badly Outnumbered (2 firing v 1 bases) (value not entered: modifier-fire-target-badly-outnumbered)',
      'Fire is at Short Range (≤6") (value not entered: modifier-fire-short-range)',
      'Actor is Disordered/Demoralized (value not entered: modifier-fire-actor-disordered)',
    ]);
    expect(missing.ev.warnings.filter((w) => w.code === 'parameter/missing').map((w) => w.parameterId)).toEqual(
      expect.arrayContaining(['modifier-fire-target-badly-outnumbered', 'modifier-fire-short-range', 'modifier-fire-actor-disordered']),
    );
    const params = { 'modifier-fire-target-badly-outnumbered': 2, 'modifier-fire-short-range': 1, 'modifier-fire-actor-disordered': -1 };
    const given = at(fireOf(units, { params }).fire) as FireTargetOption;
    expect(given.breakdown.dice).toBe(2);
    expect(given.breakdown.modifiers.map((m) => m.dice)).toEqual([2, 1, -1]);
    for (const m of given.breakdown.modifiers) expect(m.source).toMatch(/\(from the app\)$/);
  });

  it('does not fire with sword & bucklermen, lancers, or unequipped levy; equipped levy fire muskets', () => {
    expect(fireOf([firer({ troopType: 'sword-and-buckler' }), target(36, 15)]).fire).toEqual([]);
    expect(fireOf([firer({ troopType: 'guard-cuirassier', slots: row(WTDR_BASES.cavalry, 2) }), target(36, 15)]).fire).toEqual([]);
    expect(fireOf([firer({ troopType: 'levy' }), target(36, 15)]).fire).toEqual([]);
    expect(at(fireOf([firer({ troopType: 'levy', fields: { 'missile-armed': true } }), target(36, 15)]).fire)).toMatchObject({ ok: true });
  });
});
