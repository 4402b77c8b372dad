/**
 * Whether two table states agree on everything a rule-set session keeps no per-unit cache for: every
 * top-level field other than `stands` and `units` (table, terrain, commanders, parameters, options...),
 * and the order of the units (evaluations list them in order). Sessions drop every cache when it is false.
 */
import type { TableState } from '../model/tableState.ts';
import { samePlainData } from './samePlainData.ts';

export function sameTableGlobals(a: TableState, b: TableState): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  for (const k in ra) if (k !== 'stands' && k !== 'units' && !samePlainData(ra[k], rb[k])) return false;
  for (const k in rb) if (k !== 'stands' && k !== 'units' && !(k in ra) && rb[k] !== undefined) return false;
  if (a.units.length !== b.units.length) return false;
  for (let i = 0; i < a.units.length; i++) if (a.units[i]!.id !== b.units[i]!.id) return false;
  return true;
}
