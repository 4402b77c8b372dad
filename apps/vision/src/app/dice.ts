/**
 * The seeded roller from @muster/rules (`packages/rules/src/dice/`). Imported by path in this one place
 * until the rules package exports it from its index; switch to `from '@muster/rules'` then.
 */
export { createRng, restoreRng, rollDice, seedFromString } from '../../../../packages/rules/src/dice/index.ts';
export type { Rng, RngState } from '../../../../packages/rules/src/dice/index.ts';
