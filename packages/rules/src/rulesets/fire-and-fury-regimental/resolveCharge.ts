/**
 * After the charge roll (QRS II, Figure 4, Charge Table; Charge Table Changes 21-22): each side rolls one d10
 * and adds its modifiers; the attacker's result minus the defender's is read on the bands (8 or more Swept
 * from the Field ... -8 or more Repulsed), and each band's words say what each side loses, where it goes and
 * what status it takes. A Desperate Struggle calls the charge again without the cold steel, breakthrough and
 * cavalry charge modifiers.
 */
import type { DiceModifier, Refusal } from '../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, ForcedMove, Outcome, OutcomeEffect, OutcomeStep, PendingAction, StatusPatch } from '../../engine/resolve/resolution.ts';
import { readRoll } from '../../engine/resolve/readDice.ts';
import type { RulesetValue, TableState, Unit } from '../../model/tableState.ts';
import type { FfrChargeOption } from './charge.ts';
import { CHARGE_BANDS, CHARGE_BANDS_SOURCE, CHARGE_DIE_SIDES, CHARGE_MODIFIERS } from './tables/chargeTable.ts';
import { qrs } from './tables/source.ts';
import { CASUALTIES_SOURCE, countPatch, joinText, lossText, moveAwayFrom, standLoss, standsLostPatch, unitById, unitEffect } from './resolveCommon.ts';
import { closeRangeOf, evaluationOf, fullRetreatIn } from './resolveEvaluation.ts';

const FIG4 = qrs('Figure 4, Charge Table, Effects');

/** "Lose cold steel, breakthrough and cavalry charge modifiers. Adjust modifiers and roll again." (Desperate Struggle) */
const DROPPED_IN_STRUGGLE: readonly string[] = [
  CHARGE_MODIFIERS.coldSteelOrBreakthrough.label,
  // The declared charge's labels (chargeMode.ts).
  'Charging with cold steel',
  'Breakthrough charge',
  CHARGE_MODIFIERS.cavalryChargeOpen.label,
  CHARGE_MODIFIERS.cavalryChargeBroken.label,
  CHARGE_MODIFIERS.cavalryChargeNone.label,
];

/** "2 stands and additional stands equal to the die result difference over 9" (Swept from the Field, Repulsed). */
export const HEAVY_LOSS_BASE = 2;
export const HEAVY_LOSS_OVER = 9;
/** "Retreat 2" from enemy" (Hard Pressed, Falter). */
export const CHARGE_RETREAT_IN = 2;

export function chargeOptionFor(state: TableState, action: PendingAction): FfrChargeOption | Refusal {
  const ev = evaluationOf(state).units[action.unitId!];
  if (!ev) return { ok: false, reason: 'unit/no-stands', detail: `${action.unitId} has no stands on the table` };
  const option = ev.charge.find((c) => c.targetUnitId === action.targetUnitId);
  if (!option) return { ok: false, reason: 'charge/not-a-target', detail: `${action.targetUnitId} is not an enemy of ${action.unitId}` };
  if (!option.ok) return { ok: false, reason: option.reason, ...(option.detail ? { detail: option.detail } : {}) };
  return option as FfrChargeOption;
}

function sideModifier(mods: readonly DiceModifier[], struggle: boolean): { total: number; dropped: string[] } {
  let total = 0;
  const dropped: string[] = [];
  for (const m of mods) {
    if (struggle && DROPPED_IN_STRUGGLE.includes(m.label)) dropped.push(m.label);
    else total += m.dice;
  }
  return { total, dropped };
}

export function chargeDice(state: TableState, action: PendingAction): DiceRequest[] | Refusal {
  const option = chargeOptionFor(state, action);
  if (!option.ok) return option;
  const struggle = action.choices?.['desperateStruggle'] === true;
  const att = sideModifier(option.attacker.modifiers, struggle);
  const def = sideModifier(option.defender.modifiers, struggle);
  const sign = (n: number) => `${n >= 0 ? '+' : ''}${n}`;
  return [
    { id: 'attacker', label: `${action.unitId} (charging): one d10 ${sign(att.total)}`, count: 1, sides: CHARGE_DIE_SIDES, reading: 'each', modifier: att.total, source: qrs('Figure 4, Charge Table, Die Roll Modifiers') },
    { id: 'defender', label: `${action.targetUnitId} (charged): one d10 ${sign(def.total)}`, count: 1, sides: CHARGE_DIE_SIDES, reading: 'each', modifier: def.total, source: qrs('Figure 4, Charge Table, Die Roll Modifiers') },
  ];
}

