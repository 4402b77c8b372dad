/**
 * While the Devil Rules after the roll (engine/resolve/resolution.ts). The guide's dice are opposed d6: "The
 * actor ... and the target ... will each roll a six-sided die, and apply the modifiers indicated by the app"
 * (Using the Game App), and the difference is read on "Calculating Fire and Combat Outcomes Using Dice"
 * (Combat Effects and Rallying). Kinds:
 *
 * - `fire`: a Fire action at one target (or the defensive fire of a charged unit, `defensive`: a devastating
 *   fire, 2 status levels, stops the charge an inch short; otherwise the melee follows).
 * - `melee`: a Melee between an Actor and a Target in contact (`charging` after a Charge). A tie costs both one
 *   level; the side losing levels may pass half (rounded down) or less to its supporting units
 *   (`actor-side-shares` / `target-side-shares`), never more to one than its Actor or Target takes. A Target
 *   destroyed by a charging Actor is followed into its space when no other enemy touches the Actor.
 * - `regroup`: the app decides success (the guide gives no roll): `app-result` failed / one / two levels.
 *   In an ongoing combat only with a Leader attached, and the Melee follows at once.
 * - `sack-camp`: a camp touched by an enemy unit in contact with no other enemy is destroyed; the sacking
 *   units become Disordered (Demoralized if already Disordered), no base losses.
 * - `army-morale`: the end-of-turn check of each army's points against its break point (camp counted).
 *
 * Modifiers are the evaluation's (`modifier-*` parameters, entered from the app); a roll whose modifiers are
 * not all entered is refused unless the players give the app's net modifiers as choices.
 */
import type { Evaluation, Refusal } from '../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, ForcedMove, Outcome, OutcomeEffect, OutcomeStep, PendingAction, ResolutionKindSpec, RulesetResolution, StatusPatch } from '../../engine/resolve/resolution.ts';
import { readRolls } from '../../engine/resolve/readDice.ts';
import type { DiceBreakdown } from '../../engine/evaluation.ts';
import type { TableState } from '../../model/tableState.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { buildContext, evaluateWhileTheDevilRules, WTDR_RULESET_ID } from './evaluate.ts';
import { CONTACT_IN, engagedWith, type UnitInfo, type WtdrContext } from './context.ts';
import { evaluateMelees, type MeleeReading } from './melee.ts';
import { campSackers, evaluateArmies, isCamp, campSacked } from './morale.ts';
import { modifierParamSpec } from './declarations.ts';
import { FORCE_RATIO_LABELS, forceRatio, type ForceRatio } from './tables/fireTables.ts';
import { DEVASTATING_FIRE_LEVELS, fireOutcome, isDevastatingFire, meleeOutcome, OUTCOME_SOURCE } from './tables/outcomeTables.ts';
import { ARMY_MORALE_SOURCE, STATUS_SOURCE } from './tables/moraleTables.ts';
import { loseLevels, lossText, regroupLevels, type AfterLoss, type LiveStatus, type UnitCondition } from './statusLevels.ts';

const DICE = 'Using the Game App ("each roll a six-sided die, and apply the modifiers indicated by the app")';
const CHARGES = 'Combat (Charges and Melee): Charges';
const MELEE = 'Combat (Charges and Melee): Melee';
const REGROUP = 'Actions (Rest/Regroup)';
const FIRE = 'Fire';

/**
 * "a difference of 8 or more results in automatic destruction of the target unit" (Melee): read as the side
 * that scored lower, as every other line of the melee table is; 'target' would destroy the Target whoever won.
 */
export const MELEE_EIGHT_DESTROYS: 'lower-side' | 'target' = 'lower-side';

const MODIFIERS = Array.from({ length: 21 }, (_, i) => i - 10);
const SHARES = [0, 1, 2, 3];

