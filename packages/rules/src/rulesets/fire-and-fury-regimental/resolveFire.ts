/**
 * After the fire roll (QRS II, Figure 3, Musketry & Cannonade Table; Fire Combat Effects, Inflicting Troop
 * Casualties; Changes 20): one d10 plus the fire's die roll modifier, read down the target's rating column
 * (the Figure 3 parameters), gives the effect on the target by its kind (troops or guns) and its stands; the
 * units massed within 2" behind it suffer the next lower effect; a charging target is checked or goes home;
 * a base 10 marks the firer low on ammunition and calls the Fallen Leader check.
 */
import type { Refusal } from '../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, OutcomeEffect, OutcomeStep, PendingAction } from '../../engine/resolve/resolution.ts';
import { readRoll } from '../../engine/resolve/readDice.ts';
import type { TableState, Unit } from '../../model/tableState.ts';
import type { FfrFireOption } from './fire.ts';
import { combinedFire, type CombinedFire } from './combinedFire.ts';
import { FIRE_DIE_SIDES, FIRE_EFFECTS } from './tables/fireTables.ts';
import {
  CHARGE_CHECKED_RETREAT_IN,
  CHARGE_CHECKED_SOURCE,
  FALLEN_LEADER_BASE_DIE,
  FALLEN_LEADER_CHECK_SOURCE,
  FIRE_EFFECT_ROWS,
  FIRE_EFFECTS_SOURCE,
  LOW_ON_AMMO_BASE_DIE,
  LOW_ON_AMMO_SOURCE,
  NEXT_LOWER,
  WITHERING_EXTRA_AT,
  WITHERING_LIMIT_SOURCE,
  WITHERING_MAX_STANDS,
  type FireResult,
} from './tables/fireEffectsTable.ts';
import { qrs } from './tables/source.ts';
import { CASUALTIES_SOURCE, countPatch, fightingStandsOnTable, joinText, lossText, moveAwayFrom, standLoss, standsLostPatch, unitById, unitEffect } from './resolveCommon.ts';

export const FIRE_TABLE_SOURCE = qrs('Figure 3, Musketry & Cannonade Table');

/** The units firing: `unitIds` when several fire together (the acting unit among them), else the acting unit. */
export function firingUnitIds(action: PendingAction): string[] {
  const ids = action.unitIds && action.unitIds.length > 0 ? [...action.unitIds] : [action.unitId!];
  if (action.unitId && !ids.includes(action.unitId)) ids.unshift(action.unitId);
  return ids;
}

/** The fire of the action on this table (one unit or several together), or why it cannot be rolled for. */
export function fireFor(state: TableState, action: PendingAction): CombinedFire | Refusal {
  const plunging = action.choices?.['plunging'];
  return combinedFire(state, firingUnitIds(action), action.targetUnitId!, action.choices?.['inCharge'] === true, plunging === 'full-cover' || plunging === 'partial-cover' ? plunging : 'none');
}

export function fireDice(state: TableState, action: PendingAction): DiceRequest[] | Refusal {
  const fire = fireFor(state, action);
  if ('ok' in fire) return fire;
  const m = fire.dieModifier;
  return [
    {
      id: 'fire',
      label: `${fire.firers.map((f) => f.unit.id).join(' + ')} fire${fire.firers.length > 1 ? '' : 's'} at ${action.targetUnitId}: one d10 ${m >= 0 ? '+' : ''}${m} (${fire.firePoints} fire points)`,
      count: 1,
      sides: FIRE_DIE_SIDES,
      reading: 'each',
      modifier: m,
      source: FIRE_TABLE_SOURCE,
    },
  ];
}

/** The effect a modified result gives against the option's target column. */
export function fireResultFor(fire: FfrFireOption, modified: number): FireResult {
  for (const e of FIRE_EFFECTS) {
    const need = fire.effects.find((x) => x.effect === e);
    if (need && modified >= need.modifiedAtLeast) return e;
  }
  return 'desultory';
}

