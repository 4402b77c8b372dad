/**
 * The Devil to Pay (2018), MOVE: how far a unit may move and where its reference point (command stand
 * centre) may end up, honouring forward moves, 45° obliques, wheels measured on the outside of the arc,
 * terrain penalties paid when an obstacle is met, obstacles artillery and mounted cavalry cannot cross, and
 * the 1" enemy exclusion.
 *
 * How the reach is built: the open-ground reach of the unit's path family (forward and oblique moves,
 * wheels then moves, moves then wheels) is sampled once per formation shape and stored as a radius per
 * direction ("bin", `openReach.ts`); then a ray per bin is walked from the unit's leading edge through
 * terrain, friends and enemies (`collectObstacles.ts`, `reachWalk.ts`), paying penalties against the
 * remaining allowance. Paths that bend (wheels) cost more allowance per inch of displacement; each bin
 * remembers that ratio so penalties are charged in path inches. The fudge move (`fudgeWalk.ts`) and road
 * moves (`roadMove.ts`) are walked apart. This module reads the formation and allowance, sets up the unit's
 * frame and outline, and puts the option, its notes and shapes together (`movementResult.ts`).
 */
import type { Shape } from '../../../engine/shapes.ts';
import type { Formation } from '../../../model/tableState.ts';
import type { PointIn } from '../../../model/units.ts';
import { headingToVector } from '../../../geometry/angles.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import type { BoxIn, DtpContext, UnitInfo } from '../context.ts';
import {
  AREA_TERRAIN_SOURCE,
  ENEMY_CLEARANCE_IN,
  FACE_COST_IN,
  FUDGE_MOVE_IN,
  LINEAR_TERRAIN_SOURCE,
  MOVEMENT_TABLE_SOURCE,
  MOUNTED_BONUS_IN,
  ROAD_ENEMY_CLEARANCE_IN,
  ROAD_MOVE_IN,
  movementAllowanceIn,
} from '../tables/movementTables.ts';
import { collectObstacles } from './collectObstacles.ts';
import { fudgeWalk } from './fudgeWalk.ts';
import type { DtpMovementOption, MovementResult } from './movementResult.ts';
import { KEY_AREA, KEY_LINEAR, keyKind, startCount } from './obstacleKeys.ts';
import { BIN_COS, BIN_SIN, REACH_BINS, openReach, originMasks, type OpenReach } from './openReach.ts';
import { query } from '../../../engine/incremental/query.ts';
import type { DtpFormationReading } from '../formation.ts';
import { straightAheadInOut, straightAheadStoppedByOut, walkReach } from './reachWalk.ts';
import { nearestEnemyIn, roadReach } from './roadMove.ts';
import { OUR_FRAME, OUTLINE, setOutline } from './unitOutline.ts';

/** Room for rounding around the swept outline, inches. */
const SWEEP_SLACK_IN = 0.05;

/**
 * Where other units can matter to the move, within the reach box: the box of the unit's outline carried
 * along every direction as far as its open reach (and the 3" fudge move) goes, grown by an enemy's 1"
 * clearance at a grown corner (√2"). Both walks move the outline without turning and count only what it
 * meets on the way (reachWalk.ts, fudgeWalk.ts), and no reach is longer than the open reach, so a unit
 * outside this box is met by neither. Needs the outline set (`setOutline`).
 */