export const WTDR_RESOLUTION_KINDS: readonly ResolutionKindSpec[] = [
  { kind: 'fire', label: 'Fire (unitIds: more units combining their fire)', needs: ['unitId', 'targetUnitId'], choices: { defensive: [true, false], 'firer-modifier': MODIFIERS, 'target-modifier': MODIFIERS }, source: `Fire; ${OUTCOME_SOURCE}` },
  {
    kind: 'melee',
    label: 'Melee',
    needs: ['unitId', 'targetUnitId'],
    choices: { charging: [true, false], 'actor-modifier': MODIFIERS, 'target-modifier': MODIFIERS, 'actor-side-shares': SHARES, 'target-side-shares': SHARES },
    source: `${MELEE}; ${OUTCOME_SOURCE}`,
  },
  { kind: 'regroup', label: 'Regroup', needs: ['unitId'], choices: { 'app-result': ['failed', 'one-level', 'two-levels'] }, source: REGROUP },
  { kind: 'sack-camp', label: 'Sack a camp or baggage train', needs: ['unitId'], source: STATUS_SOURCE },
  { kind: 'army-morale', label: 'Army morale at the end of the turn', needs: [], source: `${ARMY_MORALE_SOURCE}; Turn Sequence (7)` },
];

const refuse = (reason: string, detail: string): Refusal => ({ ok: false, reason, detail });

function info(ctx: WtdrContext, unitId: string | undefined): UnitInfo | undefined {
  return unitId === undefined ? undefined : ctx.units.get(unitId);
}

function condition(u: UnitInfo): UnitCondition {
  return { status: u.status === 'destroyed' ? 'demoralized' : u.status, basesLost: u.basesLost, startingBases: u.startingBases };
}

/** The parameters a breakdown could not value (their lines say "value not entered: <id>"). */
function notEntered(b: DiceBreakdown): string[] {
  const out: string[] = [];
  for (const m of b.modifiers) {
    const hit = /value not entered: ([a-z0-9-]+)\)/.exec(m.label);
    if (hit) out.push(hit[1]!);
  }
  return out;
}

/** A side's net modifier: the players' choice (the app's figure), else the breakdown's when all of it is entered. */
function netModifier(choice: unknown, breakdown: DiceBreakdown, missing: string[]): number {
  if (typeof choice === 'number') return choice;
  missing.push(...notEntered(breakdown));
  return breakdown.dice;
}

function die(id: string, label: string, modifier: number, source: string): DiceRequest {
  return { id, label, count: 1, sides: 6, reading: 'each', modifier, source };
}

/** The fire option the evaluation gives `firer` at `target`, or its refusal. */
function fireOption(ev: Evaluation, firerId: string, targetId: string) {
  return ev.units[firerId]?.fire.find((f) => f.targetUnitId === targetId);
}

/** Firing bases and the target's bases, as the fire option's force-ratio line gives them ("N firing v M bases"). */
function firingBasesOf(b: DiceBreakdown): { firing: number; target: number } | undefined {
  for (const m of b.modifiers) {
    const hit = /\((\d+) firing v (\d+) bases\)/.exec(m.label);
    if (hit) return { firing: Number(hit[1]), target: Number(hit[2]) };
  }
  return undefined;
}

/**
 * The fire of one unit, or of several combined on one target ("Players may choose to combine fire on a single
 * target which is coming from more than one unit", Fire): every firer must have the target open; the firing
 * bases add up for the force ratio ("the number of firing bases ... compared to the total number of bases in
 * the Target unit"); the rest of the modifiers are those of the most numerous type of firing base, the first
 * listed on a tie ("when there are equal numbers of more than one type, the player may choose"), which also
 * decides whether the firer is disordered.
 */
