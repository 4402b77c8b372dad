/**
 * Camera mode's calibrations: the lens (corners are undistorted before they are mapped to the table) and
 * the projector's (served at `/api/projector`). Each comes from its file on the command line, checked
 * before anything is saved, or from the one saved in the data directory by an earlier start.
 */
import { readFileSync } from 'node:fs';
import { createLensModel, loadLensModel, parseLensCalibration, type LensModel } from '@muster/vision';
import type { DataStore } from '../persist/dataStore.ts';
import { openProjectorCalibration, type ProjectorCalibrationSource } from '../persist/projectorCalibrationStore.ts';
import type { CameraLiveOptions } from './liveOptions.ts';

export interface Calibrations {
  /** Null: corners are used as the camera gives them. */
  readonly lens: LensModel | null;
  /** The lens calibration document (served at `/api/calibration`; null without one). */
  readonly lensDoc: unknown;
  readonly projector: ProjectorCalibrationSource;
}

/**
 * A bad `--lens` or `--projector` file throws and leaves the saved calibration as it was. A projector file
 * that checked out is saved here; a lens file is not (`saveLensCalibration`, once the start goes on).
 */
export function loadCalibrations(src: CameraLiveOptions, store: DataStore, dataDir: string): Calibrations {
  let lens: LensModel | null = null;
  let lensDoc: unknown = null;
  if (src.lensPath !== undefined) {
    lens = loadLensModel(src.lensPath);
    lensDoc = JSON.parse(readFileSync(src.lensPath, 'utf8')) as unknown;
  } else {
    lensDoc = store.read('calibration', (v) => v) ?? null;
    if (lensDoc !== null) {
      try {
        lens = createLensModel(parseLensCalibration(lensDoc));
      } catch (err) {
        throw new Error(`the lens calibration saved in ${dataDir} is not usable (${(err as Error).message}); start once with --lens <file>`);
      }
    }
  }
  // Checked before it is saved: a bad --projector file stops the start and keeps the saved one.
  const projector = openProjectorCalibration(store, src.projectorPath !== undefined ? { path: src.projectorPath } : {});
  return { lens, lensDoc, projector };
}

/** Saves a lens calibration given on the command line, so later starts use it without `--lens`. */
export function saveLensCalibration(src: CameraLiveOptions, store: DataStore, calibrations: Calibrations): void {
  if (src.lensPath !== undefined) store.write('calibration', calibrations.lensDoc);
}
