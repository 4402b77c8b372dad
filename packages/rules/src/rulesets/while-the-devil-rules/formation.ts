/**
 * Formations read from the bases (While the Devil Rules, Formations): each stand's footprint is matched to a
 * printed base size, then the unit's layout to its troop type's fixed formation (Dutch battalion, tercio
 * variants, Swedish brigade, one-base-deep lines, two-base cavalry, light horse in contact, swarms within 2"
 * centre to centre, artillery) or to a march column (one base wide, half-inch gaps, one facing).
 */
import type { FormationReading } from '../../engine/evaluation.ts';
import type { Formation, Stand } from '../../model/tableState.ts';
import { angleDiffDeg } from '../../geometry/angles.ts';
import { meanHeadingDeg } from '../../geometry/frontLine.ts';
import { standToStandDistanceIn } from '../../geometry/distance.ts';
import { BASE_SIZES, BASE_SIZE_TOLERANCE_IN, mmToIn, type BaseClass } from './tables/baseSizes.ts';
import { MARCH_COLUMN_GAP_IN, SWARM_SPACING_IN } from './tables/movementTables.ts';
import type { TroopType } from './tables/troopTypes.ts';
import { across, along, frameOf } from './geom.ts';

/** Stands further apart than this are not "in contact", inches (placement slack, not a rule). */
const CONTACT_SLACK_IN = 0.15;
/** Heading spread, degrees, that still reads as "a single facing" (placement slack, not a rule). */
const FACING_SLACK_DEG = 5;

/** Per scale, each printed base class with its accepted width and depth ranges in inches (tolerance included). */
const sizeLimits = new Map<number, readonly { baseClass: BaseClass; w0: number; w1: number; d0: number; d1: number }[]>();

function limitsFor(scale: number): readonly { baseClass: BaseClass; w0: number; w1: number; d0: number; d1: number }[] {
  let rows = sizeLimits.get(scale);
  if (!rows) {
    const lo = (mm: number): number => mmToIn(mm) * scale - BASE_SIZE_TOLERANCE_IN;
    const hi = (mm: number): number => mmToIn(mm) * scale + BASE_SIZE_TOLERANCE_IN;
    rows = BASE_SIZES.map((row) => ({ baseClass: row.baseClass, w0: lo(row.widthMm[0]), w1: hi(row.widthMm[1]), d0: lo(row.depthMm[0]), d1: hi(row.depthMm[1]) }));
    sizeLimits.set(scale, rows);
  }
  return rows;
}

/** The printed base class a stand's footprint matches, if any (`scale` 1 or 0.5). */
export function baseClassOf(stand: Pick<Stand, 'widthIn' | 'depthIn'>, scale: number): BaseClass | undefined {
  const w = stand.widthIn;
  const d = stand.depthIn;
  for (const row of limitsFor(scale)) if (w >= row.w0 && w <= row.w1 && d >= row.d0 && d <= row.d1) return row.baseClass;
  return undefined;
}

export interface FormationResult {
  readonly reading: FormationReading;
  /** Stands read as pike bases (pike & shot formations only). */
  readonly pikeStandIds: readonly string[];
  /** True when the unit is in march column (by status or by layout). */
  readonly march: boolean;
}