function firing(ctx: WtdrContext, ev: Evaluation, action: PendingAction): { breakdown: DiceBreakdown; firerIds: string[] } | Refusal {
  const firerIds = [action.unitId!, ...(action.unitIds ?? []).filter((id) => id !== action.unitId)];
  const options: { id: string; breakdown: DiceBreakdown; bases: number }[] = [];
  for (const id of firerIds) {
    const opt = fireOption(ev, id, action.targetUnitId!);
    if (!opt) return refuse('fire/not-a-target', `${action.targetUnitId} is not an enemy of ${id} on the table`);
    if (!opt.ok) {
      // Defensive fire is taken as the charger comes on (Charges), so the table may show it already in
      // contact or not yet in range: the players give the app's modifiers.
      if (action.choices?.['defensive'] === true && options.length === 0 && firerIds.length === 1) {
        const modifiers = [{ label: `Defensive fire as the charge comes on (value not entered: firer-modifier)`, dice: 0, source: CHARGES }];
        return { breakdown: { kind: 'modifier', baseDice: 0, modifiers, dice: 0, limits: [] }, firerIds };
      }
      return refuse(opt.reason, `${ctx.units.get(id)!.unit.name}: ${opt.detail ?? opt.reason}`);
    }
    options.push({ id, breakdown: opt.breakdown, bases: firingBasesOf(opt.breakdown)?.firing ?? 0 });
  }
  if (options.length === 1) return { breakdown: options[0]!.breakdown, firerIds };
  const byType = new Map<string, number>();
  for (const o of options) {
    const type = ctx.units.get(o.id)!.type!.id;
    byType.set(type, (byType.get(type) ?? 0) + o.bases);
  }
  const most = Math.max(...byType.values());
  const primary = options.find((o) => byType.get(ctx.units.get(o.id)!.type!.id) === most)!;
  const total = options.reduce((n, o) => n + o.bases, 0);
  const counts = firingBasesOf(primary.breakdown)!;
  const own = forceRatio(counts.firing, counts.target);
  const combined = forceRatio(total, counts.target);
  const line = (ratio: ForceRatio) => {
    const spec = modifierParamSpec(`fire-${ratio}`);
    const v = ctx.param(spec, 'Combined fire', primary.id);
    return v === undefined ? { label: `${FORCE_RATIO_LABELS[ratio]} (value not entered: ${spec.id})`, dice: 0, source: FIRE } : { label: FORCE_RATIO_LABELS[ratio], dice: v, source: FIRE };
  };
  const ownLine = line(own);
  const combinedLine = { ...line(combined), label: `${line(combined).label} (${total} firing v ${counts.target} bases, combined fire)` };
  const rest = primary.breakdown.modifiers.filter((m) => !/firing v \d+ bases\)/.test(m.label));
  return {
    breakdown: { ...primary.breakdown, modifiers: [combinedLine, ...rest], dice: primary.breakdown.dice - ownLine.dice + combinedLine.dice },
    firerIds: [primary.id, ...firerIds.filter((id) => id !== primary.id)],
  };
}

function meleeReading(ctx: WtdrContext, actorId: string, targetId: string): MeleeReading | undefined {
  return evaluateMelees(ctx).readings.find((r) => r.actorId === actorId && r.targetId === targetId);
}

/** The melee's two breakdowns, with "Actor is Charging" added after a Charge. */
function meleeBreakdowns(ctx: WtdrContext, reading: MeleeReading, charging: boolean): { attacker: DiceBreakdown; defender: DiceBreakdown } {
  if (!charging) return { attacker: reading.attacker, defender: reading.defender };
  const spec = modifierParamSpec('melee-actor-charging');
  const v = ctx.param(spec, 'Melee after a charge', reading.actorId);
  const line = v === undefined ? { label: `Actor is Charging (value not entered: ${spec.id})`, dice: 0, source: CHARGES } : { label: 'Actor is Charging', dice: v, source: CHARGES };
  return { attacker: { ...reading.attacker, modifiers: [...reading.attacker.modifiers, line], dice: reading.attacker.dice + line.dice }, defender: reading.defender };
}

