/**
 * A unit's status as short words for labels and the panel: what the operator set (disordered, prone,
 * hits, orders, the rule set's own fields) and the rules' morale reading when a threshold is reached.
 * Generic: a rule set's own status fields are shown by their ids made readable, not by knowing them.
 */
import type { MoraleReading, Unit } from '@muster/rules';

/** 'standsLost' / 'stands-lost' / 'stands_lost' → 'stands lost'. */
export function readableId(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .toLowerCase()
    .trim();
}

export function statusWords(unit: Pick<Unit, 'status' | 'standIds'>, morale?: MoraleReading): string[] {
  const st = unit.status ?? {};
  const out: string[] = [];
  if (st.disordered) out.push('disordered');
  if (st.prone) out.push('prone');
  const hits = Object.entries(st.hitsByStand ?? {}).reduce((n, [id, h]) => n + (unit.standIds.includes(id) ? h : 0), 0);
  if (hits > 0) out.push(`${hits} hit${hits === 1 ? '' : 's'}`);
  if (st.dismounted) out.push('dismounted');
  if (st.limbered) out.push('limbered');
  for (const [id, value] of Object.entries(st.rulesetStatus ?? {})) {
    const name = readableId(id);
    if (value === true) out.push(name);
    else if (typeof value === 'number' && value !== 0) out.push(`${name} ${value}`);
    else if (typeof value === 'string' && value !== '') out.push(`${name}: ${value}`);
    else if (Array.isArray(value) && value.length > 0) out.push(`${name}: ${value.join(', ')}`);
  }
  if (morale && morale.thresholds.some((t) => t.reached) && !out.includes(morale.state)) out.push(morale.state);
  return out;
}
