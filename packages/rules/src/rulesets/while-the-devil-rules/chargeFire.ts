/**
 * Fire during a charge (While the Devil Rules, Combat (Charges and Melee): Charges) and Advancing Fire
 * (Fire): who may fire at a charging unit before contact, and what else a charge or a fire option allows.
 * - Defensive fire: "Frontal charges against all troop types except Sword & Bucklermen, Lancers, and
 *   Hackapells may involve taking fire during the Charge action if the Charging unit at any point crosses
 *   the firing arc of the Target unit ... If a 'devastating fire' results (the loss of 2 Status Levels) then
 *   the charging unit will fail to contact its target, and end its move an inch short. ... Units which have
 *   already acted for the turn will not be able to perform a Fire action at a charging unit"; none when the
 *   target is already in an ongoing combat (Ongoing Combats).
 * - Pass-through fire: "If a Charging unit crosses the arc of fire of any non-Target unit during the
 *   Charge, within short range of that unit ... Only units which have not yet acted".
 * - "Charging Harquebusiers, Cuirassiers, and Reiters will fire at their Target before contact, but after
 *   defensive fire is taken, and only if contact is made."
 * - Advancing Fire: "formed musketeers (including Streltsy, Militia/Levy, and Commanded Shot), Forlorn
 *   Hopes, Harquebusiers, Reiters (only if Eastern types armed with Bows/Firearms), Irregular Light Horse,
 *   and Dragoons".
 * The fire itself is rolled in the app "exactly as for normal Fire actions": these are lines of text in the
 * option's `limits`, with the units named.
 */
import type { DiceModifier } from '../../engine/evaluation.ts';
import type { PointIn } from '../../model/units.ts';
import { convexPolygonsMayOverlap } from '../../geometry/convexOverlap.ts';
import { enemiesNear, engagedWith, largestRadiusIn, type UnitInfo, type WtdrContext } from './context.ts';
import { fireArcPolygons } from './fire.ts';
import { fireWeapon } from './fireWeapon.ts';
import { DEVASTATING_FIRE_LEVELS } from './tables/outcomeTables.ts';
import { rangeRow } from './tables/fireTables.ts';
import type { TroopTypeId, WeaponId } from './tables/troopTypes.ts';

const CHARGES = 'Combat (Charges and Melee): Charges';

/** Charging types that fire at their target before contact (Charges). */
const FIRE_WHEN_CHARGING: ReadonlySet<TroopTypeId> = new Set(['harquebusier', 'cuirassier', 'reiter']);

/**
 * The longest short range of the range table, inches (heavy artillery, 12"): no pass-through fire comes
 * from a unit further than this from the charge's path.
 */
export const LONGEST_SHORT_RANGE_IN = 12;

/**
 * The weapon a unit may fire at a charging enemy with: its normal weapon, or pistols for cuirassiers and
 * reiters ("will only fire when charging or being charged"); null for types that never fire.
 */
function receivingChargeWeapon(info: UnitInfo): WeaponId | null {
  const t = info.type;
  if (!t) return null;
  if (t.fires === 'charging-only') return fireWeapon(info) ?? t.weapon;
  return fireWeapon(info);
}

/** Why a unit may not fire at all now (acted, in march column, in an ongoing combat), or undefined. */
function cannotFireNow(ctx: WtdrContext, info: UnitInfo): string | undefined {
  if (info.acted) return 'it has acted this turn';
  if (info.formation.march) return 'it is in march column';
  const engaged = engagedWith(ctx, info);
  if (engaged.length > 0) return `it is in an ongoing combat with ${engaged.join(', ')}`;
  return undefined;
}