function diceFor(state: TableState, action: PendingAction): readonly DiceRequest[] | Refusal {
  const ctx = buildContext(state);
  const c = action.choices ?? {};
  switch (action.kind) {
    case 'fire': {
      const fire = firing(ctx, evaluateWhileTheDevilRules(state), action);
      if ('ok' in fire) return fire;
      const missing: string[] = [];
      const firer = netModifier(c['firer-modifier'], fire.breakdown, missing);
      const target = typeof c['target-modifier'] === 'number' ? c['target-modifier'] : 0;
      if (missing.length > 0) return refuse('fire/modifier-not-entered', `enter ${[...new Set(missing)].join(', ')} from the app, or give the app's net modifiers as choices firer-modifier and target-modifier`);
      return [die('firer', `Firer (${ctx.units.get(action.unitId!)!.unit.name})`, firer, DICE), die('target', `Target (${ctx.units.get(action.targetUnitId!)!.unit.name})`, target, DICE)];
    }
    case 'melee': {
      const reading = meleeReading(ctx, action.unitId!, action.targetUnitId!);
      if (!reading) return refuse('melee/not-in-contact', `${action.targetUnitId} is not an enemy in contact with the front edge of ${action.unitId} (${MELEE})`);
      const { attacker, defender } = meleeBreakdowns(ctx, reading, c['charging'] === true);
      const missing: string[] = [];
      const a = netModifier(c['actor-modifier'], attacker, missing);
      const d = netModifier(c['target-modifier'], defender, missing);
      if (missing.length > 0) return refuse('melee/modifier-not-entered', `enter ${[...new Set(missing)].join(', ')} from the app, or give the app's net modifiers as choices actor-modifier and target-modifier`);
      return [die('actor', `Actor (${ctx.units.get(action.unitId!)!.unit.name})`, a, DICE), die('target', `Target (${ctx.units.get(action.targetUnitId!)!.unit.name})`, d, DICE)];
    }
    case 'regroup': {
      const u = info(ctx, action.unitId)!;
      if (u.status === 'destroyed') return refuse('regroup/destroyed', `${u.unit.name} is destroyed (${STATUS_SOURCE})`);
      if (engagedWith(ctx, u).length > 0 && u.attachedLeaderId === undefined) {
        return refuse('regroup/in-combat-without-leader', `Regroup actions may be made by units involved in ongoing combats, but only if they have a Leader with them (${REGROUP})`);
      }
      if (c['app-result'] === undefined) return refuse('regroup/app-result-needed', `the app decides a Regroup (the guide gives no roll): give app-result failed, one-level or two-levels (${REGROUP})`);
      return [];
    }
    case 'sack-camp': {
      const camp = info(ctx, action.unitId)!;
      if (!isCamp(camp)) return refuse('sack/not-a-camp', `${camp.unit.name} is not a camp or baggage train (troop type camp)`);
      if (campSacked(camp)) return refuse('sack/already-sacked', `${camp.unit.name} is already sacked`);
      if (campSackers(ctx, camp).length === 0) {
        return refuse('sack/no-sacker', `no enemy unit touches ${camp.unit.name} while in contact with no other enemy ("only if the unit destroying the camp or baggage train is not itself in contact with an enemy unit", ${STATUS_SOURCE})`);
      }
      return [];
    }
    case 'army-morale':
      return [];
    default:
      return refuse('resolve/unknown-kind', action.kind);
  }
}

function statusPatch(after: { status: LiveStatus; basesLost: number }): StatusPatch {
  return { disordered: after.status === 'ok' ? null : true, rulesetStatus: { status: after.status, 'bases-lost': after.basesLost } };
}

function lossEffect(u: UnitInfo, levels: number | 'destroyed', source: string, reason: string): { effect: OutcomeEffect; after: AfterLoss } {
  const before = condition(u);
  const after = loseLevels(before, levels);
  return {
    after,
    effect: {
      unitId: u.unit.id,
      text: `${lossText(u.unit.name, before, after)} (${reason})`,
      source,
      status: statusPatch(after),
      ...(after.destroyed ? { removed: true } : {}),
    },
  };
}

