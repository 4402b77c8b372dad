import { describe, expect, it } from 'vitest';
import type { Outcome, PendingAction } from '../../engine/resolve/resolution.ts';
import { applyOutcome, diceForAction, resolveAction } from '../../engine/resolve/index.ts';
import type { Refusal } from '../../engine/evaluation.ts';
import type { TableState } from '../../model/tableState.ts';
import { parseTableState } from '../../index.ts';
import { whileTheDevilRules } from './index.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import { loseLevels, regroupLevels } from './statusLevels.ts';
import { WTDR_BASES, row, wtdrScene, type WtdrUnitSpec } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

const D = WTDR_BASES.shot.d;
const W = WTDR_BASES.shot.w;
// A: two bases of commanded shot facing +y, front edge centre at (36, 10). Units are placed by their front edge.
const a = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 'a', name: 'A', side: 'x', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: 36, yIn: 10 }, headingDeg: 90, ...extra });
const e = (id: string, n: number, x: number, y: number, headingDeg: number, extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id, name: id.toUpperCase(), side: 'y', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, n), at: { xIn: x, yIn: y }, headingDeg, ...extra });
const scene = (units: WtdrUnitSpec[], params: Record<string, number> = {}): TableState => parseTableState(wtdrScene(units, { params }));
const status = (state: TableState, id: string) => state.units.find((u) => u.id === id)!.status?.rulesetStatus ?? {};

function outcome(state: TableState, action: PendingAction, faces: Record<string, number[]>): Outcome {
  const o = resolveAction(whileTheDevilRules, state, action, faces);
  if ('ok' in o) throw new Error(`refused: ${(o as Refusal).reason} ${(o as Refusal).detail}`);
  return o as Outcome;
}

describe('status levels (Combat Effects and Rallying)', () => {
  it('walks OK → Disordered → Demoralized, then a base a level; destroyed at a full half of the starting bases', () => {
    // "an unit with an OK Status Level which goes down two levels will have a new Status Level of 'Demoralized'"
    expect(loseLevels({ status: 'ok', basesLost: 0, startingBases: 6 }, 2)).toMatchObject({ status: 'demoralized', basesLost: 0, destroyed: false });
    // "When a Demoralized unit loses two Status Levels, it loses two bases."
    expect(loseLevels({ status: 'demoralized', basesLost: 0, startingBases: 6 }, 2)).toMatchObject({ status: 'demoralized', basesLost: 2, newBasesLost: 2, destroyed: false });
    // "Any time a unit has lost a full half or more of its starting number of bases, it is immediately destroyed."
    expect(loseLevels({ status: 'demoralized', basesLost: 2, startingBases: 6 }, 1)).toMatchObject({ basesLost: 3, destroyed: true });
    expect(loseLevels({ status: 'demoralized', basesLost: 0, startingBases: 3 }, 1)).toMatchObject({ basesLost: 1, destroyed: false });
    expect(loseLevels({ status: 'ok', basesLost: 0, startingBases: 3 }, 'destroyed')).toMatchObject({ basesLost: 3, destroyed: true });
    // Regroup: "by one (from Disordered to OK or Demoralized to Disordered) or by two (Demoralized or Disordered to OK)".
    expect([regroupLevels('disordered', 1), regroupLevels('demoralized', 1), regroupLevels('demoralized', 2), regroupLevels('disordered', 2)]).toEqual(['ok', 'disordered', 'ok', 'ok']);
  });
});

