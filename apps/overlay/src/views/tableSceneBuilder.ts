/**
 * three.js groups for what is physically on the table: the cloth, terrain and stands, all in table
 * inches. Annotations are a separate layer (annotationLayer.ts) so the projector can draw them alone.
 */
import * as THREE from 'three';
import type { SideId, TableState, Terrain } from '@muster/rules';
import { standFootprint } from '../geometry/standFootprint.ts';
import { polylineStrip } from '../geometry/polylineStrip.ts';
import { dashPolyline } from '../geometry/dashedLine.ts';
import { addIfAny } from './meshFactory.ts';
import { TriangleBatch } from './triangleBatch.ts';
import { AREA_PAINT, ELEVATION_EDGE, ELEVATION_PAINT, LINEAR_PAINT, ROAD_PAINT, TABLE_CLOTH, UNKNOWN_SIDE_PAINT, sidePaint } from './palette.ts';
import { RENDER_ORDER } from './renderOrder.ts';

export function buildClothGroup(table: TableState['table']): THREE.Group {
  const group = new THREE.Group();
  group.name = 'cloth';
  const { widthIn: w, depthIn: d } = table;
  const batch = new TriangleBatch();
  batch.addPolygon([{ xIn: 0, yIn: 0 }, { xIn: w, yIn: 0 }, { xIn: w, yIn: d }, { xIn: 0, yIn: d }], { color: TABLE_CLOTH, opacity: 1 });
  addIfAny(group, batch.toMesh(RENDER_ORDER.cloth));
  return group;
}

export function buildTerrainGroup(terrain: Terrain): THREE.Group {
  const group = new THREE.Group();
  group.name = 'terrain';
  // One batch, drawn in the order added: hills, areas, roads, then linear features on top.
  const batch = new TriangleBatch();
  // Lower levels first so a hill on a hill stacks; each level adds one more translucent pass.
  const elevations = [...terrain.elevations].sort((a, b) => a.level - b.level);
  for (const e of elevations) {
    for (let i = 0; i < Math.max(1, e.level); i++) batch.addPolygon(e.vertices, ELEVATION_PAINT);
    const ring = e.vertices.length > 0 ? [...e.vertices, e.vertices[0]!] : [];
    batch.addTriangles(polylineStrip(ring, ELEVATION_EDGE.widthIn), ELEVATION_EDGE);
  }
  for (const a of terrain.areas) batch.addPolygon(a.vertices, AREA_PAINT[a.kind]);
  for (const r of terrain.roads) batch.addTriangles(polylineStrip(r.points, r.widthIn ?? 1), ROAD_PAINT);
  for (const l of terrain.linear) {
    const paint = LINEAR_PAINT[l.kind];
    batch.addTriangles(polylineStrip(l.points, paint.widthIn), paint);
  }
  addIfAny(group, batch.toMesh(RENDER_ORDER.area));
  return group;
}

/** Sides in order of first appearance, so colours stay put while units come and go. */
export function sidesOf(state: TableState): SideId[] {
  const sides: SideId[] = [];
  for (const u of state.units) if (!sides.includes(u.side)) sides.push(u.side);
  for (const c of state.commanders) if (!sides.includes(c.side)) sides.push(c.side);
  return sides;
}

/** Width of the front-edge mark, as a fraction of the stand's depth (and at least a tenth of an inch). */
const FRONT_MARK_FRACTION = 0.22;
/** Width of the dark outline around each stand, inches. */
const STAND_RIM_IN = 0.06;

/** Opacity of a stand whose tag the tracker is holding without seeing it (hand over it, smoke...). */
const OCCLUDED_OPACITY = 0.45;

