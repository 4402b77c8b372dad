/** Citation prefix for every number this rule set takes from its document. */
export const QRS = 'Regimental Fire and Fury QRS II';

/** "Regimental Fire and Fury QRS II, <section>". */
export function qrs(section: string): string {
  return `${QRS}, ${section}`;
}