/** Leaders attached to a unit (for "Check for Fallen Leader if attached"). */
function attachedLeaders(state: TableState, unit: Unit): string[] {
  const ids = state.commanders.filter((c) => c.attachedToUnitId === unit.id).map((c) => c.id);
  const byStatus = unit.status?.attachedCommanderId;
  if (byStatus && !ids.includes(byStatus)) ids.push(byStatus);
  return ids.sort();
}

interface SideResult {
  lose?: number;
  /** Troops disordered; 'or-lose' is "disordered or lose 1 stand if already disordered". */
  disorder?: boolean | 'or-lose';
  broken?: boolean;
  retreat?: { kind: ForcedMove['kind']; inches: number | undefined; what: string; paramId?: string };
  gunsSilenced?: boolean;
  gunsLimber?: boolean;
  damageGun?: boolean;
  text: string;
}

function isDisordered(unit: Unit): boolean {
  return unit.status?.disordered === true || unit.status?.rulesetStatus?.['formation'] === 'broken';
}

function sideEffect(state: TableState, unit: Unit, enemy: Unit, r: SideResult): OutcomeEffect {
  const guns = unit.arm === 'artillery';
  let lose = r.lose ?? 0;
  let disorder = !guns && r.disorder !== undefined && r.disorder !== false;
  if (!guns && r.disorder === 'or-lose' && isDisordered(unit)) {
    lose += 1;
    disorder = false;
  }
  const loss = standLoss(state, unit, lose);
  const rs: Record<string, RulesetValue | null> = { ...standsLostPatch(unit, loss.lost) };
  const status: { -readonly [K in keyof StatusPatch]?: StatusPatch[K] } = {};
  const parts: (string | false)[] = [loss.lost > 0 && lossText(unit.name, loss, guns ? 'gun stand' : 'stand')];
  if (disorder || (!guns && r.broken)) status.disordered = true;
  if (disorder && !r.broken) parts.push(`${unit.name} disordered`);
  if (!guns && r.broken) {
    rs['formation'] = 'broken';
    parts.push(`${unit.name} broken`);
  }
  if (guns && r.gunsSilenced && loss.left > 0) {
    rs['silenced'] = true;
    rs['silencedGunStands'] = loss.left;
    parts.push(`guns silenced`);
  }
  if (guns && r.damageGun && loss.left > 0) {
    rs['damagedGunStands'] = countPatch(unit, 'damagedGunStands', 1, loss.left);
    parts.push('1 gun stand damaged');
  }
  if (guns && r.gunsLimber) {
    status.limbered = true;
    parts.push('guns limber');
  }
  let move: ForcedMove | undefined;
  if (r.retreat && !loss.removed) {
    if (r.retreat.inches === undefined) parts.push(`${r.retreat.what} (enter ${r.retreat.paramId} for the distance)`);
    else {
      move = moveAwayFrom(state, unit.id, enemy.id, r.retreat.kind, r.retreat.inches, `${r.retreat.what}: ${r.retreat.inches}" away from ${enemy.name}`, FIG4);
      parts.push(`${r.retreat.what} ${r.retreat.inches}" away from ${enemy.name}`);
    }
  }
  if (Object.keys(rs).length > 0) status.rulesetStatus = rs;
  const text = joinText([r.text, ...parts]);
  return unitEffect(unit.id, `${text}.`, loss.lost > 0 ? `${FIG4}; ${CASUALTIES_SOURCE}` : FIG4, { standsLost: loss.lost, removed: loss.removed, status: loss.removed ? {} : status, move });
}

/** "Troops retreat out of close range": the enemy's close range (its weapon's first band). */
function outOfCloseRange(state: TableState, enemy: Unit): SideResult['retreat'] {
  const close = closeRangeOf(state, enemy);
  return { kind: 'retreat', inches: close.inches, what: 'retreat out of close range', paramId: close.paramId };
}

function fullRetreat(unit: Unit, broken: boolean): SideResult['retreat'] {
  const full = fullRetreatIn(unit);
  return { kind: broken ? 'rout' : 'retreat', inches: full.inches, what: broken ? `full retreat broken (${full.row}, open ground)` : `full retreat (${full.row}, open ground)` };
}

