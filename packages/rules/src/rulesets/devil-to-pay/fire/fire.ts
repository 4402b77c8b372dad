/**
 * The Devil to Pay FIRE (pp. 20-23): which stands may fire at which enemy unit, at what range and band, and
 * how many dice, with every modifier named and cited; then target priority over a unit's options. Pure: a
 * context and a sight scene in, options out. The parts: `eligibleStands.ts` (front rank, arc, range,
 * sight), `fireArc.ts`, `fireScene.ts` (sight lines and what blocks them), `fireModifiers.ts`, the tables
 * in `../tables/fireTables.ts`, and `fireShapes.ts` for the map.
 */
import type { DiceModifier, FireRefusal, FireTargetOption } from '../../../engine/evaluation.ts';
import { pointToPolygonDistanceIn } from '../../../geometry/distance.ts';
import { pointInPolygon } from '../../../geometry/intersect.ts';
import { linearCrossings } from '../../../geometry/lineOfSight.ts';
import { boxGapIn, grownBox, type DtpContext, type StandInfo, type UnitInfo } from '../context.ts';
import { bandAt, maxRangeIn, weaponRow, WEAPONS, FIRE_TABLE_SOURCE_ARTILLERY, FIRE_TABLE_SOURCE_INFANTRY, type WeaponRow } from '../tables/fireTables.ts';
import { universalModifiers } from '../universalModifiers.ts';
import { SRC_SHARPSHOOTERS } from '../optionalRules.ts';
import { closestPointOnPolygon, firingStandsQuery, inArcAndRange, seesAny } from './eligibleStands.ts';
import { applyLimits, firerFormationModifier, generalModifiers, targetFormationModifier } from './fireModifiers.ts';
import { fireSceneQuery, type FireScene } from './fireScene.ts';
import { query } from '../../../engine/incremental/query.ts';

const SRC_ELIGIBLE = 'Fire, Eligible Stands (p. 20)';
const SRC_ARC = 'Fire, Arc of Fire (p. 20)';
const SRC_PRIORITY = 'Fire, Target Priority (p. 20)';
const SRC_OBSTRUCTIONS = 'Fire, Obstructions (p. 21)';

/** Target priority distance: enemies within 12" must be fired at, closest first (Target Priority, p. 20). */
export const PRIORITY_RANGE_IN = 12;

/** A refusal that applies to every target (the unit cannot fire at all); `targetUnitId` is '*'. */
export function unitFireRefusal(ctx: DtpContext, unitId: string): FireRefusal | undefined {
  const info = ctx.units.get(unitId)!;
  const reading = ctx.formationOf(unitId);
  const no = (reason: string, detail: string): FireRefusal => ({ ok: false, reason, detail, targetUnitId: '*' });
  if (info.stands.length === 0) return no('fire/no-stands', 'The unit has no stands on the table.');
  if (!weaponRow(info.unit.weapon)) {
    return no('fire/unknown-weapon', `Weapon '${info.unit.weapon}' is not in the Infantry or Artillery Fire table.`);
  }
  if (reading.mounted) return no('fire/mounted', 'Mounted cavalry do not fire; they may only charge (Mounted Cavalry, p. 11).');
  if (reading.formation === 'march-column') return no('fire/march-column', 'March column: No Firing (Formation Modifiers).');
  if (info.unit.arm === 'artillery' && reading.formation === 'disordered') {
    return no('fire/disordered-artillery', 'Disordered artillery cannot fire (Quick Reference, Fire; Disordered Artillery).');
  }
  if (reading.formation === 'limbered' || (info.unit.arm === 'artillery' && reading.limbered)) {
    return no('fire/limbered', 'Limbered artillery: No Firing (Formation Modifiers; Artillery, Limbered).');
  }
  return undefined;
}

/** A refusal to fire at one target (module level: no closure per pair). */
function refusal(targetUnitId: string, reason: string, detail: string): FireRefusal {
  return { ok: false, reason, detail, targetUnitId };
}

/** fireAtTarget's scratch: firing stands with target stands in range, and those stands (see there). */
const IN_RANGE_STANDS: (StandInfo | undefined)[] = [];
const IN_RANGE_TARGETS: (readonly StandInfo[] | undefined)[] = [];

