/**
 * What a pool of dice can be expected to do, for the number next to it: each die scores on `hitOn` or
 * more on a d6 (independent dice), so hits are binomial.
 */
export interface PoolOdds {
  readonly expectedHits: number;
  /** Chance of at least one hit, 0..1. */
  readonly atLeastOne: number;
}

/** @example poolOdds(3, 4) // { expectedHits: 1.5, atLeastOne: 0.875 } */
export function poolOdds(dice: number, hitOn: number): PoolOdds {
  if (!Number.isInteger(dice) || dice < 0) throw new Error(`dice must be a whole number ≥ 0, got ${dice}`);
  if (!(hitOn >= 1 && hitOn <= 7)) throw new Error(`hitOn must be 1..6 (7: never), got ${hitOn}`);
  const p = Math.min(1, Math.max(0, (7 - Math.ceil(hitOn)) / 6));
  return { expectedHits: dice * p, atLeastOne: 1 - (1 - p) ** dice };
}

/** "≈1.5 hits · 88% ≥1" */
export function poolOddsText(dice: number, hitOn: number): string {
  const o = poolOdds(dice, hitOn);
  return `≈${o.expectedHits.toFixed(1)} hits · ${Math.round(o.atLeastOne * 100)}% ≥1 (${hitOn}+)`;
}
