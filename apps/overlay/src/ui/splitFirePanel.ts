/**
 * The "Split fire" block of the operator's unit panel: per pair of targets the pool of dice, the harder
 * target it comes from, the rulebook source, a Roll button and (folded) the harder target's breakdown.
 * Text goes in through `h` as text nodes, never as HTML, so names from the roster cannot inject markup.
 */
import { h } from '../pages/bootstrap.ts';
import { breakdownTable } from './formatBreakdown.ts';
import type { SplitFireRow } from './splitFireRows.ts';

/**
 * The heading and one entry per row; a hint when the rule is on but no pair qualifies. `openKeys` holds the
 * pairs whose breakdown the operator has unfolded; it is kept up to date, so a refresh leaves them open.
 */
export function splitFirePanel(rows: readonly SplitFireRow[], onRoll: (row: SplitFireRow) => void, openKeys: Set<string> = new Set()): Node[] {
  const out: Node[] = [h('h3', {}, 'Split fire')];
  if (rows.length === 0) {
    out.push(h('div', { className: 'hint' }, 'No two targets to split fire between.'));
    return out;
  }
  for (const row of rows) {
    const roll = h('button', { type: 'button' }, `Roll ${row.dice}`);
    roll.addEventListener('click', () => onRoll(row));
    const entry = h('details', { className: 'split-fire', open: openKeys.has(row.key) },
      h('summary', {}, `${row.pairText} · `, h('span', { className: 'dice' }, `${row.dice} dice`), ' ', roll),
      h('div', {}, `${row.poolText}, to allocate between the two `, h('span', { className: 'src' }, row.source)),
      breakdownTable(row.breakdown));
    entry.dataset.pair = row.key;
    entry.addEventListener('toggle', () => (entry.open ? openKeys.add(row.key) : openKeys.delete(row.key)));
    out.push(entry);
  }
  return out;
}
