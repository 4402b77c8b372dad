/**
 * The table profile: what the detector must know about a physical table before it sees a frame.
 * Table size, the ArUco dictionary, the fixed anchor tags (which define table inches for the
 * homography) and the printed size of the stand tags.
 *
 * JSON form (a stable contract, inches and degrees; see `calibration/tables/default-72x48.json`):
 *
 * ```json
 * { "width": 72, "height": 48, "dictionary": "DICT_4X4_50", "markerSize": 0.5,
 *   "anchors": [ { "id": 0, "x": 3, "y": 3, "size": 2, "heading": 90 }, ... ],
 *   "baseThicknessIn": 0.125, "standIds": [4, 5, 6] }
 * ```
 *
 * `heading` of an anchor defaults to 90 (upright: the tag's top edge points to +y, away from the near
 * edge). `standIds` is optional: without it every id of the dictionary that is not an anchor is a
 * possible stand; with it anything else is filtered out and reported.
 */
import { readFileSync } from 'node:fs';

/** The ArUco dictionaries a profile may name; the number is the opencv.js `cv.DICT_*` constant. */
export const DICTIONARIES = {
  DICT_4X4_50: { bits: 4, ids: 50 },
  DICT_4X4_100: { bits: 4, ids: 100 },
  DICT_4X4_250: { bits: 4, ids: 250 },
  DICT_4X4_1000: { bits: 4, ids: 1000 },
  DICT_5X5_50: { bits: 5, ids: 50 },
  DICT_5X5_100: { bits: 5, ids: 100 },
  DICT_5X5_250: { bits: 5, ids: 250 },
  DICT_5X5_1000: { bits: 5, ids: 1000 },
  DICT_6X6_50: { bits: 6, ids: 50 },
  DICT_6X6_100: { bits: 6, ids: 100 },
  DICT_6X6_250: { bits: 6, ids: 250 },
  DICT_6X6_1000: { bits: 6, ids: 1000 },
} as const;

export type DictionaryName = keyof typeof DICTIONARIES;

/** A fixed tag glued to the table at a surveyed pose. */
export interface AnchorSpec {
  readonly id: number;
  /** Tag centre, table inches. */
  readonly xIn: number;
  readonly yIn: number;
  /** Printed side of the black square (outer edge of the black border), inches. */
  readonly sizeIn: number;
  /** Direction of the tag's top edge, degrees CCW from +x; 90 = upright. */
  readonly headingDeg: number;
}

export interface TableProfile {
  /** Where the profile came from (file path or a label), for error messages. */
  readonly sourceName: string;
  /** Table extent along x (the near edge), inches. */
  readonly widthIn: number;
  /** Table extent along y (away from the near edge), inches. */
  readonly heightIn: number;
  readonly dictionary: DictionaryName;
  /** Data bits per side of the dictionary's markers (4 for DICT_4X4_*). */
  readonly markerBits: number;
  /** Number of ids in the dictionary: valid ids are 0 .. dictionaryIds-1. */
  readonly dictionaryIds: number;
  readonly anchors: readonly AnchorSpec[];
  /** Printed side of a stand tag's black square, inches. */
  readonly markerSizeIn: number;
  /** Height of the tag surface above the table (stand base thickness), inches; default 0. */
  readonly baseThicknessIn: number;
  /** Ids that may be stands: sorted, anchors excluded. */
  readonly standIds: readonly number[];
}

/** Thrown for a profile that cannot be used; the message names the source and the field. */
export class TableProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TableProfileError';
  }
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validate and normalise a parsed JSON profile. Throws `TableProfileError` with a message such as
 * `table.json: anchors[2].size must be a positive number of inches (got "2")`.
 *
 * @example parseTableProfile(JSON.parse(text), 'calibration/tables/default-72x48.json')
 */
