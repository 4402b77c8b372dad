/**
 * Many flat coloured pieces as ONE mesh: positions plus a per-vertex RGBA colour. A table of a few hundred
 * stands and shapes is then a handful of draw calls instead of hundreds, which is what decides the frame
 * time on a software renderer and on a phone. Pieces draw in the order they are added.
 */
import * as THREE from 'three';
import type { PointIn } from '@muster/rules';
import type { Paint } from './palette.ts';
import { clipTrianglesToRect, type RectIn } from '../geometry/clipTriangles.ts';

export class TriangleBatch {
  private readonly positions: number[] = [];
  private readonly colors: number[] = [];
  private readonly scratch = new THREE.Color();
  private readonly clipped: number[] = [];

  /** @param clipTo when given, every piece is cut to this rectangle (the table's edges) as it is added. */
  constructor(private readonly clipTo: RectIn | null = null) {}

  get triangleCount(): number {
    return this.positions.length / 9;
  }

  /**
   * A flat [x, y, ...] triangle list (strips, arrow heads).
   * @param z depth group, used by `toMesh(…, { unionSameZ: true })`; 0 otherwise.
   */
  addTriangles(flatXy: readonly number[], paint: Paint, z = 0): void {
    // Vertex colours are used as given, so convert from sRGB to the linear working space here, as
    // three does for material colours.
    const c = this.scratch.setHex(paint.color);
    if (this.clipTo) {
      this.clipped.length = 0;
      clipTrianglesToRect(flatXy, this.clipTo, this.clipped);
      flatXy = this.clipped;
    }
    for (let i = 0; i + 1 < flatXy.length; i += 2) {
      this.positions.push(flatXy[i]!, flatXy[i + 1]!, z);
      this.colors.push(c.r, c.g, c.b, paint.opacity);
    }
  }

  /** A simple polygon (either winding), with an optional hole. */
  addPolygon(ring: readonly PointIn[], paint: Paint, hole?: readonly PointIn[] | null, z = 0): void {
    if (ring.length < 3) return;
    const contour = ring.map((p) => new THREE.Vector2(p.xIn, p.yIn));
    const holes = hole && hole.length >= 3 ? [hole.map((p) => new THREE.Vector2(p.xIn, p.yIn))] : [];
    const all = [...contour, ...holes.flat()];
    const flat: number[] = [];
    for (const tri of THREE.ShapeUtils.triangulateShape(contour, holes)) {
      for (const i of tri) flat.push(all[i]!.x, all[i]!.y);
    }
    this.addTriangles(flat, paint, z);
  }

  /**
   * The mesh, or null when nothing was added.
   * @param options.unionSameZ pieces added with the same `z` blend once where they overlap (ten fire
   *   arcs over one spot look like one arc, not a solid block); a later, higher `z` still blends over an
   *   earlier one. Done with the depth buffer: equal depth fails a strict less-than test.
   */
  toMesh(renderOrder: number, options: { readonly unionSameZ?: boolean } = {}): THREE.Mesh | null {
    if (this.positions.length === 0) return null;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.Float32BufferAttribute(this.positions, 3));
    geometry.setAttribute('color', new THREE.Float32BufferAttribute(this.colors, 4));
    const material = new THREE.MeshBasicMaterial({
      vertexColors: true,
      // Always in the transparent pass: three draws opaque objects first whatever their renderOrder.
      transparent: true,
      side: THREE.DoubleSide,
      depthTest: options.unionSameZ === true,
      depthWrite: options.unionSameZ === true,
      depthFunc: THREE.LessDepth,
    });
    if (options.unionSameZ === true) {
      // Depth straight from the group number and exactly equal across a group: under a projective
      // (projector, camera) map the usual depth varies across the plane, and even c·w/w rounds
      // differently per vertex, so triangles of one group would z-fight instead of failing the test.
      // Dividing by w here is safe: a projective map sends triangles to triangles, and the colours are
      // constant per piece, so perspective-correct interpolation has nothing to correct.
      material.onBeforeCompile = (shader) => {
        shader.vertexShader = shader.vertexShader.replace(
          '#include <project_vertex>',
          '#include <project_vertex>\n\tgl_Position = vec4(gl_Position.xy / gl_Position.w, 0.5 - position.z / 4096.0, 1.0);',
        );
      };
    }
    const mesh = new THREE.Mesh(geometry, material);
    mesh.renderOrder = renderOrder;
    return mesh;
  }
}

/** Stencil value that marks pixels on the table. */
const TABLE_STENCIL = 1;

/** Makes a material draw only on pixels `tableStencilMesh` marked. */
export function clipToTableStencil(material: THREE.Material): void {
  material.stencilWrite = true; // three's switch for the stencil test
  material.stencilRef = TABLE_STENCIL;
  material.stencilFunc = THREE.EqualStencilFunc;
  material.stencilFail = THREE.KeepStencilOp;
  material.stencilZFail = THREE.KeepStencilOp;
  material.stencilZPass = THREE.KeepStencilOp;
}

/**
 * An invisible table-sized quad that marks the table's pixels in the stencil buffer. Drawn first, so
 * reach and arcs that run past the edge stop there: on the projector they would light the floor.
 */
export function tableStencilMesh(widthIn: number, depthIn: number, renderOrder: number): THREE.Mesh {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0, widthIn, 0, 0, widthIn, depthIn, 0, 0, 0, 0, widthIn, depthIn, 0, 0, depthIn, 0], 3));
  const material = new THREE.MeshBasicMaterial({ colorWrite: false, depthTest: false, depthWrite: false, side: THREE.DoubleSide, transparent: true });
  material.stencilWrite = true;
  material.stencilRef = TABLE_STENCIL;
  material.stencilFunc = THREE.AlwaysStencilFunc;
  material.stencilZPass = THREE.ReplaceStencilOp;
  const mesh = new THREE.Mesh(geometry, material);
  mesh.renderOrder = renderOrder;
  return mesh;
}
