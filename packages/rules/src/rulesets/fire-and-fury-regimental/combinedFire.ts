/**
 * The fire die roll modifier of one or several units firing together at one target (QRS II, Musketry and
 * Cannonade Table Changes 16-18; Fire Combat Modifier; Fire Restrictions, Massing Artillery Fire). The fire
 * points of every firing stand are added and rounded down once; the modifiers that depend on the firing
 * stands count when "half or more of the total fire points" come from such stands (green; sharpshooters;
 * buck and ball and repeaters when charging or defending in a charge, not cumulative with sharpshooters),
 * judged over the combined fire. Two or more artillery units mass their fire only on a target in canister
 * range or the closest or only one, each within the command radius of an artillery leader.
 */
import type { DiceModifier, Refusal } from '../../engine/evaluation.ts';
import type { TableState, Unit } from '../../model/tableState.ts';
import type { FfrFireOption } from './fire.ts';
import { pointsModifier } from './fire.ts';
import { FIRE_MODIFIERS, FIRE_POINTS_SOURCE } from './tables/fireTables.ts';
import { qrs } from './tables/source.ts';
import { evaluationOf, paramOf } from './resolveEvaluation.ts';
import { unitById } from './resolveCommon.ts';

export interface Firer {
  readonly unit: Unit;
  readonly option: FfrFireOption;
  /** Fire points before rounding. */
  readonly rawPoints: number;
}

export interface CombinedFire {
  readonly firers: readonly Firer[];
  readonly firePoints: number;
  readonly modifiers: readonly DiceModifier[];
  readonly dieModifier: number;
  /** The target's column and its massed units and leader, as the first firer's option gives them. */
  readonly option: FfrFireOption;
}

/** "Add one if half or more of the total fire points are from charging or defending troop stands armed with smoothbore muskets (SM) ... or armed with repeaters (RP)." */
export const BUCK_AND_BALL_WEAPONS: readonly string[] = ['SM', 'RPC', 'RPR'];
export const BUCK_AND_BALL = { label: 'Buck and ball or repeaters, charging or defending in a charge (half or more of the fire points)', value: 1, source: qrs('Fire Combat Modifier, Buck and Ball, Repeater and Sharpshooters; Musketry and Cannonade Table Changes 17') };
export const MASSING_SOURCE = qrs('Fire Restrictions, Massing Artillery Fire');

/** Modifier labels that say something of the firing unit (the basic rulebook's, in `fire.ts`), judged by half the points. */
const FIRER_LABELS = ['firing unit disordered', 'firing unit worn', 'firing unit spent'];
/** Labels `combinedFire` works out again over the whole fire. */
const POINT_LABELS: readonly string[] = [FIRE_MODIFIERS.green.label, FIRE_MODIFIERS.sharpshooters.label];

function rawPointsOf(o: FfrFireOption): number {
  return o.firePoints.dice - o.firePoints.limits.reduce((s, l) => s + l.dice, 0);
}

/**
 * An artillery leader: a leader of his side whose brigade's units on the table are all guns ("the immediate
 * commander of a Confederate artillery battalion or Union artillery brigade"; reading, see the README).
 */
export function isArtilleryLeader(state: TableState, commanderId: string): boolean {
  const c = state.commanders.find((x) => x.id === commanderId);
  if (!c) return false;
  const units = state.units.filter((u) => u.side === c.side && u.brigadeId === c.brigadeId);
  return units.length > 0 && units.every((u) => u.arm === 'artillery');
}

/**
 * Plunging fire through wooded high ground (Plunging Fire through Wooded High Ground, an optional rule): "The
 * firing stands subtract two for firing through full cover if the target is deep in woods or within 4"
 * behind woods. Subtract one for firing through partial cover at a target over 4" behind woods ... the -2
 * modifier only applies if half or more of the total fire points are from the plunging fire." Declared with
 * the fire (the slope, the crest and the woods' depth are the players' to judge); the guns of the fire are
 * the plunging fire ("Guns now may fire through wooded high ground").
 */
export type PlungingFire = 'none' | 'full-cover' | 'partial-cover';
export const PLUNGING_MODIFIERS = {
  'full-cover': { label: 'Plunging fire through full cover (half or more of the fire points)', value: -2 },
  'partial-cover': { label: 'Plunging fire through partial cover (half or more of the fire points)', value: -1 },
  source: qrs('Plunging Fire through Wooded High Ground'),
} as const;