export function resolveCharge(state: TableState, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = chargeDice(state, action);
  if (!Array.isArray(requests)) return requests;
  const option = chargeOptionFor(state, action) as FfrChargeOption;
  const a = readRoll(requests[0]!, faces['attacker']!);
  const d = readRoll(requests[1]!, faces['defender']!);
  const diff = a.value - d.value;
  const band = CHARGE_BANDS.find((b) => diff >= b.min)!;
  const att = unitById(state, action.unitId!);
  const def = unitById(state, action.targetUnitId!);
  const secondCombat = action.choices?.['combat'] === 'second';
  const fortified = def.status?.rulesetStatus?.['fortified'] === true;
  const defOutflanked = option.enemyFlanked;
  const attOutflanked = att.status?.rulesetStatus?.['outflanked'] === true;
  // "Disordered if charged over broken or rough ground, cavalry, or after 2nd combat."
  const attackerDisorderedWhy = joinText([option.disorderedBy.length > 0 && `charged over ${option.disorderedBy.join(', ')}`, att.arm === 'cavalry' && 'cavalry', secondCombat && 'after 2nd combat']);
  const defGuns = def.arm === 'artillery';
  const steps: OutcomeStep[] = [
    { text: `Attacker ${a.faces[0]} ${a.request.modifier! >= 0 ? '+' : ''}${a.request.modifier} = ${a.value}; defender ${d.faces[0]} ${d.request.modifier! >= 0 ? '+' : ''}${d.request.modifier} = ${d.value}; difference ${diff}`, source: CHARGE_BANDS_SOURCE },
  ];
  if (action.choices?.['desperateStruggle'] === true) steps.push({ text: 'Rolled again after a Desperate Struggle, without the cold steel, breakthrough and cavalry charge modifiers.', source: qrs('Figure 4, Desperate Struggle') });
  const effects: OutcomeEffect[] = [];
  const followUps: PendingAction[] = [];
  const fallen = (u: Unit) => {
    for (const id of attachedLeaders(state, u)) followUps.push({ kind: 'fallen-leader', commanderId: id, targetUnitId: u.id });
  };
  const attackerCarries = (what: string) => {
    const dis = attackerDisorderedWhy.length > 0;
    effects.push(unitEffect(att.id, `${what}${dis ? `; ${att.name} disordered (${attackerDisorderedWhy})` : ''}.`, FIG4, { status: dis ? { disordered: true } : {} }));
  };
  const extraOver = Math.max(0, Math.abs(diff) - HEAVY_LOSS_OVER);
  let result: string;
  switch (band.effect) {
    case 'swept-from-the-field': {
      result = 'Swept from the Field';
      effects.push(
        sideEffect(state, def, att, defGuns
          ? { lose: HEAVY_LOSS_BASE + extraOver, gunsLimber: true, gunsSilenced: true, retreat: fullRetreat(def, false), text: 'DEFENDER: guns limber and full retreat silenced; lose fixed guns' }
          : { lose: HEAVY_LOSS_BASE + extraOver, broken: true, retreat: fullRetreat(def, true), text: `DEFENDER: lose ${HEAVY_LOSS_BASE} stands${extraOver ? ` and ${extraOver} more (difference ${Math.abs(diff)} over 9)` : ''}; troops full retreat broken` }),
      );
      fallen(def);
      attackerCarries(`ATTACKER: ${att.name} breakthrough charges a half move at the double quick toward the closest enemy; carries the position after 2nd combat`);
      break;
    }
    case 'driven-back': {
      result = 'Driven Back';
      const worse = att.arm === 'cavalry' || defOutflanked;
      effects.push(
        sideEffect(state, def, att, defGuns
          ? { lose: 1 + (worse ? 1 : 0), gunsSilenced: true, gunsLimber: true, retreat: fullRetreat(def, false), text: `DEFENDER: lose 1 stand${worse ? ' and 1 more (defeated by cavalry or outflanked)' : ''}, guns silenced; guns limber and full retreat; lose fixed guns` }
          : worse
            ? { lose: 2, broken: true, retreat: fullRetreat(def, true), text: 'DEFENDER: lose 1 stand and 1 more, full retreat broken (defeated by cavalry or outflanked)' }
            : { lose: 1, disorder: true, retreat: outOfCloseRange(state, att), text: 'DEFENDER: lose 1 stand, troops disordered; troops retreat out of close range; cavalry may recall up to a full move after 1st combat' }),
      );
      attackerCarries(`ATTACKER: ${att.name} carries the position${att.arm === 'cavalry' && !secondCombat ? '; cavalry must breakthrough charge a half move at the double quick toward the closest enemy' : ''}`);
      break;
    }
    case 'hard-pressed': {
      result = 'Hard Pressed';
      if (fortified) {
        effects.push(sideEffect(state, def, att, defGuns ? { gunsSilenced: true, damageGun: true, text: 'DEFENDER (fortified): holds position, guns silenced, damage 1 gun stand' } : { disorder: 'or-lose', text: 'DEFENDER (fortified): holds position; troops disordered, or lose 1 stand if already disordered' }));
        effects.push(sideEffect(state, att, def, { retreat: { kind: 'retreat', inches: CHARGE_RETREAT_IN, what: 'retreat (the defender is fortified)' }, text: 'ATTACKER: retreats 2" as the defender is fortified' }));
      } else {
        effects.push(
          sideEffect(state, def, att, defGuns
            ? { gunsSilenced: true, damageGun: true, gunsLimber: true, retreat: fullRetreat(def, false), text: 'DEFENDER: guns silenced, damage 1 gun stand; guns limber and full retreat; lose fixed guns' }
            : defOutflanked
              ? { disorder: 'or-lose', broken: true, retreat: fullRetreat(def, true), text: 'DEFENDER: troops disordered, or lose 1 stand if already disordered; full retreat broken (outflanked)' }
              : { disorder: 'or-lose', retreat: { kind: 'retreat', inches: CHARGE_RETREAT_IN, what: 'retreat from the enemy' }, text: 'DEFENDER: troops disordered, or lose 1 stand if already disordered; retreat 2" from the enemy; cavalry may recall up to a full move after 1st combat' }),
        );
        attackerCarries(`ATTACKER: ${att.name} carries the position${att.arm === 'cavalry' && !secondCombat ? '; cavalry may recall up to a full move after 1st combat' : ''}`);
      }
      break;
    }
    case 'desperate-struggle': {
      result = 'Desperate Struggle';
      effects.push(sideEffect(state, att, def, { lose: 1, disorder: true, text: 'BOTH: lose 1 stand, troops disordered' }));
      effects.push(sideEffect(state, def, att, defGuns ? { lose: 1, gunsSilenced: true, text: 'BOTH: lose 1 stand, guns silenced' } : { lose: 1, disorder: true, text: 'BOTH: lose 1 stand, troops disordered' }));
      followUps.push({ ...action, choices: { ...(action.choices ?? {}), desperateStruggle: true } });
      steps.push({ text: 'Lose cold steel, breakthrough and cavalry charge modifiers. Adjust modifiers and roll again.', source: qrs('Figure 4, Desperate Struggle') });
      break;
    }
    case 'falter':
    case 'recoil':
    case 'repulsed': {
      const worse = def.arm === 'cavalry' || attOutflanked;
      if (band.effect === 'falter') {
        result = 'Falter';
        effects.push(sideEffect(state, att, def, attOutflanked
          ? { disorder: 'or-lose', broken: true, retreat: fullRetreat(att, true), text: 'ATTACKER: disordered, or lose 1 stand if already disordered; full retreat broken (outflanked)' }
          : { disorder: 'or-lose', retreat: { kind: 'retreat', inches: CHARGE_RETREAT_IN, what: 'retreat from the enemy' }, text: 'ATTACKER: disordered, or lose 1 stand if already disordered; retreat 2" from the enemy; cavalry may recall up to a full move after 1st combat' }));
      } else if (band.effect === 'recoil') {
        result = 'Recoil';
        effects.push(sideEffect(state, att, def, worse
          ? { lose: 2, broken: true, retreat: fullRetreat(att, true), text: 'ATTACKER: lose 1 stand and 1 more, full retreat broken (defeated by cavalry or outflanked)' }
          : { lose: 1, disorder: true, retreat: outOfCloseRange(state, def), text: 'ATTACKER: lose 1 stand and disordered; retreat out of close range; cavalry may recall up to a full move after 1st combat' }));
      } else {
        result = 'Repulsed';
        effects.push(sideEffect(state, att, def, { lose: HEAVY_LOSS_BASE + extraOver, broken: true, retreat: fullRetreat(att, true), text: `ATTACKER: lose ${HEAVY_LOSS_BASE} stands${extraOver ? ` and ${extraOver} more (difference ${Math.abs(diff)} over 9)` : ''}; full retreat broken` }));
        fallen(att);
      }
      // "DEFENDER hold position. Cavalry disordered. Countercharging cavalry may carry the position or recall up to a full move."
      const cav = def.arm === 'cavalry';
      effects.push(unitEffect(def.id, `DEFENDER: ${def.name} holds position${cav ? '; cavalry disordered (countercharging cavalry may carry the position or recall up to a full move)' : ''}.`, FIG4, { status: cav ? { disordered: true } : {} }));
      break;
    }
    default:
      return { ok: false, reason: 'charge/unknown-band', detail: band.effect };
  }
  steps.push({ text: `Difference ${diff}: ${result}.`, source: CHARGE_BANDS_SOURCE });
  for (const id of followUps.filter((f) => f.kind === 'fallen-leader').map((f) => f.commanderId)) steps.push({ text: `Check for Fallen Leader: ${id} is attached.`, source: FIG4 });
  const summary = `${result} (${diff}): ${effects.map((e) => e.text).join(' ')}`;
  return { rulesetId: 'fire-and-fury-regimental', action, rolls: [a, d], result, summary, steps, effects, followUps };
}
