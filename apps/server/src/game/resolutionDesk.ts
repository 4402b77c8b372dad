/**
 * After the roll, for the service: the operator's resolution requests against the live table and the rule
 * set in use, generic over `Ruleset.resolution` (no rule set is named here).
 *
 * - `resolve-offer`: the actions a unit may roll for now, each with its dice (or the rules' refusal).
 * - `resolve-roll`: the outcome, from the game's seeded roller (saved, so a replay of the log and a restart
 *   go on with the same dice) or from faces the players rolled (checked first; nothing is saved when they do
 *   not fit). Logged as an `outcome` entry; the table is not touched.
 * - `apply-outcome`: every status change of a logged outcome in ONE saved, logged step (`outcome-applied`,
 *   with each unit's operator status before and after). Stands lost and forced moves are made by hand.
 * - `undo-outcome`: the statuses from before that step (`outcome-undone`), refused when one changed since.
 * - `clear-outcome`: the views stop showing the outcome (`outcome-cleared`).
 */
import {
  ResolveError,
  applyOutcome,
  diceForAction,
  evaluate,
  resolutionOf,
  resolveAction,
  rollRequestedDice,
  unitCentreIn,
  type Evaluation,
  type Outcome,
  type PendingAction,
  type Refusal,
  type ResolutionKindSpec,
  type Ruleset,
  type RulesetResolution,
  type StatusPatch,
  type TableState,
  type UnitStatus,
} from '@muster/rules';
import { jsonEqual, type GameLogEntry, type OfferedAction, type OperatorMessage, type ResolutionOffer } from '@muster/protocol';
import { ActionError, type ActionResult } from '../http/backend.ts';
import type { GameSession } from './gameSession.ts';

export type ResolutionMessage = Extract<OperatorMessage, { type: 'resolve-offer' | 'resolve-roll' | 'apply-outcome' | 'undo-outcome' | 'clear-outcome' }>;

const RESOLUTION_TYPES: readonly string[] = ['resolve-offer', 'resolve-roll', 'apply-outcome', 'undo-outcome', 'clear-outcome'];

export function isResolutionMessage(msg: OperatorMessage): msg is ResolutionMessage {
  return RESOLUTION_TYPES.includes(msg.type);
}

/** What a resolution reads: the rule set in use and the newest published table (with its evaluation). */
export interface ResolutionTable {
  readonly ruleset: Ruleset | null;
  readonly tableState: TableState;
  /** The newest evaluation; null before the first (the offer then evaluates this table once). */
  readonly evaluation: Evaluation | null;
}

function isRefusal(x: unknown): x is Refusal {
  return typeof x === 'object' && x !== null && (x as { ok?: unknown }).ok === false;
}

function refusalText(r: Refusal): string {
  return `${r.reason}${r.detail ? ` (${r.detail})` : ''}`;
}

/** The rule set's resolution part, or the operator's error saying why there is none. */
function resolutionIn(ruleset: Ruleset | null): { ruleset: Ruleset; resolution: RulesetResolution } {
  if (!ruleset) throw new ActionError('conflict', 'the game runs without rules, so nothing can be resolved');
  try {
    return { ruleset, resolution: resolutionOf(ruleset) };
  } catch (err) {
    throw new ActionError('conflict', (err as Error).message);
  }
}

/** A request error of the engine (`ResolveError`) as the operator's `invalid-message`. */
function asRequestError<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ResolveError) throw new ActionError('invalid-message', err.message);
    throw err;
  }
}

function unitName(state: TableState, unitId: string): string {
  return state.units.find((u) => u.id === unitId)?.name ?? unitId;
}

/** "Fire → 12th Virginia", "Charge → 3rd Ohio (with 4th Ohio)": the kind's label and whom it concerns. */
export function offeredActionLabel(spec: ResolutionKindSpec | undefined, action: PendingAction, state: TableState): string {
  const targets = [action.targetUnitId, ...(action.targetUnitIds ?? [])].filter((id): id is string => id !== undefined);
  const uniqueTargets = [...new Set(targets)].map((id) => unitName(state, id));
  const others = (action.unitIds ?? []).filter((id) => id !== action.unitId).map((id) => unitName(state, id));
  const commander = action.commanderId ? state.commanders.find((c) => c.id === action.commanderId)?.name ?? action.commanderId : undefined;
  return `${spec?.label ?? action.kind}${uniqueTargets.length ? ` → ${uniqueTargets.join(' + ')}` : ''}${others.length ? ` (with ${others.join(', ')})` : ''}${commander ? ` (${commander})` : ''}`;
}