export function parseTableProfile(json: unknown, sourceName: string): TableProfile {
  const fail = (msg: string): never => {
    throw new TableProfileError(`${sourceName}: ${msg}`);
  };
  if (!isObject(json)) fail('a table profile must be a JSON object');
  const obj = json as Json;
  const positive = (v: unknown, field: string, what = 'inches'): number => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      fail(`${field} must be a positive number of ${what} (got ${JSON.stringify(v)})`);
    }
    return v as number;
  };
  const finite = (v: unknown, field: string): number => {
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${field} must be a number (got ${JSON.stringify(v)})`);
    return v as number;
  };

  const widthIn = positive(obj['width'], 'width');
  const heightIn = positive(obj['height'], 'height');
  const dictionary = obj['dictionary'];
  if (typeof dictionary !== 'string' || !(dictionary in DICTIONARIES)) {
    fail(`dictionary must be one of ${Object.keys(DICTIONARIES).join(', ')} (got ${JSON.stringify(dictionary)})`);
  }
  const dict = DICTIONARIES[dictionary as DictionaryName];
  const markerSizeIn = positive(obj['markerSize'], 'markerSize');
  const baseThicknessIn = obj['baseThicknessIn'] === undefined ? 0 : finite(obj['baseThicknessIn'], 'baseThicknessIn');
  if (baseThicknessIn < 0) fail(`baseThicknessIn must not be negative (got ${baseThicknessIn})`);

  const checkId = (v: unknown, field: string): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= dict.ids) {
      fail(`${field} must be an integer id from 0 to ${dict.ids - 1} for ${dictionary} (got ${JSON.stringify(v)})`);
    }
    return v as number;
  };

  const anchorsJson = obj['anchors'];
  if (!Array.isArray(anchorsJson) || anchorsJson.length < 4) {
    fail(`anchors must be a list of at least 4 tags (a homography needs 4 points; got ${Array.isArray(anchorsJson) ? anchorsJson.length : JSON.stringify(anchorsJson)})`);
  }
  const anchors: AnchorSpec[] = (anchorsJson as unknown[]).map((a, i) => {
    const f = `anchors[${i}]`;
    if (!isObject(a)) return fail(`${f} must be an object {id, x, y, size, heading?}`);
    const xIn = finite(a['x'], `${f}.x`);
    const yIn = finite(a['y'], `${f}.y`);
    const sizeIn = positive(a['size'], `${f}.size`);
    if (xIn < 0 || xIn > widthIn || yIn < 0 || yIn > heightIn) {
      fail(`${f} at (${xIn}, ${yIn}) lies outside the ${widthIn}×${heightIn} in table`);
    }
    const heading = a['heading'] === undefined ? 90 : finite(a['heading'], `${f}.heading`);
    return { id: checkId(a['id'], `${f}.id`), xIn, yIn, sizeIn, headingDeg: ((heading % 360) + 360) % 360 };
  });
  const anchorIds = new Set<number>();
  for (const a of anchors) {
    if (anchorIds.has(a.id)) fail(`anchor id ${a.id} is listed twice`);
    anchorIds.add(a.id);
  }

  let standIds: number[];
  const standJson = obj['standIds'];
  if (standJson === undefined) {
    standIds = [];
    for (let id = 0; id < dict.ids; id++) if (!anchorIds.has(id)) standIds.push(id);
  } else {
    if (!Array.isArray(standJson)) fail('standIds must be a list of ids');
    standIds = (standJson as unknown[]).map((v, i) => checkId(v, `standIds[${i}]`));
    for (const id of standIds) if (anchorIds.has(id)) fail(`standIds contains ${id}, which is an anchor`);
    standIds = [...new Set(standIds)].sort((a, b) => a - b);
  }

  return {
    sourceName,
    widthIn,
    heightIn,
    dictionary: dictionary as DictionaryName,
    markerBits: dict.bits,
    dictionaryIds: dict.ids,
    anchors,
    markerSizeIn,
    baseThicknessIn,
    standIds,
  };
}

/** Read and validate a profile file. Errors name the file (missing, not JSON, bad field). */
export function loadTableProfile(path: string): TableProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TableProfileError(`${path}: cannot read the table profile (${code ?? String(err)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TableProfileError(`${path}: not valid JSON (${(err as Error).message})`);
  }
  return parseTableProfile(json, path);
}

/** The profile back in its JSON form (for writing files and for the worker thread). */
export function tableProfileToJson(profile: TableProfile): Json {
  const all = profile.standIds.length + profile.anchors.length === profile.dictionaryIds;
  return {
    width: profile.widthIn,
    height: profile.heightIn,
    dictionary: profile.dictionary,
    markerSize: profile.markerSizeIn,
    anchors: profile.anchors.map((a) => ({ id: a.id, x: a.xIn, y: a.yIn, size: a.sizeIn, heading: a.headingDeg })),
    ...(profile.baseThicknessIn !== 0 ? { baseThicknessIn: profile.baseThicknessIn } : {}),
    ...(all ? {} : { standIds: [...profile.standIds] }),
  };
}
