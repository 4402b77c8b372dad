/**
 * `muster calibrate lens --images <folder | files...> [--board board.json] [--out calibration/lens/x.json]`
 * Lens calibration from photos of the printed ChArUco board (print it with `muster markers`).
 */
import { readdirSync, statSync } from 'node:fs';
import sharp from 'sharp';
import { extname, join, relative } from 'node:path';
import { calibrateLens, CalibrationInputError, type CalibrationView } from '@muster/vision';
import { DEFAULT_CHARUCO_BOARD, loadCharucoBoardSpec, type CharucoBoardSpec } from '@muster/vision';
import { createCharucoCornerDetector } from '@muster/vision';
import { loadGrayImage } from '@muster/vision';
import { loadLensModel } from '@muster/vision';
import { undistortImage } from '@muster/vision';
import { writeFileAtomic } from '../../persist/writeFileAtomic.ts';
import { loadCv } from '@muster/vision';
import { CliError, CliExit } from '../cliError.ts';
import { PROJECTOR_SPEC, runProjector } from './calibrate/projector.ts';
import { commandUsage, numberValue, parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { createProgress } from '../progress.ts';
import { musterVersion } from '../version.ts';

const LENS_SPEC = {
  command: 'calibrate lens',
  synopsis: ['--images <folder | image files...> [options]'],
  positionals: [{ name: '<image files...>', help: 'more photos, after --images or instead of it' }],
  maxPositionals: Infinity,
  options: {
    images: { type: 'string', multiple: true, arg: '<path>', help: 'a folder of photos (png, jpg, tif, webp, bmp) or a photo file; repeatable, and\nfurther files may follow it' },
    board: {
      type: 'string',
      arg: '<file>',
      help: 'ChArUco board definition (default: 5x7 squares, 30 mm, 22 mm markers, DICT_4X4_50,\nas in calibration/boards/charuco-5x7.json)',
    },
    out: {
      type: 'string',
      arg: '<file>',
      help: 'where to save the calibration (default calibration/lens/lens.json); written\natomically, so a failed run keeps the previous file',
    },
    k3: { type: 'boolean', help: 'also estimate the k3 radial term (wide-angle lenses; needs many varied photos)' },
    'min-views': { type: 'string', arg: '<n>', help: 'refuse with fewer usable photos than this (default 4)' },
    progress: { type: 'boolean', help: 'show progress with the time left on stderr even when it is not a terminal' },
  },
  notes: 'Take 10-20 photos with the board flat, filling different parts of the frame, tilted up to ~40 degrees.',
} as const satisfies CommandSpec;

const UNDISTORT_SPEC = {
  command: 'calibrate undistort',
  synopsis: ['--lens <lens.json> --image <photo> --out <file.png>'],
  options: {
    lens: { type: 'string', arg: '<file>', help: 'the lens calibration (muster calibrate lens)' },
    image: { type: 'string', arg: '<file>', help: 'a photo taken with that camera at that resolution' },
    out: { type: 'string', arg: '<file>', help: 'where to write it: .png, .jpg, .tif or .webp' },
  },
  notes: 'Writes the photo with the lens distortion removed: straight edges must come out straight.',
} as const satisfies CommandSpec;

const SUBCOMMANDS = ['lens', 'undistort', 'projector'] as const;

const USAGE = [
  'usage: muster calibrate lens|undistort|projector [options]',
  '',
  commandUsage(LENS_SPEC),
  '',
  commandUsage(UNDISTORT_SPEC),
  '',
  commandUsage(PROJECTOR_SPEC),
].join('\n');

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.webp', '.bmp']);

function expandImages(paths: string[]): string[] {
  const files: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new CliError(`no such file or folder: ${p}`);
    }
    if (st.isDirectory()) {
      const inDir = readdirSync(p)
        .filter((f) => IMAGE_EXTENSIONS.has(extname(f).toLowerCase()))
        .sort()
        .map((f) => join(p, f));
      if (inDir.length === 0) throw new CliError(`folder ${p} holds no images (${[...IMAGE_EXTENSIONS].join(' ')})`);
      files.push(...inDir);
    } else files.push(p);
  }
  return files;
}

const OUTPUT_FORMATS: Record<string, 'png' | 'jpeg' | 'tiff' | 'webp'> = {
  png: 'png', jpg: 'jpeg', jpeg: 'jpeg', tif: 'tiff', tiff: 'tiff', webp: 'webp',
};

