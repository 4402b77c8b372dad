/** A measurement as drawn on every view: a white line with a tick every inch and a longer one every 6". */
import * as THREE from 'three';
import type { PointIn } from '@muster/rules';
import { polylineStrip } from '../geometry/polylineStrip.ts';
import { addIfAny } from '../views/meshFactory.ts';
import { TriangleBatch } from '../views/triangleBatch.ts';
import { RENDER_ORDER } from '../views/renderOrder.ts';

/**
 * @param bands optional ranges from `from` (inches) drawn as coloured pieces under the line (a weapon's
 *   range bands), nearest first
 */
export function measureGroup(from: PointIn, to: PointIn, widthIn = 0.12, bands: readonly { readonly toIn: number; readonly color: number }[] = []): THREE.Group {
  const group = new THREE.Group();
  const batch = new TriangleBatch();
  const len = Math.hypot(to.xIn - from.xIn, to.yIn - from.yIn);
  const at = (d: number) => ({ xIn: from.xIn + ((to.xIn - from.xIn) * d) / Math.max(len, 1e-9), yIn: from.yIn + ((to.yIn - from.yIn) * d) / Math.max(len, 1e-9) });
  let start = 0;
  for (const b of bands) {
    const end = Math.min(len, b.toIn);
    if (end > start) batch.addTriangles(polylineStrip([at(start), at(end)], widthIn * 4), { color: b.color, opacity: 0.55 });
    start = Math.max(start, end);
  }
  batch.addTriangles(polylineStrip([from, to], widthIn), { color: 0xffffff, opacity: 1 });
  if (len > 0) {
    const nx = -(to.yIn - from.yIn) / len;
    const ny = (to.xIn - from.xIn) / len;
    for (let d = 1; d < len; d++) {
      const p = at(d);
      const half = (d % 6 === 0 ? 4 : 1.8) * widthIn;
      batch.addTriangles(polylineStrip([{ xIn: p.xIn - nx * half, yIn: p.yIn - ny * half }, { xIn: p.xIn + nx * half, yIn: p.yIn + ny * half }], widthIn * 0.7), { color: 0xffffff, opacity: 1 });
    }
  }
  addIfAny(group, batch.toMesh(RENDER_ORDER.measure));
  return group;
}