describe('fire after the roll (Calculating Fire and Combat Outcomes Using Dice)', () => {
  // T: one base 8" in front of A, facing it (musket range 12", Fire).
  const state = scene([a(), e('t', 1, 36, 18 + D, 270)]);
  const fire = (choices: PendingAction['choices'] = { 'firer-modifier': 0 }): PendingAction => ({ kind: 'fire', unitId: 'a', targetUnitId: 't', choices });

  it('asks one d6 a side, opposed, with the modifiers entered from the app; refuses while they are not entered', () => {
    const refused = diceForAction(whileTheDevilRules, state, fire({}));
    expect(refused).toMatchObject({ ok: false, reason: 'fire/modifier-not-entered' });
    expect((refused as Refusal).detail).toMatch(/modifier-fire-target-badly-outnumbered/);
    const withParams = scene([a(), e('t', 1, 36, 18 + D, 270)], { 'modifier-fire-target-badly-outnumbered': 1 });
    expect(diceForAction(whileTheDevilRules, withParams, fire({}))).toEqual([
      expect.objectContaining({ id: 'firer', count: 1, sides: 6, modifier: 1 }),
      expect.objectContaining({ id: 'target', count: 1, sides: 6, modifier: 0 }),
    ]);
    expect(whileTheDevilRules.resolution!.dice).toMatchObject({ sides: 6, styles: ['opposed'] });
  });

  it('equal or the target higher: no effect; 1-3 one level; 4-5 two; 6-7 three; 8+ destroyed', () => {
    expect(outcome(state, fire(), { firer: [3], target: [3] })).toMatchObject({ result: 'No effect', effects: [] });
    expect(outcome(state, fire(), { firer: [2], target: [5] })).toMatchObject({ result: 'No effect' });
    const one = outcome(state, fire(), { firer: [5], target: [2] });
    expect(one.result).toBe('1 Status Level');
    expect(status(applyOutcome(state, one), 't')).toEqual({ status: 'disordered', 'bases-lost': 0 });
    const two = outcome(state, fire(), { firer: [6], target: [2] });
    expect(status(applyOutcome(state, two), 't')).toEqual({ status: 'demoralized', 'bases-lost': 0 });
    // 6-7: three levels on a one-base unit: Demoralized, then a base: half of 1 lost, destroyed.
    const three = outcome(state, fire({ 'firer-modifier': 1 }), { firer: [6], target: [1] });
    expect(three.result).toBe('3 Status Levels');
    expect(three.effects[0]).toMatchObject({ unitId: 't', removed: true });
    const eight = outcome(state, fire({ 'firer-modifier': 3 }), { firer: [6], target: [1] });
    expect(eight.result).toBe('automatic destruction');
    const after = applyOutcome(state, eight);
    expect(status(after, 't')).toEqual({ status: 'demoralized', 'bases-lost': 1 });
    expect(evaluateWhileTheDevilRules(after).units['t']!.morale!.state).toBe('destroyed');
  });

  it('combined fire: the firing bases of every unit add up for the force ratio (Fire, "Players may choose to combine fire")', () => {
    const b: WtdrUnitSpec = { ...a(), id: 'b', name: 'B', at: { xIn: 36 + 2 * W + 1, yIn: 10 } };
    const wide = scene([a(), b, e('t', 3, 36 + W, 18 + D, 270)], { 'modifier-fire-actor-outnumbered': -1, 'modifier-fire-target-outnumbered': 1 });
    // Alone: 2 firing v 3 bases, Actor Outnumbered, -1.
    expect(diceForAction(whileTheDevilRules, wide, { kind: 'fire', unitId: 'a', targetUnitId: 't' })).toContainEqual(expect.objectContaining({ id: 'firer', modifier: -1 }));
    // Together: 4 firing v 3, Target Outnumbered, +1.
    const together: PendingAction = { kind: 'fire', unitId: 'a', unitIds: ['a', 'b'], targetUnitId: 't' };
    expect(diceForAction(whileTheDevilRules, wide, together)).toContainEqual(expect.objectContaining({ id: 'firer', modifier: 1 }));
    expect(outcome(wide, together, { firer: [6], target: [2] }).summary).toMatch(/^2 Status Levels: T becomes Demoralized \(fire of A and B\)/);
    // A unit that cannot fire at the target cannot join.
    const far = scene([a(), { ...b, at: { xIn: 70, yIn: 2 } }, e('t', 3, 36 + W, 18 + D, 270)], { 'modifier-fire-actor-outnumbered': -1, 'modifier-fire-target-outnumbered': 1 });
    expect(diceForAction(whileTheDevilRules, far, together)).toMatchObject({ ok: false });
  });

  it('defensive fire: a devastating fire (2 levels) stops the charge an inch short; less, and the melee follows (Charges)', () => {
    const defensive = (faces: Record<string, number[]>, mod = 0) => outcome(state, { kind: 'fire', unitId: 'a', targetUnitId: 't', choices: { defensive: true, 'firer-modifier': mod } }, faces);
    const devastating = defensive({ firer: [6], target: [2] });
    expect(devastating.summary).toMatch(/charge stops an inch short/);
    expect(devastating.followUps).toEqual([]);
    // Three levels (6-7) stop it too: "devastating" read as 2 or more (DEVASTATING_FIRE_READING).
    const three = defensive({ firer: [6], target: [1] }, 1);
    expect([three.result, three.followUps]).toEqual(['3 Status Levels', []]);
    // Rolled once the charger is in contact (the evaluation then refuses ordinary fire): the app's modifier is asked for.
    const contact = scene([a(), e('t', 1, 36, 10.05, 270)]);
    expect(diceForAction(whileTheDevilRules, contact, { kind: 'fire', unitId: 'a', targetUnitId: 't', choices: { defensive: true } })).toMatchObject({ ok: false, reason: 'fire/modifier-not-entered' });
    expect(outcome(contact, { kind: 'fire', unitId: 'a', targetUnitId: 't', choices: { defensive: true, 'firer-modifier': 1 } }, { firer: [5], target: [2] }).result).toBe('2 Status Levels');
    expect(defensive({ firer: [3], target: [2] }).followUps).toEqual([{ kind: 'melee', unitId: 't', targetUnitId: 'a', choices: { charging: true } }]);
  });
});

