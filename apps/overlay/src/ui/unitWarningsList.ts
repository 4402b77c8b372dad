/**
 * The selected unit's rules warnings, at the top of its panel (the Warnings section lists every unit's).
 * Text nodes only, through `h`.
 */
import { h } from '../pages/bootstrap.ts';
import type { UnitWarningLine } from './unitWarnings.ts';

/** A list of the unit's warnings, or null when it has none. */
export function unitWarningsList(lines: readonly UnitWarningLine[]): HTMLUListElement | null {
  if (lines.length === 0) return null;
  const list = h('ul', { className: 'unit-warnings' },
    ...lines.map((l) => {
      const item = h('li', { className: 'refusal' }, '⚠ ', l.message);
      item.dataset.code = l.code;
      return item;
    }));
  list.id = 'unit-warnings';
  return list;
}
