/** An outcome in players' words: one line for a strip or a log, and its faces read as the request says. */
import type { Outcome, ReadRoll } from '@muster/rules';

/** "Withering fire: 2 stands lost, disordered. 12th Virginia falls back 6"" (the result when there is no summary). */
export function outcomeLine(o: Outcome): string {
  const summary = o.summary.trim();
  if (summary === '') return o.result;
  return summary.toLowerCase().startsWith(o.result.toLowerCase()) ? summary : `${o.result}: ${summary}`;
}

/** "Attacker: 6 2 4 → 2 hits (4+)", "Morale: 3 → passes under 4", "Fire: 7 +1 → 8". */
export function rollLine(r: ReadRoll): string {
  const q = r.request;
  const faces = r.faces.join(' ') || 'no dice';
  switch (q.reading) {
    case 'hits':
      return `${q.label}: ${faces} → ${r.value} hit${r.value === 1 ? '' : 's'} (${q.hitOn ?? 4}+)`;
    case 'under':
      return `${q.label}: ${faces} → ${r.value} pass${r.value === 1 ? '' : 'es'} (${q.target ?? 0} or less)`;
    case 'total':
    case 'each': {
      // 'each' adds the modifier only to a single die (readDice.ts).
      const modifies = q.modifier && (q.reading === 'total' || r.faces.length === 1);
      const mod = modifies ? ` ${q.modifier! > 0 ? '+' : '−'}${Math.abs(q.modifier!)}` : '';
      return `${q.label}: ${faces}${mod} → ${r.value}`;
    }
  }
}
