import type { PoseIn } from '@muster/rules';
import { normalizeDeg } from '@muster/vision';
import type { TagOffset } from './roster.ts';

/**
 * The stand's pose from its tag's pose: the tag sits `offset` from the base centre (in the base's frame)
 * and is turned `offset.rotationDeg` from the stand's facing.
 *
 * @example
 * // Tag 0.5" behind the centre, facing the same way: the stand centre is 0.5" ahead of the tag.
 * standPoseFromTag({ xIn: 10, yIn: 10, headingDeg: 90 }, { rightIn: 0, forwardIn: -0.5, rotationDeg: 0 });
 * // → { xIn: 10, yIn: 10.5, headingDeg: 90 }
 */
export function standPoseFromTag(tag: PoseIn, offset: TagOffset): PoseIn {
  const headingDeg = normalizeDeg(tag.headingDeg - offset.rotationDeg);
  const h = (headingDeg * Math.PI) / 180;
  const fx = Math.cos(h);
  const fy = Math.sin(h);
  // The stand's right is its facing turned 90° clockwise.
  const rx = fy;
  const ry = -fx;
  return {
    xIn: tag.xIn - offset.rightIn * rx - offset.forwardIn * fx,
    yIn: tag.yIn - offset.rightIn * ry - offset.forwardIn * fy,
    headingDeg,
  };
}

/** The inverse: where the tag is, given the stand's pose (used to place tags in synthetic scenes). */
export function tagPoseFromStand(stand: PoseIn, offset: TagOffset): PoseIn {
  const h = (stand.headingDeg * Math.PI) / 180;
  const fx = Math.cos(h);
  const fy = Math.sin(h);
  return {
    xIn: stand.xIn + offset.rightIn * fy + offset.forwardIn * fx,
    yIn: stand.yIn - offset.rightIn * fx + offset.forwardIn * fy,
    headingDeg: normalizeDeg(stand.headingDeg + offset.rotationDeg),
  };
}
