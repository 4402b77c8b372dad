/**
 * Checks shared by the rule-set contract and the conformance suite: the layers and styles views know,
 * deep-freezing a state, and finding non-finite numbers in an evaluation.
 */
import type { LayerId, StyleId } from '@muster/rules';

export const LAYERS: readonly LayerId[] = ['movement', 'fire', 'charge', 'command', 'formation', 'labels', 'measure', 'warnings'];
export const STYLES: readonly StyleId[] = [
  'reach', 'reach-road', 'blocked', 'arc', 'arc-artillery', 'target', 'target-priority', 'charge',
  'link', 'link-broken', 'formation', 'label', 'warning', 'measure',
];

export function deepFreeze<T>(x: T): T {
  if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/** Paths of numbers that are NaN or infinite anywhere in a value. */
export function nonFinite(x: unknown, path = ''): string[] {
  if (typeof x === 'number') return Number.isFinite(x) ? [] : [path];
  if (typeof x !== 'object' || x === null) return [];
  return Object.entries(x).flatMap(([k, v]) => nonFinite(v, `${path}.${k}`));
}
