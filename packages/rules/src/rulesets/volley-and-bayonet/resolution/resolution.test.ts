/**
 * After the roll, cases written from the text of ../shared/rulebooks/volley-and-bayonet-war-in-the-americas.txt:
 * each sets up a table, asks for the dice, gives the faces and checks what the outcome does.
 */
import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceRequest, Outcome, OutcomeEffect, PendingAction } from '../../../engine/resolve/resolution.ts';
import { applyOutcome } from '../../../engine/resolve/applyOutcome.ts';
import { rollRequestedDice } from '../../../engine/resolve/readDice.ts';
import { diceForAction, resolveAction } from '../../../engine/resolve/resolveAction.ts';
import { createRng } from '../../../dice/rng.ts';
import type { RulesetValues, TableState } from '../../../model/tableState.ts';
import { volleyAndBayonet } from '../index.ts';
import { scene, TEST_PARAMETERS, type BaseKind, type SceneBuild, type UnitBuild } from '../../../../../../fixtures/rules/volley-and-bayonet/build.ts';

interface Side {
  readonly troop?: string;
  readonly base?: BaseKind;
  readonly abilities?: string[];
  readonly status?: UnitBuild['status'];
  readonly morale?: number;
  readonly sp?: number;
  readonly lostSp?: number;
}

/** Attacker `a` (side x) at (20, 10) facing +y; target `t` (side y) `gapIn` ahead, facing it; brigade commanders near each. */
function duel(gapIn: number, a: Side = {}, t: Side = {}, more: { units?: UnitBuild[]; parameters?: RulesetValues; terrain?: SceneBuild['terrain']; commanders?: SceneBuild['commanders'] } = {}): TableState {
  const unit = (id: string, side: string, brigadeId: string, s: Side, y: number, heading: number): UnitBuild => ({
    id, side, brigadeId,
    fields: { 'troop-type': s.troop ?? 'fast-infantry', morale: s.morale ?? 5, 'strength-points': s.sp ?? 2, abilities: s.abilities ?? [] },
    status: { ...s.status, rulesetStatus: { ...s.status?.rulesetStatus, ...(s.lostSp ? { 'strength-points-lost': s.lostSp } : {}) } },
    stands: [{ id: `${id}-1`, base: s.base ?? 'infantry', x: 20, y, heading }],
  });
  const ty = 10.75 + gapIn + 0.75;
  return scene({
    widthIn: 96,
    depthIn: 96,
    units: [unit('a', 'x', 'xb', a, 10, 90), unit('t', 'y', 'yb', t, ty, 270), ...(more.units ?? [])],
    commanders: more.commanders ?? [{ id: 'bc', side: 'x', brigadeId: 'xb', x: 20, y: 6 }, { id: 'yc', side: 'y', brigadeId: 'yb', x: 26, y: ty + 3 }],
    parameters: more.parameters ?? TEST_PARAMETERS,
    ...(more.terrain ? { terrain: more.terrain } : {}),
  });
}

const dice = (state: TableState, action: PendingAction): DiceRequest[] => {
  const r = diceForAction(volleyAndBayonet, state, action);
  if (!Array.isArray(r)) throw new Error(`refused: ${(r as Refusal).reason}: ${(r as Refusal).detail}`);
  return r as DiceRequest[];
};
const outcome = (state: TableState, action: PendingAction, faces: Record<string, number[]>): Outcome => {
  const r = resolveAction(volleyAndBayonet, state, action, faces);
  if ('ok' in r) throw new Error(`refused: ${r.reason}: ${r.detail}`);
  return r;
};
const on = (o: Outcome, unitId: string): OutcomeEffect | undefined => o.effects.find((e) => e.unitId === unitId);
const after = (state: TableState, o: Outcome, unitId: string) => applyOutcome(state, o).units.find((u) => u.id === unitId)!.status ?? {};