/**
 * Fire of one unit at one enemy unit, before target priority. Pairwise: depends on the two units, the
 * terrain, and stands of other units only through line of sight (read in the box around each firing stand
 * and the target, and only once a stand has the target in arc and range: `seesAny`), not through the
 * sight lines.
 */
export function fireAtTarget(ctx: DtpContext, scene: FireScene, firerId: string, targetId: string): FireTargetOption | FireRefusal {
  const firer = ctx.units.get(firerId)!;
  const target = ctx.units.get(targetId)!;
  const row = weaponRow(firer.unit.weapon) as WeaponRow;
  const maxIn = maxRangeIn(row);
  if (target.stands.length === 0) return refusal(targetId, 'fire/target-not-on-table', 'The target has no stands on the table.');

  const firing = ctx.t.get(firingStandsQuery, firerId);
  const candidates = firing.stands;
  if (candidates.length === 0) return refusal(targetId, 'fire/no-eligible-stands', `Every front-rank stand has a hit; stands with hits are not eligible (${SRC_ELIGIBLE}).`);
  let anyArc = false;
  // The stands with target stands in range, and those target stands, in module scratch (no object per
  // stand; fireAtTarget does not call itself).
  let nInRange = 0;
  for (let c = 0; c < candidates.length; c++) {
    const s = candidates[c]!;
    // Once one stand has the target in arc, the others need the arc only for stands in range.
    const v = inArcAndRange(s, firing.arcs[c]!, target, maxIn, !anyArc);
    anyArc ||= v.inArc;
    if (v.ranged.length > 0) {
      IN_RANGE_STANDS[nInRange] = s;
      IN_RANGE_TARGETS[nInRange] = v.ranged;
      nInRange++;
    }
  }
  const anyRange = nInRange > 0;
  const eligible: StandInfo[] = [];
  for (let i = 0; i < nInRange; i++) {
    const s = IN_RANGE_STANDS[i]!;
    if (seesAny(ctx, scene, s, firerId, target, IN_RANGE_TARGETS[i]!)) eligible.push(s);
    // Hold no stand past the call.
    IN_RANGE_STANDS[i] = undefined;
    IN_RANGE_TARGETS[i] = undefined;
  }
  if (!anyArc) return refusal(targetId, 'fire/target-out-of-arc', `No firing stand has the target in its arc of fire (${SRC_ARC}).`);
  if (!anyRange) return refusal(targetId, 'fire/target-out-of-range', `Beyond ${maxIn}" for ${row.name} (${row.class === 'infantry' ? FIRE_TABLE_SOURCE_INFANTRY : FIRE_TABLE_SOURCE_ARTILLERY}).`);
  if (eligible.length === 0) return refusal(targetId, 'fire/no-line-of-sight', `Every line of sight is blocked (${SRC_OBSTRUCTIONS}).`);

  // Range from the centre of the eligible stands to the nearest enemy stand (Range Modifiers).
  let cx = 0, cy = 0;
  for (const s of eligible) {
    cx += s.center.xIn;
    cy += s.center.yIn;
  }
  const centre = { xIn: cx / eligible.length, yIn: cy / eligible.length };
  let rangeIn = Infinity;
  let nearest = target.stands[0]!;
  for (const t of target.stands) {
    const d = pointInPolygon(centre, t.corners) ? 0 : pointToPolygonDistanceIn(centre, t.corners);
    if (d < rangeIn) {
      rangeIn = d;
      nearest = t;
    }
  }
  const band = bandAt(row, rangeIn);
  if (!band) return refusal(targetId, 'fire/target-out-of-range', `${rangeIn.toFixed(1)}" from the centre of the eligible stands is beyond ${row.name}'s range.`);

  const rangeEnd = closestPointOnPolygon(centre, nearest.corners);
  // Only the obstacles the range line crosses matter here (cover), not stands or sight.
  const rangeReport = { linear: linearCrossings(scene.coverOnly, centre, rangeEnd, Math.sqrt((rangeEnd.xIn - centre.xIn) ** 2 + (rangeEnd.yIn - centre.yIn) ** 2)) };

  const modifiers: DiceModifier[] = [];
  if (band.dice !== 0) {
    modifiers.push({
      label: `Range ${rangeIn.toFixed(1)}" (${band.band} band), ${row.name}`,
      dice: band.dice,
      source: row.class === 'infantry' ? FIRE_TABLE_SOURCE_INFANTRY : FIRE_TABLE_SOURCE_ARTILLERY,
    });
  }
  // Optional Rules, Sharpshooters: "Sharpshooters receive no range penalties when firing." The table's
  // penalty stays visible and is cancelled by its own line; a range bonus (6" band) is kept.
  if (firer.unit.sharpshooters && band.dice < 0) {
    modifiers.push({ label: 'Sharpshooters: no range penalty', dice: -band.dice, source: SRC_SHARPSHOOTERS });
  }
  const ff = firerFormationModifier(ctx, firer);
  if (ff) modifiers.push(ff);
  const tf = targetFormationModifier(ctx, target);
  if (tf) modifiers.push(tf);
  modifiers.push(...generalModifiers(ctx, firer, target, eligible, rangeReport));
  modifiers.push(
    ...universalModifiers(firer.unit, firer.attachedCommanderId !== undefined, { roll: 'fire', trainedVeteran: ctx.state.optionalRules?.includes('trained-veteran') === true }),
  );

  return {
    ok: true,
    targetUnitId: targetId,
    eligibleStandIds: eligible.map((s) => s.stand.id),
    rangeIn,
    band: band.band,
    breakdown: applyLimits(firer, eligible.length, modifiers),
    priority: false,
  };
}

