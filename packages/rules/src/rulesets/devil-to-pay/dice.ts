/**
 * The Devil to Pay rolls: fire, melee, rally, skedaddle, Shot from the Saddle and Carpe Diem. Every roll
 * takes an injected seeded `Rng`, so a game log that stores the generator state can replay it.
 */
import type { DiceBreakdown } from '../../engine/evaluation.ts';
import type { CommanderQuality } from '../../model/tableState.ts';
import { rollDice, rollDie, type DiceRoll } from '../../dice/rollDice.ts';
import type { Rng } from '../../dice/rng.ts';

import { HIT_ON } from './tables/diceTables.ts';

export { HIT_ON };
/** Shot from the Saddle: on a '6' the commander is removed (Commanders, p. 6). */
export const SHOT_FROM_SADDLE_ON = 6;
/** Skedaddle distance: 3D6 inches (Skedaddle, Process 1). */
export const SKEDADDLE_DICE = 3;
/** Mounted cavalry's 6" movement bonus "also applies to skedaddle" (Mounted Cavalry, p. 11). */
export const MOUNTED_SKEDADDLE_BONUS_IN = 6;

function diceCount(dice: number | DiceBreakdown): number {
  const n = typeof dice === 'number' ? dice : dice.dice;
  // Modifiers can take a count below zero; that is "no dice", not an error.
  return Math.max(0, Math.floor(n));
}

/** A fire roll: the breakdown's dice (or a count), 4-6 hits. */
export function rollFire(rng: Rng, dice: number | DiceBreakdown): DiceRoll {
  return rollDice(rng, diceCount(dice), HIT_ON);
}

export interface MeleeRoll {
  readonly attacker: DiceRoll;
  readonly defender: DiceRoll;
  /** Hits the attacker suffers (the defender's hits) and the defender suffers. */
  readonly hitsOnAttacker: number;
  readonly hitsOnDefender: number;
  /** "The side that suffered the least hits wins the melee (Defender wins ties)" (Charge, Melee). */
  readonly winner: 'attacker' | 'defender';
}

/** Both sides of a melee roll together; the loser skedaddles (Charge, Melee). */
export function rollMelee(rng: Rng, attackerDice: number | DiceBreakdown, defenderDice: number | DiceBreakdown): MeleeRoll {
  const attacker = rollDice(rng, diceCount(attackerDice), HIT_ON);
  const defender = rollDice(rng, diceCount(defenderDice), HIT_ON);
  const hitsOnAttacker = defender.hits;
  const hitsOnDefender = attacker.hits;
  return { attacker, defender, hitsOnAttacker, hitsOnDefender, winner: hitsOnAttacker < hitsOnDefender ? 'attacker' : 'defender' };
}

export interface RallyRoll {
  readonly roll: DiceRoll;
  /** Hits removed: one per 4-6, no more than the unit has (Rally). */
  readonly hitsRemoved: number;
}

/** A rally roll against `hits` hits on the unit. */
export function rollRally(rng: Rng, dice: number | DiceBreakdown, hits: number): RallyRoll {
  if (!Number.isInteger(hits) || hits < 0) throw new Error(`rollRally: hits must be a non-negative integer, got ${hits}`);
  const roll = rollDice(rng, diceCount(dice), HIT_ON);
  return { roll, hitsRemoved: Math.min(roll.hits, hits) };
}

export interface SkedaddleRoll {
  readonly faces: readonly number[];
  /** Full distance the unit falls back, inches: 3D6, +6" mounted. */
  readonly distanceIn: number;
}

/** Skedaddle distance: 3D6 inches, plus 6" for mounted cavalry (and horse artillery, per its bonus). */
export function rollSkedaddle(rng: Rng, opts: { readonly mounted?: boolean } = {}): SkedaddleRoll {
  const { faces } = rollDice(rng, SKEDADDLE_DICE, HIT_ON);
  const sum = faces.reduce((s, f) => s + f, 0);
  return { faces, distanceIn: sum + (opts.mounted ? MOUNTED_SKEDADDLE_BONUS_IN : 0) };
}

export interface ShotFromSaddleRoll {
  readonly face: number;
  readonly shot: boolean;
  /** Quality of the replacement at the next Reload: Superb/Capable become Weak, Weak are not replaced. */
  readonly replacement?: CommanderQuality;
}

/**
 * Shot from the Saddle (Commanders, p. 6): rolled for an attached commander in any phase his unit takes
 * hits, and before he leads a charge without an order.
 */
export function rollShotFromSaddle(rng: Rng, quality: CommanderQuality): ShotFromSaddleRoll {
  const face = rollDie(rng);
  const shot = face >= SHOT_FROM_SADDLE_ON;
  return shot && quality !== 'weak' ? { face, shot, replacement: 'weak' } : { face, shot };
}

export interface CarpeDiemEntrant {
  /** A side or player id. */
  readonly id: string;
  /**
   * Dice rolled, default 1. Optional Rules (Number of Carpe Diem Dice) allow an extra die for the smaller
   * side or an exceptional general; the entrant scores its best die (our reading: the rule does not say
   * whether dice are added, and adding them would outweigh "evening up the odds").
   */
  readonly dice?: number;
}

export interface CarpeDiemRoll {
  /** Every round: each remaining entrant's faces and best face. Later rounds hold only the tied leaders. */
  readonly rounds: readonly (readonly { readonly id: string; readonly faces: readonly number[]; readonly best: number }[])[];
  readonly winnerId: string;
}

/**
 * Carpe Diem (Actions Cards, Carpe Diem): every player who wishes (and has orders left) rolls one die;
 * ties for the highest roll are re-rolled. The winner chooses the action and acts first.
 */
export function rollCarpeDiem(rng: Rng, entrants: readonly CarpeDiemEntrant[]): CarpeDiemRoll {
  if (entrants.length === 0) throw new Error('rollCarpeDiem: nobody rolled; a player with no orders left may not take part, so pass at least one entrant');
  const ids = new Set(entrants.map((e) => e.id));
  if (ids.size !== entrants.length) throw new Error('rollCarpeDiem: entrant ids must be unique');
  const rounds: { id: string; faces: number[]; best: number }[][] = [];
  let remaining = [...entrants];
  // Each round has a 1/6^k chance of a total tie at most, so this ends quickly; the cap only guards bugs.
  for (let round = 0; round < 1000; round++) {
    const results = remaining.map((e) => {
      const n = Math.max(1, Math.floor(e.dice ?? 1));
      const faces = Array.from({ length: n }, () => rollDie(rng));
      return { id: e.id, faces, best: Math.max(...faces) };
    });
    rounds.push(results);
    const top = Math.max(...results.map((r) => r.best));
    const leaders = results.filter((r) => r.best === top);
    if (leaders.length === 1) return { rounds, winnerId: leaders[0]!.id };
    remaining = remaining.filter((e) => leaders.some((l) => l.id === e.id));
  }
  throw new Error('rollCarpeDiem: 1000 tied rounds; the random source is not random');
}
