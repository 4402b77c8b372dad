/**
 * The camera photo as the table's backdrop (operator view): the image laid on the table through the
 * camera's image→table homography, as a textured grid (camera/backdropGrid.ts), clipped to the table by
 * the stencil so the floor around it stays out. Drawn just over the cloth, under terrain and stands, so
 * terrain can be traced over the real table.
 */
import * as THREE from 'three';
import type { TableState } from '@muster/rules';
import { backdropGrid, type ImageSizePx } from '../camera/backdropGrid.ts';
import type { Homography } from '../mapping/homography.ts';
import { RENDER_ORDER } from './renderOrder.ts';
import { clipToTableStencil, tableStencilMesh } from './triangleBatch.ts';

export function buildCameraBackdropGroup(image: TexImageSource, imageToTable: Homography, size: ImageSizePx, table: TableState['table']): THREE.Group {
  const group = new THREE.Group();
  group.name = 'backdrop';
  // Its own stencil mark (the annotation layer's comes and goes with its rebuilds), drawn just before.
  group.add(tableStencilMesh(table.widthIn, table.depthIn, RENDER_ORDER.backdrop - 0.1));
  const grid = backdropGrid(imageToTable, size);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(grid.positions, 3));
  geometry.setAttribute('uv', new THREE.BufferAttribute(grid.uvs, 2));
  geometry.setIndex(new THREE.BufferAttribute(grid.indices, 1));
  const texture = new THREE.Texture(image as THREE.Texture['image']);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.needsUpdate = true;
  const material = new THREE.MeshBasicMaterial({
    map: texture,
    // In the transparent pass like everything else, so renderOrder alone sets the stacking.
    transparent: true,
    opacity: 1,
    side: THREE.DoubleSide,
    depthTest: false,
    depthWrite: false,
  });
  clipToTableStencil(material);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.renderOrder = RENDER_ORDER.backdrop;
  group.add(mesh);
  return group;
}

/** disposeTree frees geometry and materials but not textures; the backdrop's photo is one. */
export function disposeBackdropTextures(root: THREE.Object3D): void {
  root.traverse((obj) => {
    if (obj instanceof THREE.Mesh && obj.material instanceof THREE.MeshBasicMaterial) obj.material.map?.dispose();
  });
}