function offer(table: ResolutionTable, unitId: string, asked?: readonly PendingAction[]): ResolutionOffer {
  const { ruleset, resolution } = resolutionIn(table.ruleset);
  const state = table.tableState;
  if (!state.units.some((u) => u.id === unitId)) {
    throw new ActionError('not-found', `unit "${unitId}" is not on the table (its stands are not seen, or the roster has no such unit)`);
  }
  const listed = asked ?? resolution.offered(state, table.evaluation ?? evaluate(state, ruleset), unitId);
  const actions: OfferedAction[] = listed.map((action) => {
    const spec = resolution.kinds.find((k) => k.kind === action.kind);
    const label = offeredActionLabel(spec, action, state);
    const dice = asRequestError(() => diceForAction(ruleset, state, action));
    return isRefusal(dice) ? { action, label, dice: null, refusal: dice } : { action, label, dice: [...dice] };
  });
  return { rulesetId: ruleset.id, unitId, dice: resolution.dice, kinds: resolution.kinds, actions };
}

function roll(session: GameSession, table: ResolutionTable, msg: Extract<ResolutionMessage, { type: 'resolve-roll' }>): ActionResult {
  const { ruleset } = resolutionIn(table.ruleset);
  const state = table.tableState;
  const requests = asRequestError(() => diceForAction(ruleset, state, msg.action));
  if (isRefusal(requests)) throw new ActionError('conflict', `the rules refuse this roll: ${refusalText(requests)}`);
  const resolved = (faces: Parameters<typeof resolveAction>[3]): Outcome => {
    const outcome = asRequestError(() => resolveAction(ruleset, state, msg.action, faces));
    if (isRefusal(outcome)) throw new ActionError('conflict', `the rules refuse this roll: ${refusalText(outcome)}`);
    return outcome;
  };
  // Players' dice never touch the roller; the roller's draw is kept only when the outcome is logged.
  const entered = msg.faces !== undefined;
  const outcome = entered ? resolved(msg.faces!) : session.rollWith((rng) => resolved(rollRequestedDice(requests, rng)));
  const unitCentres = forcedMoveStarts(state, outcome);
  const entry = session.logOutcome({ kind: 'outcome', by: 'operator', outcome, dice: entered ? 'entered' : 'rolled', ...(unitCentres ? { unitCentres } : {}) });
  return { outcome: { index: entry.index, outcome, dice: entered ? 'entered' : 'rolled' } };
}

