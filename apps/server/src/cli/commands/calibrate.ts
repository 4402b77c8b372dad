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
import { CliError } from '../cliError.ts';
import { PROJECTOR_USAGE, runProjector } from './calibrate/projector.ts';

export const summary = 'lens calibration from photos of the ChArUco board, projector calibration (calibrate lens | undistort | projector)';

const USAGE = `usage: muster calibrate lens --images <folder | image files...> [options]

  --images <paths...>  a folder of photos (png, jpg, tif, webp, bmp) or the photo files themselves
  --board <file>       ChArUco board definition (default: 5x7 squares, 30 mm, 22 mm markers, DICT_4X4_50,
                       as in calibration/boards/charuco-5x7.json)
  --out <file>         where to save the calibration (default calibration/lens/lens.json); written
                       atomically, so a failed run keeps the previous file
  --k3                 also estimate the k3 radial term (wide-angle lenses; needs many varied photos)
  --min-views <n>      refuse with fewer usable photos than this (default 4)

Take 10-20 photos with the board flat, filling different parts of the frame, tilted up to ~40 degrees.

usage: muster calibrate undistort --lens <lens.json> --image <photo> --out <file.png>

  Writes the photo with the lens distortion removed: straight edges must come out straight.

${PROJECTOR_USAGE}`;

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.webp', '.bmp']);

interface LensArgs {
  images: string[];
  board: string | undefined;
  out: string;
  k3: boolean;
  minViews: number;
}

function parseLensArgs(args: string[]): LensArgs {
  const parsed: LensArgs = { images: [], board: undefined, out: 'calibration/lens/lens.json', k3: false, minViews: 4 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new CliError(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--images') {
      while (args[i + 1] !== undefined && !(args[i + 1] as string).startsWith('--')) parsed.images.push(args[++i] as string);
      if (parsed.images.length === 0) throw new CliError('--images needs a folder or image files');
    } else if (a === '--board') parsed.board = value();
    else if (a === '--out') parsed.out = value();
    else if (a === '--k3') parsed.k3 = true;
    else if (a === '--min-views') {
      parsed.minViews = Number(value());
      if (!Number.isInteger(parsed.minViews) || parsed.minViews < 1) throw new CliError('--min-views must be a positive integer');
    } else throw new CliError(`unknown option "${a}" (see muster calibrate --help)`);
  }
  if (parsed.images.length === 0) throw new CliError('--images is required (a folder of board photos or the files)');
  return parsed;
}

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
  const opts: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i] as string;
    const v = args[i + 1];
    if (!['--lens', '--image', '--out'].includes(flag)) throw new CliError(`unknown option "${flag}" (see muster calibrate --help)`);
    if (v === undefined || v.startsWith('--')) throw new CliError(`${flag} needs a value`);
    opts[flag.slice(2)] = v;
  }
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
  if (sub === undefined || sub === '--help' || sub === '-h') {
    console.log(USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'projector') return runProjector(rest);
  if (sub !== 'lens' && sub !== 'undistort') throw new CliError(`unknown subcommand "${sub}" (known: lens, undistort, projector)`);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (sub === 'undistort') return runUndistort(rest);
  const opts = parseLensArgs(rest);
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
      process.stderr.write(`[${i + 1}/${files.length}] ${file}: ${found.ids.length} corners (${found.markerCount} markers)\n`);
      const rel = relative(process.cwd(), file);
      views.push({ label: rel && !rel.startsWith('..') ? rel : file, ids: found.ids, cornersPx: found.cornersPx });
    }
  } finally {
    detector.delete();
  }
  if (size === undefined) throw new CliError('no images given');

  process.stderr.write(`calibrating (${views.length} photos read)...\n`);
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
