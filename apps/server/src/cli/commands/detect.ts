/**
 * `muster detect <image> [--table <profile.json>] [--json]`: find the tags in one photo or frame.
 *
 * `--json` prints exactly one JSON object (a stable contract other tools parse):
 * `{"anchors":[0,1,2,3],"homography":[h11,…,h33],"markers":[{"id":17,"x":12.34,"y":20.1,"heading":90,
 * "corners":[[u,v],[u,v],[u,v],[u,v]]}],"warnings":[]}`. The homography maps image pixels (origin at the
 * top-left pixel's corner) to table inches and is null when too few anchors were seen; x, y are the tag
 * centre in inches, heading in degrees CCW from +x, corners in image pixels in OpenCV order; anchors
 * are not listed among markers. Warnings also go to stderr, one `warning:` line each (the readable output
 * keeps them off stdout).
 *
 * `--lens <calibration.json>` (from `muster calibrate lens`): corners are undistorted before the geometry,
 * so x, y, heading are corrected and the homography then maps *undistorted* pixels to table inches (the
 * corners stay as detected). The image must have the calibration's size. A profile with `baseThicknessIn`
 * gets tag positions corrected for the base height with or without `--lens` (see the vision README).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { checkInputFile, InputFileError } from '../../io/readInputFile.ts';
import { CliError } from '../cliError.ts';
import { warn } from '../colour.ts';
import { numberValue, parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { loadTableProfile, TableProfileError, type TableProfile } from '@muster/vision';
import { createFrameDetector } from '@muster/vision';
import { loadLensModel, type LensModel } from '@muster/vision';
import type { FrameDetection, GrayFrame } from '@muster/vision';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const defaultTable = join(repoRoot, 'calibration/tables/default-72x48.json');

/** Images above this are refused from their header, before decoding (a grey pixel costs ~5 bytes in detection). */
export const DEFAULT_MAX_MEGAPIXELS = 40;

const SPEC = {
  command: 'detect',
  synopsis: ['<image> [--table <profile.json>] [--lens <calibration.json>] [--json]'],
  positionals: [{ name: '<image>', help: 'a PNG/JPEG/TIFF/WebP photo or frame of the table (read with sharp, converted to grey)' }],
  tooMany: (p: readonly string[]) => `one image at a time (got ${p[0]} and ${p[1]})`,
  options: {
    table: { type: 'string', arg: '<file>', help: 'table profile (default calibration/tables/default-72x48.json)' },
    lens: { type: 'string', arg: '<file>', help: 'lens calibration (muster calibrate lens) for this camera and resolution: removes\nlens distortion before positions are computed' },
    json: { type: 'boolean', help: 'print one JSON object instead of a table (its warnings are on stderr as well)' },
    'max-megapixels': { type: 'string', arg: '<n>', help: `refuse larger images before decoding them (default ${DEFAULT_MAX_MEGAPIXELS}; 4K is 8.3)` },
  },
} as const satisfies CommandSpec;

/**
 * Read an image file into an 8-bit grey frame; a clear CliError for a missing or unreadable file, and for
 * one over `maxMegapixels` (read from the header, before any pixel is decoded).
 */
export async function readGrayImage(path: string, maxMegapixels = DEFAULT_MAX_MEGAPIXELS): Promise<GrayFrame> {
  if (!existsSync(path)) throw new CliError(`${path}: no such image file`);
  try {
    // A regular file only (a FIFO made sharp wait forever); its size is bounded by the pixel limit below.
    checkInputFile(path, { maxBytes: Number.MAX_SAFE_INTEGER, what: 'image' });
  } catch (err) {
    if (err instanceof InputFileError) throw new CliError(err.message);
    throw err;
  }
  const maxPixels = Math.floor(maxMegapixels * 1e6);
  let header: { width?: number; height?: number };
  try {
    header = await sharp(path).metadata();
  } catch (err) {
    throw new CliError(`${path}: cannot read as an image (${(err as Error).message.split('\n')[0]})`);
  }
  const pixels = (header.width ?? 0) * (header.height ?? 0);
  if (pixels > maxPixels) {
    throw new CliError(
      `${path} is ${header.width}×${header.height} (${(pixels / 1e6).toFixed(1)} megapixels), above the ${maxMegapixels} megapixel limit; pass --max-megapixels ${Math.ceil(pixels / 1e6)} to read it anyway (it needs about ${Math.ceil((pixels * 5) / 1e6)} MB)`,
    );
  }
  try {
    const { data, info } = await sharp(path, { limitInputPixels: Math.max(maxPixels, 1) }).greyscale().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`expected 1 channel after greyscale, got ${info.channels}`);
    return { widthPx: info.width, heightPx: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length), captureTimeMs: 0, seq: 0 };
  } catch (err) {
    throw new CliError(`${path}: cannot read as an image (${(err as Error).message.split('\n')[0]})`);
  }
}