/** Where each unit with a forced move stands now (its stands' mean, inches), rounded; undefined when none moves. */
function forcedMoveStarts(state: TableState, outcome: Outcome): Record<string, { xIn: number; yIn: number }> | undefined {
  const out: Record<string, { xIn: number; yIn: number }> = {};
  for (const effect of outcome.effects) {
    if (!effect.unitId || !effect.move) continue;
    const centre = unitCentreIn(state, effect.unitId);
    if (centre) out[effect.unitId] = { xIn: Math.round(centre.xIn * 1000) / 1000, yIn: Math.round(centre.yIn * 1000) / 1000 };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The outcome logged at `index`, from the entries the session keeps at hand. */
function loggedOutcome(recent: readonly GameLogEntry[], index: number): Extract<GameLogEntry, { kind: 'outcome' }> {
  const found = recent.find((e) => e.index === index);
  if (found?.kind === 'outcome') return found;
  if (found) throw new ActionError('not-found', `log entry ${index} is a "${found.kind}" entry, not an outcome`);
  throw new ActionError('not-found', `no outcome at log entry ${index} among the last ${recent.length} entries the service keeps at hand; roll again`);
}

/** The newest apply or undo of the outcome at `index`, if any (it says whether it stands applied). */
function lastApplyOrUndo(recent: readonly GameLogEntry[], index: number): Extract<GameLogEntry, { kind: 'outcome-applied' | 'outcome-undone' }> | undefined {
  for (let i = recent.length - 1; i >= 0; i--) {
    const e = recent[i]!;
    if ((e.kind === 'outcome-applied' || e.kind === 'outcome-undone') && e.outcomeIndex === index) return e;
  }
  return undefined;
}

type StatusField = keyof StatusPatch;

/** What a field holds when a rule clears it but a status chip on the table would still set it. */
const CLEARED_OVER_CHIP: Partial<Record<StatusField, UnitStatus[keyof UnitStatus]>> = {
  disordered: false,
  prone: false,
  limbered: false,
  dismounted: false,
  hitsByStand: {},
  rulesetStatus: {},
};

/**
 * Each unit's operator status after the outcome. The live status is the chips' with the operator's laid over
 * it field by field, so the fields the outcome touches take their values after it (`applyOutcome` on the live
 * table), the others stay as the operator set them. A field the outcome clears that only a chip sets is
 * written as its empty value, so the chip does not bring it back.
 */
export function operatorStatusesAfter(
  state: TableState,
  outcome: Outcome,
  overrideOf: (unitId: string) => UnitStatus | undefined,
): { after: Record<string, UnitStatus>; before: Record<string, UnitStatus> } {
  let applied: TableState;
  try {
    applied = applyOutcome(state, outcome);
  } catch (err) {
    throw new ActionError('conflict', `${(err as Error).message.replace(/^applyOutcome: /, '')}; put its stands back on the table to apply this outcome`);
  }
  const touched = new Map<string, Set<StatusField>>();
  for (const effect of outcome.effects) {
    if (!effect.unitId || !effect.status) continue;
    const fields = touched.get(effect.unitId) ?? new Set<StatusField>();
    for (const key of Object.keys(effect.status) as StatusField[]) fields.add(key);
    touched.set(effect.unitId, fields);
  }
  const after: Record<string, UnitStatus> = {};
  const before: Record<string, UnitStatus> = {};
  for (const [unitId, fields] of touched) {
    const own = overrideOf(unitId) ?? {};
    const live = (state.units.find((u) => u.id === unitId)?.status ?? {}) as Record<string, unknown>;
    const changed = (applied.units.find((u) => u.id === unitId)?.status ?? {}) as Record<string, unknown>;
    const next: Record<string, unknown> = { ...own };
    for (const field of fields) {
      if (changed[field] !== undefined) next[field] = changed[field];
      else if (!(field in own) && live[field] !== undefined && field in CLEARED_OVER_CHIP) next[field] = CLEARED_OVER_CHIP[field];
      else delete next[field];
    }
    before[unitId] = own;
    after[unitId] = next as UnitStatus;
  }
  return { after, before };
}

function apply(session: GameSession, table: ResolutionTable, outcomeIndex: number): ActionResult {
  const recent = session.recentLog();
  const { outcome } = loggedOutcome(recent, outcomeIndex);
  if (table.ruleset?.id !== outcome.rulesetId) {
    throw new ActionError('conflict', `outcome ${outcomeIndex} was resolved under ${outcome.rulesetId}; the game now runs ${table.ruleset?.id ?? 'without rules'}`);
  }
  const last = lastApplyOrUndo(recent, outcomeIndex);
  if (last?.kind === 'outcome-applied') throw new ActionError('conflict', `outcome ${outcomeIndex} is already applied (log entry ${last.index}); undo it first to apply it again`);
  const { after, before } = operatorStatusesAfter(table.tableState, outcome, (id) => session.statusOverride(id));
  const unitIds = Object.keys(after);
  if (unitIds.length === 0) {
    throw new ActionError('conflict', `outcome ${outcomeIndex} changes no unit's status: its stands lost and moves are made by hand on the table`);
  }
  const entry = session.setStatusesTogether(after, { kind: 'outcome-applied', by: 'operator', outcomeIndex, statusByUnit: after, previousByUnit: before });
  return { outcomeChange: { outcomeIndex, entryIndex: entry.index, unitIds } };
}

function undo(session: GameSession, outcomeIndex: number): ActionResult {
  const recent = session.recentLog();
  loggedOutcome(recent, outcomeIndex);
  const last = lastApplyOrUndo(recent, outcomeIndex);
  if (last?.kind !== 'outcome-applied') throw new ActionError('conflict', `outcome ${outcomeIndex} is not applied, so there is nothing to undo`);
  for (const [unitId, status] of Object.entries(last.statusByUnit)) {
    if (!jsonEqual(session.statusOverride(unitId) ?? {}, status)) {
      throw new ActionError('conflict', `the status of ${unitId} was changed after outcome ${outcomeIndex} was applied; undo that change first or set the status by hand`);
    }
  }
  const restored = last.previousByUnit;
  const entry = session.setStatusesTogether(restored, { kind: 'outcome-undone', by: 'operator', outcomeIndex, statusByUnit: restored });
  return { outcomeChange: { outcomeIndex, entryIndex: entry.index, unitIds: Object.keys(restored) } };
}

function clear(session: GameSession, outcomeIndex: number): ActionResult {
  const recent = session.recentLog();
  loggedOutcome(recent, outcomeIndex);
  const cleared = recent.find((e) => e.kind === 'outcome-cleared' && e.outcomeIndex === outcomeIndex);
  if (cleared) throw new ActionError('conflict', `outcome ${outcomeIndex} was already cleared (log entry ${cleared.index})`);
  const entry = session.logOutcome({ kind: 'outcome-cleared', by: 'operator', outcomeIndex });
  return { outcomeChange: { outcomeIndex, entryIndex: entry.index, unitIds: [] } };
}

/** Performs one resolution request; throws `ActionError` with what to change when it cannot. */
export function performResolution(session: GameSession, msg: ResolutionMessage, table: ResolutionTable): ActionResult {
  switch (msg.type) {
    case 'resolve-offer':
      return { offer: offer(table, msg.unitId, msg.actions) };
    case 'resolve-roll':
      return roll(session, table, msg);
    case 'apply-outcome':
      return apply(session, table, msg.outcomeIndex);
    case 'undo-outcome':
      return undo(session, msg.outcomeIndex);
    case 'clear-outcome':
      return clear(session, msg.outcomeIndex);
  }
}
