/**
 * The panel's "cannot fire / cannot charge" list split in two: refusals for a reason worth reading (out of
 * arc, no line of sight, must fire at another target...) stay in sight, and those for distance alone are
 * counted into one folded line ("12 more out of range"), since on a big table most enemies are simply far.
 */
import { isOutOfRange } from './tapeReading.ts';

export interface RefusalGroups<T> {
  /** Refused for another reason than distance, in the rules' order. */
  readonly shown: readonly T[];
  /** Refused for distance alone, in the rules' order. */
  readonly far: readonly T[];
  /** "12 more out of range" / "1 more out of reach"; '' when none. */
  readonly farTitle: string;
}

export function groupRefusals<T extends { readonly reason: string }>(kind: 'fire' | 'charge', refusals: readonly T[]): RefusalGroups<T> {
  const shown: T[] = [];
  const far: T[] = [];
  for (const r of refusals) (isOutOfRange(r.reason) ? far : shown).push(r);
  const what = kind === 'fire' ? 'out of range' : 'out of reach';
  return { shown, far, farTitle: far.length === 0 ? '' : `${far.length} ${shown.length > 0 ? 'more ' : ''}${what}` };
}
