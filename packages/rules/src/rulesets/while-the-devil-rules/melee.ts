/**
 * Melee readings for units in contact (While the Devil Rules, Combat (Charges and Melee): Melee; Combat
 * Effects and Rallying). "Whenever an activated unit is in contact with an enemy unit, there may be a
 * combat ... if any part of the front of either unit is in contact with the enemy." The Actor is the
 * activated unit, the Target "one of the enemy units ... in contact with the front edge of the acting unit";
 * every other unit in the combat is Supporting: supports change only the force ratio ("all bases in the
 * involved units are counted") and whether Actor or Target is "Taken in Flank/Rear" ("if any enemy unit has
 * contacted them on their sides with any part of its front"; front corners are front). The guide's list
 * after "Supporting units include:" is missing from the text: read here as every unit joined to the combat
 * through enemy contact, and every friendly unit in base contact with one of those (a unit beside or behind
 * the Actor or the Target), one step only (`SUPPORT_BY_FRIENDLY_CONTACT`). The dice are the
 * app's: each side's modifiers from the `modifier-melee-*` parameters, then the dice difference → status
 * levels (a tie costs both sides one level). One label per possible Actor and Target, at the Actor's front.
 */
import type { DiceBreakdown } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn } from '../../model/units.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { CONTACT_IN, FRONT_CORNER_SLACK_IN, engagedWith, frontZone, touchingFriendsOf, type UnitInfo, type WtdrContext } from './context.ts';
import { fromFrame, segmentToPolygonDistanceIn } from './geom.ts';
import { modifierBreakdown, type ModifierFactor } from './modifiers.ts';
import { FORCE_RATIO_LABELS, forceRatio } from './tables/fireTables.ts';

const MELEE = 'Combat (Charges and Melee): Melee';

/**
 * Whether a friendly unit in base contact with a unit in the combat (but touching no enemy itself) supports
 * it. The guide's list of supporting units is missing from its text; its issue reading is that "a friendly
 * unit in contact that supports the actor" is counted ("all bases in the involved units"). False: only units
 * in contact with an enemy join a combat.
 */
export const SUPPORT_BY_FRIENDLY_CONTACT = true;

export interface MeleeReading {
  readonly actorId: string;
  readonly targetId: string;
  /** Units on each side in the combat (the Actor or Target first, then its supports in state order). */
  readonly actorSide: readonly string[];
  readonly targetSide: readonly string[];
  readonly actorBases: number;
  readonly targetBases: number;
  readonly actorFlanked: boolean;
  readonly targetFlanked: boolean;
  readonly attacker: DiceBreakdown;
  readonly defender: DiceBreakdown;
}

/** Whether `info`'s front edge touches `other` (Target candidates of a Melee it triggers). */
function frontTouches(info: UnitInfo, other: UnitInfo): boolean {
  const zone = frontZone(info, CONTACT_IN);
  return zone.length === 0 ? polygonToPolygonDistanceIn(info.hull, other.hull) <= CONTACT_IN : polygonToPolygonDistanceIn(zone, other.hull) <= 1e-9;
}

/** "Taken in Flank/Rear": an enemy's front touches a side or the rear (rear corners included, front corners not). */
function takenInFlankOrRear(ctx: WtdrContext, info: UnitInfo, enemyIds: readonly string[]): boolean {
  if (info.type?.family === 'swarm') return false; // no flanks or rear
  const { front, rear, left, right } = info.box;
  const f = info.frame;
  const p = (a: number, c: number): PointIn => fromFrame(f, a, c);
  // Contacts this close to a front corner are front contacts (placement slack beyond the contact distance).
  const e = FRONT_CORNER_SLACK_IN;
  const faces: [PointIn, PointIn][] = [
    [p(rear, left), p(rear, right)],
    [p(rear, left), p(front - e, left)],
    [p(rear, right), p(front - e, right)],
  ];
  for (const id of enemyIds) {
    const enemy = ctx.units.get(id)!;
    const zone = frontZone(enemy, CONTACT_IN);
    if (zone.length === 0) continue;
    if (faces.some(([a, b]) => segmentToPolygonDistanceIn(a, b, zone) <= 1e-9)) return true;
  }
  return false;
}

/** Units joined by contact, each with everything it is in combat with (in state order). */
function combats(ctx: WtdrContext): Map<string, string[]> {
  const group = new Map<string, string[]>();
  for (const info of ctx.units.values()) {
    if (group.has(info.unit.id) || engagedWith(ctx, info).length === 0) continue;
    const members = new Set<string>([info.unit.id]);
    const todo = [info.unit.id];
    while (todo.length > 0) {
      for (const other of engagedWith(ctx, ctx.units.get(todo.pop()!)!)) {
        if (!members.has(other)) {
          members.add(other);
          todo.push(other);
        }
      }
    }
    const engaged = [...members];
    if (SUPPORT_BY_FRIENDLY_CONTACT) {
      // One step: friends touching a unit that is itself in contact with the enemy, and in contact with none
      // (one that is belongs to its own combat).
      for (const id of engaged) {
        for (const f of touchingFriendsOf(ctx, ctx.units.get(id)!)) if (engagedWith(ctx, ctx.units.get(f)!).length === 0) members.add(f);
      }
    }
    const list = [...ctx.units.keys()].filter((id) => members.has(id));
    for (const id of engaged) group.set(id, list);
  }
  return group;
}