/** The defensive fire line for a charge at `target` that meets it on `frontal` contact (or why there is none). */
export function defensiveFireLine(ctx: WtdrContext, target: UnitInfo, frontal: boolean): DiceModifier {
  const name = target.unit.name;
  const weapon = receivingChargeWeapon(target);
  const none = (why: string): DiceModifier => ({ label: `No defensive fire from ${name}: ${why}`, dice: 0, source: CHARGES });
  if (weapon === null) return none(`${target.type?.label ?? 'its type'} never fires (Fire)`);
  // Pike & shot blocks fire from any face ("any side ... may count as the front", Formations).
  if (!frontal && target.type?.family !== 'pike-and-shot') return none('the charge does not come at its front');
  const why = cannotFireNow(ctx, target);
  if (why !== undefined) return none(why);
  return {
    label: `Defensive fire: ${name} may fire first (${rangeRow(weapon).name}), as a normal Fire action; a devastating fire (${DEVASTATING_FIRE_LEVELS} status levels or more) stops the charge 1" short with no melee${target.type?.family === 'swarm' || target.type?.family === 'light-horse' ? `; or ${name} evades instead (evasion uses its action)` : ''}`,
    dice: 0,
    source: CHARGES,
  };
}

/**
 * Enemies of the charging unit, other than its target, whose short-range arc of fire the charge's sweep
 * crosses and who may still fire (not acted, not in march column, not in combat), in state order. Line of
 * sight is not traced: the players check it as for any fire.
 */
export function passThroughFirers(ctx: WtdrContext, attacker: UnitInfo, targetId: string, sweep: readonly (readonly PointIn[])[]): UnitInfo[] {
  const out: UnitInfo[] = [];
  // The cull below passes a unit whose centre lies within its radius, its short range and 1" of the sweep,
  // so every hull point of it within twice the largest radius more: units boxed further off are not read.
  const points: PointIn[] = [];
  for (const area of sweep) for (const p of area) points.push(p);
  const reachIn = LONGEST_SHORT_RANGE_IN + 1 + 2 * largestRadiusIn(ctx) + 0.01;
  for (const u of enemiesNear(ctx, attacker.unit.side, points, reachIn)) {
    if (u.unit.id === targetId || u.stands.length === 0) continue;
    const weapon = fireWeapon(u);
    if (weapon === null) continue;
    const shortIn = rangeRow(weapon).shortIn;
    if (shortIn === null) continue;
    // Cheap cull: an arc reaches at most its short range beyond the unit's outline.
    if (!sweepWithin(sweep, u.centre, u.radiusIn + shortIn + 1)) continue;
    if (cannotFireNow(ctx, u) !== undefined) continue;
    const arcs = fireArcPolygons(ctx, u, shortIn);
    if (arcs.some((arc) => sweep.some((area) => convexPolygonsMayOverlap(area, arc)))) out.push(u);
  }
  return out;
}

/** Whether some edge of a sweep area passes within `r` of `c` (a sweep never holds a unit's centre). */
function sweepWithin(sweep: readonly (readonly PointIn[])[], c: PointIn, r: number): boolean {
  for (const area of sweep) {
    for (let i = 0, j = area.length - 1; i < area.length; j = i++) {
      const a = area[j]!;
      const b = area[i]!;
      const dx = b.xIn - a.xIn;
      const dy = b.yIn - a.yIn;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.max(0, Math.min(1, ((c.xIn - a.xIn) * dx + (c.yIn - a.yIn) * dy) / len2)) : 0;
      if (Math.hypot(a.xIn + dx * t - c.xIn, a.yIn + dy * t - c.yIn) <= r) return true;
    }
  }
  return false;
}

export function passThroughLine(firers: readonly UnitInfo[]): DiceModifier {
  if (firers.length === 0) return { label: 'No pass-through fire: the path crosses no other enemy arc within short range', dice: 0, source: CHARGES };
  return {
    label: `Pass-through fire may come from ${firers.map((u) => u.unit.name).join(', ')} (path crosses its arc within short range; uses its action)`,
    dice: 0,
    source: CHARGES,
  };
}

/** The charging unit's own fire before contact, for the types that make it. */
export function chargingFireLine(attacker: UnitInfo): DiceModifier | undefined {
  const t = attacker.type;
  if (!t || !FIRE_WHEN_CHARGING.has(t.id)) return undefined;
  return { label: `${attacker.unit.name} fires at the target before contact, after any defensive fire, if contact is made (as a normal Fire action)`, dice: 0, source: CHARGES };
}

