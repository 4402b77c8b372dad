/**
 * The maneuver check (QRS II, Maneuver Table Procedure; Figure 1/5): one d10 plus the die roll modifiers
 * (list B), read down column C1 for troops in good order and guns or D1 for disordered or broken troops.
 * Reported in the evaluation's `rally` slot (it is the check that rallies, moves and breaks units) as a
 * 'modifier' breakdown, with the natural die needed for each effect of the unit's column.
 */
import type { DiceBreakdown, DiceModifier } from '../../engine/evaluation.ts';
import type { FfrContext, FfrUnitInfo } from './context.ts';
import type { UnitCommand } from './command.ts';
import { leaderRating } from './command.ts';
import type { Effectiveness } from './morale.ts';
import {
  DISORDERED_BANDS,
  EFFECTIVENESS_MODIFIER,
  GOOD_ORDER_BANDS,
  LEADER_RATING_MODIFIER,
  MANEUVER_BANDS_SOURCE,
  MANEUVER_DIE_SIDES,
  MANEUVER_MODIFIERS,
  QUALITY_MODIFIER,
} from './tables/maneuverTable.ts';

export interface ManeuverEffectNeed {
  readonly effect: string;
  /** Lowest modified result for the effect; null for "or less" (the bottom band). */
  readonly modifiedAtLeast: number | null;
  /** Natural d10 needed for at least this effect: 1 when any roll gives it, null when no roll can. */
  readonly dieAtLeast: number | null;
}

export interface ManeuverReading {
  readonly column: 'good-order-and-guns' | 'disordered-or-broken';
  readonly effects: readonly ManeuverEffectNeed[];
  readonly source: string;
}

/** Module level, not a closure per unit: the dev loader names every inner function, at a cost per call. */
function addModifier(mods: DiceModifier[], label: string, dice: number, source: string): void {
  mods.push({ label, dice, source });
}

export function maneuverCheck(
  ctx: FfrContext,
  info: FfrUnitInfo,
  command: UnitCommand,
  effectiveness: Effectiveness | undefined,
): { breakdown: DiceBreakdown; reading: ManeuverReading } {
  const { unit, formation } = info;
  const mods: DiceModifier[] = [];
  if (command.leader) {
    const rating = leaderRating(command.leader);
    addModifier(mods, `${command.leader.name}: ${rating} leader`, LEADER_RATING_MODIFIER[rating], LEADER_RATING_MODIFIER.source);
  }
  if (command.attachedLeader || ctx.unitField(unit, 'braveColonel') === true) {
    const m = MANEUVER_MODIFIERS.attachedLeaderOrBraveColonel;
    addModifier(mods, m.label, m.value, m.source);
  }
  // Out of command takes precedence over provisional command (and militia); they never add up.
  if (command.state === 'out-of-command') addModifier(mods, MANEUVER_MODIFIERS.outOfCommand.label, MANEUVER_MODIFIERS.outOfCommand.value, MANEUVER_MODIFIERS.outOfCommand.source);
  else if (command.state === 'provisional' || ctx.unitField(unit, 'militia') === true) {
    const m = MANEUVER_MODIFIERS.provisionalCommand;
    addModifier(mods, command.state === 'provisional' ? m.label : `${m.label} (militia)`, m.value, m.source);
  }
  addModifier(mods, `${unit.quality[0]!.toUpperCase()}${unit.quality.slice(1)} unit`, QUALITY_MODIFIER[unit.quality], QUALITY_MODIFIER.source);
  if (effectiveness) addModifier(mods, `${effectiveness[0]!.toUpperCase()}${effectiveness.slice(1)} troops`, EFFECTIVENESS_MODIFIER[effectiveness], EFFECTIVENESS_MODIFIER.source);
  if (unit.arm === 'artillery') addModifier(mods, MANEUVER_MODIFIERS.battery.label, MANEUVER_MODIFIERS.battery.value, MANEUVER_MODIFIERS.battery.source);
  const columnOrCover =
    formation.id === 'field-column' || formation.id === 'march-column' || formation.id === 'garrison' || formation.limbered || ctx.statusField(unit, 'linearCover') === true;
  if (columnOrCover) addModifier(mods, MANEUVER_MODIFIERS.columnGarrisonLimberedOrCover.label, MANEUVER_MODIFIERS.columnGarrisonLimberedOrCover.value, MANEUVER_MODIFIERS.columnGarrisonLimberedOrCover.source);
  if (formation.id === 'broken' || ctx.statusField(unit, 'outflanked') === true) {
    addModifier(mods, MANEUVER_MODIFIERS.outflankedOrBroken.label, MANEUVER_MODIFIERS.outflankedOrBroken.value, MANEUVER_MODIFIERS.outflankedOrBroken.source);
  }
  if (ctx.statusField(unit, 'keyPositionLost') === true) addModifier(mods, MANEUVER_MODIFIERS.keyPositionLost.label, MANEUVER_MODIFIERS.keyPositionLost.value, MANEUVER_MODIFIERS.keyPositionLost.source);
  const casualties = ctx.statusField(unit, 'casualties');
  if (casualties === 'heavy') addModifier(mods, MANEUVER_MODIFIERS.heavyCasualties.label, MANEUVER_MODIFIERS.heavyCasualties.value, MANEUVER_MODIFIERS.heavyCasualties.source);
  if (casualties === 'greater') addModifier(mods, MANEUVER_MODIFIERS.greaterLosses.label, MANEUVER_MODIFIERS.greaterLosses.value, MANEUVER_MODIFIERS.greaterLosses.source);

  const total = mods.reduce((s, m) => s + m.dice, 0);
  const disordered = unit.arm !== 'artillery' && (formation.id === 'broken' || unit.status?.disordered === true);
  const bands = disordered ? DISORDERED_BANDS : GOOD_ORDER_BANDS;
  const effects = bands.map((b): ManeuverEffectNeed => {
    if (b.min === -Infinity) return { effect: b.effect, modifiedAtLeast: null, dieAtLeast: 1 };
    const need = b.min - total;
    return { effect: b.effect, modifiedAtLeast: b.min, dieAtLeast: need > MANEUVER_DIE_SIDES ? null : Math.max(1, need) };
  });
  return {
    breakdown: { kind: 'modifier', baseDice: 0, modifiers: mods, dice: total, limits: [] },
    reading: { column: disordered ? 'disordered-or-broken' : 'good-order-and-guns', effects, source: MANEUVER_BANDS_SOURCE },
  };
}
