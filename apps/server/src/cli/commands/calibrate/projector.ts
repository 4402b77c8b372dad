/**
 * `muster calibrate projector --frame <photo> --table <profile.json> [--projector-size 1920x1080] [--out …]`:
 * the table → projector homography from one camera photo of the pattern that `projector.html?calibrate=1`
 * shows (see `calibrate/calibrateProjector.ts`). Lives in a sub-folder so the command list (one file per
 * command in `commands/`) does not show it as a command of its own; `calibrate.ts` dispatches here.
 */
import { CliError } from '../../cliError.ts';
import { loadTableProfile, TableProfileError, type TableProfile } from '@muster/vision';
import { loadLensModel, type LensModel } from '@muster/vision';
import { loadGrayImage } from '@muster/vision';
import { writeFileAtomic } from '../../../persist/writeFileAtomic.ts';
import { calibrateProjector, projectorCalibrationJson, ProjectorCalibrationInputError } from '@muster/vision';
import { MIN_PROJECTOR_SIZE_PX } from '@muster/table-mapping';
import { loadCv } from '@muster/vision';

export const PROJECTOR_USAGE = `usage: muster calibrate projector --frame <photo> --table <profile.json> [options]

  Open /projector.html?calibrate=1 full-screen on the projector (it prints the size it draws at), take
  one photo with the table camera showing the pattern and the table anchors, then run this.

  --frame <file>            the camera photo of the projected pattern (PNG, JPEG, TIFF, WebP)
  --table <file>            the table profile (its anchors tie the camera to the table)
  --projector-size <WxH>    the projector's resolution, as the pattern page prints it (default 1920x1080)
  --out <file>              where to save (default calibration/projector/projector.json); written
                            atomically, so a failed run keeps the previous file
  --lens <file>             lens calibration of the camera (muster calibrate lens) for this resolution
  --anchors-frame <file>    a second photo, same camera, without the pattern, when the projection hides
                            the anchors in the first
  --max-residual-px <n>     refuse a fit whose RMS residual is above this, projector px (default 2)`;

interface ProjectorArgs {
  frame: string | undefined;
  table: string | undefined;
  widthPx: number;
  heightPx: number;
  out: string;
  lens: string | undefined;
  anchorsFrame: string | undefined;
  maxResidualPx: number;
}

function parseArgs(args: string[]): ProjectorArgs {
  const parsed: ProjectorArgs = {
    frame: undefined, table: undefined, widthPx: 1920, heightPx: 1080, out: 'calibration/projector/projector.json', lens: undefined, anchorsFrame: undefined, maxResidualPx: 2,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new CliError(`${a} needs a value (see muster calibrate projector --help)`);
      return v;
    };
    if (a === '--frame') parsed.frame = value();
    else if (a === '--table') parsed.table = value();
    else if (a === '--out') parsed.out = value();
    else if (a === '--lens') parsed.lens = value();
    else if (a === '--anchors-frame') parsed.anchorsFrame = value();
    else if (a === '--projector-size') {
      const v = value();
      const m = /^(\d+)x(\d+)$/i.exec(v);
      const w = Number(m?.[1]);
      const h = Number(m?.[2]);
      if (!m || w < MIN_PROJECTOR_SIZE_PX.widthPx || h < MIN_PROJECTOR_SIZE_PX.heightPx) {
        throw new CliError(`--projector-size must be WIDTHxHEIGHT in pixels, at least ${MIN_PROJECTOR_SIZE_PX.widthPx}x${MIN_PROJECTOR_SIZE_PX.heightPx} (got "${v}")`);
      }
      parsed.widthPx = w;
      parsed.heightPx = h;
    } else if (a === '--max-residual-px') {
      const v = value();
      parsed.maxResidualPx = Number(v);
      if (!(parsed.maxResidualPx > 0) || !Number.isFinite(parsed.maxResidualPx)) throw new CliError(`--max-residual-px must be a positive number (got "${v}")`);
    } else throw new CliError(`unknown option "${a}" (see muster calibrate projector --help)`);
  }
  return parsed;
}

export async function runProjector(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(PROJECTOR_USAGE);
    return 0;
  }
  const opts = parseArgs(args);
  if (opts.frame === undefined) throw new CliError('--frame is required: the camera photo of the projected pattern');
  if (opts.table === undefined) throw new CliError('--table is required: the table profile whose anchors are in the photo');
  let profile: TableProfile;
  let lens: LensModel | undefined;
  try {
    profile = loadTableProfile(opts.table);
    if (opts.lens !== undefined) lens = loadLensModel(opts.lens);
  } catch (err) {
    if (err instanceof TableProfileError || err instanceof Error) throw new CliError(err.message);
    throw err;
  }
  let frame;
  let anchorsFrame;
  try {
    frame = await loadGrayImage(opts.frame);
    if (opts.anchorsFrame !== undefined) anchorsFrame = await loadGrayImage(opts.anchorsFrame);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const cv = await loadCv();
  let result;
  try {
    result = await calibrateProjector(cv, profile, frame, {
      projectorWidthPx: opts.widthPx,
      projectorHeightPx: opts.heightPx,
      maxRmsProjectorPx: opts.maxResidualPx,
      ...(lens ? { lens } : {}),
      ...(anchorsFrame ? { anchorsFrame } : {}),
    });
  } catch (err) {
    if (err instanceof ProjectorCalibrationInputError) throw new CliError(`${opts.frame}: ${err.message}`);
    throw err;
  }
  const json = projectorCalibrationJson(result, {
    createdAt: new Date().toISOString(),
    projectorWidthPx: opts.widthPx,
    projectorHeightPx: opts.heightPx,
    cameraWidthPx: frame.widthPx,
    cameraHeightPx: frame.heightPx,
    profile,
    lens: opts.lens ?? null,
  });
  writeFileAtomic(opts.out, `${JSON.stringify(json, null, 2)}\n`);
  const r = json.residuals;
  console.log(
    [
      `saved ${opts.out}`,
      `projector    ${opts.widthPx}×${opts.heightPx} px; camera ${frame.widthPx}×${frame.heightPx} px${opts.lens ? ` (lens ${opts.lens})` : ''}`,
      `tags         ${json.pattern.tagsSeen} of ${json.pattern.tagsShown} seen, ${json.pattern.cornersUsed} of ${json.pattern.cornersSeen} corners used` +
        (result.fit.ignoredIds.length ? `; ignored ids ${result.fit.ignoredIds.join(', ')}` : ''),
      `residual     RMS ${r.rmsProjectorPx.toFixed(2)} px (max ${r.maxProjectorPx.toFixed(2)}) = RMS ${r.rmsTableIn.toFixed(3)} in (max ${r.maxTableIn.toFixed(3)}) on the table`,
      `anchors      ${result.anchorIds.join(', ')}${r.anchorRmsIn !== null ? `, RMS ${r.anchorRmsIn.toFixed(3)} in` : ''}`,
      `use it:      npm start -- --camera … --projector ${opts.out}`,
    ].join('\n'),
  );
  return 0;
}
