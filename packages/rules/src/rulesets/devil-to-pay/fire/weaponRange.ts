/**
 * A unit's weapon range bands as the evaluation publishes them (`UnitEvaluation.weaponRange`): the
 * printed bands of its fire-table row where the cell is not blank, nearest first, each with its dice
 * modifier. Views draw them along the tape measure.
 */
import type { WeaponRangeReading } from '../../../engine/evaluation.ts';
import { bandsFor, FIRE_TABLE_SOURCE_ARTILLERY, FIRE_TABLE_SOURCE_INFANTRY, type WeaponRow } from '../tables/fireTables.ts';

/** How The Devil to Pay measures fire range (Range Modifiers, p. 21; see fire.ts). */
const MEASURED_FROM = 'from the centre of the eligible firing stands to the nearest target stand';

/**
 * @example weaponRangeReading(weaponRow('smoothbore-musket')!).bands
 * // [{ upToIn: 6, label: '6"', modifier: 2 }, { upToIn: 12, label: '12"', modifier: -2 }]
 */
export function weaponRangeReading(row: WeaponRow): WeaponRangeReading {
  // One reading per printed row, shared by every unit and evaluation (never mutated).
  let reading = readings.get(row);
  if (!reading) readings.set(row, (reading = readingOf(row)));
  return reading;
}

const readings = new Map<WeaponRow, WeaponRangeReading>();

function readingOf(row: WeaponRow): WeaponRangeReading {
  const limits = bandsFor(row.class);
  const bands: WeaponRangeReading['bands'][number][] = [];
  // Bands are read in order; a blank cell ends the weapon's reach (no printed row has a gap before a filled cell).
  for (let i = 0; i < limits.length; i++) {
    const dice = row.diceByBand[i];
    if (dice === null || dice === undefined) break;
    bands.push({ upToIn: limits[i]!, label: `${limits[i]}"`, modifier: dice });
  }
  return {
    weapon: row.name,
    bands,
    measuredFrom: MEASURED_FROM,
    source: row.class === 'infantry' ? FIRE_TABLE_SOURCE_INFANTRY : FIRE_TABLE_SOURCE_ARTILLERY,
  };
}