const levelWords = (levels: number | 'destroyed'): string => (levels === 'destroyed' ? 'automatic destruction' : `${levels} Status Level${levels === 1 ? '' : 's'}`);

function resolveFire(ctx: WtdrContext, action: PendingAction, faces: DiceFaces, requests: readonly DiceRequest[]): Outcome {
  const rolls = readRolls(requests, faces);
  const firerIds = [action.unitId!, ...(action.unitIds ?? []).filter((id) => id !== action.unitId)];
  const firer = { unit: { ...ctx.units.get(action.unitId!)!.unit, name: firerIds.map((id) => ctx.units.get(id)!.unit.name).join(' and ') } };
  const target = ctx.units.get(action.targetUnitId!)!;
  const [f, t] = [rolls[0]!.value, rolls[1]!.value];
  const o = fireOutcome(f, t);
  const steps: OutcomeStep[] = [{ text: `${firer.unit.name} ${f} v ${target.unit.name} ${t}: difference ${f - t}`, source: OUTCOME_SOURCE }];
  const effects: OutcomeEffect[] = [];
  const followUps: PendingAction[] = [];
  let summary: string;
  let result: string;
  if (o.who === 'none') {
    result = 'No effect';
    summary = `${firer.unit.name}'s fire has no effect on ${target.unit.name}.`;
    steps.push({ text: 'equal, or the target\'s roll greater: the fire has no effect', source: OUTCOME_SOURCE });
  } else {
    result = levelWords(o.levels);
    steps.push({ text: `a difference of ${f - t} in the firer's favour inflicts ${levelWords(o.levels)}`, source: OUTCOME_SOURCE });
    const { effect, after } = lossEffect(target, o.levels, OUTCOME_SOURCE, `fire of ${firer.unit.name}`);
    effects.push(effect);
    summary = `${result}: ${effect.text}.`;
    if (after.destroyed) steps.push({ text: `${target.unit.name} is removed from play; its bases count as destroyed toward the break point`, source: ARMY_MORALE_SOURCE });
  }
  if (action.choices?.['defensive'] === true) {
    if (isDevastatingFire(o)) {
      steps.push({ text: `a devastating fire (${DEVASTATING_FIRE_LEVELS} Status Levels or more): ${target.unit.name} fails to contact and ends its move an inch short; no Melee follows`, source: CHARGES });
      summary += ` ${target.unit.name}'s charge stops an inch short.`;
    } else {
      followUps.push({ kind: 'melee', unitId: target.unit.id, targetUnitId: firer.unit.id, choices: { charging: true } });
      steps.push({ text: `not a devastating fire: ${target.unit.name} goes on into contact and the Melee follows`, source: CHARGES });
    }
  }
  return { rulesetId: WTDR_RULESET_ID, action, rolls, result, summary, steps, effects, followUps };
}

/** Loss sharing: `levels` on the losing side, `shares` of them passed one at a time to its supports in order. */
function shareLosses(levels: number, shares: number, supports: readonly UnitInfo[]): { main: number; each: Map<string, number> } | string {
  if (shares === 0 || supports.length === 0) return shares === 0 ? { main: levels, each: new Map() } : 'there is no supporting unit on that side to take losses';
  if (shares > Math.floor(levels / 2)) return `at most half (rounded down) of ${levels} levels, ${Math.floor(levels / 2)}, may go to supporting units`;
  const each = new Map<string, number>();
  for (let i = 0; i < shares; i++) {
    const id = supports[i % supports.length]!.unit.id;
    each.set(id, (each.get(id) ?? 0) + 1);
  }
  return { main: levels - shares, each };
}

