export * from './model/index.ts';
export type * from './engine/shapes.ts';
export type * from './engine/evaluation.ts';
export type * from './engine/ruleset.ts';
export * from './geometry/index.ts';
export * from './validate/index.ts';
export * from './engine/evaluate.ts';
export * from './rulesets/index.ts';
export * from './dice/index.ts';
