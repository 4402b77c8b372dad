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
import { boxGapIn, type DtpContext, type StandInfo, type UnitInfo } from '../context.ts';
import { bandAt, maxRangeIn, weaponRow, FIRE_TABLE_SOURCE_ARTILLERY, FIRE_TABLE_SOURCE_INFANTRY, type WeaponRow } from '../tables/fireTables.ts';
import { universalModifiers } from '../universalModifiers.ts';
import { SRC_SHARPSHOOTERS } from '../optionalRules.ts';
import { closestPointOnPolygon, firingStands, inArcAndRange, seesAny, type SightTrace } from './eligibleStands.ts';
import { standArc } from './fireArc.ts';
import { applyLimits, firerFormationModifier, generalModifiers, targetFormationModifier } from './fireModifiers.ts';
import type { FireScene } from './fireScene.ts';

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

/**
 * Refusals decided after sight lines were traced although their reason alone does not say so: out of range
 * measured from the eligible stands' centre (see `settledWithoutSight`). Rare, so this weak set stays small
 * (an entry for every sight-free refusal made garbage collection dearer).
 */
const TRACED_REFUSALS = new WeakSet<FireRefusal>();

function traced(r: FireRefusal): FireRefusal {
  TRACED_REFUSALS.add(r);
  return r;
}

/**
 * Whether `fireAtTarget` settled this result from the two units alone (no target stands, no eligible
 * stands, out of arc, out of range before any sight line): then no other unit can change it, which a
 * session uses to keep it when others move. Only for results of `fireAtTarget`.
 */
export function settledWithoutSight(result: FireTargetOption | FireRefusal): boolean {
  return !result.ok && result.reason !== 'fire/no-line-of-sight' && !TRACED_REFUSALS.has(result);
}

/**
 * Out-of-arc refusals, one per target id: most pairs on a big table are out of arc, and the text depends
 * on nothing else, so one object serves every firer and evaluation (and a session sees it unchanged).
 */
const OUT_OF_ARC = new Map<string, FireRefusal>();

