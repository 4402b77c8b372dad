/**
 * Town and village blocks (Terrain Effects: Buildings, p. 3): "a single town block (6 x 4) ... may be occupied by
 * up to two infantry stands. Village blocks (3 x 2) ... may be occupied by a single detachment ... Cavalry and
 * artillery may not occupy or move into or through town or village blocks." A stand occupies a block when its
 * centre is inside it. A block is a village block when its area is nearer the village block's 6 sq in than the
 * town block's 24 (a reading: the table state has one kind for both).
 */
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import type { AreaTerrain } from '../../model/tableState.ts';
import { boundingBox, polygonArea } from '../../geometry/polygon.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import type { VbContext } from './context.ts';
import { AREA_KIND_CLASS } from './tables/terrain.ts';
import { cite } from './tables/source.ts';

const BUILDINGS_SOURCE = cite('Terrain Effects: Buildings', 3);
export const TOWN_BLOCK_AREA_SQ_IN = 6 * 4;
export const VILLAGE_BLOCK_AREA_SQ_IN = 3 * 2;
export const TOWN_BLOCK_MAX_INFANTRY_STANDS = 2;
export const VILLAGE_BLOCK_MAX_DETACHMENTS = 1;

/** The town and village blocks of the terrain. */
export function townBlocks(areas: readonly AreaTerrain[]): AreaTerrain[] {
  return areas.filter((a) => AREA_KIND_CLASS[a.kind] === 'town-block');
}

/** Whether a block is a village block (3 x 2) rather than a town block (6 x 4), by its area. */
export function isVillageBlock(a: AreaTerrain): boolean {
  const area = polygonArea(a.vertices);
  return Math.abs(area - VILLAGE_BLOCK_AREA_SQ_IN) < Math.abs(area - TOWN_BLOCK_AREA_SQ_IN);
}

/** Warnings for one block: more stands in it than it holds, or stands that may not be in it. */
export function blockOccupancy(ctx: VbContext, block: AreaTerrain): EvaluationWarning[] {
  const village = isVillageBlock(block);
  const inside = ctx.standsIn(boundingBox(block.vertices)).filter((s) => s.unitId !== undefined && s.type !== 'command' && s.type !== 'road-march-spacer' && pointInPolygon(s.center, block.vertices));
  const out: EvaluationWarning[] = [];
  const name = `${village ? 'Village' : 'Town'} block ${block.id}`;
  const barred = inside.filter((s) => s.type === 'artillery' || s.type === 'mounted' || s.type === 'mounted-skirmisher' || s.type === 'transport');
  for (const s of barred) {
    out.push({ code: 'terrain/block-barred', message: `${name}: ${s.stand.id} may not occupy it (cavalry and artillery may not occupy town or village blocks; ${BUILDINGS_SOURCE}).`, unitId: s.unitId! });
  }
  const foot = inside.filter((s) => !barred.includes(s));
  if (village) {
    const wrong = foot.filter((s) => s.type !== 'detachment');
    for (const s of wrong) out.push({ code: 'terrain/block-barred', message: `${name}: ${s.stand.id} is not a detachment; a village block may be occupied by a single detachment (${BUILDINGS_SOURCE}).`, unitId: s.unitId! });
    if (foot.length > VILLAGE_BLOCK_MAX_DETACHMENTS) out.push({ code: 'terrain/block-overfull', message: `${name}: ${foot.length} stands in it; it holds a single detachment (${BUILDINGS_SOURCE}).`, unitId: foot[0]!.unitId! });
  } else if (foot.length > TOWN_BLOCK_MAX_INFANTRY_STANDS) {
    out.push({ code: 'terrain/block-overfull', message: `${name}: ${foot.length} stands in it; it may be occupied by up to ${TOWN_BLOCK_MAX_INFANTRY_STANDS} infantry stands (${BUILDINGS_SOURCE}).`, unitId: foot[0]!.unitId! });
  }
  return out;
}
