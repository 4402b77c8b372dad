/**
 * Two changes of formation the camera can show before they are made:
 * - Deploy to the Front (QRS II, Troop Maneuver Changes; Deploy to the Front, Figure 6): a march column with a
 *   Well Handled effect forms a two-stand-wide field column along its line of march, then expands "on one or
 *   both flanks to form a line formation" keeping its facing; "The unit must expend the entire maneuver
 *   changing formation". Drawn as the line expanded equally on both flanks from the column's head
 *   (`movement/<unit>/deploy-front`, style 'formation'); expanding on one flank shifts it sideways up to half
 *   the frontage less the two files, which the note says. Units that form only march column and extended line
 *   deploy into extended line. Green troops in broken or rough ground are disordered.
 * - Dismounting (Markers, Tethered Horses Marker): "every fourth stand in the unit replaced by a horse holder
 *   marker"; mounted infantry replace every stand with a dismounted one and leave a tethered horse marker
 *   that cannot move, remounting only back at it. A change of formation either way; the note gives the count.
 */
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn } from '../../model/units.ts';
import { headingToVector } from '../../geometry/angles.ts';
import type { FfrContext, FfrUnitInfo } from './context.ts';
import { qrs } from './tables/source.ts';

export const DEPLOY_FRONT_SOURCE = qrs('Deploy to the Front');
export const TETHERED_HORSES_SOURCE = qrs('Markers, Tethered Horses Marker');
/** "every fourth stand in the unit replaced by a horse holder marker" */
export const HORSE_HOLDER_EVERY = 4;

/** Stands that fight on foot when the unit dismounts, and the horse holders left behind. */
export function dismountedStrength(stands: number, mountedInfantry: boolean): { onFoot: number; horseHolders: number } {
  if (mountedInfantry) return { onFoot: stands, horseHolders: 0 };
  const horseHolders = Math.floor(stands / HORSE_HOLDER_EVERY);
  return { onFoot: stands - horseHolders, horseHolders };
}

export function dismountNote(ctx: FfrContext, info: FfrUnitInfo): string | undefined {
  const { unit, formation } = info;
  if (unit.arm !== 'cavalry') return undefined;
  const mountedInfantry = ctx.unitField(unit, 'mountedInfantry') === true;
  const n = formation.stands.length;
  if (formation.dismounted) {
    return mountedInfantry
      ? `Remount (change of formation): only back at its tethered horse marker, every dismounted stand replaced by a mounted one (${TETHERED_HORSES_SOURCE}).`
      : `Remount (change of formation): the horse holder markers behind the unit are exchanged for an equal number of cavalry stands (${TETHERED_HORSES_SOURCE}).`;
  }
  const d = dismountedStrength(n, mountedInfantry);
  return mountedInfantry
    ? `Dismount (change of formation): all ${n} stands fight on foot and a tethered horse marker is placed behind the unit; it cannot move, and the unit remounts only back at it (${TETHERED_HORSES_SOURCE}).`
    : `Dismount (change of formation): ${d.onFoot} stands fight on foot, ${d.horseHolders} horse holder marker${d.horseHolders === 1 ? '' : 's'} behind the unit (every fourth stand; ${TETHERED_HORSES_SOURCE}).`;
}

/** The line a march column deploys to the front into, and its note; undefined for other formations. */
export function deployToFront(ctx: FfrContext, info: FfrUnitInfo): { shape: Shape; note: string } | undefined {
  const { unit, formation } = info;
  if (formation.id !== 'march-column' || unit.arm === 'artillery' || formation.stands.length < 2) return undefined;
  const f = headingToVector(formation.headingDeg);
  const r = { x: f.y, y: -f.x };
  // The column's head: its stands' most forward front edge, on the column's axis.
  let head = -Infinity;
  let axis = 0;
  for (const s of formation.stands) {
    head = Math.max(head, s.pose.xIn * f.x + s.pose.yIn * f.y + s.depthIn / 2);
    axis += (s.pose.xIn * r.x + s.pose.yIn * r.y) / formation.stands.length;
  }
  const width = formation.stands.reduce((m, s) => Math.max(m, s.widthIn), 0);
  const depth = formation.stands.reduce((m, s) => Math.max(m, s.depthIn), 0);
  const n = formation.stands.length;
  const half = (n * width) / 2;
  const at = (along: number, across: number): PointIn => ({ xIn: f.x * along + r.x * across, yIn: f.y * along + r.y * across });
  const vertices = [at(head, axis - half), at(head, axis + half), at(head - depth, axis + half), at(head - depth, axis - half)];
  const extended = ctx.unitField(unit, 'extendedLineOnly') === true || formation.dismounted;
  const shiftIn = Math.max(0, (n - 2) * width) / 2;
  const green = unit.quality === 'green' ? ' Green troops deploying in broken or rough ground are disordered.' : '';
  return {
    shape: { kind: 'polygon', id: `movement/${unit.id}/deploy-front`, layer: 'movement', style: 'formation', unitId: unit.id, side: unit.side, vertices },
    note:
      `Deploy to the front (Well Handled): into ${extended ? 'extended line' : 'line'} facing the same way, ${n} stands at the column's head (drawn expanded on both flanks; ` +
      `expanding on one flank shifts it up to ${shiftIn.toFixed(1)}" to that side); the whole maneuver, no half move before or after, may refuse a flank up to 45° (${DEPLOY_FRONT_SOURCE}).${green}`,
  };
}