async function runUndistort(args: string[]): Promise<number> {
  const { values: opts } = parseCommandArgs(UNDISTORT_SPEC, args);
  const { lens: lensPath, image: imagePath, out } = opts;
  if (!lensPath || !imagePath || !out) throw new CliError('undistort needs --lens, --image and --out');
  if (!/\.(png|jpe?g|tiff?|webp)$/i.test(out)) throw new CliError('--out must end in .png, .jpg, .tif or .webp');
  let lens;
  let image;
  try {
    lens = loadLensModel(lensPath);
    image = await loadGrayImage(imagePath);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const cv = await loadCv();
  let fixed;
  try {
    fixed = undistortImage(cv, image, lens);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const encoded = await sharp(Buffer.from(fixed.data), { raw: { width: fixed.widthPx, height: fixed.heightPx, channels: 1 } })
    .toFormat(OUTPUT_FORMATS[extname(out).slice(1).toLowerCase()] ?? 'png')
    .toBuffer();
  writeFileAtomic(out, encoded);
  console.log(`saved ${out}`);
  return 0;
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h') throw new CliExit(USAGE, 0);
  if (sub === '--version') throw new CliExit(`muster ${musterVersion()}`, 0);
  if (sub === undefined) throw new CliError(`which calibration? muster calibrate ${SUBCOMMANDS.join('|')} (muster calibrate --help)`);
  if (sub.startsWith('-')) throw new CliError(`unknown option ${sub}; valid options: -h/--help, --version, or first a subcommand: ${SUBCOMMANDS.join(', ')} (muster calibrate --help)`);
  if (sub === 'projector') return runProjector(rest);
  if (sub === 'undistort') return runUndistort(rest);
  if (sub !== 'lens') throw new CliError(`unknown subcommand "${sub}" (known: ${SUBCOMMANDS.join(', ')}; muster calibrate --help)`);
  const { values: v, positionals } = parseCommandArgs(LENS_SPEC, rest);
  const opts = {
    images: [...v.images, ...positionals],
    board: v.board,
    out: v.out ?? 'calibration/lens/lens.json',
    k3: v.k3,
    minViews: v['min-views'] === undefined ? 4 : numberValue(v['min-views'], '--min-views', { min: 1, integer: true }),
  };
  if (opts.images.length === 0) throw new CliError('--images is required (a folder of board photos or the files)');
  let board: CharucoBoardSpec = DEFAULT_CHARUCO_BOARD;
  if (opts.board !== undefined) {
    try {
      board = loadCharucoBoardSpec(opts.board);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  }
  const files = expandImages(opts.images);

  const cv = await loadCv();
  const detector = createCharucoCornerDetector(cv, board);
  const views: CalibrationView[] = [];
  const progress = createProgress({ label: 'calibrate lens: reading photos', unit: 'photos', total: files.length, force: v.progress });
  let size: { widthPx: number; heightPx: number } | undefined;
  try {
    for (const [i, file] of files.entries()) {
      let image;
      try {
        image = await loadGrayImage(file);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      size ??= { widthPx: image.widthPx, heightPx: image.heightPx };
      if (image.widthPx !== size.widthPx || image.heightPx !== size.heightPx) {
        throw new CliError(
          `${file} is ${image.widthPx}×${image.heightPx} but the first photo is ${size.widthPx}×${size.heightPx}; ` +
            'calibrate one camera mode at a time',
        );
      }
      const found = detector.detect(image);
      progress.note(`[${i + 1}/${files.length}] ${file}: ${found.ids.length} corners (${found.markerCount} markers)`);
      progress.update(i + 1);
      const rel = relative(process.cwd(), file);
      views.push({ label: rel && !rel.startsWith('..') ? rel : file, ids: found.ids, cornersPx: found.cornersPx });
    }
    progress.finish();
  } finally {
    progress.finish(false);
    detector.delete();
  }
  if (size === undefined) throw new CliError('no images given');

  if (progress.shown) process.stderr.write(`calibrate lens: solving from ${views.length} photos...\n`);
  let result;
  try {
    result = calibrateLens(cv, views, size, board, { minViews: opts.minViews, estimateK3: opts.k3 });
  } catch (err) {
    if (err instanceof CalibrationInputError) throw new CliError(err.message);
    throw err;
  }
  const cal = result.calibration;
  for (const s of result.skipped) process.stderr.write(`skipped ${s.label}: ${s.reason}\n`);
  writeFileAtomic(opts.out, `${JSON.stringify(cal, null, 2)}\n`);

  const [fx, , cx, , fy, cy] = cal.cameraMatrix;
  const d = cal.distortion;
  const lines = [
    `saved ${opts.out}`,
    `image        ${cal.imageWidthPx}×${cal.imageHeightPx} px, ${cal.images.length} photos used`,
    `focal        fx ${fx?.toFixed(1)} px, fy ${fy?.toFixed(1)} px`,
    `centre       cx ${cx?.toFixed(1)} px, cy ${cy?.toFixed(1)} px`,
    `distortion   k1 ${d.k1.toFixed(4)} k2 ${d.k2.toFixed(4)} p1 ${d.p1.toFixed(5)} p2 ${d.p2.toFixed(5)} k3 ${d.k3.toFixed(4)}`,
    `RMS error    ${cal.rmsReprojectionErrorPx.toFixed(3)} px${cal.rmsReprojectionErrorPx > 1 ? '  (high: check focus, motion blur and the board size in the board file)' : ''}`,
    'per photo:',
    ...cal.images.map((im) => `  ${im.rmsPx.toFixed(3)} px  ${String(im.cornerCount).padStart(3)} corners  ${im.file}`),
  ];
  console.log(lines.join('\n'));
  return 0;
}
