/**
 * Deltas between two published states: `diffLiveState(prev, next)` on the server, `applyDelta(state,
 * delta)` in the views. `applyDelta(prev, diffLiveState(prev, next))` equals `next` up to the order of
 * list entries (upserts of new ids are appended; changed entries keep their place).
 *
 * @example
 * // view side
 * let state = snapshot.state;
 * const next = applyDelta(state, delta);
 * if (next === null) socket.send(JSON.stringify({ type: 'resync' })); else state = next;
 */
import type { Evaluation, Shape, UnitEvaluation } from '@muster/rules';
import type { DeltaMessage, EvaluationDelta, ListDelta, LiveState } from './messages.ts';
import { samePlainData } from '@muster/rules/plainData';

/** Structural equality of plain JSON values (object key order ignored): the rules engine's own. */
export const jsonEqual: (a: unknown, b: unknown) => boolean = samePlainData;

/** Upserts and removals turning list `prev` into list `next`, entries keyed by `key`. */
export function diffList<T, K>(prev: readonly T[], next: readonly T[], key: (item: T) => K): ListDelta<T, K> {
  const before = new Map<K, T>();
  for (const item of prev) before.set(key(item), item);
  const upsert: T[] = [];
  const seen = new Set<K>();
  for (const item of next) {
    const k = key(item);
    seen.add(k);
    const old = before.get(k);
    if (old === undefined || !jsonEqual(old, item)) upsert.push(item);
  }
  const remove: K[] = [];
  for (const k of before.keys()) if (!seen.has(k)) remove.push(k);
  return { upsert, remove };
}

/** Applies a list delta: removals, then upserts in place (new keys appended). */
export function applyList<T, K>(list: readonly T[], delta: ListDelta<T, K>, key: (item: T) => K): T[] {
  const removed = new Set(delta.remove);
  const upserts = new Map<K, T>();
  for (const item of delta.upsert) upserts.set(key(item), item);
  const out: T[] = [];
  for (const item of list) {
    const k = key(item);
    if (removed.has(k)) continue;
    const replacement = upserts.get(k);
    if (replacement !== undefined) {
      out.push(replacement);
      upserts.delete(k);
    } else out.push(item);
  }
  for (const item of upserts.values()) out.push(item);
  return out;
}

function isEmpty<T, K>(d: ListDelta<T, K>): boolean {
  return d.upsert.length === 0 && d.remove.length === 0;
}

const byId = (x: { readonly id: string }): string => x.id;
const byUnitId = (x: UnitEvaluation): string => x.unitId;

function diffEvaluation(prev: Evaluation | null, next: Evaluation | null): EvaluationDelta | null | undefined {
  if (prev === next) return undefined;
  if (next === null) return null;
  const base: Evaluation = prev ?? { rulesetId: next.rulesetId, units: {}, shapes: [], warnings: [] };
  const units = diffList(Object.values(base.units), Object.values(next.units), byUnitId);
  const shapes = diffList(base.shapes, next.shapes, byId);
  const warningsSame = jsonEqual(base.warnings, next.warnings);
  // Commander readings and combined charges are small and sent whole, like warnings.
  const tableWideSame = jsonEqual(base.commanders, next.commanders) && jsonEqual(base.combinedCharges, next.combinedCharges);
  if (prev !== null && prev.rulesetId === next.rulesetId && isEmpty(units) && isEmpty(shapes) && warningsSame && tableWideSame) {
    return undefined;
  }
  return { rulesetId: next.rulesetId, units, shapes, warnings: next.warnings, ...tableWide(next) };
}

function applyEvaluation(prev: Evaluation | null, delta: EvaluationDelta): Evaluation {
  const base = prev !== null && prev.rulesetId === delta.rulesetId ? prev : null;
  const units = applyList(base === null ? [] : Object.values(base.units), delta.units, byUnitId);
  const record: Record<string, UnitEvaluation> = {};
  for (const u of units) record[u.unitId] = u;
  const shapes: Shape[] = applyList(base?.shapes ?? [], delta.shapes, byId);
  return { rulesetId: delta.rulesetId, units: record, shapes, warnings: delta.warnings, ...tableWide(delta) };
}

/** An evaluation's table-wide readings, each only when present. */
function tableWide(e: Pick<Evaluation, 'commanders' | 'combinedCharges'>): Pick<Evaluation, 'commanders' | 'combinedCharges'> {
  return { ...(e.commanders ? { commanders: e.commanders } : {}), ...(e.combinedCharges ? { combinedCharges: e.combinedCharges } : {}) };
}

