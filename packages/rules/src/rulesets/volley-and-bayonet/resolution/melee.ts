/**
 * A charge after the roll, in the order of the turn (Sequence of Play, p. 1): the fence check of mounted
 * chargers (Fences and Hedges, p. 3), both sides' morale checks in the morale sub-phase (Morale, p. 4; Native
 * American Morale, p. 4; Breakthroughs, p. 4), then the melee in the combat sub-phase (Combat, Saves, Melee
 * Results, p. 5) and its roll-off when the hits are equal. Each reads the charge as the evaluation answers it
 * (`MeleeSetup`, from the charge pair query on this state).
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, ForcedMove, Outcome, PendingAction } from '../../../engine/resolve/resolution.ts';
import { straightPath } from '../../../engine/resolve/forcedMovePath.ts';
import { vectorToHeadingDeg } from '../../../geometry/angles.ts';
import type { TableState } from '../../../model/tableState.ts';
import type { PointIn } from '../../../model/units.ts';
import type { MeleeSetup, MeleeSide } from '../charge.ts';
import type { VbContext, VbStand, VbUnit } from '../context.ts';
import { SKIRMISH_STATUS } from '../declarations.ts';
import { chargePairAt, joinedMeleeAt } from '../queries.ts';
import { standRate } from '../movement/standMovement.ts';
import {
  ATTACK_DICE_SOURCE,
  FENCE_CHECK_POORLY_TRAINED_MOD,
  FENCE_CHECK_SOURCE,
  HIT_NUMBERS_SOURCE,
  MELEE_RESULTS_SOURCE,
  NATIVE_AMERICAN_SOURCE,
  NATIVE_RIDDEN_DOWN_MOVE_IN,
  VICTOR_STOP_SHORT_IN,
} from '../tables/combat.ts';
import { MORALE_SOURCE } from '../tables/morale.ts';
import { cite } from '../tables/source.ts';
import { exhaustionAfterHits } from './brigades.ts';
import { OutcomeLedger } from './ledger.ts';
import { centreOf, suffer, type LossResult } from './losses.ts';
import { hitsAfterSaves, saveRequests } from './saves.ts';

const BREAKTHROUGH_SOURCE = cite('Breakthroughs', 4);

/** What a melee resolution gives back to the rule set's `resolve` (which adds the id, the action and the rolls). */
export type MeleeOutcome = Omit<Outcome, 'rulesetId' | 'action' | 'rolls'>;

export interface MeleeAt {
  readonly attacker: VbUnit;
  readonly defender: VbUnit;
  readonly melee: MeleeSetup;
  /** The charge's distance, inches (front edge to the target). */
  readonly distanceIn: number;
}

/**
 * The charge of `action.unitId` at `action.targetUnitId` on this table, or why there is none. `joined`: a
 * melee already fought to a tie, read as if no brigade were exhausted (its hits may have exhausted one).
 */
export function meleeAt(ctx: VbContext, action: PendingAction, joined = false): MeleeAt | Refusal {
  const attacker = ctx.units.get(action.unitId!)!;
  const defender = ctx.units.get(action.targetUnitId!)!;
  if (attacker.unit.side === defender.unit.side) return { ok: false, reason: 'charge/same-side', detail: `${attacker.unit.name} and ${defender.unit.name} are on the same side` };
  const pair = joined ? joinedMeleeAt(ctx, attacker.unit.id, defender.unit.id) : chargePairAt(ctx, attacker.unit.id, defender.unit.id);
  if (!pair) return { ok: false, reason: 'charge/out-of-reach', detail: `${defender.unit.name}: no stand of ${attacker.unit.name} comes near enough to charge it` };
  if (!pair.entry.ok) return { ok: false, reason: pair.entry.reason, detail: pair.entry.detail ?? '' };
  return { attacker, defender, melee: pair.melee!, distanceIn: pair.entry.distanceIn };
}

const standsOf = (info: VbUnit, ids: readonly string[]): VbStand[] => info.combatStands.filter((s) => ids.includes(s.stand.id));

