/**
 * The saved projector calibration (`calibration/projector/<name>.json`, `muster calibrate projector`):
 * the table-inches → projector-pixels homography and how well it was measured. Pure validation, no
 * clock: `createdAt` is handed in by the caller.
 */
import { readFileSync } from 'node:fs';
import { applyHomography, invertHomography } from '@muster/table-mapping';

export const PROJECTOR_CALIBRATION_FORMAT = 'muster-projector-calibration';

export interface ProjectorCalibrationJson {
  readonly format: typeof PROJECTOR_CALIBRATION_FORMAT;
  readonly version: 1;
  /** ISO 8601 time of the measurement. */
  readonly createdAt: string;
  /** Projector resolution the homography is in (the size the pattern page was shown at). */
  readonly projectorWidthPx: number;
  readonly projectorHeightPx: number;
  /** Table size of the profile used, inches (the projector page draws the table the service publishes). */
  readonly tableWidthIn: number;
  readonly tableHeightIn: number;
  /** Row-major 3×3, table inches → projector pixels (origin at the top-left pixel's corner), h[8] = 1. */
  readonly tableToProjector: readonly number[];
  /** The camera frame the pattern was measured in. */
  readonly camera: {
    readonly widthPx: number;
    readonly heightPx: number;
    /** Row-major 3×3, projector pixels → camera pixels (undistorted when a lens was given). */
    readonly projectorToCamera: readonly number[];
    /** Lens calibration used, if any (as given on the command line). */
    readonly lens: string | null;
  };
  readonly pattern: {
    readonly dictionary: string;
    /** Tags in the pattern, tags detected, corners kept by RANSAC (of 4 per detected tag). */
    readonly tagsShown: number;
    readonly tagsSeen: number;
    readonly cornersUsed: number;
    readonly cornersSeen: number;
  };
  readonly residuals: {
    /** Detected corner vs the fitted map, measured in projector pixels (RANSAC inliers). */
    readonly rmsProjectorPx: number;
    readonly maxProjectorPx: number;
    /** The same residuals on the table, inches. */
    readonly rmsTableIn: number;
    readonly maxTableIn: number;
    /** RMS of the table anchors against the camera → table homography, inches (null when it was given). */
    readonly anchorRmsIn: number | null;
  };
}

/** A file that is not a usable projector calibration; the message names the file and the field. */
export class ProjectorCalibrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectorCalibrationError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates untrusted JSON as a projector calibration and returns it typed. Errors name `sourceName`
 * and the field: `proj.json: tableToProjector[4] must be a finite number (got "x")`.
 */
