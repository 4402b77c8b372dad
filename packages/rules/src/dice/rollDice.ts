import type { Rng } from './rng.ts';

/** Faces rolled and how many of them hit. */
export interface DiceRoll {
  /** Each die's face, 1..6, in the order rolled. */
  readonly faces: readonly number[];
  /** Dice showing `hitOn` or more. */
  readonly hits: number;
}

/** Rolls one six-sided die, 1..6. */
export function rollDie(rng: Rng): number {
  return 1 + rng.nextInt(6);
}

/**
 * Rolls `n` six-sided dice and counts hits: 4, 5 or 6 by default (The Devil to Pay, Fire p. 23, Melee,
 * Rally). A modified dice count below zero means "no dice": clamp before calling.
 *
 * @param n number of dice, a non-negative integer
 * @param hitOn lowest face that scores, default 4
 * @example rollDice(createRng(1), 3) // { faces: [..3 faces..], hits: 0..3 }
 */
export function rollDice(rng: Rng, n: number, hitOn = 4): DiceRoll {
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`rollDice: n must be a non-negative integer number of dice, got ${n} (clamp modified dice to 0 first)`);
  }
  const faces: number[] = [];
  let hits = 0;
  for (let i = 0; i < n; i++) {
    const face = rollDie(rng);
    faces.push(face);
    if (face >= hitOn) hits++;
  }
  return { faces, hits };
}
