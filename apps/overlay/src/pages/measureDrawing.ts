/**
 * A measurement as drawn on every view: a white line with a tick every inch and a longer one every 6";
 * on the operator's tape also the selected unit's weapon range bands (ui/tapeReading.ts), each a coloured
 * piece under the line with a bar and a label where it ends.
 */
import * as THREE from 'three';
import type { PointIn } from '@muster/rules';
import type { TapeBand } from '../ui/tapeReading.ts';
import type { LabelSpec } from '../views/labelLayer.ts';
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
    if (end > start) batch.addTriangles(polylineStrip([at(start), at(end)], widthIn * 5), { color: b.color, opacity: 0.8 });
    start = Math.max(start, end);
  }
  batch.addTriangles(polylineStrip([from, to], widthIn), { color: 0xffffff, opacity: 1 });
  if (len > 0) {
    const nx = -(to.yIn - from.yIn) / len;
    const ny = (to.xIn - from.xIn) / len;
    // Where a band ends on the tape: a bar across it in the band's colour, longer than the 6" ticks.
    for (const b of bands) {
      if (b.toIn >= len) continue;
      const p = at(b.toIn);
      const half = 6 * widthIn;
      batch.addTriangles(polylineStrip([{ xIn: p.xIn - nx * half, yIn: p.yIn - ny * half }, { xIn: p.xIn + nx * half, yIn: p.yIn + ny * half }], widthIn * 1.6), { color: b.color, opacity: 1 });
    }
    for (let d = 1; d < len; d++) {
      const p = at(d);
      const half = (d % 6 === 0 ? 4 : 1.8) * widthIn;
      batch.addTriangles(polylineStrip([{ xIn: p.xIn - nx * half, yIn: p.yIn - ny * half }, { xIn: p.xIn + nx * half, yIn: p.yIn + ny * half }], widthIn * 0.7), { color: 0xffffff, opacity: 1 });
    }
  }
  addIfAny(group, batch.toMesh(RENDER_ORDER.measure));
  return group;
}

/**
 * Band colours, nearest first: Okabe–Ito bluish green, yellow, orange, vermillion, reddish purple, sky
 * blue. Told apart without colour too: each band's end carries its label.
 */
export const BAND_COLOURS = [0x009e73, 0xf0e442, 0xe69f00, 0xd55e00, 0xcc79a7, 0x56b4e9] as const;

/**
 * The tape with a weapon's bands measured from `origin` (the end on the selected unit) toward `other`,
 * and a label at each band's end ("12\" ±0"), set a little to the side of the line.
 */
export function tapeWithBands(origin: PointIn, other: PointIn, bands: readonly TapeBand[], widthIn = 0.12): { group: THREE.Group; labels: LabelSpec[] } {
  const group = measureGroup(origin, other, widthIn, bands.map((b) => ({ toIn: b.toIn, color: BAND_COLOURS[b.index % BAND_COLOURS.length]! })));
  const len = Math.hypot(other.xIn - origin.xIn, other.yIn - origin.yIn);
  if (len <= 0) return { group, labels: [] };
  const ux = (other.xIn - origin.xIn) / len;
  const uy = (other.yIn - origin.yIn) / len;
  const labels: LabelSpec[] = [];
  for (const b of bands) {
    // A band that runs past the tape's end is named at the end (the point is in it).
    const d = b.endsOnTape ? b.upToIn : len;
    labels.push({ key: `band-${b.index}`, at: { xIn: origin.xIn + ux * d - uy * 0.9, yIn: origin.yIn + uy * d + ux * 0.9 }, text: b.endsOnTape ? b.text : `in ${b.text}`, className: 'band-label' });
  }
  return { group, labels };
}