const fire = (unitId = 'a', targetUnitId = 't'): PendingAction => ({ kind: 'fire', unitId, targetUnitId });
const morale: PendingAction = { kind: 'melee-morale', unitId: 'a', targetUnitId: 't' };
const melee: PendingAction = { kind: 'melee', unitId: 'a', targetUnitId: 't' };

describe('fire (Combat: Attack Dice, Hit Numbers; Saves, p. 5)', () => {
  it('regular infantry at 5": 3 d6 hitting on 6; each hit is a strength point lost and a hit this sub-phase', () => {
    const state = duel(5, {}, { sp: 4 });
    expect(dice(state, fire())).toMatchObject([{ id: 'fire-1', count: 3, hitOn: 6, reading: 'hits' }]);
    const o = outcome(state, fire(), { 'fire-1': [6, 6, 5] });
    expect(o.result).toBe('2 hits');
    expect(after(state, o, 't').rulesetStatus).toMatchObject({ 'strength-points-lost': 2, 'hits-this-phase': 2 });
    expect(outcome(state, fire(), { 'fire-1': [5, 4, 1] }).effects).toEqual([]);
  });

  it('skirmishers save each hit from fire on the save roll entered; without it the roll is refused, naming the parameter', () => {
    const skirm = { base: 'infantry-skirmisher' as const, status: { rulesetStatus: { 'skirmish-order': true } }, sp: 4 };
    const refused = diceForAction(volleyAndBayonet, duel(5, {}, skirm), fire()) as Refusal;
    expect(refused).toMatchObject({ ok: false, reason: 'parameter/missing' });
    expect(refused.detail).toContain('save-skirmish-order');
    const state = duel(5, {}, skirm, { parameters: { ...TEST_PARAMETERS, 'save-skirmish-order': 4 } });
    const requests = dice(state, fire());
    expect(requests.map((r) => [r.id, r.count, r.hitOn])).toEqual([['fire-1', 3, 6], ['save-skirmish-order', 3, 4]]);
    // Two hits; the first two save dice are read: 5 saves, 1 does not; the third die is not read.
    const o = outcome(state, fire(), { 'fire-1': [6, 6, 2], 'save-skirmish-order': [5, 1, 6] });
    expect(o.result).toBe('1 hit');
    expect(after(state, o, 't').rulesetStatus?.['strength-points-lost']).toBe(1);
  });

  it('mounted stands may elect to retire 6" per hit from fire, for a save on the roll entered', () => {
    const cav = { troop: 'light-cavalry', base: 'mounted' as const, sp: 4 };
    const retire: PendingAction = { ...fire(), choices: { 'mounted-retire': true } };
    const state = duel(5, {}, cav, { parameters: { ...TEST_PARAMETERS, 'save-mounted-retire': 4 } });
    expect(dice(state, retire).map((r) => r.id)).toEqual(['fire-1', 'save-mounted-retire']);
    const o = outcome(state, retire, { 'fire-1': [6, 6, 1], 'save-mounted-retire': [4, 1, 1] });
    expect(o.result).toBe('1 hit');
    expect(on(o, 't')!.move).toMatchObject({ kind: 'fall-back', distanceIn: 12 });
    // Not electing: no save, no move.
    expect(on(outcome(state, fire(), { 'fire-1': [6, 6, 1] }), 't')!.move).toBeUndefined();
    // Foot cannot elect it.
    expect(diceForAction(volleyAndBayonet, duel(5), retire)).toMatchObject({ ok: false, reason: 'fire/not-mounted' });
  });

  it('hits that reach the exhaustion level exhaust the brigade: stationary is lost and a collapse roll follows (Morale Collapse, p. 5)', () => {
    // 2 SP at morale 5: exhausted at 1 SP lost (Exhaustion, p. 7: 50%).
    const state = duel(5, {}, { status: { rulesetStatus: { stationary: true } } });
    const o = outcome(state, fire(), { 'fire-1': [6, 1, 1] });
    expect(after(state, o, 't').rulesetStatus).toMatchObject({ stationary: false, 'strength-points-lost': 1 });
    expect(o.followUps).toEqual([{ kind: 'collapse', unitId: 't' }]);
    // Both SP gone: removed.
    expect(on(outcome(state, fire(), { 'fire-1': [6, 6, 1] }), 't')!.removed).toBe(true);
  });
});