/**
 * Target priority (p. 20): when any target is within 12", the closest must be fired at; the others are
 * refused with 'fire/target-priority'. Options keep their input order.
 */
export function applyTargetPriority(options: readonly (FireTargetOption | FireRefusal)[]): (FireTargetOption | FireRefusal)[] {
  let closest: FireTargetOption | undefined;
  for (const o of options) if (o.ok && o.rangeIn <= PRIORITY_RANGE_IN && (!closest || o.rangeIn < closest.rangeIn)) closest = o;
  if (!closest) return [...options];
  const chosen = closest;
  return options.map((o): FireTargetOption | FireRefusal => {
    if (!o.ok) return o;
    if (o === chosen) return { ...o, priority: true };
    return {
      ok: false,
      reason: 'fire/target-priority',
      detail: `Must fire at the closest enemy within ${PRIORITY_RANGE_IN}" (${chosen.targetUnitId}, ${chosen.rangeIn.toFixed(1)}") (${SRC_PRIORITY}).`,
      targetUnitId: o.targetUnitId,
    };
  });
}

/**
 * Fire of one unit at one enemy (key `firer>target`), before target priority: `fireAtTarget` as plain
 * data, so a pair traced again to the same answer leaves the firer's list as it was.
 */
export const firePairQuery = query(
  'dtp/fire-pair',
  (ctx: DtpContext, key): FireTargetOption | FireRefusal => {
    const at = key.indexOf('>');
    return fireEntry(ctx, ctx.t.get(fireSceneQuery), key.slice(0, at), key.slice(at + 1));
  },
  { equal: 'plain' },
);

/**
 * One enemy's entry in a firer's list (before target priority): an enemy whose box comes within the
 * weapon's longest band of the firer's box is traced (`fireAtTarget`); any other is refused outright (its
 * box, and so every stand, lies beyond the longest band).
 */
export function fireEntry(ctx: DtpContext, scene: FireScene, firerId: string, targetId: string): FireTargetOption | FireRefusal {
  const firer = ctx.units.get(firerId)!;
  const row = weaponRow(firer.unit.weapon) as WeaponRow;
  if (!withinBoxReach(firer, ctx.units.get(targetId)!, maxRangeIn(row))) return beyondLongestRange(row, targetId);
  return fireAtTarget(ctx, scene, firerId, targetId);
}

/** A unit's fire options (`fireOptions` with every pair from `firePairQuery`). */
export const fireListQuery = query(
  'dtp/fire-list',
  (ctx: DtpContext, unitId): (FireTargetOption | FireRefusal)[] =>
    fireOptions(ctx, unitId, (f, t) => ctx.t.get(firePairQuery, `${f}>${t}`), ctx.t.get(fireCandidatesQuery, unitId)),
  { equal: 'plain' },
);

/**
 * The units that may be within the firer's reach (`unitsNearby`), kept apart from the list so that a unit
 * moving about near the firer leaves the list alone unless it comes into or goes out of that box.
 */