export interface MeleeResult {
  readonly readings: readonly MeleeReading[];
  readonly shapes: readonly Shape[];
}

export function evaluateMelees(ctx: WtdrContext): MeleeResult {
  const readings: MeleeReading[] = [];
  const shapes: Shape[] = [];
  const groups = combats(ctx);
  for (const actor of ctx.units.values()) {
    const members = groups.get(actor.unit.id);
    if (!members) continue;
    const side = actor.unit.side;
    for (const targetId of engagedWith(ctx, actor)) {
      const target = ctx.units.get(targetId)!;
      if (!frontTouches(actor, target)) continue;
      const actorSide = [actor.unit.id, ...members.filter((id) => id !== actor.unit.id && ctx.units.get(id)!.unit.side === side)];
      const targetSide = [targetId, ...members.filter((id) => id !== targetId && ctx.units.get(id)!.unit.side === target.unit.side)];
      const bases = (ids: readonly string[]): number => ids.reduce((n, id) => n + ctx.units.get(id)!.basesNow, 0);
      const actorBases = bases(actorSide);
      const targetBases = bases(targetSide);
      const ratio = forceRatio(actorBases, targetBases);
      const targetFlanked = takenInFlankOrRear(ctx, target, engagedWith(ctx, target));
      const actorFlanked = takenInFlankOrRear(ctx, actor, engagedWith(ctx, actor));
      const attackerFactors: ModifierFactor[] = [
        { id: `melee-${ratio}`, label: `${FORCE_RATIO_LABELS[ratio]} (${actorBases} v ${targetBases} bases, supports counted)`, section: MELEE },
      ];
      if (targetFlanked) attackerFactors.push({ id: 'melee-flank-or-rear', label: 'Target taken in Flank/Rear', section: MELEE });
      if (actor.attachedLeaderId !== undefined) attackerFactors.push({ id: 'melee-leader-with-actor', label: 'Leader with Actor', section: 'Leaders and Command Control' });
      if (actor.status !== 'ok') attackerFactors.push({ id: 'melee-actor-disordered', label: 'Actor is Disordered/Demoralized', section: 'Actions (Melee)' });
      const defenderFactors: ModifierFactor[] = [];
      if (actorFlanked) defenderFactors.push({ id: 'melee-flank-or-rear', label: 'Actor taken in Flank/Rear', section: MELEE });
      if (target.attachedLeaderId !== undefined) defenderFactors.push({ id: 'melee-leader-with-actor', label: 'Leader with Target', section: 'Leaders and Command Control' });
      if (target.status !== 'ok') defenderFactors.push({ id: 'melee-actor-disordered', label: 'Target is Disordered/Demoralized', section: 'Actions (Melee)' });
      const attacker = modifierBreakdown(ctx, attackerFactors, `Melee of ${actor.unit.name}`, actor.unit.id);
      const defender = modifierBreakdown(ctx, defenderFactors, `Melee defence of ${target.unit.name}`, targetId);
      readings.push({ actorId: actor.unit.id, targetId, actorSide, targetSide, actorBases, targetBases, actorFlanked, targetFlanked, attacker, defender });
      const supports = [...actorSide.slice(1), ...targetSide.slice(1)];
      const signed = (v: number): string => (v >= 0 ? `+${v}` : `${v}`);
      const at = fromFrame(actor.frame, actor.box.front, (actor.box.left + actor.box.right) / 2);
      shapes.push({
        id: `wtdr/${actor.unit.id}/melee/${targetId}`,
        kind: 'label',
        layer: 'labels',
        style: 'label',
        unitId: actor.unit.id,
        side,
        at,
        text:
          `Melee v ${target.unit.name}: ${FORCE_RATIO_LABELS[ratio]} ${actorBases} v ${targetBases} bases` +
          `${supports.length > 0 ? ` (supporting: ${supports.map((id) => ctx.units.get(id)!.unit.name).join(', ')})` : ''}` +
          `${targetFlanked ? '; target in flank/rear' : ''}${actorFlanked ? '; actor in flank/rear' : ''}` +
          `; d6 ${signed(attacker.dice)} v d6 ${signed(defender.dice)}: tie both lose 1 level, 1-3 one, 4-5 two, 6-7 three, 8+ destroyed (${MELEE})`,
      });
    }
  }
  return { readings, shapes };
}
