import { describe, expect, it } from 'vitest';
import type { ChargeRefusal, ChargeTargetOption } from '../../engine/evaluation.ts';
import type { RulesetValues } from '../../model/tableState.ts';
import { evaluateVolleyAndBayonet } from './evaluate.ts';
import { scene, TEST_PARAMETERS, type BaseKind, type UnitBuild } from '../../../../../fixtures/rules/volley-and-bayonet/build.ts';

interface Attacker {
  readonly troopType?: string;
  readonly base?: BaseKind;
  readonly abilities?: string[];
  readonly status?: UnitBuild['status'];
  readonly heading?: number;
}

/** An attacker at (20, 10) and a target whose near edge is `gapIn` from the attacker's front edge. */
function chargeAt(gapIn: number, a: Attacker = {}, t: { heading?: number; status?: UnitBuild['status']; lostSp?: number; parameters?: RulesetValues; targetTroop?: string; targetBase?: BaseKind } = {}) {
  const heading = a.heading ?? 90;
  const attacker: UnitBuild = {
    id: 'a', side: 'x', brigadeId: 'b',
    fields: { 'troop-type': a.troopType ?? 'fast-infantry', morale: 5, 'strength-points': 2, abilities: a.abilities ?? [] },
    status: { ...a.status, rulesetStatus: { ...a.status?.rulesetStatus, 'strength-points-lost': t.lostSp ?? 0 } },
    stands: [{ id: 'a-1', base: a.base ?? 'infantry', x: 20, y: 10, heading }],
  };
  const target: UnitBuild = {
    id: 't', side: 'y',
    fields: { 'troop-type': t.targetTroop ?? 'fast-infantry', morale: 5, 'strength-points': 2 },
    ...(t.status ? { status: t.status } : {}),
    stands: [{ id: 't-1', base: t.targetBase ?? 'infantry', x: 20, y: 10.75 + gapIn + 0.75, heading: t.heading ?? 270 }],
  };
  const ev = evaluateVolleyAndBayonet(scene({ widthIn: 96, depthIn: 96, units: [attacker, target], commanders: [{ id: 'bc', side: 'x', brigadeId: 'b', x: 20, y: 6 }], parameters: t.parameters ?? TEST_PARAMETERS }));
  return { ev, on: ev.units.a!.charge.find((c) => c.targetUnitId === 't') };
}
const ok = (c: ChargeTargetOption | ChargeRefusal | undefined): ChargeTargetOption => {
  if (!c || !c.ok) throw new Error(`expected a charge option, got ${c ? `${c.reason}: ${c.detail}` : 'nothing'}`);
  return c;
};

