/**
 * Dice breakdowns and refusals as DOM: each modifier on its own line with the rulebook section it comes
 * from, so a player can check the number against the book.
 */
import type { DiceBreakdown, Refusal } from '@muster/rules';
import { h } from '../pages/bootstrap.ts';

function signed(n: number): string {
  return n > 0 ? `+${n}` : `${n}`;
}

export function breakdownTable(b: DiceBreakdown): HTMLTableElement {
  const rows: HTMLTableRowElement[] = [h('tr', {}, h('td', {}, 'Base dice'), h('td', { className: 'num' }, String(b.baseDice)), h('td'))];
  for (const m of b.modifiers) {
    rows.push(h('tr', {}, h('td', {}, m.label), h('td', { className: 'num' }, signed(m.dice)), h('td', { className: 'src' }, m.source)));
  }
  for (const m of b.limits) {
    rows.push(h('tr', {}, h('td', {}, `Limit: ${m.label}`), h('td', { className: 'num' }, signed(m.dice)), h('td', { className: 'src' }, m.source)));
  }
  rows.push(h('tr', {}, h('th', {}, 'Dice'), h('th', { className: 'num dice' }, String(b.dice)), h('th')));
  const table = h('table', { className: 'breakdown' }, ...rows);
  return table;
}

export function refusalText(r: Refusal): string {
  return r.detail ? `${r.reason} — ${r.detail}` : r.reason;
}

/** Dice faces as a string of die glyphs, hits marked. */
export function facesText(faces: readonly number[]): string {
  const glyph = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
  return faces.map((f) => glyph[f - 1] ?? String(f)).join(' ');
}
