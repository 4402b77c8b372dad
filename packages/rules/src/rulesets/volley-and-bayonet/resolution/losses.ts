/**
 * What failing does to a unit, by the markers it has now: a failed morale check (Morale, p. 4), a lost melee
 * (Melee Results, p. 5) or a brigade's collapse (Morale Collapse, p. 5). Not yet disordered: disordered (and,
 * losing a melee, a half move back); already disordered: a rout (the red marker, a full move directly away,
 * 1 SP per stand, guns abandoned and moving as infantry); already routed: removed from play. The friendly
 * stands a retreat or rout passes through early in its move are disordered too.
 */
import type { ForcedMove } from '../../../engine/resolve/resolution.ts';
import { pathAwayFrom, unitCentreIn } from '../../../engine/resolve/forcedMovePath.ts';
import type { TableState } from '../../../model/tableState.ts';
import type { PointIn } from '../../../model/units.ts';
import { boundingBox, convexHull } from '../../../geometry/polygon.ts';
import { polygonsOverlap } from '../../../geometry/intersect.ts';
import { lossMoveIn } from '../charge.ts';
import type { VbContext, VbStand, VbUnit } from '../context.ts';
import { PERMANENT_DISORDER_STATUS, ROUTED_STATUS } from '../declarations.ts';
import { MELEE_RESULTS_SOURCE, RETREAT_DISORDERS_FRIENDS_IN, ROUT_DISORDERS_FRIENDS_FRACTION, ROUT_SP_LOSS_PER_STAND } from '../tables/combat.ts';
import { COLLAPSE_SOURCE, MORALE_SOURCE } from '../tables/morale.ts';
import type { OutcomeLedger } from './ledger.ts';

/** Why the unit suffers: the rule whose ladder applies and its section. */
export type LossCause = 'morale' | 'melee' | 'collapse';

const CAUSE_SOURCE: Readonly<Record<LossCause, string>> = { morale: MORALE_SOURCE, melee: MELEE_RESULTS_SOURCE, collapse: COLLAPSE_SOURCE };

/** What came of it: the unit was disordered, routed or removed. */
export type LossResult = 'disordered' | 'routed' | 'removed';

/** The centre of some stands (the enemy a rout moves away from). */
export function centreOf(stands: readonly VbStand[]): PointIn {
  let x = 0;
  let y = 0;
  for (const s of stands) (x += s.center.xIn), (y += s.center.yIn);
  return { xIn: x / Math.max(1, stands.length), yIn: y / Math.max(1, stands.length) };
}

/** The stand whose rate sets the unit's loss move: the one named, else its first combat stand. */
function moveStand(info: VbUnit, standId?: string): VbStand | undefined {
  return info.combatStands.find((s) => s.stand.id === standId) ?? info.combatStands[0];
}

/** The straight move directly away from `awayFrom`, of the unit's loss move (undefined without a rate or stands). */
function lossMove(ctx: VbContext, state: TableState, info: VbUnit, kind: 'retreat' | 'rout', awayFrom: PointIn, text: string, source: string, standId?: string): ForcedMove | undefined {
  const s = moveStand(info, standId);
  const d = s ? lossMoveIn(ctx, info, s, kind) : undefined;
  if (d === undefined) return undefined;
  const p = pathAwayFrom(state, info.unit.id, awayFrom, d);
  if (!p) return undefined;
  return { kind, distanceIn: d, path: p.path, endHeadingDeg: p.headingDeg, ...(p.leavesTable ? { leavesTable: true } : {}), text, source };
}

/** A base shrunk a little toward its centre, so stands merely touching the mover's path are not "passed through". */
function shrunk(s: VbStand, byIn: number): PointIn[] {
  return s.corners.map((c) => {
    const dx = s.center.xIn - c.xIn;
    const dy = s.center.yIn - c.yIn;
    const len = Math.hypot(dx, dy) || 1;
    return { xIn: c.xIn + (dx / len) * byIn, yIn: c.yIn + (dy / len) * byIn };
  });
}

/**
 * The friendly units (other than the mover) with a combat stand in the area the mover's stands sweep over the
 * first `withinIn` of a straight move along `move`, in the state's order ("friendly stands they pass through").
 */
export function friendsPassed(ctx: VbContext, info: VbUnit, move: ForcedMove, withinIn: number): VbUnit[] {
  const [a, b] = [move.path[0]!, move.path[move.path.length - 1]!];
  const len = Math.hypot(b.xIn - a.xIn, b.yIn - a.yIn);
  const d = Math.min(withinIn, len);
  if (d <= 1e-9) return [];
  const ux = (b.xIn - a.xIn) / len;
  const uy = (b.yIn - a.yIn) / len;
  const found = new Set<string>();
  for (const s of info.combatStands) {
    const swept = convexHull([...s.corners, ...s.corners.map((c) => ({ xIn: c.xIn + ux * d, yIn: c.yIn + uy * d }))]);
    for (const t of ctx.standsIn(boundingBox(swept))) {
      if (t.unitId === undefined || t.unitId === info.unit.id || t.side !== info.unit.side || t.type === 'command' || t.type === 'road-march-spacer') continue;
      if (polygonsOverlap(swept, shrunk(t, 0.05))) found.add(t.unitId);
    }
  }
  return [...found].sort((x, y) => ctx.unitIndex(x) - ctx.unitIndex(y)).map((id) => ctx.units.get(id)!);
}

