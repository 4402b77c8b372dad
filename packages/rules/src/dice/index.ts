export * from './rng.ts';
export * from './rollDice.ts';
