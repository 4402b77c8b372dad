/** Citation prefix for every number in this rule set (the supplement's own section names and pages). */
export const VB = 'Volley & Bayonet: At War in the Americas';

/** "Volley & Bayonet: At War in the Americas, <section> (p. N)". */
export function cite(section: string, page?: number): string {
  return page === undefined ? `${VB}, ${section}` : `${VB}, ${section} (p. ${page})`;
}