const round = (v: number, d: number): number => Math.round(v * 10 ** d) / 10 ** d;

/** The JSON contract of `muster detect --json`. */
export function detectionToJson(d: FrameDetection): Record<string, unknown> {
  return {
    anchors: [...d.anchorIds],
    homography: d.homography ? [...d.homography] : null,
    markers: d.markers.map((m) => ({
      id: m.id,
      x: round(m.xIn, 4),
      y: round(m.yIn, 4),
      heading: round(m.headingDeg, 2),
      corners: m.cornersPx.map((c) => [round(c.uPx, 3), round(c.vPx, 3)]),
    })),
    warnings: [...d.warnings],
    ...(d.tagSize
      ? {
          tagSize: {
            minPx: round(d.tagSize.minSidePx, 1),
            maxPx: round(d.tagSize.maxSidePx, 1),
            seenMedianPx: d.tagSize.seenMedianSidePx === null ? null : round(d.tagSize.seenMedianSidePx, 1),
            reliable: d.tagSize.reliable,
            advisedSizeIn: d.tagSize.advisedSizeIn,
          },
        }
      : {}),
  };
}

function readable(d: FrameDetection, imagePath: string, profile: TableProfile): string {
  const lines = [
    `${imagePath}: ${d.markers.length} stand tag(s), anchors ${d.anchorIds.join(', ') || 'none'} of ${profile.anchors.map((a) => a.id).join(', ')}` +
      (d.homographyResidualIn !== null ? `, anchor residual ${d.homographyResidualIn.toFixed(3)} in` : ''),
    ...(d.tagSize
      ? [
          `stand tags ${Math.round(d.tagSize.minSidePx)}–${Math.round(d.tagSize.maxSidePx)} px across in this view` +
            (d.tagSize.seenMedianSidePx !== null ? ` (median found ${Math.round(d.tagSize.seenMedianSidePx)} px)` : '') +
            (d.tagSize.reliable ? '' : `: too small, see the warning`),
        ]
      : []),
    '',
    '   id     x (in)     y (in)   heading (deg)',
    ...d.markers.map(
      (m) => `${String(m.id).padStart(5)} ${m.xIn.toFixed(2).padStart(10)} ${m.yIn.toFixed(2).padStart(10)} ${m.headingDeg.toFixed(1).padStart(15)}`,
    ),
  ];
  return lines.join('\n');
}

export async function run(args: string[]): Promise<number> {
  const { values: v, positionals } = parseCommandArgs(SPEC, args);
  const image = positionals[0];
  if (image === undefined) throw new CliError(`no image given (usage: muster detect ${SPEC.synopsis[0]})`);
  const table = v.table ?? defaultTable;
  const lensPath = v.lens;
  const maxMegapixels = v['max-megapixels'] === undefined ? DEFAULT_MAX_MEGAPIXELS : numberValue(v['max-megapixels'], '--max-megapixels', { above: 0, example: '100' });
  const json = v.json;

  let profile: TableProfile;
  try {
    profile = loadTableProfile(table);
  } catch (err) {
    if (err instanceof TableProfileError) throw new CliError(err.message);
    throw err;
  }
  let lens: LensModel | undefined;
  if (lensPath !== undefined) {
    try {
      lens = loadLensModel(lensPath);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  }
  const frame = await readGrayImage(image, maxMegapixels);
  if (lens && (frame.widthPx !== lens.imageWidthPx || frame.heightPx !== lens.imageHeightPx)) {
    throw new CliError(`${image} is ${frame.widthPx}×${frame.heightPx} px but ${lensPath} is a calibration for ${lens.imageWidthPx}×${lens.imageHeightPx}`);
  }
  const detector = await createFrameDetector(profile, lens ? { lens } : {});
  try {
    const detection = detector.detect(frame);
    console.log(json ? JSON.stringify(detectionToJson(detection)) : readable(detection, image, profile));
    // Warnings go to stderr, apart from the result (with --json they are in the object as well).
    for (const w of detection.warnings) warn(w);
  } finally {
    detector.dispose();
  }
  return 0;
}