/** 1 within the slack, falling to 0 at four times it. */
function fit(error: number, slack: number): number {
  if (error <= slack) return 1;
  return Math.max(0, 1 - (error - slack) / (3 * slack));
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Largest heading difference from the mean. */
function facingSpreadDeg(stands: readonly Stand[], meanDeg: number): number {
  let worst = 0;
  for (const s of stands) worst = Math.max(worst, Math.abs(angleDiffDeg(s.pose.headingDeg, meanDeg)));
  return worst;
}

/** True when every stand is linked to the first through links no longer than `linkIn` (by `dist`). */
function connected(stands: readonly Stand[], linkIn: number, dist: (a: Stand, b: Stand) => number): boolean {
  if (stands.length <= 1) return true;
  const seen = new Set<number>([0]);
  const todo = [0];
  while (todo.length > 0) {
    const i = todo.pop()!;
    for (let j = 0; j < stands.length; j++) {
      if (!seen.has(j) && dist(stands[i]!, stands[j]!) <= linkIn) {
        seen.add(j);
        todo.push(j);
      }
    }
  }
  return seen.size === stands.length;
}

/**
 * Edge-to-edge distance, or a lower bound of it (centre distance less both half diagonals) when that bound
 * is already over the longest link asked for (2"): enough for `connected`, without the polygon test.
 */
function touching(a: Stand, b: Stand): number {
  const bound = Math.hypot(a.pose.xIn - b.pose.xIn, a.pose.yIn - b.pose.yIn) - Math.hypot(a.widthIn, a.depthIn) / 2 - Math.hypot(b.widthIn, b.depthIn) / 2;
  return bound > LONGEST_LINK_IN ? bound : standToStandDistanceIn(a, b);
}
/** The longest link `connected` is asked about with `touching` (a large Swedish brigade's 1" plus slack). */
const LONGEST_LINK_IN = 2;
const centres = (a: Stand, b: Stand): number => Math.hypot(a.pose.xIn - b.pose.xIn, a.pose.yIn - b.pose.yIn);

/**
 * How well the stands form a column one base wide with half-inch gaps, one facing (0..1); 0 for one stand.
 */
function marchColumnFit(stands: readonly Stand[], headingDeg: number): number {
  if (stands.length < 2) return 0;
  const fr = frameOf(headingDeg);
  const sorted = [...stands].sort((a, b) => along(fr, b.pose) - along(fr, a.pose));
  let lateral = 0;
  let gapErr = 0;
  const c0 = across(fr, sorted[0]!.pose);
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    lateral = Math.max(lateral, Math.abs(across(fr, b.pose) - c0));
    const gap = along(fr, a.pose) - a.depthIn / 2 - (along(fr, b.pose) + b.depthIn / 2);
    gapErr = Math.max(gapErr, Math.abs(gap - MARCH_COLUMN_GAP_IN));
  }
  return Math.min(fit(lateral, 0.25), fit(gapErr, 0.2));
}

/** How well the stands stand side by side in one rank, touching, one facing (0..1). */
function lineFit(stands: readonly Stand[], headingDeg: number): number {
  if (stands.length === 1) return 1;
  const fr = frameOf(headingDeg);
  const fronts = stands.map((s) => along(fr, s.pose) + s.depthIn / 2);
  const spread = Math.max(...fronts) - Math.min(...fronts);
  const sorted = [...stands].sort((a, b) => across(fr, a.pose) - across(fr, b.pose));
  let gapErr = 0;
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    const gap = across(fr, b.pose) - b.widthIn / 2 - (across(fr, a.pose) + a.widthIn / 2);
    gapErr = Math.max(gapErr, Math.abs(gap));
  }
  return Math.min(fit(spread, 0.25), fit(gapErr, CONTACT_SLACK_IN));
}