const fireCandidatesQuery = query('dtp/fire-candidates', (ctx: DtpContext, unitId): string[] => unitsNearby(ctx, unitId), { equal: 'plain' });

/**
 * Ids of the units (of any side) with a stand in the firer's box grown by its weapon's longest band, in
 * state order (none when the unit cannot fire): a spatial read. Every enemy within that band of the firer
 * is one of them; the other enemies are refused without a look at them.
 */
function unitsNearby(ctx: DtpContext, unitId: string): string[] {
  if (unitFireRefusal(ctx, unitId)) return [];
  const firer = ctx.units.get(unitId)!;
  const maxIn = maxRangeIn(weaponRow(firer.unit.weapon) as WeaponRow);
  return ctx.t.unitsIn(grownBox(firer.box, maxIn)).slice();
}

/**
 * All fire options of one unit: a single '*' refusal when it cannot fire at all, else one entry per enemy
 * unit on the table (an enemy beyond its weapon's longest range is 'fire/target-out-of-range'), with target
 * priority applied.
 */
export function evaluateFire(
  ctx: DtpContext,
  scene: FireScene,
  unitId: string,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal = (f, t) => fireEntry(ctx, scene, f, t),
): (FireTargetOption | FireRefusal)[] {
  return fireOptions(ctx, unitId, pair);
}

/**
 * `evaluateFire` with every pair from `pair` (`fireEntry` or its query): a single '*' refusal when the unit
 * cannot fire at all, else one entry per enemy unit on the table, in the enemies' order (`enemyIdsOf`),
 * then target priority. Only the enemies among the units near enough to be within reach (`nearby`) are
 * asked of `pair`; the others are refused outright.
 */
export function fireOptions(
  ctx: DtpContext,
  unitId: string,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal,
  nearby: readonly string[] = unitsNearby(ctx, unitId),
): (FireTargetOption | FireRefusal)[] {
  const unitRefusal = unitFireRefusal(ctx, unitId);
  if (unitRefusal) return [unitRefusal];
  const firer = ctx.units.get(unitId)!;
  const row = weaponRow(firer.unit.weapon) as WeaponRow;
  const enemies = ctx.enemyIdsOf(firer.unit.side);
  const near = new Set(nearby);
  const options: (FireTargetOption | FireRefusal)[] = [];
  for (let i = 0; i < enemies.ids.length; i++) {
    if (!enemies.onTable[i]) continue;
    const id = enemies.ids[i]!;
    options.push(near.has(id) ? pair(unitId, id) : beyondLongestRange(row, id));
  }
  return applyTargetPriority(options);
}

/**
 * Whether the target's box comes within the longest band of the firer's box (then the pair is traced). An
 * axis gap beyond the band puts the box gap there too (it is never below either axis gap).
 */
function withinBoxReach(firer: UnitInfo, target: UnitInfo, maxIn: number): boolean {
  if (target.stands.length === 0) return false;
  const a = firer.box;
  const b = target.box;
  if (a.minXIn - b.maxXIn > maxIn || b.minXIn - a.maxXIn > maxIn || a.minYIn - b.maxYIn > maxIn || b.minYIn - a.maxYIn > maxIn) return false;
  return boxGapIn(a, b) <= maxIn;
}

/**
 * The refusal for an enemy wholly beyond a weapon's longest band: the detail depends on neither unit's
 * position, so the firer's list stays the same while the target moves about out of range.
 */
function beyondLongestRange(row: WeaponRow, targetId: string): FireRefusal {
  return refusal(targetId, 'fire/target-out-of-range', BEYOND_LONGEST_RANGE.get(row)!);
}

/** The detail of `beyondLongestRange` for each weapon row of the tables. */
const BEYOND_LONGEST_RANGE: ReadonlyMap<WeaponRow, string> = new Map(
  WEAPONS.map((row) => {
    const maxIn = maxRangeIn(row);
    const table = row.class === 'infantry' ? FIRE_TABLE_SOURCE_INFANTRY : FIRE_TABLE_SOURCE_ARTILLERY;
    return [row, `Every stand is more than ${maxIn}" away, beyond the ${maxIn}" band, the longest for ${row.name} (${table}).`];
  }),
);
