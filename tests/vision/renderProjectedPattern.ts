/**
 * A camera frame of the table with the projector calibration pattern shone on it, with exact geometry:
 * the table (anchors, stands) is rendered by the project's generator (`renderTableFrame`), then every
 * camera pixel is lit by the projector through a known table → projector homography, sampling the same
 * pattern the projector page draws (`projectorPattern` / `patternLitAt`, 3×3 samples per pixel).
 *
 * Light model: camera grey = printed/cloth grey × (ambient + (1 − ambient) · lit), so projected black
 * leaves the room light (`ambient`) and the anchors stay readable under either.
 */
import { loadCv } from '../../apps/vision/src/cv/loadCv.ts';
import { withMats } from '../../apps/vision/src/cv/withMats.ts';
import { applyHomography, homographyFromPoints, type Homography } from '@muster/table-mapping';
import { patternLitAt, patternTagModules, projectorPattern } from '@muster/table-mapping';
import type { GrayFrame } from '../../apps/vision/src/pipeline/types.ts';
import type { TableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { cameraLookingDown, renderTableFrame, type SceneTag } from '../../fixtures/generator/renderTableFrame.ts';
import { seededRandom } from '../../fixtures/seededRandom.ts';

export interface ProjectedScene {
  readonly profile: TableProfile;
  readonly cameraWidthPx: number;
  readonly cameraHeightPx: number;
  /** Projector resolution the pattern is drawn at. */
  readonly projectorWidthPx: number;
  readonly projectorHeightPx: number;
  /** Where the table's corners (near-left, near-right, far-right, far-left) land on the projector, px. */
  readonly tableCornersOnProjectorPx: readonly (readonly [number, number])[];
  readonly stands?: readonly SceneTag[];
  /** Fraction of full white left where the projector is black; default 0.3. */
  readonly ambient?: number;
  readonly blurSigmaPx?: number;
  readonly noiseSigma?: number;
  readonly seed?: number;
  /** Draw the projection (default true); false gives the plain table for an anchors frame. */
  readonly project?: boolean;
  /** Pattern drawn at another size than `projectorWidthPx × projectorHeightPx` (a user error). */
  readonly patternSizePx?: { readonly widthPx: number; readonly heightPx: number };
}

export interface ProjectedFrame {
  readonly frame: GrayFrame;
  /** True table inches → projector pixels. */
  readonly tableToProjector: Homography;
  /** True table inches → camera pixels. */
  readonly tableToCamera: Homography;
}

export async function renderProjectedPattern(scene: ProjectedScene): Promise<ProjectedFrame> {
  const cv = await loadCv();
  const { profile, cameraWidthPx: w, cameraHeightPx: h } = scene;
  const camera = cameraLookingDown(profile, w, h, { fill: 0.9, keystone: 0.08, rollDeg: 1.2 });
  const base = await renderTableFrame({ profile, tags: scene.stands ?? [] }, camera, { seed: scene.seed ?? 1, supersample: 3 });
  const tableCorners: [number, number][] = [
    [0, 0],
    [profile.widthIn, 0],
    [profile.widthIn, profile.heightIn],
    [0, profile.heightIn],
  ];
  const tableToProjector = homographyFromPoints(tableCorners, scene.tableCornersOnProjectorPx);
  const out = new Uint8Array(base.frame.data);
  if (scene.project !== false) {
    const size = scene.patternSizePx ?? { widthPx: scene.projectorWidthPx, heightPx: scene.projectorHeightPx };
    const pattern = projectorPattern(size.widthPx, size.heightPx);
    const modules = new Map(pattern.tags.map((t) => [t.id, patternTagModules(t.id)]));
    // Camera pixel → table → projector in one homography.
    const cameraToProjector = homographyFromPointsInverse(camera.tableToImage, tableToProjector, profile);
    const ambient = scene.ambient ?? 0.3;
    const n = 3;
    for (let v = 0; v < h; v++) {
      for (let u = 0; u < w; u++) {
        let lit = 0;
        for (let sy = 0; sy < n; sy++) {
          for (let sx = 0; sx < n; sx++) {
            const [x, y] = applyHomography(cameraToProjector, u + (sx + 0.5) / n, v + (sy + 0.5) / n);
            if (patternLitAt(pattern, modules, x, y)) lit++;
          }
        }
        const gain = ambient + (1 - ambient) * (lit / (n * n));
        out[v * w + u] = Math.round(out[v * w + u]! * gain);
      }
    }
  }
  const blur = scene.blurSigmaPx ?? 0.6;
  const blurred = blur > 0
    ? withMats((track) => {
        const src = track(cv.matFromArray(h, w, cv.CV_8UC1, Array.from(out)));
        const dst = track(new cv.Mat());
        cv.GaussianBlur(src, dst, new cv.Size(0, 0), blur, blur, cv.BORDER_REPLICATE);
        return new Uint8Array(dst.data as Uint8Array);
      })
    : out;
  const noise = scene.noiseSigma ?? 2;
  if (noise > 0) {
    const random = seededRandom((scene.seed ?? 1) * 7919 + 3);
    for (let i = 0; i < blurred.length; i++) {
      const r1 = Math.max(random(), 1e-12);
      const r2 = random();
      const val = blurred[i]! + noise * Math.sqrt(-2 * Math.log(r1)) * Math.cos(2 * Math.PI * r2);
      blurred[i] = Math.max(0, Math.min(255, Math.round(val)));
    }
  }
  return { frame: { widthPx: w, heightPx: h, data: blurred, captureTimeMs: 0, seq: 0 }, tableToProjector, tableToCamera: camera.tableToImage };
}

/** camera px → projector px = tableToProjector · tableToCamera⁻¹, fitted through the table corners (exact for homographies). */
function homographyFromPointsInverse(tableToCamera: Homography, tableToProjector: Homography, profile: TableProfile): Homography {
  const table: [number, number][] = [
    [0, 0],
    [profile.widthIn, 0],
    [profile.widthIn, profile.heightIn],
    [0, profile.heightIn],
  ];
  return homographyFromPoints(
    table.map(([x, y]) => applyHomography(tableToCamera, x, y)),
    table.map(([x, y]) => applyHomography(tableToProjector, x, y)),
  );
}

/** A projector a little askew over the 72×48 table, overhanging it slightly (1920×1080). */
export const SKEWED_PROJECTOR_CORNERS_PX: readonly (readonly [number, number])[] = [
  [70, 1040],
  [1880, 1005],
  [1795, 45],
  [120, 80],
];