describe('Native American bands lose morale with their stands (Native American Morale, p. 4)', () => {
  it('each stand lost drops the band\'s morale by one: a hit on a band of 1-SP stands is a stand lost', () => {
    const band = { abilities: ['NA'], base: 'detachment' as const, morale: 6, sp: 3 };
    const state = duel(5, {}, band);
    const o = outcome(state, fire(), { 'fire-1': [6, 1, 1] });
    expect(after(state, o, 't').rulesetStatus).toMatchObject({ 'native-stands-lost': 1, 'strength-points-lost': 1 });
    // Morale 6 less one: its melee check now passes on 5 or less, and at 5 it no longer counts as shock.
    const next = applyOutcome(state, o);
    const back: PendingAction = { kind: 'melee-morale', unitId: 't', targetUnitId: 'a' };
    expect(dice(duel(5, {}, band), back)[0]!.target).toBe(6);
    expect(dice(next, back)[0]!.target).toBe(5);
  });
});

describe('fence check (Terrain Effects: Fences and Hedges, p. 3)', () => {
  const cav = { troop: 'light-cavalry', base: 'mounted' as const };
  const fence = { linear: [{ id: 'fence-1', kind: 'fence' as const, points: [{ xIn: 0, yIn: 14.75 }, { xIn: 96, yIn: 14.75 }] }] };
  const params = { ...TEST_PARAMETERS, 'mounted-melee-hit-number': 5 };
  const check: PendingAction = { kind: 'fence-check', unitId: 'a', targetUnitId: 't' };

  it('a mounted stand must roll less than its morale: 4 or less at morale 5; poorly trained add one (3 or less)', () => {
    const state = duel(8, cav, {}, { terrain: fence, parameters: params });
    expect(dice(state, check)).toMatchObject([{ id: 'fence', count: 1, reading: 'under', target: 4 }]);
    expect(outcome(state, check, { fence: [4] }).effects).toEqual([]);
    const failed = outcome(state, check, { fence: [5] });
    expect(after(state, failed, 'a').disordered).toBe(true);
    expect(failed.followUps).toEqual([{ kind: 'melee-morale', unitId: 'a', targetUnitId: 't' }]);
    expect(dice(duel(8, { ...cav, abilities: ['PT'] }, {}, { terrain: fence, parameters: params }), check)[0]!.target).toBe(3);
  });

  it('stands already disordered do not check', () => {
    expect(diceForAction(volleyAndBayonet, duel(8, { ...cav, status: { disordered: true } }, {}, { terrain: fence, parameters: params }), check)).toMatchObject({ ok: false, reason: 'fence/no-check' });
  });
});