/** The fence check (Fences and Hedges, p. 3): a d6 per mounted stand crossing, less than its morale (poorly trained +1) avoids disorder. */
export function fenceDice(m: MeleeAt): DiceRequest[] | Refusal {
  const { attacker, melee } = m;
  if (melee.fenceCheckStandIds.length === 0) {
    const why = melee.fences.length === 0 ? 'no mounted stand of it crosses a fence to reach the enemy' : 'it is already disordered: disordered stands do not check for crossing a fence';
    return { ok: false, reason: 'fence/no-check', detail: `${attacker.unit.name}: ${why} (${FENCE_CHECK_SOURCE})` };
  }
  if (attacker.morale === undefined) return { ok: false, reason: 'unit/no-morale', detail: `${attacker.unit.name} has no morale rating` };
  const mod = attacker.poorlyTrained ? FENCE_CHECK_POORLY_TRAINED_MOD : 0;
  const passOn = attacker.morale - 1 - mod;
  return [{
    id: 'fence',
    label: `${attacker.unit.name} at ${melee.fences.join(', ')}: a d6 per stand (${melee.fenceCheckStandIds.join(', ')})${mod ? ` +${mod} poorly trained` : ''} less than morale ${attacker.morale}: passes on ${passOn} or less`,
    count: melee.fenceCheckStandIds.length,
    sides: 6,
    reading: 'under',
    target: passOn,
    source: FENCE_CHECK_SOURCE,
  }];
}

/** Reading: the unit takes the disorder marker when any of its checking stands fails (markers are the unit's). */
export function resolveFence(m: MeleeAt, requests: readonly DiceRequest[], faces: DiceFaces): MeleeOutcome {
  const r = requests[0]!;
  const rolled = faces.fence!;
  const failed = rolled.filter((f) => f > r.target!).length;
  const ledger = new OutcomeLedger();
  ledger.step(`Fence check: ${rolled.join(', ')} against ${r.target} or less: ${failed === 0 ? 'every stand passes' : `${failed} fail${failed === 1 ? 's' : ''}`}`, FENCE_CHECK_SOURCE);
  if (failed > 0) {
    ledger.disorder(m.attacker);
    ledger.say(m.attacker, 'disordered crossing the fence (before its morale check to enter melee)', FENCE_CHECK_SOURCE);
  }
  return {
    result: failed > 0 ? 'Disordered' : 'Pass',
    summary: failed > 0 ? `${m.attacker.unit.name} is disordered crossing the fence.` : `${m.attacker.unit.name} crosses the fence in order.`,
    steps: ledger.steps,
    effects: ledger.effects(),
    followUps: [{ kind: 'melee-morale', unitId: m.attacker.unit.id, targetUnitId: m.defender.unit.id }],
  };
}

function checkRequest(id: string, who: string, info: VbUnit, side: MeleeSide, count: number): DiceRequest {
  return { id, label: `${who} ${info.unit.name}: morale check, passes on ${side.checkOn} or less`, count, sides: 6, reading: 'under', target: side.checkOn!, source: MORALE_SOURCE };
}

/** Both sides' morale checks before the melee (Morale, p. 4: "They are about to engage in melee"). */
export function meleeMoraleDice(m: MeleeAt): DiceRequest[] | Refusal {
  const { attacker, defender, melee } = m;
  for (const [info, side] of [[attacker, melee.attacker], [defender, melee.defender]] as const) {
    if (side.checkOn === undefined) return { ok: false, reason: 'unit/no-morale', detail: `${info.unit.name} has no morale rating` };
  }
  // A disordered band attacked by mounted troops is eliminated without a check.
  return [checkRequest('attacker', 'Attacker', attacker, melee.attacker, 1), checkRequest('defender', 'Defender', defender, melee.defender, melee.nativeRiddenDown ? 0 : 1)];
}

/** A move of `distanceIn` from the unit's stands' centre toward `to` (stopped at the table edge). */
function moveToward(state: TableState, from: PointIn, to: PointIn, distanceIn: number, kind: ForcedMove['kind'], text: string, source: string): ForcedMove {
  const heading = vectorToHeadingDeg(to.xIn - from.xIn, to.yIn - from.yIn);
  const p = straightPath(state, from, heading, distanceIn);
  return { kind, distanceIn, path: p.path, endHeadingDeg: heading, ...(p.leavesTable ? { leavesTable: true } : {}), text, source };
}