describe('charges (Movement: Charges, p. 2) and melee dice (Combat, p. 5)', () => {
  it('an infantry stand reaches a stand 15" ahead (fast infantry, 16"): 3 dice hitting on 6 against 3', () => {
    const c = ok(chargeAt(15).on);
    expect(c.distanceIn).toBeCloseTo(15, 9);
    expect(c.attacker).toMatchObject({ dice: 3, hitOn: 6 });
    expect(c.defender).toMatchObject({ dice: 3, hitOn: 6 });
    expect(c.enemyFlanked).toBe(false);
    expect(chargeAt(16.5).on).toMatchObject({ ok: false, reason: 'charge/out-of-reach' });
  });

  it('behind it, a facing change costs half the move: 7" reachable, 9" not', () => {
    expect(chargeAt(7, { heading: 270 }).on?.ok).toBe(false); // the stand faces away: its front edge is 8.5" from the target
    const behind = (gap: number) => chargeAt(gap - 1.5, { heading: 270 }).on;
    expect(ok(behind(7)).distanceIn).toBeCloseTo(7, 9);
    expect(behind(9)).toMatchObject({ ok: false, reason: 'charge/out-of-reach' });
  });

  it('shock (Sh) hits on one less in offensive melee; stationary defenders roll 5', () => {
    const c = ok(chargeAt(5, { abilities: ['Sh'] }, { status: { rulesetStatus: { stationary: true } } }).on);
    expect(c.attacker.hitOn).toBe(5);
    expect(c.attacker.modifiers[0]!.source).toBe('Volley & Bayonet: At War in the Americas, Combat: Hit Numbers (p. 5), note 2');
    // The target has no commander: out of command, so it cannot hold stationary.
    expect(c.defender.dice).toBe(3);
  });

  it('light dragoons count as shock against disordered units; the mounted hit number is a parameter', () => {
    const noParam = chargeAt(10, { troopType: 'light-cavalry', base: 'mounted' }, { status: { disordered: true } });
    const c = ok(noParam.on);
    expect(c.attacker.hitOn).toBeUndefined();
    expect(noParam.ev.warnings.map((w) => w.parameterId)).toContain('mounted-melee-hit-number');
    const given = ok(chargeAt(10, { troopType: 'light-cavalry', base: 'mounted' }, { status: { disordered: true }, parameters: { ...TEST_PARAMETERS, 'mounted-melee-hit-number': 5 } }).on);
    expect(given.attacker).toMatchObject({ dice: 2, hitOn: 4 });
    expect(given.defender.modifiers.map((m) => m.label).join(' ')).toContain('-1 infantry meleed by mounted units');
  });

  it('a flank attack: attacker +1 and defender -2 on their morale checks (Morale, p. 4)', () => {
    const c = ok(chargeAt(5, {}, { heading: 0 }).on);
    expect(c.enemyFlanked).toBe(true);
    const labels = [...c.attacker.modifiers, ...c.defender.modifiers].map((m) => m.label);
    expect(labels.find((l) => l.startsWith('Attacker'))).toContain('passes on a d6 of 6 or less');
    expect(labels.find((l) => l.startsWith('Defender'))).toContain('passes on a d6 of 3 or less');
  });

  it('melee results (p. 5): the tie roll-off with each best modified morale, and what the loser suffers by its markers', () => {
    const results = (c: ChargeTargetOption, who: 'Attacker' | 'Defender'): string[] =>
      [...c.attacker.modifiers, ...c.defender.modifiers].filter((m) => m.source === 'Volley & Bayonet: At War in the Americas, Melee Results (p. 5)' && m.label.startsWith(who)).map((m) => m.label);
    // Head on, both morale 5 in good order: a d6 + 5 each; the loser is disordered and goes back half a move (fast infantry 16").
    const plain = ok(chargeAt(5).on);
    expect(results(plain, 'Attacker')).toEqual([
      'Attacker in a tie: a d6 + 5 (best modified morale); the higher total wins',
      'Attacker if it loses (fewer hits, or every SP engaged lost): is disordered and retreats a half move (8") directly away, ignoring terrain',
    ]);
    // No elites: one less in the roll-off. A disordered defender (-1 on its morale) would rout, losing 1 SP a stand.
    const c = ok(chargeAt(5, { abilities: ['NE'] }, { status: { disordered: true } }).on);
    expect(results(c, 'Attacker')[0]).toBe('Attacker in a tie: a d6 + 4 (best modified morale, -1 no elites (NE)); the higher total wins');
    expect(results(c, 'Defender')).toEqual([
      'Defender in a tie: a d6 + 4 (best modified morale); the higher total wins',
      'Defender if it loses (fewer hits, or every SP engaged lost): routs a full move to the rear (16"), takes the red marker it lacks and loses 1 SP per stand',
    ]);
    // Routed stands that fail to win a melee are removed after routing.
    const routed = ok(chargeAt(5, {}, { status: { rulesetStatus: { routed: true } } }).on);
    expect(results(routed, 'Defender')[1]).toBe('Defender if it loses (fewer hits, or every SP engaged lost): routs (16") and is removed from play');
  });

  it('unsupported artillery being meleed: -1 on its morale check, judged from the stands around the gun (Morale, p. 4)', () => {
    // A gun charged head on; `artillery-support-in` (not in the supplement) says how near a supporter must be.
    const gunCharge = (supporterX: number | undefined, parameters: RulesetValues) => {
      const attacker: UnitBuild = {
        id: 'a', side: 'x', brigadeId: 'b',
        fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 },
        stands: [{ id: 'a-1', base: 'infantry', x: 20, y: 10, heading: 90 }],
      };
      const gun: UnitBuild = { id: 't', side: 'y', fields: { 'troop-type': 'field-artillery', morale: 5, 'strength-points': 1 }, stands: [{ id: 't-1', base: 'artillery', x: 20, y: 18, heading: 270 }] };
      const foot: UnitBuild[] = supporterX === undefined ? [] : [{ id: 's', side: 'y', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 1 }, stands: [{ id: 's-1', base: 'infantry', x: supporterX, y: 18, heading: 270 }] }];
      const ev = evaluateVolleyAndBayonet(scene({ widthIn: 96, depthIn: 96, units: [attacker, gun, ...foot], commanders: [{ id: 'bc', side: 'x', brigadeId: 'b', x: 20, y: 6 }], parameters }));
      const c = ok(ev.units.a!.charge.find((o) => o.targetUnitId === 't'));
      return { ev, defender: c.defender.modifiers.find((m) => m.label.startsWith('Defender morale check'))!.label };
    };
    const withParam = { ...TEST_PARAMETERS, 'artillery-support-in': 2 };
    // Alone: unsupported. The gun is 1.5" wide, the infantry 3": centres 3.25" apart leave 1" between the bases.
    expect(gunCharge(undefined, withParam).defender).toContain('-1 unsupported artillery being meleed');
    expect(gunCharge(23.25, withParam).defender).not.toContain('unsupported');
    // 3" between the bases: beyond the 2" given, so unsupported again.
    expect(gunCharge(25.25, withParam).defender).toContain('-1 unsupported artillery being meleed');
    // Without the parameter nothing is judged and a warning names it.
    const missing = gunCharge(undefined, TEST_PARAMETERS);
    expect(missing.defender).not.toContain('unsupported');
    expect(missing.ev.warnings.map((w) => w.parameterId)).toContain('artillery-support-in');
  });

  it('skirmishers, units in road march and exhausted brigades do not charge', () => {
    expect(chargeAt(5, { base: 'infantry-skirmisher', status: { rulesetStatus: { 'skirmish-order': true } } }).on).toMatchObject({ ok: false, reason: 'charge/skirmishers' });
    expect(chargeAt(5, { status: { rulesetStatus: { 'road-march': true } } }).on).toMatchObject({ ok: false, reason: 'charge/road-march' });
    // 2 SP at morale 5: exhausted at 1 SP lost.
    expect(chargeAt(5, {}, { lostSp: 1 }).on).toMatchObject({ ok: false, reason: 'charge/brigade-exhausted' });
  });
});