describe('morale checks before a melee (Morale; Breakthroughs; Native American Morale, p. 4)', () => {
  it('both sides roll a d6 equal to or under their modified morale', () => {
    // Attacker morale 5 with its brigade commander attached (+1) and disordered (-1): 5.
    const state = duel(5, { status: { disordered: true, attachedCommanderId: 'bc' } }, { morale: 4 });
    expect(dice(state, morale).map((r) => [r.id, r.count, r.target])).toEqual([['attacker', 1, 5], ['defender', 1, 4]]);
    const o = outcome(state, morale, { attacker: [5], defender: [4] });
    expect(o.effects).toEqual([]);
    expect(o.followUps).toEqual([melee]);
  });

  it('failing in good order disorders, and the charge goes on to the melee', () => {
    const state = duel(5);
    const o = outcome(state, morale, { attacker: [6], defender: [6] });
    expect(after(state, o, 'a').disordered).toBe(true);
    expect(after(state, o, 't').disordered).toBe(true);
    expect(on(o, 't')!.move).toBeUndefined();
    expect(o.followUps).toEqual([melee]);
  });

  it('a disordered defender failing routs: red marker, 1 SP per stand, a full move directly away; the attacker may break through', () => {
    const state = duel(5, {}, { status: { disordered: true }, sp: 3 });
    const o = outcome(state, morale, { attacker: [1], defender: [6] });
    const t = after(state, o, 't');
    expect(t.rulesetStatus).toMatchObject({ routed: true, 'permanently-disordered': true, 'strength-points-lost': 1 });
    const move = on(o, 't')!.move!;
    expect(move).toMatchObject({ kind: 'rout', distanceIn: 16 });
    // Directly away from the attacker, who stands at lower y.
    expect(move.path[1]!.yIn - move.path[0]!.yIn).toBeCloseTo(16, 6);
    expect(on(o, 'a')!.move).toMatchObject({ kind: 'breakthrough' });
    expect(on(o, 'a')!.text).toContain('one half turn (8")');
    expect(o.followUps).toEqual([]);
    // A routed defender that fails is removed from play.
    expect(on(outcome(duel(5, {}, { status: { rulesetStatus: { routed: true } } }), morale, { attacker: [1], defender: [6] }), 't')!.removed).toBe(true);
  });

  it('Native Americans failing to close are not disordered: they stop halfway and deploy as skirmishers, no melee', () => {
    const state = duel(6, { abilities: ['NA'], base: 'detachment' });
    const o = outcome(state, morale, { attacker: [6], defender: [1] });
    expect(after(state, o, 'a')).toEqual(expect.objectContaining({ rulesetStatus: expect.objectContaining({ 'skirmish-order': true }) }));
    expect(after(state, o, 'a').disordered).toBeUndefined();
    expect(on(o, 'a')!.move).toMatchObject({ kind: 'advance', distanceIn: 3 });
    expect(o.followUps).toEqual([]);
  });

  it('a disordered band attacked by mounted troops is eliminated without a check; the cavalry may move 12" and ends disordered', () => {
    const state = duel(8, { troop: 'light-cavalry', base: 'mounted' }, { abilities: ['NA'], base: 'detachment', status: { disordered: true } }, { parameters: { ...TEST_PARAMETERS, 'mounted-melee-hit-number': 5 } });
    expect(dice(state, morale).map((r) => r.count)).toEqual([1, 0]);
    const o = outcome(state, morale, { attacker: [1], defender: [] });
    expect(on(o, 't')!.removed).toBe(true);
    expect(after(state, o, 'a').disordered).toBe(true);
    expect(on(o, 'a')!.move).toMatchObject({ kind: 'breakthrough', distanceIn: 12 });
    expect(diceForAction(volleyAndBayonet, state, melee)).toMatchObject({ ok: false, reason: 'melee/ridden-down' });
  });
});