/** The rout: the red marker (and the yellow one a rout also carries), 1 SP per stand, a full move away. */
function rout(ctx: VbContext, state: TableState, ledger: OutcomeLedger, info: VbUnit, cause: LossCause, awayFrom: PointIn, standId?: string): ForcedMove | undefined {
  const source = CAUSE_SOURCE[cause];
  const sp = ROUT_SP_LOSS_PER_STAND * info.combatStands.length;
  ledger.disorder(info);
  ledger.set(info, ROUTED_STATUS.id, true);
  ledger.set(info, PERMANENT_DISORDER_STATUS.id, true);
  ledger.loseSp(info, sp, false);
  const gun = moveStand(info, standId)?.type === 'artillery';
  const move = lossMove(ctx, state, info, 'rout', awayFrom, `routs a full move directly away, ignoring terrain${gun ? ', as infantry (its guns abandoned)' : ''}`, source, standId);
  ledger.say(info, `routs: red and yellow markers, loses ${sp} SP (1 per stand)${gun ? ', abandons its guns and moves as infantry' : ''}${move ? `, moves ${move.distanceIn}" directly away` : ''}`, source);
  if (move) ledger.move(info, move);
  return move;
}

/**
 * What failing does to `info`, by its markers now. `awayFrom`: the enemy it moves away from (the unit that
 * caused the check, or the stands that won the melee). Friends it passes early in a retreat or rout are
 * disordered; in a melee loss those already disordered go back ahead of it (a retreat) or rout ahead of it.
 */
export function suffer(ctx: VbContext, state: TableState, ledger: OutcomeLedger, info: VbUnit, cause: LossCause, awayFrom: PointIn, standId?: string): LossResult {
  const source = CAUSE_SOURCE[cause];
  if (info.routed) {
    // "Routed stands which fail morale are removed from play"; in a melee "treated as if they have routed, but
    // are removed from play after all routing movement is done"; in a collapse "removed from play".
    if (cause === 'melee') rout(ctx, state, ledger, info, cause, awayFrom, standId);
    ledger.remove(info);
    ledger.say(info, 'already routed: removed from play', source);
    return 'removed';
  }
  if (info.disordered) {
    const move = rout(ctx, state, ledger, info, cause, awayFrom, standId);
    if (move && cause !== 'collapse') disorderFriends(ctx, state, ledger, info, move, move.distanceIn * ROUT_DISORDERS_FRIENDS_FRACTION, cause === 'melee' ? 'rout' : undefined);
    return 'routed';
  }
  if (cause === 'collapse') {
    ledger.set(info, PERMANENT_DISORDER_STATUS.id, true);
    ledger.say(info, 'in good order: given a permanent (red) disorder marker', source);
    return 'disordered';
  }
  ledger.disorder(info);
  ledger.say(info, 'disordered (yellow marker)', source);
  if (cause === 'melee') {
    const gun = moveStand(info, standId)?.type === 'artillery';
    const move = lossMove(ctx, state, info, 'retreat', awayFrom, 'moves one half turn directly away from the winners, ignoring terrain', source, standId);
    if (move) {
      ledger.move(info, move);
      ledger.say(info, `retreats ${move.distanceIn}" directly away${gun ? ' with its guns (unless emplaced in works: then they are abandoned)' : ''}`, source);
      disorderFriends(ctx, state, ledger, info, move, RETREAT_DISORDERS_FRIENDS_IN, 'retreat');
    }
  }
  return 'disordered';
}

/**
 * The friends `info` passes in the first `withinIn` of `move`: disordered; already disordered ones, in a melee
 * loss, go ahead of it ('retreat': a move of the same length; 'rout': they rout).
 */
function disorderFriends(ctx: VbContext, state: TableState, ledger: OutcomeLedger, info: VbUnit, move: ForcedMove, withinIn: number, ahead: 'retreat' | 'rout' | undefined): void {
  // Ahead of the mover: the same heading as its move, from where the friend stands.
  const [a, b] = [move.path[0]!, move.path[move.path.length - 1]!];
  const len = Math.hypot(b.xIn - a.xIn, b.yIn - a.yIn) || 1;
  const behind = (unitId: string): PointIn | undefined => {
    const c = unitCentreIn(state, unitId);
    return c && { xIn: c.xIn - (b.xIn - a.xIn) / len, yIn: c.yIn - (b.yIn - a.yIn) / len };
  };
  for (const f of friendsPassed(ctx, info, move, withinIn)) {
    if (ledger.removed(f.unit.id)) continue;
    if (!f.disordered) {
      ledger.disorder(f);
      ledger.say(f, `disordered: ${info.unit.name} passes through it in the first ${withinIn}" of its move`, move.source);
      continue;
    }
    const from = behind(f.unit.id);
    if (!ahead || ledger.hasMove(f.unit.id) || !from) continue;
    if (ahead === 'rout') {
      if (f.routed) continue;
      rout(ctx, state, ledger, f, 'melee', from);
      ledger.say(f, `already disordered: routs ahead of ${info.unit.name}`, MELEE_RESULTS_SOURCE);
    } else {
      const p = pathAwayFrom(state, f.unit.id, from, move.distanceIn);
      if (p) {
        ledger.move(f, { kind: 'retreat', distanceIn: move.distanceIn, path: p.path, endHeadingDeg: p.headingDeg, ...(p.leavesTable ? { leavesTable: true } : {}), text: `already disordered: retreats ahead of ${info.unit.name}`, source: MELEE_RESULTS_SOURCE });
        ledger.say(f, `already disordered: retreats ${move.distanceIn}" ahead of ${info.unit.name}`, MELEE_RESULTS_SOURCE);
      }
    }
  }
}