function sweptBox(reachBox: BoxIn, open: OpenReach, fx: number, fy: number): BoxIn {
  let lowX = 0, lowY = 0, highX = 0, highY = 0;
  for (let b = 0; b < REACH_BINS; b++) {
    const lx = BIN_COS[b]!;
    const ly = BIN_SIN[b]!;
    const dx = lx * fx - ly * fy;
    const dy = lx * fy + ly * fx;
    const r = open.radiusIn[b]! > 1e-9 ? Math.max(open.radiusIn[b]! + 0.01, FUDGE_MOVE_IN) : FUDGE_MOVE_IN;
    lowX = Math.min(lowX, dx * r);
    highX = Math.max(highX, dx * r);
    lowY = Math.min(lowY, dy * r);
    highY = Math.max(highY, dy * r);
  }
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < 8; i++) {
    const x = OUTLINE[2 * i]!, y = OUTLINE[2 * i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const grow = Math.SQRT2 * ENEMY_CLEARANCE_IN + SWEEP_SLACK_IN;
  return {
    minXIn: Math.max(reachBox.minXIn, minX + lowX - grow),
    minYIn: Math.max(reachBox.minYIn, minY + lowY - grow),
    maxXIn: Math.min(reachBox.maxXIn, maxX + highX + grow),
    maxYIn: Math.min(reachBox.maxYIn, maxY + highY + grow),
  };
}

/** The unit's frame: reference point (command stand centre), heading, and its extent around them. */
interface UnitFrame {
  readonly ref: PointIn;
  readonly headingDeg: number;
  readonly fx: number;
  readonly fy: number;
  /** Extent of the unit around the reference point: forward (x') and left (y') of every corner. */
  readonly frontX: number;
  readonly backX: number;
  readonly leftY: number;
  readonly rightY: number;
  /** Everything that could matter lies within the open reach plus this of the reference point. */
  readonly unitRadiusIn: number;
}

function unitFrame(ctx: DtpContext, info: UnitInfo, reading: DtpFormationReading): UnitFrame {
  const refStand = ctx.stands.get(reading.referenceStandId) ?? info.command ?? info.stands[0]!;
  const ref = refStand.center;
  const headingDeg = reading.headingDeg;
  const f = headingToVector(headingDeg);
  const fx = f.x;
  const fy = f.y;
  let frontX = -Infinity;
  let backX = Infinity;
  let leftY = -Infinity;
  let rightY = Infinity;
  let unitRadiusIn = 0;
  for (const s of info.stands) {
    if (s.stand.role === 'limber' && !reading.limbered) continue;
    for (const c of s.corners) {
      const dx = c.xIn - ref.xIn;
      const dy = c.yIn - ref.yIn;
      const x = dx * fx + dy * fy;
      const y = -dx * fy + dy * fx;
      unitRadiusIn = Math.max(unitRadiusIn, hypot2(x, y));
      if (x > frontX) frontX = x;
      if (x < backX) backX = x;
      if (y > leftY) leftY = y;
      if (y < rightY) rightY = y;
    }
  }
  return { ref, headingDeg, fx, fy, frontX, backX, leftY, rightY, unitRadiusIn };
}

/** The formation, allowance and path family a unit moves with (undefined when it cannot move at all). */
function moveBasics(ctx: DtpContext, unitId: string): { info: UnitInfo; reading: DtpFormationReading; allowanceIn: number; oblique: boolean; prolong: boolean } | undefined {
  const info = ctx.units.get(unitId);
  if (!info || info.stands.length === 0 || info.unit.status?.prone) return undefined;
  const reading = ctx.formationOf(unitId);
  const formation = reading.formation === 'unknown' ? 'line' : reading.formation;
  const allowanceIn = movementAllowanceIn(formation, { mounted: reading.mounted, horseArtillery: info.unit.horseArtillery === true })!;
  const prolong = info.unit.arm === 'artillery' && formation === 'unlimbered';
  return { info, reading, allowanceIn, oblique: info.unit.quality !== 'green', prolong };
}

/**
 * The open reach of one formation shape is sampled once and shared by every unit of the same shape: the
 * shape is its numbers to two decimals (`openReachKey`), sampled from the exact numbers of the first unit in
 * state order that has it. These are each unit's shape's key and exact numbers (null when it cannot move).
 */
const openReachArgsQuery = query(
  'dtp/open-reach-args',
  (ctx: DtpContext, unitId): { key: string; args: number[] } | null => {
    const basics = moveBasics(ctx, unitId);
    if (!basics) return null;
    const { frontX, leftY, rightY } = unitFrame(ctx, basics.info, basics.reading);
    const { allowanceIn, oblique, prolong } = basics;
    return { key: openReachKey(allowanceIn, frontX, leftY, rightY, oblique, prolong), args: [allowanceIn, frontX, leftY, rightY, oblique ? 1 : 0, prolong ? 1 : 0] };
  },
  { equal: 'plain' },
);

/** Each formation shape's numbers: those of the first unit in state order with that shape. */
const openReachShapesQuery = query(
  'dtp/open-reach-shapes',
  (ctx: DtpContext): Record<string, number[]> => {
    const out: Record<string, number[]> = {};
    for (const id of ctx.t.unitIds()) {
      const a = ctx.t.get(openReachArgsQuery, id);
      if (a !== null && out[a.key] === undefined) out[a.key] = a.args;
    }
    return out;
  },
  { equal: 'plain' },
);

/** The open reach of one formation shape (by `openReachKey`). */
const openReachQuery = query('dtp/open-reach', (ctx: DtpContext, key): OpenReach => ctx.t.get(openReachOfNumbersQuery, ctx.t.get(openReachShapesQuery)[key]!.join(' ')), { equal: 'plain' });

/**
 * The open reach of the exact numbers written in the key (`allowanceIn frontX leftY rightY oblique
 * prolong`): a function of the key alone, so a shape seen in an earlier evaluation is not walked again.
 */
const openReachOfNumbersQuery = query(
  'dtp/open-reach-of-numbers',
  (_ctx: DtpContext, key): OpenReach => {
    const [allowanceIn, frontX, leftY, rightY, oblique, prolong] = key.split(' ').map(Number);
    return openReach(allowanceIn!, frontX!, leftY!, rightY!, oblique === 1, prolong === 1);
  },
  { pure: true },
);

/** A formation shape: the open reach's numbers to two decimals and its two flags. */
function openReachKey(allowanceIn: number, frontX: number, leftY: number, rightY: number, oblique: boolean, prolong: boolean): string {
  return `${oblique ? 1 : 0}${prolong ? 1 : 0} ${allowanceIn.toFixed(2)} ${frontX.toFixed(2)} ${leftY.toFixed(2)} ${rightY.toFixed(2)}`;
}

/**
 * Movement options for one unit on a MOVE order.
 *
 * @param ctx the per-state context
 * @param unitId the unit to move
 * @returns the allowance and reach (or a refusal), and shapes on the 'movement' layer
 */
export function movementOptions(ctx: DtpContext, unitId: string): MovementResult {
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`movementOptions: no unit '${unitId}' in the table state`);
  if (info.stands.length === 0) return { movement: { ok: false, reason: 'movement/no-stands', detail: 'The unit has no stands on the table' }, shapes: [] };
  const unit = info.unit;
  if (unit.status?.prone) {
    return { movement: { ok: false, reason: 'movement/prone', detail: 'Prone: N/A on the Movement table; stand up on a RALLY order first (Optional Rules: Going Prone)' }, shapes: [] };
  }
  const reading = ctx.formationOf(unitId);
  const notes: string[] = [];
  let formation = reading.formation;
  if (formation === 'unknown') {
    notes.push('Formation not recognised: using Line (9") until the stands are dressed or status.formation is set');
    formation = 'line';
  }
  const mounted = reading.mounted;
  const horse = unit.horseArtillery === true;
  const allowanceIn = movementAllowanceIn(formation, { mounted, horseArtillery: horse })!;
  notes.push(`${formation} ${allowanceIn}" (${MOVEMENT_TABLE_SOURCE}${mounted || (horse && formation !== 'unlimbered') ? `; cavalry +${MOUNTED_BONUS_IN}"` : ''})`);
  const isArtillery = unit.arm === 'artillery';
  const prolong = isArtillery && formation === 'unlimbered';
  if (prolong) notes.push('Prolong: 3" in any direction or turn up to 45° (Move: Special Movements, Prolong)');
  const green = unit.quality === 'green';
  const oblique = !green;
  if (green) notes.push('Green troops may not oblique (Move: Movement, Oblique)');
  if (formation === 'disordered') notes.push('Disordered: changing formation needs a RALLY order (reform into line facing the nearest enemy)');
  if (reading.dismounted && (formation === 'line' || formation === 'attack-column')) {
    notes.push('Dismounted cavalry may not use Line or Attack Column (Armies, Dismounted Cavalry)');
  }
  if (formation === 'attack-column' && info.stands.length < 5) notes.push('An attack column needs at least five stands (Armies, Infantry: Attack Column)');
  const cannotCrossObstacles = isArtillery || mounted;

  const { ref, headingDeg, fx, fy, frontX, backX, leftY, rightY, unitRadiusIn } = unitFrame(ctx, info, reading);
  const open = ctx.t.get(openReachQuery, openReachKey(allowanceIn, frontX, leftY, rightY, oblique, prolong));

  // Rays leave from points on the unit's outline: its bounding rectangle's corners and edge midpoints.
  const midX = (frontX + backX) / 2;
  const midY = (leftY + rightY) / 2;
  setOutline(0, ref, fx, fy, frontX, leftY);
  setOutline(1, ref, fx, fy, frontX, midY);
  setOutline(2, ref, fx, fy, frontX, rightY);
  setOutline(3, ref, fx, fy, midX, rightY);
  setOutline(4, ref, fx, fy, backX, rightY);
  setOutline(5, ref, fx, fy, backX, midY);
  setOutline(6, ref, fx, fy, backX, leftY);
  setOutline(7, ref, fx, fy, midX, leftY);

  const maxOpenIn = open.maxIn;
  const horizonIn = maxOpenIn + unitRadiusIn + ENEMY_CLEARANCE_IN + 0.01;
  const reachBox: BoxIn = { minXIn: ref.xIn - horizonIn, minYIn: ref.yIn - horizonIn, maxXIn: ref.xIn + horizonIn, maxYIn: ref.yIn + horizonIn };

  const nKeys = collectObstacles(ctx, info, unitId, reachBox, sweptBox(reachBox, open, fx, fy), cannotCrossObstacles, ref, unitRadiusIn, maxOpenIn, headingDeg, open);

  const table = ctx.state.table;
  const masks = originMasks((frontX - backX) / 2, (leftY - rightY) / 2);
  // The unit's bounding rectangle as a frame [cx, cy, ux, uy, nx, ny, halfWidth, halfDepth] (u to its right).
  OUR_FRAME[0] = ref.xIn + midX * fx - midY * fy;
  OUR_FRAME[1] = ref.yIn + midX * fy + midY * fx;
  OUR_FRAME[2] = fy;
  OUR_FRAME[3] = -fx;
  OUR_FRAME[4] = fx;
  OUR_FRAME[5] = fy;
  OUR_FRAME[6] = (leftY - rightY) / 2;
  OUR_FRAME[7] = (frontX - backX) / 2;
  const reach = walkReach(open, allowanceIn, fx, fy, masks, nKeys, unitRadiusIn, ref, table.widthIn, table.depthIn);
  const straightAheadIn = straightAheadInOut;
  const straightAheadStoppedBy = straightAheadStoppedByOut;
  const polygon = reach;
  let terrainMet = startCount > 0;
  for (let key = 0; !terrainMet && key < nKeys; key++) terrainMet = keyKind[key] === KEY_LINEAR || keyKind[key] === KEY_AREA;
  if (terrainMet) notes.push(`Terrain penalties paid when met (${LINEAR_TERRAIN_SOURCE}; ${AREA_TERRAIN_SOURCE})`);
  if (cannotCrossObstacles) notes.push('Artillery and mounted cavalry cannot cross fences, walls, hasty works, entrenchments, abatis or chevaux-de-frise');
  if (straightAheadStoppedBy) notes.push(`Straight ahead: stops after ${straightAheadIn.toFixed(1)}" at ${straightAheadStoppedBy}`);

  // Fudge move (Special Movements): 3" any way, terrain does not matter, still 1" from the enemy.
  const fudgeReach = fudgeWalk(nKeys, ref, fx, fy, masks, unitRadiusIn);


  // Roads: March Column and Limbered Artillery move 18" on a road beyond 12" of the enemy, ignoring terrain.
  let roadAllowanceIn: number | undefined;
  let roadLines: PointIn[][] | undefined;
  const roadLooked = (formation === 'march-column' || formation === 'limbered') && ctx.state.terrain.roads.length > 0;
  if (roadLooked) {
    if (nearestEnemyIn(ctx, info) > ROAD_ENEMY_CLEARANCE_IN) {
      roadAllowanceIn = ROAD_MOVE_IN + (mounted || horse ? MOUNTED_BONUS_IN : 0);
      const lines = roadReach(ctx, info, ref, ctx.state.terrain.roads, roadAllowanceIn, Math.max(0, frontX));
      if (lines.length > 0) {
        roadLines = lines;
        notes.push(`On road: ${roadAllowanceIn}" along the road, no terrain penalties (${MOVEMENT_TABLE_SOURCE})`);
      } else roadAllowanceIn = undefined;
    } else notes.push('Road move (18") not allowed within 12" of an enemy (Armies, Infantry: March Column)');
  }

  // Left/Right Face between March Column and Line costs 3" (Move: Formation Change, option 2).
  let face: DtpMovementOption['face'];
  if (formation === 'line' || formation === 'march-column') {
    const toFormation: Formation = formation === 'line' ? 'march-column' : 'line';
    const next = movementAllowanceIn(toFormation, { mounted })!;
    face = { toFormation, costIn: FACE_COST_IN, remainingIn: next - FACE_COST_IN };
  }

  const side = unit.side;
  const shapes: Shape[] = [{ id: `${unitId}/movement/reach`, kind: 'polygon', layer: 'movement', style: 'reach', unitId, side, vertices: polygon }];
  roadLines?.forEach((points, i) => shapes.push({ id: `${unitId}/movement/road/${i}`, kind: 'polyline', layer: 'movement', style: 'reach-road', unitId, side, points }));

  const movement: DtpMovementOption = {
    ok: true,
    allowanceIn,
    reach: polygon,
    notes,
    formation,
    oblique,
    fudgeReach,
    straightAheadIn,
    ...(straightAheadStoppedBy ? { straightAheadStoppedBy } : {}),
    ...(roadAllowanceIn !== undefined ? { roadAllowanceIn, roadReach: roadLines! } : {}),
    ...(face ? { face } : {}),
  };
  return { movement, shapes };
}