describe('melee (Combat; Saves; Melee Results, p. 5)', () => {
  it('more hits wins; the loser in good order is disordered and retreats a half move, disordering friends it passes in its first 4"', () => {
    const behind = (id: string, dy: number, disordered: boolean): UnitBuild => ({
      id, side: 'y', brigadeId: 'yb', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 },
      ...(disordered ? { status: { disordered: true } } : {}),
      stands: [{ id: `${id}-1`, base: 'infantry', x: 20, y: 17 + dy, heading: 270 }],
    });
    // Target centre at y 17: friends 3" behind (passed within 4") and 6" behind (not).
    const state = duel(5, {}, { sp: 4 }, { units: [behind('near', 3, false), behind('far', 6, false)] });
    expect(dice(state, melee).map((r) => [r.id, r.count, r.hitOn])).toEqual([['attacker', 3, 6], ['defender', 3, 6]]);
    const o = outcome(state, melee, { attacker: [6, 6, 1], defender: [6, 1, 1] });
    expect(o.result).toBe('Attacker wins');
    expect(after(state, o, 't')).toMatchObject({ disordered: true, rulesetStatus: { 'strength-points-lost': 2, 'hits-this-phase': 2 } });
    expect(on(o, 't')!.move).toMatchObject({ kind: 'retreat', distanceIn: 8 });
    expect(after(state, o, 'a').rulesetStatus).toMatchObject({ 'strength-points-lost': 1 });
    expect(on(o, 'a')!.move).toMatchObject({ kind: 'advance' });
    expect(after(state, o, 'near').disordered).toBe(true);
    expect(on(o, 'far')).toBeUndefined();
    // A friend already disordered retreats ahead of it instead.
    const ahead = duel(5, {}, { sp: 4 }, { units: [behind('near', 3, true)] });
    expect(on(outcome(ahead, melee, { attacker: [6, 6, 1], defender: [6, 1, 1] }), 'near')!.move).toMatchObject({ kind: 'retreat', distanceIn: 8 });
  });

  it('an already disordered loser routs: the marker it lacks, 1 SP per stand, a full move, friends in the first half disordered', () => {
    const friend: UnitBuild = { id: 'f', side: 'y', brigadeId: 'yb', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 'f-1', base: 'infantry', x: 20, y: 24, heading: 270 }] };
    // The attacker saves hits by the disordered defender (Saves, p. 5): the roll is a parameter.
    const state = duel(5, {}, { status: { disordered: true }, sp: 6 }, { units: [friend], parameters: { ...TEST_PARAMETERS, 'save-hit-by-disordered': 6 } });
    const o = outcome(state, melee, { attacker: [6, 1, 1], defender: [1, 1, 1], 'attacker-save-hit-by-disordered': [1, 1, 1] });
    expect(after(state, o, 't')).toMatchObject({ disordered: true, rulesetStatus: { routed: true, 'permanently-disordered': true, 'strength-points-lost': 2 } });
    expect(on(o, 't')!.move).toMatchObject({ kind: 'rout', distanceIn: 16 });
    // 7" behind: within the first 8" of the rout.
    expect(after(state, o, 'f').disordered).toBe(true);
  });

  it('a side that loses every SP engaged has lost, whatever the hits', () => {
    // The defender has 1 SP left; it takes 1 hit and gives 2: it still loses.
    const state = duel(5, { sp: 4 }, { sp: 2, lostSp: 1 });
    const o = outcome(state, melee, { attacker: [6, 1, 1], defender: [6, 6, 1] });
    expect(o.result).toBe('Attacker wins');
    expect(on(o, 't')!.removed).toBe(true);
  });

  it('equal hits go to a roll-off: a d6 plus best modified morale, no elites 1 less; equal totals roll again (a reading)', () => {
    const state = duel(5, { abilities: ['NE'] }, { sp: 4 });
    const tie = outcome(state, melee, { attacker: [6, 1, 1], defender: [6, 1, 1] });
    expect(tie.result).toBe('Tie: roll off');
    expect(tie.followUps).toContainEqual({ kind: 'melee-roll-off', unitId: 'a', targetUnitId: 't' });
    const next = applyOutcome(state, tie);
    const rollOff: PendingAction = { kind: 'melee-roll-off', unitId: 'a', targetUnitId: 't' };
    expect(dice(next, rollOff).map((r) => [r.id, r.modifier])).toEqual([['attacker', 4], ['defender', 5]]);
    const won = outcome(next, rollOff, { attacker: [5], defender: [3] });
    expect(won.result).toBe('Attacker wins');
    expect(after(next, won, 't').disordered).toBe(true);
    expect(outcome(next, rollOff, { attacker: [4], defender: [3] }).followUps).toEqual([rollOff]);
  });

  it('a limbered gun rolls no dice; an attack across a defended stream makes the defender save hits by disordered stands', () => {
    expect(dice(duel(5, {}, { troop: 'field-artillery', base: 'artillery', status: { rulesetStatus: { 'road-march': true } } }), melee).find((r) => r.id === 'defender')!.count).toBe(0);
    const stream = { linear: [{ id: 's', kind: 'stream' as const, points: [{ xIn: 0, yIn: 13.75 }, { xIn: 96, yIn: 13.75 }] }] };
    expect(diceForAction(volleyAndBayonet, duel(6, {}, {}, { terrain: stream }), melee)).toMatchObject({ ok: false, reason: 'parameter/missing' });
    const state = duel(6, {}, { sp: 4 }, { terrain: stream, parameters: { ...TEST_PARAMETERS, 'save-hit-by-disordered': 5 } });
    expect(dice(state, melee).map((r) => r.id)).toEqual(['attacker', 'defender', 'defender-save-hit-by-disordered']);
    const o = outcome(state, melee, { attacker: [6, 6, 1], defender: [1, 1, 1], 'defender-save-hit-by-disordered': [5, 2, 6] });
    expect(after(state, o, 't').rulesetStatus?.['strength-points-lost']).toBe(1);
  });
});