export function buildStandsGroup(state: TableState, selectedUnitId: string | null, occludedStandIds: ReadonlySet<string> = new Set()): THREE.Group {
  const group = new THREE.Group();
  group.name = 'stands';
  const batch = new TriangleBatch();
  const selection = new TriangleBatch();
  const sides = sidesOf(state);
  const sideOfUnit = new Map<string, SideId>();
  const statusOfUnit = new Map<string, NonNullable<TableState['units'][number]['status']>>();
  const marks = new TriangleBatch();
  for (const u of state.units) {
    sideOfUnit.set(u.id, u.side);
    if (u.status) statusOfUnit.set(u.id, u.status);
  }
  for (const c of state.commanders) sideOfUnit.set(c.id, c.side);
  for (const stand of state.stands) {
    const side = sideOfUnit.get(stand.unitId);
    const paint = side === undefined ? UNKNOWN_SIDE_PAINT : sidePaint(side, sides);
    const fp = standFootprint(stand);
    const opacity = occludedStandIds.has(stand.id) ? OCCLUDED_OPACITY : 1;
    if (stand.role === 'commander') {
      const r = Math.min(stand.widthIn, stand.depthIn) / 2;
      const ring = Array.from({ length: 32 }, (_, i) => ({
        xIn: stand.pose.xIn + r * Math.cos((i / 32) * 2 * Math.PI),
        yIn: stand.pose.yIn + r * Math.sin((i / 32) * 2 * Math.PI),
      }));
      batch.addPolygon(ring, { color: paint.fill, opacity });
    } else {
      batch.addPolygon(fp.corners, { color: paint.fill, opacity });
      // A dark rim so stands in line contact still read as separate bases.
      batch.addTriangles(polylineStrip([...fp.corners, fp.corners[0]], STAND_RIM_IN), { color: 0x0b0d10, opacity: 0.85 });
    }
    // Facing: a bright band just inside the front edge.
    const markIn = Math.max(0.1, stand.depthIn * FRONT_MARK_FRACTION);
    const [fl, fr] = fp.frontEdge;
    const inset = { xIn: -fp.forward.xIn * (markIn / 2), yIn: -fp.forward.yIn * (markIn / 2) };
    const band = [
      { xIn: fl.xIn + inset.xIn, yIn: fl.yIn + inset.yIn },
      { xIn: fr.xIn + inset.xIn, yIn: fr.yIn + inset.yIn },
    ];
    const width = stand.role === 'commander' ? Math.min(stand.widthIn, stand.depthIn) * 0.5 : stand.widthIn;
    const mid = { xIn: (band[0]!.xIn + band[1]!.xIn) / 2, yIn: (band[0]!.yIn + band[1]!.yIn) / 2 };
    const half = { xIn: (band[1]!.xIn - band[0]!.xIn) / 2, yIn: (band[1]!.yIn - band[0]!.yIn) / 2 };
    const scale = width / Math.max(1e-9, stand.widthIn);
    const ends = [
      { xIn: mid.xIn - half.xIn * scale, yIn: mid.yIn - half.yIn * scale },
      { xIn: mid.xIn + half.xIn * scale, yIn: mid.yIn + half.yIn * scale },
    ];
    batch.addTriangles(polylineStrip(ends, markIn), { color: paint.front, opacity: 0.9 * opacity });
    const status = statusOfUnit.get(stand.unitId);
    if (status) addStatusMarks(marks, stand, fp, status);
    if (selectedUnitId !== null && stand.unitId === selectedUnitId) {
      selection.addTriangles(polylineStrip([...fp.corners, fp.corners[0]], 0.12), { color: 0xffff00, opacity: 1 });
    }
  }
  addIfAny(group, batch.toMesh(RENDER_ORDER.stand));
  addIfAny(group, selection.toMesh(RENDER_ORDER.selection));
  addIfAny(group, marks.toMesh(RENDER_ORDER.selection));
  return group;
}

/** How the operator's status is drawn on a stand: a shape each, so it reads without colour too. */
export const STATUS_MARK_PAINT = {
  /** Dashed ring just outside the base. */
  disordered: { color: 0xe69f00, widthIn: 0.12, dashIn: [0.3, 0.2] as const, marginIn: 0.14 },
  /** A bar along the back edge. */
  prone: { color: 0xcc79a7, widthIn: 0.22 },
  /** A white cross with a dark rim over the base, one per hit stand. */
  hit: { color: 0xffffff, rim: 0x111111, widthIn: 0.14 },
} as const;

