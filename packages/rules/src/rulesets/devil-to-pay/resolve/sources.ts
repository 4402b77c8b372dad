/**
 * The sections of The Devil to Pay (2018) that the after-the-roll modules cite
 * (`../shared/rulebooks/devil-to-pay-2018.txt` and `devil-to-pay-2018-quick-reference.txt`), in one place
 * so every outcome step names its section the same way.
 */
const BOOK = 'The Devil to Pay (2018)';

/** Fire: "The firer rolls the appropriate number of dice with 4, 5 or 6 scoring a hit" (p. 23). */
export const SRC_FIRE_ROLL = `${BOOK}, Fire: Fire (p. 23)`;
/** Fire: Process, step 3 "Apply hits": the effects of fire are simultaneous. */
export const SRC_FIRE_SIMULTANEOUS = `${BOOK}, Fire: Process`;
/** Fire: hits marked on stands, a second hit removes the stand, no second hit before every stand has one (p. 23). */
export const SRC_HITS = `${BOOK}, Fire: Fire, hits on stands (p. 23); Quick Reference: Hit Effects`;
/** Fire: "Any infantry or cavalry regiment reduced to a single stand is removed from the game" (p. 23). */
export const SRC_REDUCED_TO_ONE = `${BOOK}, Fire: Fire (p. 23); Quick Reference: Hit Effects`;
/** Armies, Artillery: "Artillery batteries reduced to one stand ... become an independent section". */
export const SRC_ARTILLERY_SECTION = `${BOOK}, Armies, Artillery: Batteries and Sections`;
/** Armies, Infantry: Double Line: "Hits may be applied to the second rank before the first". */
export const SRC_DOUBLE_LINE_HITS = `${BOOK}, Armies, Infantry: Double Line`;
/** Commanders: Shot from the Saddle (p. 6). */
export const SRC_SHOT_FROM_SADDLE = `${BOOK}, Commanders: Shot from the Saddle (p. 6)`;
/** Charge: Melee: both sides roll, hits spread evenly, fewer hits suffered wins, defender wins ties. */
export const SRC_MELEE = `${BOOK}, Charge: Melee (pp. 24-26); Quick Reference: Charge Outcome`;
/** Charge: Charge Move: "Thicket, cities, abatis, chevaux-de-frise and friendly units disorder charging regiments prior to melee". */
export const SRC_CHARGE_DISORDER = `${BOOK}, Charge: Charge Move`;
/** Charge: Reinforce a Defense: "Reinforcing units are considered defenders for melee results". */
export const SRC_REINFORCE = `${BOOK}, Charge: Reinforce a Defense`;
/** Optional Rules: Going Prone: a prone unit in a melee "is considered to have stood up upon completion of the melee". */
export const SRC_PRONE = `${BOOK}, Optional Rules: Going Prone`;
/** Rally: Rally: two D6, each 4, 5 or 6 removes a hit (p. 28). */
export const SRC_RALLY = `${BOOK}, Rally: Rally (p. 28)`;
/** Rally: Reform: "A unit or commander may expend an order to change from disordered to line" (p. 28). */
export const SRC_REFORM = `${BOOK}, Rally: Reform (p. 28)`;
/** Skedaddle: Process 1-4 and Notes. */
export const SRC_SKEDADDLE = `${BOOK}, Skedaddle: Process and Notes; Quick Reference: Skedaddle`;
/** Skedaddle: Skedaddling through Units. */
export const SRC_SKEDADDLE_THROUGH = `${BOOK}, Skedaddle: Skedaddling through Units`;
