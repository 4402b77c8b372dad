/**
 * Small three.js helpers for one-off meshes (the measure line, terrain being drawn); bulk content goes
 * through TriangleBatch. Drawn without depth testing, ordered by `renderOrder`, double-sided (the
 * projector's y-flipped camera turns faces around).
 */
import * as THREE from 'three';
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
