/**
 * Which way a skedaddle goes (The Devil to Pay (2018), Skedaddle, in ../shared/rulebooks/devil-to-pay-2018.txt):
 * "The unit moves the full distance away from the enemy" (Process 2) and "The movement can be made within a
 * 45-degree arc of the rear of the unit" (Notes). The player picks the line within that arc; the default is
 * straight away from the enemy it flees (the melee opponent, else the nearest enemy stand), turned to the
 * nearest edge of the rear arc when the enemy is not in front of it.
 */
import type { PointIn } from '../../../model/units.ts';
import { angleDiffDeg, normalizeDeg, vectorToHeadingDeg } from '../../../geometry/angles.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import type { DtpContext, UnitInfo } from '../context.ts';
import { SKEDADDLE_ARC_HALF_DEG } from '../skedaddle.ts';

/** The player's choice of line (`choices.direction` of a skedaddle). */
export const SKEDADDLE_DIRECTIONS = ['away-from-enemy', 'straight-back', 'left-rear', 'right-rear'] as const;
export type SkedaddleDirection = (typeof SKEDADDLE_DIRECTIONS)[number];

/** The enemy stand centre nearest to `from`: of `fleeFromId` when given, else of any enemy unit. */
export function enemyToFlee(ctx: DtpContext, info: UnitInfo, from: PointIn, fleeFromId: string | undefined): PointIn | undefined {
  const candidates = fleeFromId !== undefined ? [ctx.units.get(fleeFromId)!] : ctx.enemiesOf(info.unit.id);
  let best: PointIn | undefined;
  let bestIn = Infinity;
  for (const enemy of candidates) {
    for (const s of enemy.stands) {
      const d = hypot2(s.center.xIn - from.xIn, s.center.yIn - from.yIn);
      if (d < bestIn) {
        bestIn = d;
        best = s.center;
      }
    }
  }
  return best;
}

/**
 * The skedaddle's heading, degrees CCW from +x, always within 45° of the rear.
 *
 * @param facingDeg the unit's facing; the rear is opposite
 * @param from the unit's reference point
 * @param enemy the point it flees from (for 'away-from-enemy'); none: straight back
 */
export function skedaddleHeadingDeg(direction: SkedaddleDirection, facingDeg: number, from: PointIn, enemy: PointIn | undefined): number {
  const rear = normalizeDeg(facingDeg + 180);
  switch (direction) {
    case 'straight-back':
      return rear;
    case 'left-rear':
      // The unit's left is counter-clockwise of its facing: the left rear quarter is facing + 135°.
      return normalizeDeg(rear - SKEDADDLE_ARC_HALF_DEG);
    case 'right-rear':
      return normalizeDeg(rear + SKEDADDLE_ARC_HALF_DEG);
    case 'away-from-enemy': {
      if (!enemy || (enemy.xIn === from.xIn && enemy.yIn === from.yIn)) return rear;
      const away = vectorToHeadingDeg(from.xIn - enemy.xIn, from.yIn - enemy.yIn);
      const off = angleDiffDeg(rear, away);
      return normalizeDeg(rear + Math.max(-SKEDADDLE_ARC_HALF_DEG, Math.min(SKEDADDLE_ARC_HALF_DEG, off)));
    }
  }
}