function sideLosses(ctx: WtdrContext, main: UnitInfo, supportIds: readonly string[], levels: number | 'destroyed', shares: number, reason: string, effects: OutcomeEffect[], steps: OutcomeStep[]): AfterLoss | string {
  if (levels === 'destroyed') {
    const { effect, after } = lossEffect(main, 'destroyed', OUTCOME_SOURCE, reason);
    effects.push(effect);
    return after;
  }
  const supports = supportIds.map((id) => ctx.units.get(id)!);
  const split = shareLosses(levels, shares, supports);
  if (typeof split === 'string') return split;
  const { effect, after } = lossEffect(main, split.main, OUTCOME_SOURCE, reason);
  effects.push(effect);
  for (const [id, n] of split.each) {
    const s = ctx.units.get(id)!;
    effects.push(lossEffect(s, n, MELEE, `${n} of the losses passed to a supporting unit`).effect);
  }
  if (split.each.size > 0) steps.push({ text: `${shares} of ${levels} levels passed to supporting units ("half (rounded down) or less"); ${main.unit.name} takes ${split.main}, at least as many as any other unit`, source: STATUS_SOURCE });
  return after;
}

function resolveMelee(ctx: WtdrContext, action: PendingAction, faces: DiceFaces, requests: readonly DiceRequest[]): Outcome | Refusal {
  const rolls = readRolls(requests, faces);
  const actor = ctx.units.get(action.unitId!)!;
  const target = ctx.units.get(action.targetUnitId!)!;
  const reading = meleeReading(ctx, actor.unit.id, target.unit.id)!;
  const [a, t] = [rolls[0]!.value, rolls[1]!.value];
  const o = meleeOutcome(a, t);
  const c = action.choices ?? {};
  const steps: OutcomeStep[] = [
    { text: `${actor.unit.name} ${a} v ${target.unit.name} ${t}: difference ${a - t} (${reading.actorBases} v ${reading.targetBases} bases, supports counted)`, source: OUTCOME_SOURCE },
  ];
  const effects: OutcomeEffect[] = [];
  const actorLoses = o.who === 'both' || o.who === 'actor';
  const targetLoses = o.who === 'both' || o.who === 'target';
  // 8+ destroys the lower side (MELEE_EIGHT_DESTROYS), or the Target under the other reading.
  const destroyedSide = o.levels === 'destroyed' ? (MELEE_EIGHT_DESTROYS === 'target' ? 'target' : o.who) : undefined;
  let actorAfter: AfterLoss | undefined;
  let targetAfter: AfterLoss | undefined;
  if (o.who === 'both') steps.push({ text: 'equal rolls: both sides suffer a single Status Level', source: OUTCOME_SOURCE });
  else steps.push({ text: `a difference of ${Math.abs(a - t)}: ${levelWords(o.levels)} on ${destroyedSide === 'target' ? target.unit.name : o.who === 'actor' ? actor.unit.name : target.unit.name}`, source: OUTCOME_SOURCE });
  const levelsOn = (side: 'actor' | 'target'): number | 'destroyed' | undefined => {
    if (destroyedSide !== undefined) return destroyedSide === side ? 'destroyed' : undefined;
    if (side === 'actor' ? actorLoses : targetLoses) return o.levels as number;
    return undefined;
  };
  const aLevels = levelsOn('actor');
  if (aLevels !== undefined) {
    const r = sideLosses(ctx, actor, reading.actorSide.slice(1), aLevels, Number(c['actor-side-shares'] ?? 0), `melee with ${target.unit.name}`, effects, steps);
    if (typeof r === 'string') return refuse('melee/shares', r);
    actorAfter = r;
  } else if (Number(c['actor-side-shares'] ?? 0) > 0) return refuse('melee/shares', `${actor.unit.name}'s side takes no losses to share`);
  const tLevels = levelsOn('target');
  if (tLevels !== undefined) {
    const r = sideLosses(ctx, target, reading.targetSide.slice(1), tLevels, Number(c['target-side-shares'] ?? 0), `melee with ${actor.unit.name}`, effects, steps);
    if (typeof r === 'string') return refuse('melee/shares', r);
    targetAfter = r;
  } else if (Number(c['target-side-shares'] ?? 0) > 0) return refuse('melee/shares', `${target.unit.name}'s side takes no losses to share`);
  // Occupying the vacated space: required after a charge, optional otherwise, never with other enemies in contact.
  if (targetAfter?.destroyed && !actorAfter?.destroyed) {
    const others = engagedWith(ctx, actor).filter((id) => id !== target.unit.id && polygonToPolygonDistanceIn(actor.hull, ctx.units.get(id)!.hull) <= CONTACT_IN);
    const OCCUPY = 'Combat Effects and Rallying ("it must move forward to occupy the space vacated by the Target")';
    if (others.length > 0) steps.push({ text: `${actor.unit.name} may not occupy the vacated space: other enemy units are in contact with it`, source: OCCUPY });
    else if (c['charging'] === true) {
      const move: ForcedMove = {
        kind: 'advance',
        distanceIn: Math.hypot(target.centre.xIn - actor.centre.xIn, target.centre.yIn - actor.centre.yIn),
        path: [actor.centre, target.centre],
        text: `${actor.unit.name} charged and destroyed ${target.unit.name}: it moves forward to occupy the space vacated`,
        source: OCCUPY,
      };
      const i = effects.findIndex((e) => e.unitId === actor.unit.id);
      if (i >= 0) effects[i] = { ...effects[i]!, move };
      else effects.push({ unitId: actor.unit.id, text: move.text, source: OCCUPY, move });
    } else steps.push({ text: `${actor.unit.name} may move forward to occupy the space vacated (optional: it did not charge)`, source: OCCUPY });
  }
  const result = o.who === 'both' ? 'Both sides lose 1 Status Level' : `${levelWords(o.levels)} on the ${o.who === 'actor' ? 'Actor' : 'Target'}`;
  const summary = `${result}: ${effects.map((e) => e.text).join('; ')}.`;
  return { rulesetId: WTDR_RULESET_ID, action, rolls, result, summary, steps, effects, followUps: [] };
}

