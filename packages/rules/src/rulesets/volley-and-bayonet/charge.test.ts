import { describe, expect, it } from 'vitest';
import type { ChargeRefusal, ChargeTargetOption } from '../../engine/evaluation.ts';
import type { RulesetValues } from '../../model/tableState.ts';
import { evaluateVolleyAndBayonet } from './evaluate.ts';
import { scene, TEST_PARAMETERS, type BaseKind, type SceneBuild, type UnitBuild } from '../../../../../fixtures/rules/volley-and-bayonet/build.ts';

interface Attacker {
  readonly troopType?: string;
  readonly base?: BaseKind;
  readonly abilities?: string[];
  readonly status?: UnitBuild['status'];
  readonly heading?: number;
}

/** An attacker at (20, 10) and a target whose near edge is `gapIn` from the attacker's front edge. */
function chargeAt(
  gapIn: number,
  a: Attacker = {},
  t: { heading?: number; status?: UnitBuild['status']; lostSp?: number; parameters?: RulesetValues; targetTroop?: string; targetBase?: BaseKind; targetAbilities?: string[]; terrain?: SceneBuild['terrain'] } = {},
) {
  const heading = a.heading ?? 90;
  const attacker: UnitBuild = {
    id: 'a', side: 'x', brigadeId: 'b',
    fields: { 'troop-type': a.troopType ?? 'fast-infantry', morale: 5, 'strength-points': 2, abilities: a.abilities ?? [] },
    status: { ...a.status, rulesetStatus: { ...a.status?.rulesetStatus, 'strength-points-lost': t.lostSp ?? 0 } },
    stands: [{ id: 'a-1', base: a.base ?? 'infantry', x: 20, y: 10, heading }],
  };
  const target: UnitBuild = {
    id: 't', side: 'y',
    fields: { 'troop-type': t.targetTroop ?? 'fast-infantry', morale: 5, 'strength-points': 2, abilities: t.targetAbilities ?? [] },
    ...(t.status ? { status: t.status } : {}),
    stands: [{ id: 't-1', base: t.targetBase ?? 'infantry', x: 20, y: 10.75 + gapIn + 0.75, heading: t.heading ?? 270 }],
  };
  const ev = evaluateVolleyAndBayonet(scene({ widthIn: 96, depthIn: 96, units: [attacker, target], commanders: [{ id: 'bc', side: 'x', brigadeId: 'b', x: 20, y: 6 }], parameters: t.parameters ?? TEST_PARAMETERS, ...(t.terrain ? { terrain: t.terrain } : {}) }));
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
      'Attacker if it loses (fewer hits, or every SP engaged lost): is disordered and retreats a half move (8") directly away, ignoring terrain; disorders friendly stands it passes through in its first 4" (those already disordered retreat ahead of it)',
    ]);
    // No elites: one less in the roll-off. A disordered defender (-1 on its morale) would rout, losing 1 SP a stand.
    const c = ok(chargeAt(5, { abilities: ['NE'] }, { status: { disordered: true } }).on);
    expect(results(c, 'Attacker')[0]).toBe('Attacker in a tie: a d6 + 4 (best modified morale, -1 no elites (NE)); the higher total wins');
    expect(results(c, 'Defender')).toEqual([
      'Defender in a tie: a d6 + 4 (best modified morale); the higher total wins',
      'Defender if it loses (fewer hits, or every SP engaged lost): routs a full move to the rear (16"), takes the red marker it lacks and loses 1 SP per stand; disorders friendly stands it passes through in the first half of its move (8") (those already disordered rout ahead of it)',
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

describe('what the issue found wrong (Volley & Bayonet: At War in the Americas)', () => {
  const labels = (c: ChargeTargetOption): string[] => [...c.attacker.modifiers, ...c.defender.modifiers].map((m) => m.label);
  const line = (c: ChargeTargetOption, start: string): string => labels(c).find((l) => l.startsWith(start)) ?? '';
  /** A line across the table between the attacker's front (y 10.75) and a target `gapIn` beyond it. */
  const across = (gapIn: number, kind: 'stream' | 'fence') => ({ linear: [{ id: `${kind}-1`, kind, points: [{ xIn: 0, yIn: 10.75 + gapIn / 2 }, { xIn: 96, yIn: 10.75 + gapIn / 2 }] }] });

  it('a limbered gun (road march) has no combat value: it rolls no melee dice (Stand Types, p. 1; Road March, p. 2)', () => {
    const limbered = ok(chargeAt(5, {}, { targetTroop: 'field-artillery', targetBase: 'artillery', status: { rulesetStatus: { 'road-march': true } } }).on);
    expect(limbered.defender.dice).toBe(0);
    expect(line(limbered, 'In road march')).toContain('no combat value');
    // Unlimbered, to its front, it rolls its die.
    expect(ok(chargeAt(5, {}, { targetTroop: 'field-artillery', targetBase: 'artillery' }).on).defender.dice).toBe(1);
    // Infantry in road march likewise.
    expect(ok(chargeAt(5, {}, { status: { rulesetStatus: { 'road-march': true } } }).on).defender.dice).toBe(0);
  });

  it('a disordered attacker with its brigade commander attached gets the +1 too (Morale, p. 4)', () => {
    const c = ok(chargeAt(5, { status: { disordered: true, attachedCommanderId: 'bc' } }).on);
    expect(line(c, 'Attacker morale check')).toBe('Attacker morale check: passes on a d6 of 5 or less (morale 5, +1 superior commander (not uc) attached to the unit, -1 stand is disordered)');
    expect(line(ok(chargeAt(5, { status: { disordered: true } }).on), 'Attacker morale check')).toContain('4 or less');
  });

  it('attacking across a stream onto the defended far bank: the attacker is disordered in the melee (Streams, p. 3)', () => {
    const c = ok(chargeAt(6, {}, { terrain: across(6, 'stream') }).on);
    expect(c.disorderedBy).toEqual(['stream-1']);
    expect(line(c, 'Attacker morale check')).toContain('4 or less');
    expect(line(c, 'Attacking across a stream')).toContain('considered disordered');
    // Hits by disordered stands are saved.
    expect(line(c, 'Defender saves')).toContain('All stands, from hits by disordered stands');
    // Without the stream: neither.
    const dry = ok(chargeAt(6).on);
    expect(line(dry, 'Attacker morale check')).toContain('5 or less');
    expect(line(dry, 'Defender saves')).toBe('');
  });

  it('a fence: a mounted stand in good order checks for disorder (a d6 less than its morale), one already disordered does not (Fences and Hedges, p. 3)', () => {
    const cav = { troopType: 'light-cavalry', base: 'mounted' as const };
    const params = { parameters: { ...TEST_PARAMETERS, 'mounted-melee-hit-number': 5 }, terrain: across(8, 'fence') };
    const good = ok(chargeAt(8, cav, params).on);
    expect(good.disorderedBy).toEqual([]);
    expect(line(good, 'Crossing fence-1')).toBe('Crossing fence-1: a-1 checks for disorder before the morale check: a d6 less than morale 5 avoids it');
    expect(line(good, 'Attacker morale check')).toContain('5 or less');
    const pt = ok(chargeAt(8, { ...cav, abilities: ['PT'] }, params).on);
    expect(line(pt, 'Crossing fence-1')).toContain('a d6 +1 (poorly trained) less than morale 5');
    const already = ok(chargeAt(8, { ...cav, status: { disordered: true } }, params).on);
    expect(line(already, 'Crossing fence-1')).toBe('Crossing fence-1: already disordered, no fence check');
    // Foot do not check at a fence.
    expect(line(ok(chargeAt(8, {}, { terrain: across(8, 'fence') }).on), 'Crossing')).toBe('');
  });

  it('a disordered Native American band charged by cavalry is eliminated, not routed (Native American Morale, p. 4)', () => {
    const cav = { troopType: 'light-cavalry', base: 'mounted' as const };
    const parameters = { ...TEST_PARAMETERS, 'mounted-melee-hit-number': 5 };
    const c = ok(chargeAt(8, cav, { parameters, targetAbilities: ['NA'], targetBase: 'detachment', status: { disordered: true } }).on);
    expect(c.defender.dice).toBe(0);
    expect(line(c, 'Disordered Native Americans')).toContain('eliminated and removed from play');
    expect(line(c, 'Disordered Native Americans')).toContain('move up to 12"');
    expect(labels(c).some((l) => l.startsWith('Defender if it loses'))).toBe(false);
    // In good order it fights, but failing its morale check eliminates it.
    const fresh = ok(chargeAt(8, cav, { parameters, targetAbilities: ['NA'], targetBase: 'detachment' }).on);
    expect(fresh.defender.dice).toBe(1);
    expect(line(fresh, 'Native Americans attacked by mounted troops')).toContain('eliminates them');
    // Charged by foot, a disordered band routs as others do.
    expect(line(ok(chargeAt(8, {}, { targetAbilities: ['NA'], targetBase: 'detachment', status: { disordered: true } }).on), 'Defender if it loses')).toContain('routs a full move');
  });

  it('routed guns abandon their weapons and move as infantry (Melee Results, p. 5); a retreating gun keeps its own rate', () => {
    const gun = { targetTroop: 'heavy-artillery', targetBase: 'artillery' as const };
    // Heavy artillery moves 4"; routed, as slow infantry 12" (the parameter's default) or fast 16".
    expect(line(ok(chargeAt(5, {}, { ...gun, status: { disordered: true } }).on), 'Defender if it loses')).toMatch(/^Defender if it loses .*: routs a full move to the rear \(12"\).*the guns are abandoned and it moves as infantry$/);
    expect(line(ok(chargeAt(5, {}, { ...gun, status: { disordered: true }, parameters: { ...TEST_PARAMETERS, 'routed-guns-move-as': 'fast-infantry' } }).on), 'Defender if it loses')).toContain('(16")');
    expect(line(ok(chargeAt(5, {}, gun).on), 'Defender if it loses')).toMatch(/retreats a half move \(2"\).*it takes its guns with it$/);
  });

  it('a loser disorders the friends it passes in its first 4" (a retreat) or the first half of its move (a rout) (Melee Results, p. 5)', () => {
    expect(line(ok(chargeAt(5).on), 'Defender if it loses')).toContain('disorders friendly stands it passes through in its first 4"');
    expect(line(ok(chargeAt(5, {}, { status: { disordered: true } }).on), 'Defender if it loses')).toContain('in the first half of its move (8")');
  });
});