export function combinedFire(state: TableState, unitIds: readonly string[], targetId: string, inCharge: boolean, plunging: PlungingFire = 'none'): CombinedFire | Refusal {
  const ev = evaluationOf(state);
  const firers: Firer[] = [];
  for (const id of unitIds) {
    const u = ev.units[id];
    if (!u) return { ok: false, reason: 'unit/no-stands', detail: `${id} has no stands on the table` };
    const o = u.fire.find((f) => f.targetUnitId === targetId);
    if (!o) return { ok: false, reason: 'fire/not-a-target', detail: `${targetId} is not an enemy of ${id}` };
    if (!o.ok) return { ok: false, reason: o.reason, detail: `${id}: ${o.detail ?? o.reason}` };
    const f = o as FfrFireOption;
    if (f.missingParameters.length > 0) return { ok: false, reason: 'parameter/missing', detail: `enter ${f.missingParameters.join(', ')} to read this fire (${qrs('Figure 3')})` };
    firers.push({ unit: unitById(state, id), option: f, rawPoints: rawPointsOf(f) });
  }
  const units = firers.map((f) => f.unit);
  if (new Set(units.map((u) => u.side)).size > 1) return { ok: false, reason: 'fire/mixed-sides', detail: 'units firing together must be of one side' };
  // Massing Artillery Fire: only when two or more artillery units fire at the one target.
  const guns = firers.filter((f) => f.unit.arm === 'artillery');
  if (guns.length >= 2) {
    for (const g of guns) {
      const options = ev.units[g.unit.id]!.fire.filter((x) => x.ok) as FfrFireOption[];
      const nearest = Math.min(...options.map((x) => x.rangeIn));
      const canister = g.option.band.startsWith('canister');
      if (!canister && g.option.rangeIn > nearest + 1e-9) {
        return { ok: false, reason: 'fire/massing-artillery', detail: `${g.unit.name} may mass its fire only on a target in canister range, or the closest or only available target (${MASSING_SOURCE})` };
      }
      const leader = ev.units[g.unit.id]!.command.commanderInRangeId;
      if (!leader || !isArtilleryLeader(state, leader)) {
        return { ok: false, reason: 'fire/massing-artillery', detail: `${g.unit.name} is not within the command radius of an artillery leader, so it cannot mass its fire (${MASSING_SOURCE})` };
      }
    }
  }
  const raw = firers.reduce((s, f) => s + f.rawPoints, 0);
  const total = Math.floor(raw + 1e-9);
  const half = (pred: (f: Firer) => boolean) => {
    const part = firers.filter(pred).reduce((s, f) => s + f.rawPoints, 0);
    return part > 0 && part * 2 >= raw - 1e-9;
  };
  const mods: DiceModifier[] = [];
  const missing: string[] = [];
  const pm = pointsModifier((id) => paramOf(state, id), total, (id) => missing.push(id));
  if (missing.length > 0) return { ok: false, reason: 'parameter/missing', detail: `enter ${missing.join(', ')} to read this fire (${FIRE_POINTS_SOURCE})` };
  if (pm !== undefined) mods.push({ label: `${total} fire point${total === 1 ? '' : 's'}${firers.length > 1 ? ` (${firers.length} units together)` : ''}`, dice: pm, source: total >= 8 ? FIRE_POINTS_SOURCE : 'Regimental Fire and Fury rulebook, Musketry & Cannonade Table (parameter)' });
  if (half((f) => f.unit.quality === 'green')) mods.push({ label: FIRE_MODIFIERS.green.label, dice: FIRE_MODIFIERS.green.value, source: FIRE_MODIFIERS.green.source });
  // "The above modifiers are not cumulative, so sharpshooters armed with smoothbore muskets or repeaters only add one."
  const sharp = half((f) => f.unit.sharpshooters === true);
  const buck = inCharge && half((f) => f.unit.arm !== 'artillery' && BUCK_AND_BALL_WEAPONS.includes(f.unit.weapon));
  if (sharp) mods.push({ label: FIRE_MODIFIERS.sharpshooters.label, dice: FIRE_MODIFIERS.sharpshooters.value, source: FIRE_MODIFIERS.sharpshooters.source });
  else if (buck) mods.push({ ...BUCK_AND_BALL, dice: BUCK_AND_BALL.value });
  // Only when half or more of the points plunge (the guns'); else the direct fire carries no such modifier.
  if (plunging !== 'none' && half((f) => f.unit.arm === 'artillery')) {
    const p = PLUNGING_MODIFIERS[plunging];
    mods.push({ label: p.label, dice: p.value, source: PLUNGING_MODIFIERS.source });
  }
  // The firing units' own conditions by half the points; the target's (cover, abatis) from the first option.
  const firstMods = firers[0]!.option.breakdown.modifiers;
  const firerLabels = new Set(firers.flatMap((f) => f.option.breakdown.modifiers.filter((m) => FIRER_LABELS.includes(m.label)).map((m) => m.label)));
  for (const label of firerLabels) {
    if (!half((f) => f.option.breakdown.modifiers.some((m) => m.label === label))) continue;
    const m = firers.flatMap((f) => f.option.breakdown.modifiers).find((x) => x.label === label)!;
    mods.push(firers.length > 1 ? { ...m, label: `${label} (half or more of the fire points)` } : m);
  }
  for (const m of firstMods) {
    if (POINT_LABELS.includes(m.label) || FIRER_LABELS.includes(m.label) || /^\d+ fire points?$/.test(m.label)) continue;
    mods.push(m);
  }
  return { firers, firePoints: total, modifiers: mods, dieModifier: mods.reduce((s, m) => s + m.dice, 0), option: firers[0]!.option };
}