function resolveRegroup(ctx: WtdrContext, action: PendingAction): Outcome {
  const u = ctx.units.get(action.unitId!)!;
  const r = action.choices?.['app-result'];
  const before = condition(u).status;
  const after = r === 'two-levels' ? regroupLevels(before, 2) : r === 'one-level' ? regroupLevels(before, 1) : before;
  const words: Record<LiveStatus, string> = { ok: 'OK', disordered: 'Disordered', demoralized: 'Demoralized' };
  const effects: OutcomeEffect[] = r === 'failed' ? [] : [{ unitId: u.unit.id, text: `${u.unit.name} regroups: ${words[before]} → ${words[after]}`, source: REGROUP, status: statusPatch({ status: after, basesLost: u.basesLost }) }];
  const engaged = engagedWith(ctx, u);
  const followUps: PendingAction[] = engaged.length > 0 ? [{ kind: 'melee', unitId: u.unit.id, targetUnitId: engaged[0]! }] : [];
  const steps: OutcomeStep[] = [{ text: `the app's result: ${r === 'failed' ? 'the Regroup fails' : r === 'two-levels' ? 'up two Status Levels' : 'up one Status Level'}`, source: REGROUP }];
  if (followUps.length > 0) steps.push({ text: `in an ongoing combat: an immediate Melee, whether the Regroup succeeded or failed, its Leader involved`, source: 'Combat (Charges and Melee): Ongoing Combats' });
  return { rulesetId: WTDR_RULESET_ID, action, rolls: [], result: r === 'failed' ? 'Regroup failed' : `Regrouped to ${words[after]}`, summary: effects[0]?.text ?? `${u.unit.name} fails to regroup.`, steps, effects, followUps };
}