function addStatusMarks(batch: TriangleBatch, stand: TableState['stands'][number], fp: ReturnType<typeof standFootprint>, status: NonNullable<TableState['units'][number]['status']>): void {
  const [fl, bl, br, fr] = fp.corners;
  if (status.disordered) {
    const m = STATUS_MARK_PAINT.disordered;
    const c = stand.pose;
    const grow = (p: { xIn: number; yIn: number }) => {
      const dx = p.xIn - c.xIn;
      const dy = p.yIn - c.yIn;
      const d = Math.hypot(dx, dy) || 1;
      return { xIn: p.xIn + (dx / d) * m.marginIn * 1.4, yIn: p.yIn + (dy / d) * m.marginIn * 1.4 };
    };
    const ring = [fl, bl, br, fr, fl].map(grow);
    for (const piece of dashPolyline(ring, m.dashIn[0], m.dashIn[1])) batch.addTriangles(polylineStrip(piece, m.widthIn), { color: m.color, opacity: 1 });
  }
  if (status.prone) {
    const m = STATUS_MARK_PAINT.prone;
    const inward = { xIn: fp.forward.xIn * m.widthIn * 0.6, yIn: fp.forward.yIn * m.widthIn * 0.6 };
    batch.addTriangles(polylineStrip([{ xIn: bl.xIn + inward.xIn, yIn: bl.yIn + inward.yIn }, { xIn: br.xIn + inward.xIn, yIn: br.yIn + inward.yIn }], m.widthIn), { color: m.color, opacity: 1 });
  }
  if ((status.hitsByStand?.[stand.id] ?? 0) > 0) {
    const m = STATUS_MARK_PAINT.hit;
    const shrink = (p: { xIn: number; yIn: number }) => ({ xIn: stand.pose.xIn + (p.xIn - stand.pose.xIn) * 0.7, yIn: stand.pose.yIn + (p.yIn - stand.pose.yIn) * 0.7 });
    for (const [a, b] of [[fl, br], [fr, bl]] as const) {
      batch.addTriangles(polylineStrip([shrink(a), shrink(b)], m.widthIn * 2), { color: m.rim, opacity: 0.9 });
    }
    for (const [a, b] of [[fl, br], [fr, bl]] as const) batch.addTriangles(polylineStrip([shrink(a), shrink(b)], m.widthIn), { color: m.color, opacity: 1 });
  }
}

/** Size of the mark drawn for a tag the roster does not know, inches. */
export const UNKNOWN_TAG_SIZE_IN = 1.2;

/** Grey diamonds where tags the roster does not know are seen, so the operator can find and assign them. */
export function buildUnknownTagsGroup(tags: readonly { readonly pose: { readonly xIn: number; readonly yIn: number } }[]): THREE.Group {
  const group = new THREE.Group();
  group.name = 'unknown-tags';
  const r = UNKNOWN_TAG_SIZE_IN / 2;
  const batch = new TriangleBatch();
  for (const t of tags) {
    const { xIn, yIn } = t.pose;
    const diamond = [{ xIn: xIn + r, yIn }, { xIn, yIn: yIn + r }, { xIn: xIn - r, yIn }, { xIn, yIn: yIn - r }];
    batch.addPolygon(diamond, { color: UNKNOWN_SIDE_PAINT.fill, opacity: 0.9 });
    batch.addTriangles(polylineStrip([...diamond, diamond[0]!], 0.08), { color: 0xffd400, opacity: 1 });
  }
  addIfAny(group, batch.toMesh(RENDER_ORDER.stand));
  return group;
}

/** Roster status chips lying on the table (disordered, hit, prone, commander markers). */
export const CHIP_PAINT: Record<'disordered' | 'hit' | 'prone' | 'commander', number> = {
  disordered: 0xff9500,
  hit: 0xff2d55,
  prone: 0xaf52de,
  commander: 0xffffff,
};
/** Drawn chip diameter, inches (the physical chips are about this size). */
export const CHIP_SIZE_IN = 0.8;

export function buildChipsGroup(chips: readonly { readonly chip: keyof typeof CHIP_PAINT; readonly pose: { readonly xIn: number; readonly yIn: number } }[]): THREE.Group {
  const group = new THREE.Group();
  group.name = 'chips';
  const batch = new TriangleBatch();
  const r = CHIP_SIZE_IN / 2;
  for (const c of chips) {
    const ring = Array.from({ length: 20 }, (_, i) => ({ xIn: c.pose.xIn + r * Math.cos((i / 20) * 2 * Math.PI), yIn: c.pose.yIn + r * Math.sin((i / 20) * 2 * Math.PI) }));
    batch.addPolygon(ring, { color: CHIP_PAINT[c.chip], opacity: 1 });
    batch.addTriangles(polylineStrip([...ring, ring[0]!], 0.06), { color: 0x000000, opacity: 0.8 });
  }
  addIfAny(group, batch.toMesh(RENDER_ORDER.selection));
  return group;
}
