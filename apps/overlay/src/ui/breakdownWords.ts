/**
 * Breakdowns and refusals in words, without the DOM (formatBreakdown.ts builds the tables from them).
 */
import type { DiceBreakdown, Refusal } from '@muster/rules';

export function signed(n: number): string {
  return n > 0 ? `+${n}` : `${n}`;
}

/** What a breakdown's numbers count, in words: dice (default), points (looked up on a table), a modifier. */
export function breakdownUnit(b: DiceBreakdown, n?: number): string {
  const kind = b.kind ?? 'dice';
  if (kind === 'points') return n === 1 ? 'point' : 'points';
  if (kind === 'modifier') return 'modifier';
  return n === 1 ? 'die' : 'dice';
}

/** "3 dice", "7 points", "+1 modifier". */
export function breakdownAmount(b: DiceBreakdown): string {
  return b.kind === 'modifier' ? `${signed(b.dice)} modifier` : `${b.dice} ${breakdownUnit(b, b.dice)}`;
}

/**
 * A refusal as a player reads it: the rule's own sentence when it gives one, else its code made readable
 * ('fire/target-out-of-arc' → 'target out of arc'). The code itself goes in the tooltip.
 */
export function refusalText(r: Refusal): string {
  if (r.detail) return r.detail;
  const words = r.reason.split('/').pop() ?? r.reason;
  return words.replace(/[-_]+/g, ' ');
}