function resolveSack(ctx: WtdrContext, action: PendingAction): Outcome {
  const camp = ctx.units.get(action.unitId!)!;
  const sackers = campSackers(ctx, camp);
  const effects: OutcomeEffect[] = [{ unitId: camp.unit.id, text: `${camp.unit.name} is sacked`, source: STATUS_SOURCE, status: { rulesetStatus: { 'camp-sacked': true } } }];
  for (const s of sackers) {
    const before = condition(s).status;
    const after: LiveStatus = before === 'ok' ? 'disordered' : 'demoralized';
    effects.push({ unitId: s.unit.id, text: `${s.unit.name} breaks ranks to loot: ${after === 'disordered' ? 'Disordered' : 'Demoralized'}`, source: STATUS_SOURCE, status: statusPatch({ status: after, basesLost: s.basesLost }) });
  }
  return {
    rulesetId: WTDR_RULESET_ID,
    action,
    rolls: [],
    result: 'Camp sacked',
    summary: effects.map((e) => e.text).join('; ') + '.',
    steps: [
      { text: 'the destroying unit(s) immediately become Disordered; units already Disordered become Demoralized; base losses never occur from such a contact', source: STATUS_SOURCE },
      { text: `a sacked camp counts toward its army's break point`, source: ARMY_MORALE_SOURCE },
    ],
    effects,
    followUps: [],
  };
}

function resolveArmyMorale(ctx: WtdrContext, action: PendingAction): Outcome {
  const armies = [...evaluateArmies(ctx).armies.values()];
  const broken = armies.filter((a) => a.broken);
  const steps = armies.map((a) => ({ text: `${a.side}: ${a.points} points toward a break point of ${a.breakPoint} (${a.bases} bases, camp counted, ${a.quality} quality)${a.broken ? ': broken' : ''}`, source: ARMY_MORALE_SOURCE }));
  const result = broken.length === 0 ? 'No army broken' : broken.length === armies.length && armies.length > 1 ? 'Both armies broken: a draw' : `${broken.map((a) => a.side).join(', ')} broken: the battle is lost`;
  if (broken.length > 1) steps.push({ text: 'It is possible for both sides to lose in the same turn, resulting in a draw', source: ARMY_MORALE_SOURCE });
  return { rulesetId: WTDR_RULESET_ID, action, rolls: [], result, summary: `${result}.`, steps, effects: [], followUps: [] };
}

function resolve(state: TableState, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = diceFor(state, action);
  if (!Array.isArray(requests)) return requests as Refusal;
  const ctx = buildContext(state);
  switch (action.kind) {
    case 'fire':
      return resolveFire(ctx, action, faces, requests);
    case 'melee':
      return resolveMelee(ctx, action, faces, requests);
    case 'regroup':
      return resolveRegroup(ctx, action);
    case 'sack-camp':
      return resolveSack(ctx, action);
    default:
      return resolveArmyMorale(ctx, action);
  }
}

/** What the unit may roll for now: fire at each open target, each melee it may trigger, a Regroup, a sacking. */
function offered(state: TableState, evaluation: Evaluation, unitId: string): readonly PendingAction[] {
  const ctx = buildContext(state);
  const u = ctx.units.get(unitId);
  if (!u || u.stands.length === 0 || u.status === 'destroyed') return [];
  const out: PendingAction[] = [];
  for (const f of evaluation.units[unitId]?.fire ?? []) if (f.ok) out.push({ kind: 'fire', unitId, targetUnitId: f.targetUnitId });
  for (const r of evaluateMelees(ctx).readings) if (r.actorId === unitId) out.push({ kind: 'melee', unitId, targetUnitId: r.targetId });
  if (u.status !== 'ok' && !isCamp(u) && (engagedWith(ctx, u).length === 0 || u.attachedLeaderId !== undefined)) out.push({ kind: 'regroup', unitId });
  if (isCamp(u) && !campSacked(u) && campSackers(ctx, u).length > 0) out.push({ kind: 'sack-camp', unitId });
  return out;
}

export const WTDR_RESOLUTION: RulesetResolution = {
  dice: { sides: 6, styles: ['opposed'], source: `${DICE}; ${OUTCOME_SOURCE}` },
  kinds: WTDR_RESOLUTION_KINDS,
  offered,
  diceFor,
  resolve,
};