describe('morale collapse (p. 5)', () => {
  const brigade = (hits: number): TableState => {
    const u = (id: string, x: number, status: UnitBuild['status']): UnitBuild => ({ id, side: 'y', brigadeId: 'yb', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, status, stands: [{ id: `${id}-1`, base: 'infantry', x, y: 40, heading: 270 }] });
    return scene({
      widthIn: 96,
      depthIn: 96,
      units: [
        u('good', 20, { rulesetStatus: { 'strength-points-lost': 1, 'hits-this-phase': hits } }),
        u('shaken', 30, { disordered: true, rulesetStatus: { 'strength-points-lost': 1 } }),
        u('fled', 40, { rulesetStatus: { routed: true, 'strength-points-lost': 1 } }),
        { id: 'e', side: 'x', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 'e-1', base: 'infantry', x: 30, y: 30, heading: 90 }] },
      ],
      commanders: [{ id: 'yc', side: 'y', brigadeId: 'yb', x: 30, y: 44 }],
      parameters: TEST_PARAMETERS,
    });
  };
  const collapse: PendingAction = { kind: 'collapse', unitId: 'good' };

  it('a die BETTER than the hits of this sub-phase holds; equal or less collapses the brigade', () => {
    const state = brigade(3);
    expect(dice(state, collapse)).toMatchObject([{ id: 'collapse', count: 1, reading: 'under', target: 3 }]);
    const held = outcome(state, collapse, { collapse: [4] });
    expect(held.result).toBe('Holds');
    expect(after(state, held, 'good').rulesetStatus?.['hits-this-phase']).toBeUndefined();
    const o = outcome(state, collapse, { collapse: [3] });
    expect(o.result).toBe('Morale collapse');
    // Good order: the permanent (red) marker. Disordered: rout with 1 SP lost, away from the nearest enemy. Routed: removed.
    expect(after(state, o, 'good').rulesetStatus).toMatchObject({ 'permanently-disordered': true });
    expect(after(state, o, 'shaken').rulesetStatus).toMatchObject({ routed: true, 'permanently-disordered': true, 'strength-points-lost': 2 });
    expect(on(o, 'shaken')!.move!.path[1]!.yIn).toBeGreaterThan(40);
    expect(on(o, 'fled')!.removed).toBe(true);
    expect(o.effects.find((e) => e.commanderId === 'yc')!.text).toContain('red marker');
  });

  it('a brigade not yet exhausted does not roll', () => {
    expect(diceForAction(volleyAndBayonet, duel(5), { kind: 'collapse', unitId: 't' })).toMatchObject({ ok: false, reason: 'collapse/not-exhausted' });
  });
});