export function resolveMeleeMorale(ctx: VbContext, state: TableState, m: MeleeAt, faces: DiceFaces): MeleeOutcome {
  const { attacker, defender, melee } = m;
  const ledger = new OutcomeLedger();
  const attStands = standsOf(attacker, melee.attacker.standIds);
  const defStands = standsOf(defender, melee.defender.standIds);
  const attCentre = centreOf(attStands);
  const defCentre = centreOf(defStands);
  const attFace = faces.attacker![0]!;
  const attPass = attFace <= melee.attacker.checkOn!;
  ledger.step(`Attacker ${attacker.unit.name} rolls ${attFace} against ${melee.attacker.checkOn}: ${attPass ? 'passes' : 'fails'}`, MORALE_SOURCE);
  let attackerGoesOn = true;
  let attResult: LossResult | 'stopped' | 'pass' = 'pass';
  if (!attPass) {
    if (attacker.abilities.has('NA')) {
      // Native American Morale (p. 4): not disordered; they stop halfway and deploy as skirmishers.
      attResult = 'stopped';
      attackerGoesOn = false;
      ledger.set(attacker, SKIRMISH_STATUS.id, true);
      ledger.move(attacker, moveToward(state, attCentre, defCentre, m.distanceIn / 2, 'advance', 'stops halfway to its target and deploys as skirmishers (it may fire)', NATIVE_AMERICAN_SOURCE));
      ledger.say(attacker, 'fails: not disordered, stops halfway to its target and deploys as skirmishers; no melee (it may still fire)', NATIVE_AMERICAN_SOURCE);
    } else {
      attResult = suffer(ctx, state, ledger, attacker, 'morale', defCentre, melee.attacker.checkStandId);
      if (attResult === 'disordered') ledger.say(attacker, 'goes on with its charge: the melee is fought in the following sub-phase', MORALE_SOURCE);
      else attackerGoesOn = false;
    }
  }
  let defenderStays = true;
  let defResult: LossResult | 'eliminated' | 'pass' = 'pass';
  if (melee.nativeRiddenDown) {
    ledger.step(`Defender ${defender.unit.name}: disordered Native Americans attacked by mounted troops, no check`, NATIVE_AMERICAN_SOURCE);
  } else {
    const defFace = faces.defender![0]!;
    const defPass = defFace <= melee.defender.checkOn!;
    ledger.step(`Defender ${defender.unit.name} rolls ${defFace} against ${melee.defender.checkOn}: ${defPass ? 'passes' : 'fails'}`, MORALE_SOURCE);
    if (!defPass) {
      if (melee.nativeRidden && attackerGoesOn) defResult = 'eliminated';
      else {
        defResult = suffer(ctx, state, ledger, defender, 'morale', attCentre, melee.defender.checkStandId);
        if (defResult !== 'disordered') defenderStays = false;
      }
    }
  }
  if (melee.nativeRiddenDown && attackerGoesOn) defResult = 'eliminated';
  if (defResult === 'eliminated') {
    defenderStays = false;
    ledger.remove(defender);
    ledger.say(defender, 'disordered Native Americans attacked by mounted troops: eliminated and removed from play', NATIVE_AMERICAN_SOURCE);
    // "This does count as a cavalry breakthrough move ... move up to 12, but are considered as disordered at the end".
    ledger.disorder(attacker);
    ledger.move(attacker, moveToward(state, attCentre, defCentre, NATIVE_RIDDEN_DOWN_MOVE_IN, 'breakthrough', `may change facing and move up to ${NATIVE_RIDDEN_DOWN_MOVE_IN}" (a cavalry breakthrough); disordered at the end of the move`, NATIVE_AMERICAN_SOURCE));
    ledger.say(attacker, `rides the band down: may change facing and move up to ${NATIVE_RIDDEN_DOWN_MOVE_IN}", disordered at the end of its move`, NATIVE_AMERICAN_SOURCE);
  } else if (!defenderStays && attackerGoesOn) {
    // Breakthroughs (p. 4): its target routed in the morale check.
    const rate = attStands[0] ? standRate(ctx, attacker, attStands[0]) : undefined;
    const half = rate && 'rateIn' in rate ? rate.rateIn / 2 : undefined;
    const to = Math.hypot(defCentre.xIn - attCentre.xIn, defCentre.yIn - attCentre.yIn);
    ledger.move(attacker, moveToward(state, attCentre, defCentre, to, 'breakthrough', 'may occupy the enemy position and face as it wishes (and fire in the following combat sub-phase)', BREAKTHROUGH_SOURCE));
    ledger.say(
      attacker,
      `breakthrough: may occupy the enemy position and face as it wishes (firing next combat sub-phase), or face and move up to one half turn${half !== undefined ? ` (${half}")` : ''} toward a visible enemy unit and attempt to melee it (morale checks as before)${attacker.poorlyTrained ? '; poorly trained: a breakthrough move disorders it' : ''}; any further breakthrough move disorders it`,
      BREAKTHROUGH_SOURCE,
    );
  }
  const followUps: PendingAction[] = attackerGoesOn && defenderStays ? [{ kind: 'melee', unitId: attacker.unit.id, targetUnitId: defender.unit.id }] : [];
  const words: Record<string, string> = { pass: 'passes', disordered: 'disordered', routed: 'routs', removed: 'removed', stopped: 'stops and deploys as skirmishers', eliminated: 'eliminated' };
  return {
    result: `Attacker ${words[attResult]}, defender ${words[defResult]}`,
    summary: `${attacker.unit.name} ${words[attResult]}; ${defender.unit.name} ${words[defResult]}.${followUps.length > 0 ? ' The melee is fought in the combat sub-phase.' : ' No melee.'}`,
    steps: ledger.steps,
    effects: ledger.effects(),
    followUps,
  };
}

/** The melee's dice: each side's attack dice at its hit number, and its saves against the other's hits. */
export function meleeDice(state: TableState, m: MeleeAt): DiceRequest[] | Refusal {
  const { attacker, defender, melee } = m;
  if (melee.nativeRiddenDown) return { ok: false, reason: 'melee/ridden-down', detail: `${defender.unit.name}: disordered Native Americans attacked by mounted troops are eliminated, no melee is fought (${NATIVE_AMERICAN_SOURCE})` };
  const out: DiceRequest[] = [];
  for (const [id, info, side] of [['attacker', attacker, melee.attacker], ['defender', defender, melee.defender]] as const) {
    if (side.dice > 0 && side.hitOn === undefined) return { ok: false, reason: 'parameter/missing', detail: `${info.unit.name}: the melee hit number of mounted stands is not entered: set the parameter mounted-melee-hit-number` };
    out.push({ id, label: `${id === 'attacker' ? 'Attacker' : 'Defender'} ${info.unit.name}: ${side.dice} d6, hits on ${side.hitOn ?? '-'}+`, count: side.dice, sides: 6, reading: 'hits', hitOn: side.hitOn ?? 7, source: `${ATTACK_DICE_SOURCE}; ${HIT_NUMBERS_SOURCE}` });
  }
  const defSaves = saveRequests(state, 'defender-', `Defender ${defender.unit.name}`, melee.defender.saves, melee.attacker.dice);
  if (!Array.isArray(defSaves)) return defSaves;
  const attSaves = saveRequests(state, 'attacker-', `Attacker ${attacker.unit.name}`, melee.attacker.saves, melee.defender.dice);
  if (!Array.isArray(attSaves)) return attSaves;
  return [...out, ...defSaves, ...attSaves];
}

/**
 * The SP a side has engaged: the unit's strength points left, shared out over its combat stands by the stands
 * engaged, rounded up (a reading: strength points are the unit's, not each stand's). Undefined without them.
 */
function spEngaged(info: VbUnit, side: MeleeSide): number | undefined {
  if (info.strengthPoints === undefined || info.combatStands.length === 0) return undefined;
  return Math.ceil((Math.max(0, info.strengthPoints - info.spLost) * side.standIds.length) / info.combatStands.length);
}

/** The winner's option and the loser's fate (Melee Results, p. 5). */
function settle(ctx: VbContext, state: TableState, ledger: OutcomeLedger, m: MeleeAt, winner: 'attacker' | 'defender'): void {
  const { attacker, defender, melee } = m;
  const [win, lose, winSide, loseSide] = winner === 'attacker' ? [attacker, defender, melee.attacker, melee.defender] : [defender, attacker, melee.defender, melee.attacker];
  const winStands = standsOf(win, winSide.standIds);
  const loseStands = standsOf(lose, loseSide.standIds);
  ledger.step(`${win.unit.name} wins the melee; ${lose.unit.name} loses`, MELEE_RESULTS_SOURCE);
  suffer(ctx, state, ledger, lose, 'melee', centreOf(winStands), loseSide.checkStandId);
  // "If the attacker wins, any and/or all attacking stands involved ... may advance to occupy the abandoned ground
  // and/or make a facing change. Defending cavalry which wins a melee may exercise the same options."
  if (winner === 'attacker' || win.category === 'cavalry') {
    const from = centreOf(winStands);
    const to = centreOf(loseStands);
    const d = Math.hypot(to.xIn - from.xIn, to.yIn - from.yIn);
    if (!ledger.removed(win.unit.id) && d > 1e-9) {
      ledger.move(win, moveToward(state, from, to, d, 'advance', `may advance to occupy the abandoned ground and/or change facing; it may not contact an enemy stand and stops ${VICTOR_STOP_SHORT_IN}" from one`, MELEE_RESULTS_SOURCE));
      ledger.say(win, `wins: may advance to occupy the abandoned ground and/or change facing, stopping ${VICTOR_STOP_SHORT_IN}" short of any enemy stand`, MELEE_RESULTS_SOURCE);
    }
  }
}

/** Units with no strength points left leave play (a reading: a unit is its strength points). */
function removeSpent(ledger: OutcomeLedger, units: readonly VbUnit[]): void {
  for (const u of units) {
    if (u.strengthPoints !== undefined && ledger.spLost(u) >= u.strengthPoints && !ledger.removed(u.unit.id)) {
      ledger.remove(u);
      ledger.say(u, 'no strength points left: removed from play', MELEE_RESULTS_SOURCE);
    }
  }
}

export function resolveMelee(ctx: VbContext, state: TableState, m: MeleeAt, requests: readonly DiceRequest[], faces: DiceFaces): MeleeOutcome {
  const { attacker, defender, melee } = m;
  const ledger = new OutcomeLedger();
  const hitsOf = (id: 'attacker' | 'defender'): number => (faces[id] ?? []).filter((f) => f >= requests.find((r) => r.id === id)!.hitOn!).length;
  const attScored = hitsOf('attacker');
  const defScored = hitsOf('defender');
  ledger.step(`${attacker.unit.name} scores ${attScored} hit${attScored === 1 ? '' : 's'}, ${defender.unit.name} ${defScored}`, HIT_NUMBERS_SOURCE);
  const onDefender = hitsAfterSaves(requests, 'defender-', faces, attScored, ledger.steps, defender.unit.name);
  const onAttacker = hitsAfterSaves(requests, 'attacker-', faces, defScored, ledger.steps, attacker.unit.name);
  if (onDefender > 0) {
    ledger.loseSp(defender, onDefender, true);
    ledger.say(defender, `takes ${onDefender} hit${onDefender === 1 ? '' : 's'} (${onDefender} SP)`, MELEE_RESULTS_SOURCE);
  }
  if (onAttacker > 0) {
    ledger.loseSp(attacker, onAttacker, true);
    ledger.say(attacker, `takes ${onAttacker} hit${onAttacker === 1 ? '' : 's'} (${onAttacker} SP)`, MELEE_RESULTS_SOURCE);
  }
  const attEngaged = spEngaged(attacker, melee.attacker);
  const defEngaged = spEngaged(defender, melee.defender);
  const attAll = attEngaged !== undefined && onAttacker >= attEngaged;
  const defAll = defEngaged !== undefined && onDefender >= defEngaged;
  let winner: 'attacker' | 'defender' | undefined;
  if (attAll !== defAll) {
    winner = attAll ? 'defender' : 'attacker';
    ledger.step(`${attAll ? attacker.unit.name : defender.unit.name} loses all ${attAll ? attEngaged : defEngaged} SP engaged: it has lost the melee`, MELEE_RESULTS_SOURCE);
  } else if (onDefender !== onAttacker) winner = onDefender > onAttacker ? 'attacker' : 'defender';
  const followUps: PendingAction[] = [];
  if (winner) settle(ctx, state, ledger, m, winner);
  else {
    ledger.step(`Equal hits (${onDefender} each): a roll-off, each side's best modified morale added to a die`, MELEE_RESULTS_SOURCE);
    followUps.push({ kind: 'melee-roll-off', unitId: attacker.unit.id, targetUnitId: defender.unit.id });
  }
  removeSpent(ledger, [attacker, defender]);
  followUps.push(...exhaustionAfterHits(ctx, ledger, [attacker, defender].filter((u) => (u === attacker ? onAttacker : onDefender) > 0)));
  return {
    result: winner ? (winner === 'attacker' ? 'Attacker wins' : 'Defender wins') : 'Tie: roll off',
    summary: `${attacker.unit.name} inflicts ${onDefender} hit${onDefender === 1 ? '' : 's'}, ${defender.unit.name} ${onAttacker}: ${winner ? `${winner === 'attacker' ? attacker.unit.name : defender.unit.name} wins.` : 'a roll-off decides.'}`,
    steps: ledger.steps,
    effects: ledger.effects(),
    followUps,
  };
}

/** The roll-off of a tied melee: a d6 plus each side's best modified morale, no elites 1 less; the higher wins. */
export function rollOffDice(m: MeleeAt): DiceRequest[] | Refusal {
  const out: DiceRequest[] = [];
  for (const [id, info, side] of [['attacker', m.attacker, m.melee.attacker], ['defender', m.defender, m.melee.defender]] as const) {
    if (side.tieBonus === undefined) return { ok: false, reason: 'unit/no-morale', detail: `${info.unit.name} has no morale rating` };
    out.push({ id, label: `${id === 'attacker' ? 'Attacker' : 'Defender'} ${info.unit.name}: a d6 + ${side.tieBonus} (best modified morale${info.abilities.has('NE') ? ', no elites -1' : ''})`, count: 1, sides: 6, reading: 'total', modifier: side.tieBonus, source: MELEE_RESULTS_SOURCE });
  }
  return out;
}

/** Reading: equal totals in the roll-off are rolled off again (the text names only "the high side"). */
export function resolveRollOff(ctx: VbContext, state: TableState, m: MeleeAt, faces: DiceFaces): MeleeOutcome {
  const a = faces.attacker![0]! + m.melee.attacker.tieBonus!;
  const d = faces.defender![0]! + m.melee.defender.tieBonus!;
  const ledger = new OutcomeLedger();
  ledger.step(`Roll-off: ${m.attacker.unit.name} ${a}, ${m.defender.unit.name} ${d}`, MELEE_RESULTS_SOURCE);
  if (a === d) {
    return { result: 'Tie: roll off again', summary: `The roll-off is tied at ${a}: roll off again.`, steps: ledger.steps, effects: [], followUps: [{ kind: 'melee-roll-off', unitId: m.attacker.unit.id, targetUnitId: m.defender.unit.id }] };
  }
  const winner = a > d ? 'attacker' : 'defender';
  settle(ctx, state, ledger, m, winner);
  return {
    result: winner === 'attacker' ? 'Attacker wins' : 'Defender wins',
    summary: `${winner === 'attacker' ? m.attacker.unit.name : m.defender.unit.name} wins the roll-off ${Math.max(a, d)} to ${Math.min(a, d)}.`,
    steps: ledger.steps,
    effects: ledger.effects(),
    followUps: [],
  };
}
