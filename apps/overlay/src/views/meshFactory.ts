/**
 * Small three.js helpers: flat meshes in table inches from rings and triangle lists. Everything is drawn
 * without depth testing, ordered by `renderOrder`, double-sided (the projector's y-flipped camera turns
 * faces around).
 */
import * as THREE from 'three';
import type { PointIn } from '@muster/rules';
import type { Paint } from './palette.ts';

function material(paint: Paint): THREE.MeshBasicMaterial {
  return new THREE.MeshBasicMaterial({
    color: paint.color,
    // Always in the transparent pass: three draws opaque objects first whatever their renderOrder, which
    // would put translucent reach areas over the (opaque) stands.
    transparent: true,
    opacity: paint.opacity,
    side: THREE.DoubleSide,
    depthTest: false,
    depthWrite: false,
  });
}

/** A filled polygon (any simple ring, either winding), with an optional hole. */
export function fillMesh(ring: readonly PointIn[], paint: Paint, renderOrder: number, hole?: readonly PointIn[] | null): THREE.Mesh | null {
  if (ring.length < 3) return null;
  const shape = new THREE.Shape(ring.map((p) => new THREE.Vector2(p.xIn, p.yIn)));
  if (hole && hole.length >= 3) shape.holes.push(new THREE.Path(hole.map((p) => new THREE.Vector2(p.xIn, p.yIn))));
  const mesh = new THREE.Mesh(new THREE.ShapeGeometry(shape), material(paint));
  mesh.renderOrder = renderOrder;
  return mesh;
}

/** A mesh from a flat [x, y, ...] triangle list (polyline strips, arrow heads). */
export function trianglesMesh(flatXy: readonly number[], paint: Paint, renderOrder: number): THREE.Mesh | null {
  if (flatXy.length < 6) return null;
  const positions = new Float32Array((flatXy.length / 2) * 3);
  for (let i = 0, j = 0; i < flatXy.length; i += 2, j += 3) {
    positions[j] = flatXy[i]!;
    positions[j + 1] = flatXy[i + 1]!;
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  const mesh = new THREE.Mesh(geometry, material(paint));
  mesh.renderOrder = renderOrder;
  return mesh;
}

/** Frees GPU buffers of everything under `root` (rebuilt groups would otherwise leak every update). */
export function disposeTree(root: THREE.Object3D): void {
  root.traverse((obj) => {
    if (obj instanceof THREE.Mesh) {
      obj.geometry.dispose();
      const mats = Array.isArray(obj.material) ? obj.material : [obj.material];
      for (const m of mats) m.dispose();
    }
  });
}

export function addIfAny(group: THREE.Group, mesh: THREE.Object3D | null): void {
  if (mesh) group.add(mesh);
}
