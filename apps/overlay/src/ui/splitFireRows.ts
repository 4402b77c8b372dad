/**
 * The operator panel's "Split fire" block as plain data (The Devil to Pay, Optional Rules: Split Fire): one
 * row per pair of targets the unit may split its fire between, with the pool of dice (the harder target's)
 * and where that number comes from. No DOM here, so it is tested in node; `splitFirePanel.ts` draws it.
 */
import type { DiceBreakdown, SplitFireOption } from '@muster/rules';

export interface SplitFireRow {
  /** Stable per pair, e.g. for keeping a breakdown open across refreshes. */
  readonly key: string;
  readonly targetUnitIds: readonly [string, string];
  /** "28th Virginia + 1st Texas". */
  readonly pairText: string;
  readonly harderTargetName: string;
  /** Dice to allocate between the two targets. */
  readonly dice: number;
  /** "pool 3 dice, from 1st Texas (the harder target)". */
  readonly poolText: string;
  /** The rulebook section the pool rule comes from. */
  readonly source: string;
  /** The harder target's breakdown, from which the pool comes. */
  readonly breakdown: DiceBreakdown;
}

/** Rows for a unit's split fire options, in the order the rules give them; empty for none. */
export function splitFireRows(options: readonly SplitFireOption[], nameOf: (unitId: string) => string): SplitFireRow[] {
  return options.map((o) => {
    const [a, b] = o.targetUnitIds;
    const harderTargetName = nameOf(o.harderTargetUnitId);
    return {
      key: `${a}|${b}`,
      targetUnitIds: [a, b],
      pairText: `${nameOf(a)} + ${nameOf(b)}`,
      harderTargetName,
      dice: o.dice,
      poolText: `pool ${o.dice} ${o.dice === 1 ? 'die' : 'dice'}, from ${harderTargetName} (the harder target)`,
      source: o.source,
      breakdown: o.breakdown,
    };
  });
}
