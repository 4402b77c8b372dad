/**
 * Dice difference → status levels lost (While the Devil Rules, Combat Effects and Rallying, "Calculating
 * Fire and Combat Outcomes Using Dice"). Positive difference = in the firer's / attacker's favour.
 */

export const OUTCOME_SOURCE = 'Combat Effects and Rallying (Calculating Fire and Combat Outcomes Using Dice)';

export interface Outcome {
  /** Status levels the loser (for fire: the target) loses; 'destroyed' is automatic destruction. */
  readonly levels: number | 'destroyed';
  /** Which side suffers: for fire always the target; for melee the lower roll, or both on a tie. */
  readonly who: 'target' | 'actor' | 'both' | 'none';
}

/** Levels by the size of a winning difference: 1-3 → 1, 4-5 → 2, 6-7 → 3, 8+ → destroyed (both tables). */
function levelsFor(diff: number): number | 'destroyed' {
  if (diff >= 8) return 'destroyed';
  if (diff >= 6) return 3;
  if (diff >= 4) return 2;
  return 1;
}

/** Fire: "equal, or if the target's roll is greater, the fire has no effect", else by the difference. */
export function fireOutcome(firerRoll: number, targetRoll: number): Outcome {
  const diff = firerRoll - targetRoll;
  if (diff <= 0) return { levels: 0, who: 'none' };
  return { levels: levelsFor(diff), who: 'target' };
}

/** Melee: "equal ... both sides suffer a single Status Level", else the lower side by the difference. */
export function meleeOutcome(actorRoll: number, targetRoll: number): Outcome {
  const diff = actorRoll - targetRoll;
  if (diff === 0) return { levels: 1, who: 'both' };
  return { levels: levelsFor(Math.abs(diff)), who: diff > 0 ? 'target' : 'actor' };
}

/** "If a 'devastating fire' results (the loss of 2 Status Levels) then the charging unit will fail to contact" (Charges). */
export const DEVASTATING_FIRE_LEVELS = 2;

/**
 * Whether a defensive fire of 3 levels or automatic destruction is "devastating" too. The guide names only "the
 * loss of 2 Status Levels"; read as 2 or more ('at-least'), since a fire that costs more stops a charge at
 * least as surely (and a destroyed unit makes no contact). 'exactly' would let a unit that lost 3 levels
 * charge home.
 */
export const DEVASTATING_FIRE_READING: 'at-least' | 'exactly' = 'at-least';

/** A defensive fire's result that stops the charge an inch short. */
export function isDevastatingFire(o: Outcome): boolean {
  if (o.who !== 'target') return false;
  if (o.levels === 'destroyed') return DEVASTATING_FIRE_READING === 'at-least';
  return DEVASTATING_FIRE_READING === 'at-least' ? o.levels >= DEVASTATING_FIRE_LEVELS : o.levels === DEVASTATING_FIRE_LEVELS;
}
