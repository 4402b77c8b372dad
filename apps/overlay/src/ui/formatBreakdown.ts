/**
 * Dice breakdowns and refusals as DOM: each modifier on its own line with the rulebook section it comes
 * from, so a player can check the number against the book.
 */
import type { DiceBreakdown, Refusal } from '@muster/rules';
import { h } from '../pages/bootstrap.ts';

function signed(n: number): string {
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

export function breakdownTable(b: DiceBreakdown): HTMLTableElement {
  const unit = breakdownUnit(b);
  const rows: HTMLTableRowElement[] = [h('tr', {}, h('td', {}, `Base ${unit}`), h('td', { className: 'num' }, String(b.baseDice)), h('td'))];
  for (const m of b.modifiers) {
    rows.push(h('tr', {}, h('td', {}, m.label), h('td', { className: 'num' }, signed(m.dice)), h('td', { className: 'src' }, m.source)));
  }
  for (const m of b.limits) {
    rows.push(h('tr', {}, h('td', {}, `Limit: ${m.label}`), h('td', { className: 'num' }, signed(m.dice)), h('td', { className: 'src' }, m.source)));
  }
  rows.push(h('tr', {}, h('th', {}, unit[0]!.toUpperCase() + unit.slice(1)), h('th', { className: 'num dice' }, String(b.dice)), h('th', {}, b.hitOn !== undefined ? `hits on ${b.hitOn}+` : '')));
  const table = h('table', { className: 'breakdown' }, ...rows);
  return table;
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

/** Dice faces as a string of die glyphs, hits marked. */
export function facesText(faces: readonly number[]): string {
  const glyph = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
  return faces.map((f) => glyph[f - 1] ?? String(f)).join(' ');
}
