/**
 * The printed ChArUco board used for lens calibration, as plain data (saved in calibration/boards/*.json
 * and copied into every lens calibration so a result says which board produced it).
 */
import { readFileSync } from 'node:fs';

export interface CharucoBoardSpec {
  /** Chessboard squares along the board's x (columns). */
  readonly squaresX: number;
  /** Chessboard squares along the board's y (rows). */
  readonly squaresY: number;
  /** Side of one chessboard square as printed, millimetres (measure the print and correct it here). */
  readonly squareLengthMm: number;
  /** Side of one ArUco marker inside a white square, millimetres; smaller than the square. */
  readonly markerLengthMm: number;
  /** OpenCV predefined dictionary name, e.g. "DICT_4X4_50". */
  readonly dictionary: string;
}

/** 5×7 squares, 30 mm squares, 22 mm markers: fits Letter and A4 with margins. */
export const DEFAULT_CHARUCO_BOARD: CharucoBoardSpec = {
  squaresX: 5,
  squaresY: 7,
  squareLengthMm: 30,
  markerLengthMm: 22,
  dictionary: 'DICT_4X4_50',
};

function positiveNumber(raw: Record<string, unknown>, key: string, where: string): number {
  const v = raw[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new Error(`${where}: "${key}" must be a positive number (got ${JSON.stringify(v)})`);
  }
  return v;
}

/** Validates an untrusted value (parsed JSON) as a board spec; throws a message naming the bad field. */
export function parseCharucoBoardSpec(raw: unknown, where = 'board'): CharucoBoardSpec {
  if (typeof raw !== 'object' || raw === null) throw new Error(`${where}: expected a JSON object`);
  const r = raw as Record<string, unknown>;
  const squaresX = positiveNumber(r, 'squaresX', where);
  const squaresY = positiveNumber(r, 'squaresY', where);
  if (!Number.isInteger(squaresX) || !Number.isInteger(squaresY) || squaresX < 3 || squaresY < 3) {
    throw new Error(`${where}: squaresX and squaresY must be integers of at least 3`);
  }
  const squareLengthMm = positiveNumber(r, 'squareLengthMm', where);
  const markerLengthMm = positiveNumber(r, 'markerLengthMm', where);
  if (markerLengthMm >= squareLengthMm) {
    throw new Error(`${where}: markerLengthMm (${markerLengthMm}) must be smaller than squareLengthMm (${squareLengthMm})`);
  }
  const dictionary = r['dictionary'];
  if (typeof dictionary !== 'string' || !/^DICT_[A-Z0-9_]+$/.test(dictionary)) {
    throw new Error(`${where}: "dictionary" must be an OpenCV dictionary name such as "DICT_4X4_50"`);
  }
  return { squaresX, squaresY, squareLengthMm, markerLengthMm, dictionary };
}

export function loadCharucoBoardSpec(path: string): CharucoBoardSpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read board file ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`board file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  return parseCharucoBoardSpec(json, path);
}

/** Number of inner chessboard corners (the ChArUco corner ids run 0 .. count-1, row by row). */
export function charucoCornerCount(spec: CharucoBoardSpec): number {
  return (spec.squaresX - 1) * (spec.squaresY - 1);
}

/**
 * Board-frame position of ChArUco corner `id`, millimetres: x along columns, y down the rows, origin at the
 * board's top-left outer corner (the same frame OpenCV's getChessboardCorners uses).
 */
export function charucoCornerMm(spec: CharucoBoardSpec, id: number): { xMm: number; yMm: number } {
  const perRow = spec.squaresX - 1;
  const col = id % perRow;
  const row = Math.floor(id / perRow);
  return { xMm: (col + 1) * spec.squareLengthMm, yMm: (row + 1) * spec.squareLengthMm };
}
