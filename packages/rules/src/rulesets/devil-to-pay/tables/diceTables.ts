/** The Devil to Pay (2018): the roll that scores on each die. */

/**
 * 4, 5 or 6 scores a hit when firing and in melee, and removes a hit when rallying (Fire: "4, 5 or 6
 * scoring a hit"; Melee; Rally: "Any rolls of a 4, 5 or 6 removes a hit"; Quick Reference: Fire, Charge and
 * Rally "4, 5, 6").
 */
export const HIT_ON = 4;