describe('melee after the roll (Melee; Combat Effects and Rallying)', () => {
  // T (one base) front to front with A (two bases); S, T's friend, beside T touching it: a supporting unit.
  const t = e('t', 1, 36, 10.05, 270);
  const s = e('s', 1, 36 + W + 0.05, 10.05, 270);
  const melee = (choices: PendingAction['choices'] = {}): PendingAction => ({ kind: 'melee', unitId: 'a', targetUnitId: 't', choices: { 'actor-modifier': 0, 'target-modifier': 0, ...choices } });

  it('equal rolls: both sides suffer a single Status Level', () => {
    const state = scene([a(), t]);
    const o = outcome(state, melee(), { actor: [4], target: [4] });
    expect(o.result).toBe('Both sides lose 1 Status Level');
    const after = applyOutcome(state, o);
    expect([status(after, 'a')['status'], status(after, 't')['status']]).toEqual(['disordered', 'disordered']);
  });

  it('the losing side may pass half (rounded down) or less of its levels to supports; the Target takes at least as many', () => {
    const state = scene([a(), t, s]);
    // 6-7: three levels on the Target's side.
    const kept = outcome(state, melee({ 'actor-modifier': 1 }), { actor: [6], target: [1] });
    expect(kept.effects.map((x) => x.unitId)).toEqual(['t']);
    const shared = outcome(state, melee({ 'target-side-shares': 1, 'actor-modifier': 1 }), { actor: [6], target: [1] });
    const after = applyOutcome(state, shared);
    // T: two levels (OK → Demoralized); S: one (OK → Disordered).
    expect([status(after, 't')['status'], status(after, 's')['status']]).toEqual(['demoralized', 'disordered']);
    expect(shared.steps.some((st) => /1 of 3 levels passed to supporting units/.test(st.text))).toBe(true);
    expect(resolveAction(whileTheDevilRules, state, melee({ 'target-side-shares': 2, 'actor-modifier': 1 }), { actor: [6], target: [1] })).toMatchObject({ ok: false, reason: 'melee/shares' });
    // The winner has nothing to share.
    expect(resolveAction(whileTheDevilRules, state, melee({ 'actor-side-shares': 1 }), { actor: [6], target: [1] })).toMatchObject({ ok: false, reason: 'melee/shares' });
  });

  it('a charging Actor that destroys its Target must occupy the space it vacated; with another enemy in contact it may not', () => {
    const state = scene([a(), t]);
    const o = outcome(state, melee({ charging: true, 'actor-modifier': 3 }), { actor: [6], target: [1] });
    const actorEffect = o.effects.find((x) => x.unitId === 'a')!;
    expect(actorEffect.move).toMatchObject({ kind: 'advance' });
    expect(actorEffect.move!.path).toHaveLength(2);
    // Not charging: optional, a step only.
    const ongoing = outcome(state, melee({ 'actor-modifier': 3 }), { actor: [6], target: [1] });
    expect(ongoing.effects.some((x) => x.move)).toBe(false);
    expect(ongoing.steps.some((st) => /optional/.test(st.text))).toBe(true);
  });

  it('refuses a melee between units not in contact', () => {
    expect(diceForAction(whileTheDevilRules, scene([a(), e('t', 1, 36, 14, 270)]), melee())).toMatchObject({ ok: false, reason: 'melee/not-in-contact' });
  });
});

