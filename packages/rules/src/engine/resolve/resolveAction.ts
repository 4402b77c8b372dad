/**
 * The checked entry to a rule set's after-the-roll part: the action must be one the rule set resolves and
 * name units and commanders on the table, and the faces must fit the dice it asks for, before the rule set
 * sees them. Errors here are the caller's (a bad request), so they throw `ResolveError`; a rule saying
 * "not possible now" is a `Refusal` value, as in `evaluate`.
 */
import type { TableState } from '../../model/tableState.ts';
import type { Refusal } from '../evaluation.ts';
import type { Ruleset } from '../ruleset.ts';
import { diceFacesProblems } from './readDice.ts';
import type { DiceFaces, DiceRequest, Outcome, PendingAction, RulesetResolution } from './resolution.ts';

/** A resolution request that cannot be answered as given: the message says what to change. */
export class ResolveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResolveError';
  }
}

/** The rule set's resolution part, or a `ResolveError` saying it has none. */
export function resolutionOf(ruleset: Ruleset): RulesetResolution {
  if (!ruleset.resolution) throw new ResolveError(`${ruleset.name} does not resolve rolls yet`);
  return ruleset.resolution;
}

/** Problems with the action itself on this table (unknown kind, unknown unit ...), one sentence each. */
export function pendingActionProblems(resolution: RulesetResolution, state: TableState, action: PendingAction): string[] {
  const spec = resolution.kinds.find((k) => k.kind === action.kind);
  if (!spec) return [`unknown action kind "${action.kind}" (this rule set resolves: ${resolution.kinds.map((k) => k.kind).join(', ')})`];
  const problems: string[] = [];
  const unitIds = new Set(state.units.map((u) => u.id));
  const commanderIds = new Set(state.commanders.map((c) => c.id));
  for (const field of spec.needs) {
    if (action[field] === undefined) problems.push(`"${action.kind}" needs ${field}`);
  }
  const named = [action.unitId, action.targetUnitId, ...(action.unitIds ?? []), ...(action.targetUnitIds ?? [])];
  for (const id of named) {
    if (id !== undefined && !unitIds.has(id)) problems.push(`unit "${id}" is not on this table`);
  }
  if (action.commanderId !== undefined && !commanderIds.has(action.commanderId)) {
    problems.push(`commander "${action.commanderId}" is not on this table`);
  }
  for (const [key, value] of Object.entries(action.choices ?? {})) {
    const allowed = spec.choices?.[key];
    if (!allowed) problems.push(`"${action.kind}" takes no choice "${key}"`);
    else if (!allowed.some((a) => JSON.stringify(a) === JSON.stringify(value))) {
      problems.push(`choice "${key}" must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${JSON.stringify(value)}`);
    }
  }
  return problems;
}

function check(problems: string[]): void {
  if (problems.length > 0) throw new ResolveError(problems.join('; '));
}

/** The dice `action` needs on this table; throws `ResolveError` for a malformed action. */
export function diceForAction(ruleset: Ruleset, state: TableState, action: PendingAction): readonly DiceRequest[] | Refusal {
  const resolution = resolutionOf(ruleset);
  check(pendingActionProblems(resolution, state, action));
  return resolution.diceFor(state, action);
}

/**
 * The outcome of `action` with these faces. Throws `ResolveError` when the action is malformed or the faces
 * do not fit the dice the rule set asks for; returns the rule set's refusal when the rules forbid it.
 */
export function resolveAction(ruleset: Ruleset, state: TableState, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const resolution = resolutionOf(ruleset);
  check(pendingActionProblems(resolution, state, action));
  const requests = resolution.diceFor(state, action);
  if (!Array.isArray(requests)) return requests as Refusal;
  check(diceFacesProblems(requests, faces));
  return resolution.resolve(state, action, faces);
}