function outOfArc(targetId: string): FireRefusal {
  const r = refusal(targetId, 'fire/target-out-of-arc', `No firing stand has the target in its arc of fire (${SRC_ARC}).`);
  OUT_OF_ARC.set(targetId, r);
  return r;
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
 * terrain, and stands of other units only through line of sight. `trace`, when given, collects what the
 * sight lines traced rested on (`SightTrace`): a session keeps the result while none of it changes.
 */
export function fireAtTarget(ctx: DtpContext, scene: FireScene, firerId: string, targetId: string, trace?: SightTrace): FireTargetOption | FireRefusal {
  const firer = ctx.units.get(firerId)!;
  const target = ctx.units.get(targetId)!;
  const row = weaponRow(firer.unit.weapon) as WeaponRow;
  const maxIn = maxRangeIn(row);
  if (target.stands.length === 0) return refusal(targetId, 'fire/target-not-on-table', 'The target has no stands on the table.');

  const candidates = firingStands(ctx, firerId);
  if (candidates.length === 0) return refusal(targetId, 'fire/no-eligible-stands', `Every front-rank stand has a hit; stands with hits are not eligible (${SRC_ELIGIBLE}).`);
  let anyArc = false;
  // The stands with target stands in range, and those target stands, in module scratch (no object per
  // stand; fireAtTarget does not call itself).
  let nInRange = 0;
  for (const s of candidates) {
    // Once one stand has the target in arc, the others need the arc only for stands in range.
    const v = inArcAndRange(s, standArc(s, firer.unit.arm), target, maxIn, !anyArc);
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
    if (seesAny(ctx, scene, s, firerId, target, IN_RANGE_TARGETS[i]!, trace)) eligible.push(s);
    // Hold no stand past the call.
    IN_RANGE_STANDS[i] = undefined;
    IN_RANGE_TARGETS[i] = undefined;
  }
  if (!anyArc) return OUT_OF_ARC.get(targetId) ?? outOfArc(targetId);
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
  if (!band) return traced(refusal(targetId, 'fire/target-out-of-range', `${rangeIn.toFixed(1)}" from the centre of the eligible stands is beyond ${row.name}'s range.`));

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
  return options.map((o) => {
    if (!o.ok) return o;
    if (o === chosen) {
      let p = PRIORITISED.get(o);
      if (!p) PRIORITISED.set(o, (p = { ...o, priority: true }));
      return p;
    }
    let byChosen = OVERRULED.get(o);
    if (!byChosen) OVERRULED.set(o, (byChosen = new WeakMap()));
    let r = byChosen.get(chosen);
    if (!r) {
      r = {
        ok: false,
        reason: 'fire/target-priority',
        detail: `Must fire at the closest enemy within ${PRIORITY_RANGE_IN}" (${chosen.targetUnitId}, ${chosen.rangeIn.toFixed(1)}") (${SRC_PRIORITY}).`,
        targetUnitId: o.targetUnitId,
      };
      byChosen.set(chosen, r);
    }
    return r;
  });
}

/**
 * The same pair results give the same (identical) prioritised objects, so a session that reuses pair
 * results also sees unchanged options and can keep the shapes drawn from them. Weak: no leak.
 */
const PRIORITISED = new WeakMap<FireTargetOption, FireTargetOption>();
const OVERRULED = new WeakMap<FireTargetOption, WeakMap<FireTargetOption, FireRefusal>>();

/**
 * All fire options of one unit: a single '*' refusal when it cannot fire at all, else one entry per enemy
 * unit on the table (an enemy beyond its weapon's longest range is 'fire/target-out-of-range'), with target
 * priority applied.
 */
export function evaluateFire(
  ctx: DtpContext,
  scene: FireScene,
  unitId: string,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal = (f, t) => fireAtTarget(ctx, scene, f, t),
): (FireTargetOption | FireRefusal)[] {
  return fireOptions(ctx, unitId, pair);
}

/** `evaluateFire` with every pair from `pair` (a session serves them from its cache, tracing only new ones). */
export function fireOptions(
  ctx: DtpContext,
  unitId: string,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal,
): (FireTargetOption | FireRefusal)[] {
  const raw = listFire(ctx, unitId, pair, false);
  return raw.targetIds ? applyTargetPriority(raw.options) : raw.options;
}

/**
 * A unit's fire list before target priority: a single '*' refusal when it cannot fire at all (then no
 * `targetIds`), else one entry per enemy unit on the table (`fireEntry`), in the enemies' order, with the
 * target of each entry. A session keeps it and replaces only the entries a change can touch.
 */
export function fireOptionsBeforePriority(
  ctx: DtpContext,
  unitId: string,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal,
): { options: (FireTargetOption | FireRefusal)[]; targetIds?: string[] } {
  return listFire(ctx, unitId, pair, true);
}

/** The list before priority; target ids only when asked (`targetIds` is then [] for a unit that fires). */
function listFire(
  ctx: DtpContext,
  unitId: string,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal,
  withIds: boolean,
): { options: (FireTargetOption | FireRefusal)[]; targetIds?: string[] } {
  const refusal = unitFireRefusal(ctx, unitId);
  if (refusal) return { options: [refusal] };
  const firer = ctx.units.get(unitId)!;
  const row = weaponRow(firer.unit.weapon) as WeaponRow;
  const maxIn = maxRangeIn(row);
  // Every enemy on the table is listed, in the enemies' order; the list is sized once (a hundred entries
  // pushed one by one were copied as it grew).
  const enemies = ctx.enemiesOf(unitId);
  let n = 0;
  for (let i = 0; i < enemies.length; i++) if (enemies[i]!.stands.length > 0) n++;
  const options = new Array<FireTargetOption | FireRefusal>(n);
  const targetIds: string[] = withIds ? new Array<string>(n) : [];
  // Beyond-range refusals by the enemy's place in this list, shared by the firers with this weapon: a lookup
  // by target id per enemy and firer was a few percent of a big table's evaluation.
  const beyondByPlace = beyondRangeByPlace(enemies, row);
  for (let i = 0, k = 0; i < enemies.length; i++) {
    const e = enemies[i]!;
    if (e.stands.length === 0) continue;
    let entry = withinBoxReach(firer, e, maxIn) ? pair(firer.unit.id, e.unit.id) : beyondByPlace[i];
    if (entry === undefined) entry = beyondByPlace[i] = beyondRefusal(row, maxIn, e.unit.id);
    options[k] = entry;
    if (withIds) targetIds[k] = e.unit.id;
    k++;
  }
  return { options, targetIds };
}

/**
 * Per enemies list (one per side and context) and weapon row, the beyond-range refusals found so far by
 * the enemy's place in the list (the same objects `fireEntry` gives).
 */
const BEYOND_BY_PLACE = new WeakMap<readonly UnitInfo[], Map<WeaponRow, (FireRefusal | undefined)[]>>();

function beyondRangeByPlace(enemies: readonly UnitInfo[], row: WeaponRow): (FireRefusal | undefined)[] {
  let byRow = BEYOND_BY_PLACE.get(enemies);
  if (!byRow) BEYOND_BY_PLACE.set(enemies, (byRow = new Map()));
  let list = byRow.get(row);
  if (!list) byRow.set(row, (list = new Array<FireRefusal | undefined>(enemies.length).fill(undefined)));
  return list;
}

/**
 * Whether the target's box comes within the longest band of the firer's box (then the pair is traced). An
 * axis gap beyond the band puts the box gap there too (it is never below either axis gap): most of a big
 * table's enemies are refused on that, without boxGapIn's hypot.
 */
function withinBoxReach(firer: UnitInfo, target: UnitInfo, maxIn: number): boolean {
  const a = firer.box;
  const b = target.box;
  if (a.minXIn - b.maxXIn > maxIn || b.minXIn - a.maxXIn > maxIn || a.minYIn - b.maxYIn > maxIn || b.minYIn - a.maxYIn > maxIn) return false;
  return boxGapIn(a, b) <= maxIn;
}

/** The one beyond-range refusal object for this weapon row and target (see BEYOND_RANGE). */
function beyondRefusal(row: WeaponRow, maxIn: number, targetId: string): FireRefusal {
  const beyond = beyondRangeRefusals(row);
  return beyond.get(targetId) ?? beyondLongestRange(row, maxIn, targetId, beyond);
}

/**
 * One enemy's entry in a firer's list (before target priority): a pair within reach by box is traced
 * through `pair`; any other is refused outright (its box, and so every stand, lies beyond the longest band).
 */
export function fireEntry(
  firer: UnitInfo,
  row: WeaponRow,
  maxIn: number,
  target: UnitInfo,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal,
): FireTargetOption | FireRefusal {
  if (withinBoxReach(firer, target, maxIn)) return pair(firer.unit.id, target.unit.id);
  return beyondRefusal(row, maxIn, target.unit.id);
}

/**
 * Refusals for enemies wholly beyond a weapon's longest band, one object per weapon row and target: the
 * detail depends on neither unit's position, so a session keeps the same object (and the firer's list)
 * while the target moves about out of range.
 */
const BEYOND_RANGE = new WeakMap<WeaponRow, Map<string, FireRefusal>>();

function beyondRangeRefusals(row: WeaponRow): Map<string, FireRefusal> {
  // Asked for runs of the same row (one firer's enemies): the last answer first, before the weak map.
  if (row === lastBeyondRow && lastBeyond !== undefined) return lastBeyond;
  let byTarget = BEYOND_RANGE.get(row);
  if (!byTarget) BEYOND_RANGE.set(row, (byTarget = new Map()));
  lastBeyondRow = row;
  lastBeyond = byTarget;
  return byTarget;
}
let lastBeyondRow: WeaponRow | undefined;
let lastBeyond: Map<string, FireRefusal> | undefined;

function beyondLongestRange(row: WeaponRow, maxIn: number, targetId: string, byTarget: Map<string, FireRefusal>): FireRefusal {
  const table = row.class === 'infantry' ? FIRE_TABLE_SOURCE_INFANTRY : FIRE_TABLE_SOURCE_ARTILLERY;
  const r = refusal(targetId, 'fire/target-out-of-range', `Every stand is more than ${maxIn}" away, beyond the ${maxIn}" band, the longest for ${row.name} (${table}).`);
  byTarget.set(targetId, r);
  return r;
}