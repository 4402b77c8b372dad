import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import type { LayerId, Shape } from '@muster/rules';
import { buildAnnotations, shapeVisible } from './annotationLayer.ts';

const square = (x: number) => [{ xIn: x, yIn: 0 }, { xIn: x + 2, yIn: 0 }, { xIn: x + 2, yIn: 2 }, { xIn: x, yIn: 2 }];
const shapes: Shape[] = [
  { id: 'a-reach', kind: 'polygon', layer: 'movement', style: 'reach', unitId: 'a', vertices: square(0) },
  { id: 'b-reach', kind: 'polygon', layer: 'movement', style: 'reach', unitId: 'b', vertices: square(10) },
  { id: 'a-arc', kind: 'sector', layer: 'fire', style: 'arc', unitId: 'a', center: { xIn: 5, yIn: 5 }, radiusIn: 3, startDeg: 0, endDeg: 90 },
  { id: 'a-dice', kind: 'label', layer: 'labels', style: 'label', unitId: 'a', at: { xIn: 1, yIn: 1 }, text: '3 dice' },
  { id: 'warn', kind: 'circle', layer: 'warnings', style: 'warning', center: { xIn: 20, yIn: 20 }, radiusIn: 1 },
];
const all = new Set<LayerId>(['movement', 'fire', 'labels', 'warnings']);

function meshes(group: THREE.Group): THREE.Mesh[] {
  const out: THREE.Mesh[] = [];
  group.traverse((o) => o instanceof THREE.Mesh && out.push(o));
  return out;
}

describe('annotation layer', () => {
  it('filters by layer and by selected unit, keeping shapes about no unit', () => {
    expect(shapes.filter((s) => shapeVisible(s, { layers: all, unitId: 'a' })).map((s) => s.id)).toEqual(['a-reach', 'a-arc', 'a-dice', 'warn']);
    expect(shapes.filter((s) => shapeVisible(s, { layers: new Set<LayerId>(['movement']), unitId: null })).map((s) => s.id)).toEqual(['a-reach', 'b-reach']);
  });

  it('hands labels back for the DOM and batches fills and strokes into one mesh each', () => {
    const { group, labels } = buildAnnotations(shapes, { layers: all, unitId: null });
    expect(labels.map((l) => l.text)).toEqual(['3 dice']);
    const ms = meshes(group);
    expect(ms).toHaveLength(2); // fills, strokes (arcs have no stroke, warnings and reach do)
    expect(ms.map((m) => m.renderOrder).sort((a, b) => a - b)).toEqual([10, 30]);
  });

  it('puts each layer/style in its own depth group, the same for every piece of it', () => {
    const { group } = buildAnnotations(shapes, { layers: all, unitId: null });
    const fills = meshes(group).find((m) => m.renderOrder === 10)!;
    const pos = fills.geometry.getAttribute('position');
    const zs = new Set<number>();
    for (let i = 0; i < pos.count; i++) zs.add(pos.getZ(i));
    // reach (both units share one group), arc, warning
    expect(zs.size).toBe(3);
  });

  it('cuts shapes at the table edge only when a table is given, with no stencil pass', () => {
    // A reach square half off the near-left corner, and a warning circle running off the far edge.
    const edge: Shape[] = [
      { id: 'off', kind: 'polygon', layer: 'movement', style: 'reach', unitId: 'a', vertices: square(-1).map((p) => ({ ...p, yIn: p.yIn - 1 })) },
      { id: 'far', kind: 'circle', layer: 'warnings', style: 'warning', center: { xIn: 71, yIn: 47 }, radiusIn: 3 },
    ];
    const extent = (group: THREE.Group) => {
      const e = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
      for (const m of meshes(group)) {
        const pos = m.geometry.getAttribute('position');
        for (let i = 0; i < pos.count; i++) {
          e.x0 = Math.min(e.x0, pos.getX(i));
          e.x1 = Math.max(e.x1, pos.getX(i));
          e.y0 = Math.min(e.y0, pos.getY(i));
          e.y1 = Math.max(e.y1, pos.getY(i));
        }
      }
      return e;
    };
    const open = buildAnnotations(edge, { layers: all, unitId: null }).group;
    expect(extent(open).x0).toBeLessThan(-0.5);
    expect(extent(open).x1).toBeGreaterThan(73);
    const cut = buildAnnotations(edge, { layers: all, unitId: null, table: { widthIn: 72, depthIn: 48 } }).group;
    const e = extent(cut);
    expect(e.x0).toBeCloseTo(0, 9);
    expect(e.y0).toBeCloseTo(0, 9);
    expect(e.x1).toBeCloseTo(72, 9);
    expect(e.y1).toBeCloseTo(48, 9);
    expect(meshes(cut)).toHaveLength(2);
    expect(meshes(cut).every((m) => !(m.material as THREE.Material).stencilWrite)).toBe(true);
  });
});

describe('annotation layer for the projector', () => {
  it('draws outlines only when fills are off, and lists the styles drawn for the legend', () => {
    const withFills = buildAnnotations(shapes, { layers: all, unitId: null });
    const outlines = buildAnnotations(shapes, { layers: all, unitId: null, fills: false });
    expect(withFills.styles).toEqual(['reach', 'arc', 'warning']);
    expect(outlines.styles).toEqual(['reach', 'arc', 'warning']);
    const count = (g: THREE.Group) => meshes(g).reduce((n, m) => n + (m.geometry.getAttribute('position')?.count ?? 0), 0);
    expect(meshes(outlines.group).filter((m) => m.renderOrder === 10)).toHaveLength(0);
    expect(count(outlines.group)).toBeLessThan(count(withFills.group));
    expect(buildAnnotations(shapes, { layers: all, unitId: null, unitIds: new Set(['b']) }).styles).toEqual(['reach']);
  });
});