/** What `result` does to one unit (the target, or a unit massed behind it, which `massed` names). */
function effectOn(state: TableState, unit: Unit, result: FireResult, modified: number, cannonade: boolean, massed: boolean): OutcomeEffect | undefined {
  const row = FIRE_EFFECT_ROWS[result];
  const source = massed ? `${FIRE_EFFECTS_SOURCE}; Figure 3, Additional Effects, Massed Target` : FIRE_EFFECTS_SOURCE;
  const lead = `${row.result}${massed ? ' (massed behind the target: the next lower effect)' : ''}`;
  if (result === 'desultory' || (row.cannonadeOnly && !cannonade)) {
    return unitEffect(unit.id, `${lead}: no effect${row.cannonadeOnly ? ' (musketry)' : ''}.`, source, {});
  }
  if (unit.arm === 'artillery') {
    const extra = result === 'withering' && modified >= WITHERING_EXTRA_AT ? 1 : 0;
    const loss = standLoss(state, unit, row.gunStandsWrecked + extra);
    const silenced = row.gunStandsSilenced === 'rest' ? loss.left : Math.min(loss.left, row.gunStandsSilenced);
    const silencedNow = countPatch(unit, 'silencedGunStands', silenced, loss.left);
    const damaged = row.gunStandsDamaged > 0 ? countPatch(unit, 'damagedGunStands', row.gunStandsDamaged, loss.left) : undefined;
    const allSilenced = loss.left > 0 && silencedNow >= loss.left;
    const text = joinText([
      lead,
      loss.lost > 0 && lossText(unit.name, loss, 'gun stand') + (extra ? ` (one more on ${modified}, 15 or more)` : ''),
      row.gunStandsDamaged > 0 && loss.left > 0 && `${row.gunStandsDamaged} gun stand damaged`,
      silenced > 0 && `${silenced} gun stand${silenced === 1 ? '' : 's'} silenced${allSilenced ? ' (every gun left is silenced)' : ''}`,
    ]);
    return unitEffect(unit.id, `${text}.`, source, {
      standsLost: loss.lost,
      removed: loss.removed,
      status: loss.removed
        ? {}
        : {
            rulesetStatus: {
              ...standsLostPatch(unit, loss.lost),
              ...(silenced > 0 ? { silencedGunStands: silencedNow } : {}),
              ...(damaged !== undefined ? { damagedGunStands: damaged } : {}),
              ...(allSilenced ? { silenced: true } : {}),
            },
          },
    });
  }
  const disordered = unit.status?.disordered === true || unit.status?.rulesetStatus?.['formation'] === 'broken';
  let lost = row.troopStandsLost;
  // Galling: "Troops disordered or lose 1 stand if already disordered."
  if (result === 'galling' && !disordered) lost = 0;
  if (result === 'lively') lost = 0;
  const extra = result === 'withering' && modified >= WITHERING_EXTRA_AT ? 1 : 0;
  const loss = standLoss(state, unit, Math.min(WITHERING_MAX_STANDS, lost + extra));
  const text = joinText([
    lead,
    row.troopsDisordered && !(result === 'galling' && disordered) && `${unit.name} disordered`,
    loss.lost > 0 && lossText(unit.name, loss) + (extra ? ` (one more on ${modified}, 15 or more, at most ${WITHERING_MAX_STANDS}: ${WITHERING_LIMIT_SOURCE})` : ''),
  ]);
  return unitEffect(unit.id, `${text}.`, loss.lost > 0 ? `${source}; ${CASUALTIES_SOURCE}` : source, {
    standsLost: loss.lost,
    removed: loss.removed,
    status: loss.removed ? {} : { ...(row.troopsDisordered ? { disordered: true } : {}), ...(loss.lost > 0 ? { rulesetStatus: standsLostPatch(unit, loss.lost) } : {}) },
  });
}

