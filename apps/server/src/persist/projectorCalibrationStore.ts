/**
 * The projector calibration the service publishes (`GET /api/projector`), kept in the data directory as
 * `projector.json` like the lens calibration: `--projector <file>` copies a checked file there, later
 * starts read it back, and the operator may replace it (`PUT /api/projector`). Nothing is saved that
 * did not validate, so a bad file or body leaves the saved calibration as it was.
 */
import type { DataStore } from './dataStore.ts';
import { loadProjectorCalibration, parseProjectorCalibration, type ProjectorCalibrationJson } from '@muster/vision';

export interface ProjectorCalibrationSource {
  /** The calibration in use; null when there is none. */
  get(): ProjectorCalibrationJson | null;
  /** Validates (throws `ProjectorCalibrationError` naming the field), saves atomically, then uses it. */
  put(raw: unknown, sourceName: string): ProjectorCalibrationJson;
}

/**
 * With `path`: load and check that file (throws before anything is saved), save it, use it. Without:
 * the saved one, if any; a saved file that does not validate throws (`PersistError` naming the file)
 * unless `tolerateBadSaved`, which reports it through `warn` and starts without one.
 */
export function openProjectorCalibration(
  store: DataStore,
  options: { path?: string; tolerateBadSaved?: boolean; warn?: (message: string) => void } = {},
): ProjectorCalibrationSource {
  let current: ProjectorCalibrationJson | null;
  if (options.path !== undefined) {
    current = loadProjectorCalibration(options.path);
    store.write('projector', current);
  } else {
    try {
      current = store.read('projector', (v) => parseProjectorCalibration(v, 'projector calibration')) ?? null;
    } catch (err) {
      if (!options.tolerateBadSaved) throw err;
      options.warn?.(`${(err as Error).message}; no projector calibration in use`);
      current = null;
    }
  }
  return {
    get: () => current,
    put(raw, sourceName) {
      const checked = parseProjectorCalibration(raw, sourceName);
      store.write('projector', checked);
      current = checked;
      return checked;
    },
  };
}