/** Reads the unit's formation; `statusFormation` (march column set by the operator) wins over geometry. */
export function readFormation(
  type: TroopType | undefined,
  stands: readonly Stand[],
  scale: number,
  statusFormation: Formation | undefined,
): FormationResult {
  const headingDeg = meanHeadingDeg(stands);
  const classes = stands.map((s) => baseClassOf(s, scale));
  const pikeStandIds = type?.family === 'pike-and-shot' ? stands.filter((_, i) => classes[i] === 'pike').map((s) => s.id) : [];
  if (statusFormation !== undefined) {
    const name = statusFormation === 'march-column' ? 'March column' : type?.label;
    return {
      reading: { formation: statusFormation, ...(name ? { name } : {}), section: 'Formations', confidence: 1, source: 'status' },
      pikeStandIds,
      march: statusFormation === 'march-column',
    };
  }
  if (stands.length === 0 || type === undefined) {
    return { reading: { formation: 'unknown', confidence: 0, source: 'geometry' }, pikeStandIds, march: false };
  }
  const spread = facingSpreadDeg(stands, headingDeg);
  const facing = fit(spread, FACING_SLACK_DEG);
  const column = type.family === 'swarm' ? 0 : marchColumnFit(stands, headingDeg) * facing;
  const expectedClasses = expectedBaseClasses(type);
  const sized = classes.filter((c) => c !== undefined && expectedClasses.includes(c)).length / stands.length;

  let formation: Formation;
  let name: string;
  let layout: number;
  switch (type.family) {
    case 'pike-and-shot': {
      const total = stands.length;
      const pikes = pikeStandIds.length;
      const wantPikes = type.pikeBasesByTotal?.[total];
      const counts = wantPikes !== undefined && pikes === wantPikes ? 1 : 0.5;
      // Large Swedish brigades: "no more than an inch separates the rearmost line of shot from the main body".
      const link = type.id === 'swedish-brigade' && total === 8 ? 1 + CONTACT_SLACK_IN : CONTACT_SLACK_IN;
      layout = counts * (connected(stands, link, touching) ? 1 : 0.3);
      if (type.id === 'dutch-battalion' || type.id === 'veteran-dutch-battalion') {
        formation = 'line';
        name = type.label;
        layout = Math.min(layout, lineFit(stands, headingDeg));
      } else if (type.id === 'swedish-brigade') {
        formation = 'block';
        name = total === 8 ? 'Large Swedish brigade (4 squadrons)' : 'Swedish brigade';
      } else {
        formation = 'block';
        // Extended: the pike bases side by side; deep: one behind the other (the guide's diagrams are not in the text).
        const fr = frameOf(headingDeg);
        const pikes = stands.filter((s) => pikeStandIds.includes(s.id));
        const spread = (f: (s: Stand) => number): number => (pikes.length > 1 ? Math.max(...pikes.map(f)) - Math.min(...pikes.map(f)) : 0);
        const wide = spread((s) => across(fr, s.pose)) >= spread((s) => along(fr, s.pose));
        name = total === 8 ? `Large ${type.label.toLowerCase()}` : `${type.label} (${wide ? 'extended' : 'deep'})`;
      }
      break;
    }
    case 'foot-line':
    case 'formed-cavalry':
    case 'artillery':
      formation = type.family === 'artillery' ? 'unlimbered' : 'line';
      name = type.family === 'formed-cavalry' ? `${type.label} (two bases side by side)` : `${type.label} (one base deep)`;
      layout = lineFit(stands, headingDeg) * (type.baseCounts.includes(stands.length) ? 1 : 0.5);
      break;
    case 'light-horse':
      formation = 'loose-order';
      name = `${type.label} (in contact, one facing)`;
      layout = connected(stands, CONTACT_SLACK_IN, touching) ? 1 : 0.3;
      break;
    case 'camp':
      // The guide draws no camp: any base or bases, read as placed.
      return { reading: { formation: 'unknown', name: type.label, section: 'Army Morale', confidence: 1, source: 'geometry' }, pikeStandIds, march: false };
    case 'swarm':
      formation = 'loose-order';
      name = `${type.label} (swarm)`;
      // Swarms have no facing: only the 2" centre-to-centre spacing counts.
      return {
        reading: { formation, name, section: 'Formations (Dragoons and Forlorn Hopes)', confidence: round2(connected(stands, SWARM_SPACING_IN, centres) ? sized : 0.3 * sized), source: 'geometry' },
        pikeStandIds,
        march: false,
      };
  }
  const deployed = layout * facing * sized;
  if (column > deployed) {
    return { reading: { formation: 'march-column', name: 'March column', section: 'Formations (March Columns)', confidence: round2(column * sized), source: 'geometry' }, pikeStandIds, march: true };
  }
  return { reading: { formation, name, section: 'Formations', confidence: round2(deployed), source: 'geometry' }, pikeStandIds, march: false };
}

function expectedBaseClasses(type: TroopType): readonly BaseClass[] {
  switch (type.family) {
    case 'pike-and-shot':
      return ['pike', 'shot'];
    case 'foot-line':
      return ['shot'];
    case 'formed-cavalry':
    case 'light-horse':
      return ['cavalry'];
    case 'artillery':
      return ['artillery'];
    case 'swarm':
      return type.mounted ? ['figure-mounted', 'figure-foot'] : ['figure-foot'];
    case 'camp':
      return [];
  }
}