export function resolveFire(state: TableState, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = fireDice(state, action);
  if (!Array.isArray(requests)) return requests;
  const combined = fireFor(state, action) as CombinedFire;
  const fire = combined.option;
  const roll = readRoll(requests[0]!, faces['fire']!);
  const base = roll.faces[0]!;
  const modified = roll.value;
  const firer = unitById(state, action.unitId!);
  const target = unitById(state, action.targetUnitId!);
  // "From cannonade only": every firing unit is artillery.
  const cannonade = combined.firers.every((f) => f.unit.arm === 'artillery');
  const result = fireResultFor(fire, modified);
  const row = FIRE_EFFECT_ROWS[result];
  const steps: OutcomeStep[] = [
    { text: `${combined.firePoints} fire points (${combined.modifiers.map((m) => `${m.dice >= 0 ? '+' : ''}${m.dice} ${m.label}`).join(', ') || 'no modifiers'}); die ${base} ${combined.dieModifier >= 0 ? '+' : ''}${combined.dieModifier} = ${modified}`, source: FIRE_TABLE_SOURCE },
    { text: `${modified} against a ${target.quality} target: ${row.result}. ${row.text}`, source: FIRE_EFFECTS_SOURCE },
  ];
  const effects: OutcomeEffect[] = [];
  const onTarget = effectOn(state, target, result, modified, cannonade, false);
  if (onTarget) effects.push(onTarget);
  // A charging target: "Charge checked" (Withering, Telling) or "Charge home" (the others).
  if (action.choices?.['targetCharging'] === true) {
    if (row.chargeChecked && !onTarget?.removed) {
      const move = moveAwayFrom(state, target.id, firer.id, 'retreat', CHARGE_CHECKED_RETREAT_IN, `Charge checked: retreat ${CHARGE_CHECKED_RETREAT_IN}" from the enemy; cavalry may recall up to a full move.`, CHARGE_CHECKED_SOURCE);
      effects.push(unitEffect(target.id, `Charge checked: ${target.name} retreats ${CHARGE_CHECKED_RETREAT_IN}" from ${firer.name}; cavalry may recall up to a full move.`, CHARGE_CHECKED_SOURCE, { move }));
    } else if (!row.chargeChecked) {
      steps.push({ text: `Charge home: ${target.name} resolves charge combat next phase.`, source: qrs('Figure 3, Additional Effects, Charge Home') });
    }
  }
  const lower = NEXT_LOWER[result];
  for (const id of fire.massedBehindUnitIds) {
    const massed = effectOn(state, unitById(state, id), lower, modified, cannonade, true);
    if (massed) effects.push(massed);
  }
  const followUps: PendingAction[] = [];
  if (base === LOW_ON_AMMO_BASE_DIE) {
    for (const f of combined.firers) {
      const stands = fightingStandsOnTable(state, f.unit);
      const firing = f.option.eligibleStandIds.length;
      if (f.unit.arm === 'artillery') {
        const n = countPatch(f.unit, 'lowOnAmmoGunStands', 1, stands);
        effects.push(unitEffect(f.unit.id, `Low on Ammo: mark one gun stand of ${f.unit.name}.`, LOW_ON_AMMO_SOURCE, { status: { rulesetStatus: { lowOnAmmoGunStands: n } } }));
      } else if (firing * 2 >= stands) {
        effects.push(unitEffect(f.unit.id, `Low on Ammo: ${f.unit.name} fired with half or more of its stands (${firing} of ${stands}) and is marked.`, LOW_ON_AMMO_SOURCE, { status: { rulesetStatus: { lowOnAmmo: true } } }));
      } else {
        steps.push({ text: `Base die 10, but ${f.unit.name} fired with fewer than half its stands (${firing} of ${stands}): not low on ammo.`, source: LOW_ON_AMMO_SOURCE });
      }
    }
  }
  if (base === FALLEN_LEADER_BASE_DIE && fire.fallenLeaderCheckId) {
    followUps.push({ kind: 'fallen-leader', commanderId: fire.fallenLeaderCheckId, targetUnitId: target.id });
    steps.push({ text: `Fallen Leader check for ${fire.fallenLeaderCheckId}, the closest leader within 4" of the target.`, source: FALLEN_LEADER_CHECK_SOURCE });
  }
  const summary = `${row.result} (${modified}): ${effects.map((e) => e.text).join(' ')}`.trim();
  return { rulesetId: 'fire-and-fury-regimental', action, rolls: [roll], result: row.result, summary, steps, effects, followUps };
}
