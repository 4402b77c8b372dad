/** Ghosts as one mesh: each earlier footprint outlined, and a thin dashed line to where the stand is now. */
import * as THREE from 'three';
import type { GhostMark } from '../geometry/ghostMarks.ts';
import { dashPolyline } from '../geometry/dashedLine.ts';
import { polylineStrip } from '../geometry/polylineStrip.ts';
import { addIfAny } from './meshFactory.ts';
import { GHOST_PAINT } from './palette.ts';
import { RENDER_ORDER } from './renderOrder.ts';
import { TriangleBatch } from './triangleBatch.ts';

export function buildGhostGroup(marks: readonly GhostMark[], strokeScale = 1): THREE.Group {
  const group = new THREE.Group();
  const batch = new TriangleBatch();
  const paint = { color: GHOST_PAINT.color, opacity: GHOST_PAINT.opacity };
  for (const m of marks) {
    batch.addTriangles(polylineStrip([...m.outline, m.outline[0]!], GHOST_PAINT.outlineWidthIn * strokeScale), paint);
    for (const dash of dashPolyline([...m.link], GHOST_PAINT.linkDashIn[0], GHOST_PAINT.linkDashIn[1])) {
      batch.addTriangles(polylineStrip(dash, GHOST_PAINT.linkWidthIn * strokeScale), paint);
    }
  }
  addIfAny(group, batch.toMesh(RENDER_ORDER.ghost));
  return group;
}
