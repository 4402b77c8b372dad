/**
 * Targets the rules said no to, in the unit panel: muted, one line each with the reason in words (the
 * rule's code only in the tooltip). Refusals for a reason worth reading stay in sight; those for distance
 * alone fold into one line, "12 more out of range", opened on demand (refusalGroups.ts splits them).
 * Text nodes only, through `h`.
 */
import type { Refusal } from '@muster/rules';
import { h } from '../pages/bootstrap.ts';
import { refusalText } from './breakdownWords.ts';
import { groupRefusals } from './refusalGroups.ts';

type TargetRefusal = Refusal & { readonly targetUnitId: string };

/**
 * @param open which far groups the operator has unfolded ('fire', 'charge'), kept across rebuilds
 */
export function whyNotList(kind: 'fire' | 'charge', refusals: readonly TargetRefusal[], nameOf: (unitId: string) => string, open: Set<string>): HTMLElement {
  const groups = groupRefusals(kind, refusals);
  const line = (r: TargetRefusal) => h('div', { className: 'why-not-line', title: `rule: ${r.reason}` }, `${nameOf(r.targetUnitId)}: ${refusalText(r)}`);
  const n = refusals.length;
  const box = h('div', { className: `why-not why-not-${kind}` },
    h('div', { className: 'why-not-title' }, `${kind === 'fire' ? 'Cannot fire at' : 'Cannot charge'} ${n} unit${n === 1 ? '' : 's'}`),
    ...groups.shown.map(line));
  if (groups.far.length > 0) {
    const far = h('details', { className: 'why-not-far' }, h('summary', {}, groups.farTitle), ...groups.far.map(line));
    far.open = open.has(kind);
    far.addEventListener('toggle', () => (far.open ? open.add(kind) : open.delete(kind)));
    box.append(far);
  }
  return box;
}
