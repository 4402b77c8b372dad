/**
 * What the operator's tape says about the selected unit: its weapon's range bands laid along the tape
 * (from the rules' `UnitEvaluation.weaponRange`; a rule set that publishes none gives no bands, nothing is
 * guessed), and the answers to "can it fire at that?" and "can it charge that?" in words, with unit names.
 * The answers come from the rules' own fire and charge options (measured as the rules measure), not from
 * the tape's length. Pure strings and numbers, tested in node.
 */
import type { ChargeRefusal, ChargeTargetOption, FireRefusal, FireTargetOption, UnitEvaluation, WeaponRangeBand, WeaponRangeReading } from '@muster/rules';
import { breakdownAmount, refusalText } from './breakdownWords.ts';

/** A band as a piece of the tape: from `fromIn` to `toIn` inches along it (cut at the tape's end). */
export interface TapeBand {
  readonly fromIn: number;
  readonly toIn: number;
  /** The band's own upper limit (may lie beyond the tape's end). */
  readonly upToIn: number;
  /** 0 for the nearest band. */
  readonly index: number;
  readonly label: string;
  /** "6\" +1": the band and its effect on the breakdown, for a label on the tape. */
  readonly text: string;
  /** True when the band's end lies on the tape (its limit is marked and labelled there). */
  readonly endsOnTape: boolean;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}

/** The text on the tape at a band's end: '12" ±0', or just the label when the band has no modifier. */
export function bandText(b: WeaponRangeBand): string {
  return b.modifier === undefined ? b.label : `${b.label} ${signed(b.modifier)}`;
}

/**
 * The weapon's bands that start on a tape `lengthIn` long, each cut at its end.
 * @example bandsAlongTape({ bands: [{ upToIn: 6, label: '6"' }, { upToIn: 12, label: '12"' }], ... }, 8)
 * // [{ fromIn: 0, toIn: 6, endsOnTape: true, ... }, { fromIn: 6, toIn: 8, endsOnTape: false, ... }]
 */
export function bandsAlongTape(reading: WeaponRangeReading | undefined, lengthIn: number): TapeBand[] {
  if (!reading || !(lengthIn > 0)) return [];
  const out: TapeBand[] = [];
  let from = 0;
  reading.bands.forEach((b, index) => {
    if (from >= lengthIn || !(b.upToIn > from)) return;
    out.push({ fromIn: from, toIn: Math.min(b.upToIn, lengthIn), upToIn: b.upToIn, index, label: b.label, text: bandText(b), endsOnTape: b.upToIn <= lengthIn });
    from = b.upToIn;
  });
  return out;
}

/** The band a distance falls in (a band's limit is in it), or null beyond the last. */
export function bandAtDistance(reading: WeaponRangeReading, distanceIn: number): WeaponRangeBand | null {
  return reading.bands.find((b) => distanceIn <= b.upToIn) ?? null;
}

type NameOf = (unitId: string) => string;

/**
 * The fire question for the unit measured to: "in range (12" band): 5 dice", "out of range: …" or
 * "cannot fire at it: …" (another reason), or null when the rules say nothing about that unit.
 */
export function fireAnswer(fire: readonly (FireTargetOption | FireRefusal)[], targetUnitId: string): string | null {
  const f = fire.find((o) => o.targetUnitId === targetUnitId);
  if (!f) return null;
  if (f.ok) return `in range (${f.band} band): ${breakdownAmount(f.breakdown)}${f.priority ? ', the target it must fire at' : ''}`;
  return isOutOfRange(f.reason) ? `out of range: ${refusalText(f)}` : `cannot fire at it: ${refusalText(f)}`;
}

/** The charge question: "in reach (4.2")", "out of reach: …" or "cannot charge it: …"; null when not asked. */
export function chargeAnswer(charge: readonly (ChargeTargetOption | ChargeRefusal)[], targetUnitId: string): string | null {
  const c = charge.find((o) => o.targetUnitId === targetUnitId);
  if (!c) return null;
  if (c.ok) return `in reach (${c.distanceIn.toFixed(1)}"): attacker ${breakdownAmount(c.attacker)} vs defender ${breakdownAmount(c.defender)}`;
  return isOutOfRange(c.reason) ? `out of reach: ${refusalText(c)}` : `cannot charge it: ${refusalText(c)}`;
}

/** A refusal for distance alone ('fire/target-out-of-range', 'charge/out-of-reach', ...). */
export function isOutOfRange(reason: string): boolean {
  return /\/(target-)?out-of-(range|reach)$/.test(reason);
}

/**
 * The tape's sentences about the selected unit and what it is laid to: one for fire, one for a charge
 * ("19th Alabama → 3rd Union: fire in range (12" band): 5 dice."), or for a free point the band the
 * point falls in by the tape's length. Empty when nothing is selected or the tape touches only the
 * selected unit.
 */
export function tapeAnswers(args: {
  readonly selected: UnitEvaluation | undefined;
  readonly targetUnitId: string | null;
  readonly distanceIn: number;
  readonly nameOf: NameOf;
}): string[] {
  const { selected, targetUnitId, distanceIn, nameOf } = args;
  if (!selected || targetUnitId === selected.unitId) return [];
  const who = nameOf(selected.unitId);
  if (targetUnitId !== null) {
    const fire = fireAnswer(selected.fire, targetUnitId);
    const charge = chargeAnswer(selected.charge, targetUnitId);
    const lines: string[] = [];
    if (fire) lines.push(`${who} → ${nameOf(targetUnitId)}: fire ${fire}.`);
    if (charge) lines.push(`${who} → ${nameOf(targetUnitId)}: charge ${charge}.`);
    return lines;
  }
  const reading = selected.weaponRange;
  if (!reading || reading.bands.length === 0) return [];
  const band = bandAtDistance(reading, distanceIn);
  const last = reading.bands.at(-1)!;
  return [
    band
      ? `${who}: ${distanceIn.toFixed(1)}" is in range, ${band.label} band of its ${reading.weapon} (measured ${reading.measuredFrom}).`
      : `${who}: ${distanceIn.toFixed(1)}" is out of range, beyond its ${reading.weapon}'s ${last.label} (measured ${reading.measuredFrom}).`,
  ];
}