describe('other rolls: the danger zone, Native Americans forming, rally, marsh', () => {
  it('a unit down a gun\'s barrel within short range checks morale; failing in good order disorders it', () => {
    const state = duel(10, { troop: 'field-artillery', base: 'artillery' });
    const action: PendingAction = { kind: 'danger-zone-check', unitId: 't', targetUnitId: 'a' };
    const ev = volleyAndBayonet.evaluate(state);
    expect(volleyAndBayonet.resolution!.offered(state, ev, 't')).toContainEqual(action);
    expect(dice(state, action)).toMatchObject([{ count: 1, reading: 'under', target: 5 }]);
    expect(after(state, outcome(state, action, { morale: [6] }), 't').disordered).toBe(true);
    expect(diceForAction(volleyAndBayonet, duel(30, { troop: 'field-artillery', base: 'artillery' }), action)).toMatchObject({ ok: false, reason: 'morale/not-in-danger-zone' });
  });

  it('a Native American band forming from skirmish order checks morale; failing, it stays in skirmish order', () => {
    const state = duel(10, {}, { abilities: ['NA'], base: 'infantry-skirmisher', status: { rulesetStatus: { 'skirmish-order': true } } });
    const action: PendingAction = { kind: 'native-forming', unitId: 't' };
    expect(after(state, outcome(state, action, { morale: [5] }), 't').rulesetStatus?.['skirmish-order']).toBe(false);
    const failed = outcome(state, action, { morale: [6] });
    expect(failed.result).toBe('Remains in skirmish order');
    expect(on(failed, 't')!.status).toBeUndefined();
  });

  it('a routed unit touching its brigade commander rallies without a roll: yellow off, red stays', () => {
    const routed = { status: { disordered: true, rulesetStatus: { routed: true, 'permanently-disordered': true } } };
    const state = duel(10, routed, {}, { commanders: [{ id: 'bc', side: 'x', brigadeId: 'xb', x: 20, y: 8.5 }] });
    expect(dice(state, { kind: 'rally', unitId: 'a' })).toEqual([]);
    const o = outcome(state, { kind: 'rally', unitId: 'a' }, {});
    const s = after(state, o, 'a');
    expect(s.disordered).toBe(false);
    expect(s.rulesetStatus).toEqual({ 'permanently-disordered': true });
    expect(resolveAction(volleyAndBayonet, duel(10, routed), { kind: 'rally', unitId: 'a' }, {})).toMatchObject({ ok: false, reason: 'rally/no-commander-in-contact' });
  });

  it('marsh: a d6 per stand, +1 artillery, +1 where another has crossed; 3-4 costs 2 per 1, 5+ 4 per 1 and disorders', () => {
    const state = duel(10, { troop: 'field-artillery', base: 'artillery' });
    const marsh = (crossed: boolean): PendingAction => ({ kind: 'marsh', unitId: 'a', choices: { 'crossed-before': crossed } });
    expect(dice(state, marsh(true))).toMatchObject([{ id: 'a-1', modifier: 2 }]);
    expect(outcome(state, marsh(false), { 'a-1': [1] }).result).toBe('No effect');
    expect(outcome(state, marsh(false), { 'a-1': [2] }).result).toBe('2 per 1 moved');
    const deep = outcome(state, marsh(true), { 'a-1': [3] });
    expect(deep.result).toBe('Disordered');
    expect(after(state, deep, 'a').disordered).toBe(true);
    // Infantry skirmishers are not affected.
    expect(diceForAction(volleyAndBayonet, duel(10, { base: 'infantry-skirmisher', status: { rulesetStatus: { 'skirmish-order': true } } }), marsh(false))).toMatchObject({ ok: false, reason: 'marsh/not-affected' });
  });
});

describe('what a unit is offered, rolled with the seeded roller', () => {
  it('every offered action can be rolled and resolved, and its effects name units on the table', () => {
    const state = duel(5, {}, { sp: 4 });
    const ev = volleyAndBayonet.evaluate(state);
    const offered = volleyAndBayonet.resolution!.offered(state, ev, 'a');
    expect(offered.map((o) => o.kind)).toEqual(['fire', 'melee-morale', 'melee']);
    const rng = createRng(28);
    for (const action of offered) {
      for (let i = 0; i < 20; i++) {
        const requests = dice(state, action);
        const o = outcome(state, action, rollRequestedDice(requests, rng) as Record<string, number[]>);
        expect(o.rulesetId).toBe('volley-and-bayonet');
        for (const e of o.effects) expect(state.units.some((u) => u.id === e.unitId) || state.commanders.some((c) => c.id === e.commanderId)).toBe(true);
        expect(() => applyOutcome(state, o)).not.toThrow();
      }
    }
  });
});
