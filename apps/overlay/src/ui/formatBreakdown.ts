/**
 * Dice breakdowns and refusals as DOM: each modifier on its own line with the rulebook section it comes
 * from, so a player can check the number against the book.
 */
import type { DiceBreakdown } from '@muster/rules';
import { h } from '../pages/bootstrap.ts';
import { breakdownUnit, signed } from './breakdownWords.ts';

// The words alone (no DOM) live in breakdownWords.ts, so node tests can use them.
export { breakdownAmount, breakdownUnit, refusalText } from './breakdownWords.ts';

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

/** Dice faces as a string of die glyphs, hits marked. */
export function facesText(faces: readonly number[]): string {
  const glyph = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
  return faces.map((f) => glyph[f - 1] ?? String(f)).join(' ');
}
