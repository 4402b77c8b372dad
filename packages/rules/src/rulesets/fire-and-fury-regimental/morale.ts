/**
 * Fresh / worn / spent (QRS II, Fire Combat Effects, Inflicting Troop Casualties: "Lost stands can lower a
 * unit's effectiveness from fresh to worn, and eventually to spent"). The stands lost at which a unit turns
 * worn and spent are printed on its label in the scenario order of battle, not in the QRS: unit fields.
 */
import type { MoraleReading } from '../../engine/evaluation.ts';
import type { FfrContext, FfrUnitInfo, WarningSink } from './context.ts';
import { qrs } from './tables/source.ts';

export type Effectiveness = 'fresh' | 'worn' | 'spent';

export interface MoraleResult {
  readonly reading: MoraleReading;
  /** Undefined when the label values are not entered. */
  readonly effectiveness?: Effectiveness;
}

const SOURCE = qrs('Fire Combat Effects, Inflicting Troop Casualties');

/**
 * `detachedStands`: stands of the unit's skirmisher detachments on the table, counted with its own ("The
 * current level is based on the combined strength of the remaining stands in the regiment and its detached
 * skirmishers", Skirmishers).
 */
export function evaluateMorale(ctx: FfrContext, info: FfrUnitInfo, sink: WarningSink, detachedStands = 0): MoraleResult {
  const unit = info.unit;
  const given = ctx.statusField(unit, 'standsLost');
  // The label's field, else the army file's count of the unit's stands (lost stands leave the table).
  const field = ctx.unitField(unit, 'startingStands');
  const starting = typeof field === 'number' ? field : unit.startingStands;
  let lost = 0;
  if (typeof given === 'number') lost = given;
  else if (typeof starting === 'number') lost = Math.max(0, starting - info.stands.length - detachedStands);
  else sink.add('morale/losses-unknown', `${unit.name}: stands lost unknown; enter rulesetFields.startingStands or status.rulesetStatus.standsLost (counted as 0).`);
  const wornAt = ctx.unitField(unit, 'wornAtStandsLost');
  const spentAt = ctx.unitField(unit, 'spentAtStandsLost');
  const thresholds = [];
  if (typeof wornAt === 'number') thresholds.push({ label: 'worn', at: wornAt, reached: lost >= wornAt, source: `${SOURCE}; unit label` });
  if (typeof spentAt === 'number') thresholds.push({ label: 'spent', at: spentAt, reached: lost >= spentAt, source: `${SOURCE}; unit label` });
  let effectiveness: Effectiveness | undefined;
  if (typeof wornAt === 'number' && typeof spentAt === 'number') {
    effectiveness = lost >= spentAt ? 'spent' : lost >= wornAt ? 'worn' : 'fresh';
  } else {
    sink.add(
      'unit/missing-field',
      `${unit.name}: fresh/worn/spent needs rulesetFields.wornAtStandsLost and spentAtStandsLost from the unit's label (not in the QRS); effectiveness modifiers left out.`,
    );
  }
  return {
    reading: { state: effectiveness ?? 'unknown', counted: { label: 'stands lost', value: lost }, thresholds },
    ...(effectiveness ? { effectiveness } : {}),
  };
}