/**
 * The delta that brings a view holding `prev` to `next`. Only changed parts are present; `liveTrackIds`
 * is always sent whole. `sentTimeMs` is stamped by the caller.
 */
export function diffLiveState(prev: LiveState, next: LiveState, sentTimeMs: number): DeltaMessage {
  const delta: { -readonly [K in keyof DeltaMessage]: DeltaMessage[K] } = {
    type: 'delta',
    baseSeq: prev.seq,
    seq: next.seq,
    frameSeq: next.frameSeq,
    captureTimeMs: next.captureTimeMs,
    sentTimeMs,
    evaluatedState: next.evaluatedState,
    liveTrackIds: next.liveTrackIds,
  };
  if (prev.tracks !== next.tracks) {
    const d = diffList(prev.tracks, next.tracks, (t) => t.trackId);
    if (!isEmpty(d)) delta.tracks = d;
  }
  const a = prev.tableState;
  const b = next.tableState;
  if (a !== b) {
    if (a.stands !== b.stands) {
      const d = diffList(a.stands, b.stands, byId);
      if (!isEmpty(d)) delta.stands = d;
    }
    if (a.units !== b.units) {
      const d = diffList(a.units, b.units, byId);
      if (!isEmpty(d)) delta.units = d;
    }
    if (a.commanders !== b.commanders && !jsonEqual(a.commanders, b.commanders)) delta.commanders = b.commanders;
    if (a.terrain !== b.terrain && !jsonEqual(a.terrain, b.terrain)) delta.terrain = b.terrain;
    if (!jsonEqual(a.table, b.table)) delta.table = b.table;
  }
  const evaluation = diffEvaluation(prev.evaluation, next.evaluation);
  if (evaluation !== undefined) delta.evaluation = evaluation;
  if (prev.roster !== next.roster && !jsonEqual(prev.roster, next.roster)) delta.roster = next.roster;
  if (prev.profile !== next.profile && !jsonEqual(prev.profile, next.profile)) delta.profile = next.profile;
  if (prev.health !== next.health && !jsonEqual(prev.health, next.health)) delta.health = next.health;
  if (prev.turn !== next.turn) delta.turn = next.turn;
  // Protocol 4, optional: sent whole when changed (never to clear: a server that has them always has them).
  if (next.ruleset !== undefined && prev.ruleset !== next.ruleset && !jsonEqual(prev.ruleset, next.ruleset)) delta.ruleset = next.ruleset;
  if (next.focus !== undefined && prev.focus !== next.focus && !jsonEqual(prev.focus, next.focus)) delta.focus = next.focus;
  return delta;
}

/**
 * Applies a delta to the state a view holds. Returns null when the delta was made for another state
 * (`delta.baseSeq !== state.seq`): the view should send `resync`.
 */
export function applyDelta(state: LiveState, delta: DeltaMessage): LiveState | null {
  if (delta.baseSeq !== state.seq) return null;
  const ts = state.tableState;
  const tableState =
    delta.stands || delta.units || delta.commanders || delta.terrain || delta.table
      ? {
          ...ts,
          table: delta.table ?? ts.table,
          stands: delta.stands ? applyList(ts.stands, delta.stands, byId) : ts.stands,
          units: delta.units ? applyList(ts.units, delta.units, byId) : ts.units,
          commanders: delta.commanders ?? ts.commanders,
          terrain: delta.terrain ?? ts.terrain,
        }
      : ts;
  let evaluation = state.evaluation;
  if (delta.evaluation === null) evaluation = null;
  else if (delta.evaluation !== undefined) evaluation = applyEvaluation(state.evaluation, delta.evaluation);
  return {
    seq: delta.seq,
    frameSeq: delta.frameSeq,
    captureTimeMs: delta.captureTimeMs,
    turn: delta.turn ?? state.turn,
    tableState,
    evaluation,
    // A version 1 server sends none: nothing known about it then.
    evaluatedState: delta.evaluatedState ?? null,
    tracks: delta.tracks ? applyList(state.tracks, delta.tracks, (t) => t.trackId) : state.tracks,
    liveTrackIds: delta.liveTrackIds,
    roster: delta.roster ?? state.roster,
    profile: delta.profile ?? state.profile,
    health: delta.health ?? state.health,
    ...((delta.ruleset ?? state.ruleset) !== undefined ? { ruleset: delta.ruleset ?? state.ruleset } : {}),
    ...((delta.focus ?? state.focus) !== undefined ? { focus: delta.focus ?? state.focus } : {}),
  };
}