export function parseProjectorCalibration(raw: unknown, sourceName: string): ProjectorCalibrationJson {
  const fail = (msg: string): never => {
    throw new ProjectorCalibrationError(`${sourceName}: ${msg}`);
  };
  const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));
  if (!isObject(raw)) return fail('expected a JSON object (a projector calibration from muster calibrate projector)');
  if (raw['format'] !== PROJECTOR_CALIBRATION_FORMAT) {
    fail(`format must be "${PROJECTOR_CALIBRATION_FORMAT}" (got ${show(raw['format'])}; is this a projector calibration?)`);
  }
  if (raw['version'] !== 1) fail(`version must be 1 (got ${show(raw['version'])})`);
  const num = (obj: Record<string, unknown>, key: string, path: string, check?: (n: number) => boolean, what?: string): number => {
    const v = obj[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) return fail(`${path} must be a finite number (got ${show(v)})`);
    if (check && !check(v)) fail(`${path} must be ${what} (got ${v})`);
    return v;
  };
  const positiveInt = (n: number): boolean => Number.isInteger(n) && n > 0;
  const matrix = (obj: Record<string, unknown>, key: string, path: string): number[] => {
    const v = obj[key];
    if (!Array.isArray(v) || v.length !== 9) return fail(`${path} must be 9 numbers (row-major 3×3), got ${show(v)}`);
    v.forEach((x, i) => {
      if (typeof x !== 'number' || !Number.isFinite(x)) fail(`${path}[${i}] must be a finite number (got ${show(x)})`);
    });
    try {
      invertHomography(v as number[]);
    } catch {
      fail(`${path} is singular (not a homography)`);
    }
    return v as number[];
  };
  if (typeof raw['createdAt'] !== 'string' || Number.isNaN(Date.parse(raw['createdAt']))) fail(`createdAt must be an ISO date string (got ${show(raw['createdAt'])})`);
  num(raw, 'projectorWidthPx', 'projectorWidthPx', positiveInt, 'a positive whole number of pixels');
  num(raw, 'projectorHeightPx', 'projectorHeightPx', positiveInt, 'a positive whole number of pixels');
  const wIn = num(raw, 'tableWidthIn', 'tableWidthIn', (n) => n > 0, 'positive');
  const hIn = num(raw, 'tableHeightIn', 'tableHeightIn', (n) => n > 0, 'positive');
  const h = matrix(raw, 'tableToProjector', 'tableToProjector');
  // A real calibration keeps the whole table in front of the projector: every corner maps to a finite
  // point on the same side of the horizon (w > 0 after normalising h[8] = 1 is not guaranteed, so compare signs).
  const ws = [
    [0, 0],
    [wIn, 0],
    [wIn, hIn],
    [0, hIn],
  ].map(([x, y]) => h[6]! * x! + h[7]! * y! + h[8]!);
  if (!ws.every((w) => w > 0) && !ws.every((w) => w < 0)) fail('tableToProjector sends part of the table behind the projector (the horizon crosses the table)');
  const corner = applyHomography(h, 0, 0);
  if (!corner.every(Number.isFinite)) fail('tableToProjector maps the table corner (0, 0) to infinity');

  const camera = raw['camera'];
  if (!isObject(camera)) return fail(`camera must be an object {widthPx, heightPx, projectorToCamera, lens} (got ${show(camera)})`);
  num(camera, 'widthPx', 'camera.widthPx', positiveInt, 'a positive whole number of pixels');
  num(camera, 'heightPx', 'camera.heightPx', positiveInt, 'a positive whole number of pixels');
  matrix(camera, 'projectorToCamera', 'camera.projectorToCamera');
  if (camera['lens'] !== null && typeof camera['lens'] !== 'string') fail(`camera.lens must be a file name or null (got ${show(camera['lens'])})`);

  const pattern = raw['pattern'];
  if (!isObject(pattern)) return fail(`pattern must be an object (got ${show(pattern)})`);
  if (typeof pattern['dictionary'] !== 'string') fail(`pattern.dictionary must be a string (got ${show(pattern['dictionary'])})`);
  const count = (n: number): boolean => Number.isInteger(n) && n >= 0;
  for (const key of ['tagsShown', 'tagsSeen', 'cornersUsed', 'cornersSeen']) num(pattern, key, `pattern.${key}`, count, 'a whole number ≥ 0');

  const residuals = raw['residuals'];
  if (!isObject(residuals)) return fail(`residuals must be an object (got ${show(residuals)})`);
  for (const key of ['rmsProjectorPx', 'maxProjectorPx', 'rmsTableIn', 'maxTableIn']) num(residuals, key, `residuals.${key}`, (n) => n >= 0, '≥ 0');
  if (residuals['anchorRmsIn'] !== null) num(residuals, 'anchorRmsIn', 'residuals.anchorRmsIn', (n) => n >= 0, '≥ 0 or null');
  return raw as unknown as ProjectorCalibrationJson;
}

/** Reads and validates a saved projector calibration; errors name the file. */
export function loadProjectorCalibration(path: string): ProjectorCalibrationJson {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ProjectorCalibrationError(`${path}: cannot read the projector calibration (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ProjectorCalibrationError(`${path}: not valid JSON (${(err as Error).message})`);
  }
  return parseProjectorCalibration(json, path);
}
