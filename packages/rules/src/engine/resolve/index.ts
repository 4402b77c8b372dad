export type * from './resolution.ts';
export * from './readDice.ts';
export * from './resolveAction.ts';
export * from './applyOutcome.ts';
export * from './forcedMovePath.ts';