describe('regroup, sacking a camp and army morale', () => {
  it('Regroup takes the app\'s result; in an ongoing combat only with a Leader, and the Melee follows', () => {
    const demoralized = a({ status: { rulesetStatus: { status: 'demoralized' } } });
    const state = scene([demoralized, e('t', 1, 36, 30, 270)]);
    expect(diceForAction(whileTheDevilRules, state, { kind: 'regroup', unitId: 'a' })).toMatchObject({ ok: false, reason: 'regroup/app-result-needed' });
    const one = outcome(state, { kind: 'regroup', unitId: 'a', choices: { 'app-result': 'one-level' } }, {});
    expect(status(applyOutcome(state, one), 'a')['status']).toBe('disordered');
    const two = outcome(state, { kind: 'regroup', unitId: 'a', choices: { 'app-result': 'two-levels' } }, {});
    expect(applyOutcome(state, two).units.find((u) => u.id === 'a')!.status).toMatchObject({ rulesetStatus: { status: 'ok' } });
    expect(outcome(state, { kind: 'regroup', unitId: 'a', choices: { 'app-result': 'failed' } }, {}).effects).toEqual([]);
    const inCombat = scene([demoralized, e('t', 1, 36, 10.05, 270)]);
    expect(diceForAction(whileTheDevilRules, inCombat, { kind: 'regroup', unitId: 'a', choices: { 'app-result': 'failed' } })).toMatchObject({ ok: false, reason: 'regroup/in-combat-without-leader' });
    const led: TableState = { ...inCombat, units: inCombat.units.map((u) => (u.id === 'a' ? { ...u, status: { ...u.status, attachedCommanderId: 'gustav' } } : u)), commanders: [{ id: 'gustav', name: 'Gustav', side: 'x', brigadeId: 'foot', quality: 'superb', attachedToUnitId: 'a' }] };
    expect(outcome(led, { kind: 'regroup', unitId: 'a', choices: { 'app-result': 'failed' } }, {}).followUps).toEqual([{ kind: 'melee', unitId: 'a', targetUnitId: 't' }]);
  });

  it('sacking a camp: the sackers become Disordered (Demoralized if already), no base losses, and 6 points go on the break point', () => {
    const camp: WtdrUnitSpec = { id: 'camp', name: 'Swedish camp', side: 'x', troopType: 'camp', slots: row(WTDR_BASES.artillery, 1), at: { xIn: 60, yIn: 10 }, headingDeg: 90 };
    const raider = e('r', 1, 60, 10.05, 270, { status: { rulesetStatus: { status: 'disordered' } } });
    const state = scene([a(), camp, raider, e('q', 2, 10, 40, 270)]);
    expect(whileTheDevilRules.resolution!.offered(state, evaluateWhileTheDevilRules(state), 'camp')).toContainEqual({ kind: 'sack-camp', unitId: 'camp' });
    const o = outcome(state, { kind: 'sack-camp', unitId: 'camp' }, {});
    const after = applyOutcome(state, o);
    expect(status(after, 'camp')).toEqual({ 'camp-sacked': true });
    expect(status(after, 'r')).toEqual({ status: 'demoralized', 'bases-lost': 0 });
    // Side x: 2 + 1 (camp) bases = break point 3; the sacked camp's 6 points break it.
    const morale = outcome(after, { kind: 'army-morale' }, {});
    expect(morale.result).toBe('x broken: the battle is lost');
    expect(morale.steps[0]!.text).toBe('x: 6 points toward a break point of 3 (3 bases, camp counted, typical quality): broken');
    expect(diceForAction(whileTheDevilRules, after, { kind: 'sack-camp', unitId: 'camp' })).toMatchObject({ ok: false, reason: 'sack/already-sacked' });
    // Both armies broken in the same turn: a draw.
    const both = { ...after, units: after.units.map((u) => (u.side === 'y' ? { ...u, status: { rulesetStatus: { status: 'demoralized' } } } : u)) };
    expect(outcome(both, { kind: 'army-morale' }, {}).result).toBe('Both armies broken: a draw');
  });
});
