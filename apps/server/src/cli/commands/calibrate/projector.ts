/**
 * `muster calibrate projector --frame <photo> --table <profile.json> [--projector-size 1920x1080] [--out …]`:
 * the table → projector homography from one camera photo of the pattern that `projector.html?calibrate=1`
 * shows (see `calibrate/calibrateProjector.ts`). Lives in a sub-folder so the command list (one file per
 * command in `commands/`) does not show it as a command of its own; `calibrate.ts` dispatches here.
 */
import { CliError } from '../../cliError.ts';
import { numberValue, parseCommandArgs, type CommandSpec } from '../../commandArgs.ts';
import { loadTableProfile, TableProfileError, type TableProfile } from '@muster/vision';
import { loadLensModel, type LensModel } from '@muster/vision';
import { loadGrayImage } from '@muster/vision';
import { writeFileAtomic } from '../../../persist/writeFileAtomic.ts';
import { calibrateProjector, projectorCalibrationJson, ProjectorCalibrationInputError } from '@muster/vision';
import { MIN_PROJECTOR_SIZE_PX } from '@muster/table-mapping';
import { loadCv } from '@muster/vision';

export const PROJECTOR_SPEC = {
  command: 'calibrate projector',
  synopsis: ['--frame <photo> --table <profile.json> [options]'],
  options: {
    frame: { type: 'string', arg: '<file>', help: 'the camera photo of the projected pattern (PNG, JPEG, TIFF, WebP)' },
    table: { type: 'string', arg: '<file>', help: 'the table profile (its anchors tie the camera to the table)' },
    'projector-size': { type: 'string', arg: '<WxH>', help: "the projector's resolution, as the pattern page prints it (default 1920x1080)" },
    out: {
      type: 'string',
      arg: '<file>',
      help: 'where to save (default calibration/projector/projector.json); written\natomically, so a failed run keeps the previous file',
    },
    lens: { type: 'string', arg: '<file>', help: 'lens calibration of the camera (muster calibrate lens) for this resolution' },
    'anchors-frame': {
      type: 'string',
      arg: '<file>',
      help: 'a second photo, same camera, without the pattern, when the projection hides\nthe anchors in the first',
    },
    'max-residual-px': { type: 'string', arg: '<n>', help: 'refuse a fit whose RMS residual is above this, projector px (default 2)' },
  },
  notes:
    'Open /projector.html?calibrate=1 full-screen on the projector (it prints the size it draws at), take\n' +
    'one photo with the table camera showing the pattern and the table anchors, then run this.',
} as const satisfies CommandSpec;

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

function parseProjectorArgs(args: string[]): ProjectorArgs {
  const { values: v } = parseCommandArgs(PROJECTOR_SPEC, args);
  let widthPx = 1920;
  let heightPx = 1080;
  if (v['projector-size'] !== undefined) {
    const m = /^(\d+)x(\d+)$/i.exec(v['projector-size']);
    widthPx = Number(m?.[1]);
    heightPx = Number(m?.[2]);
    if (!m || widthPx < MIN_PROJECTOR_SIZE_PX.widthPx || heightPx < MIN_PROJECTOR_SIZE_PX.heightPx) {
      throw new CliError(
        `--projector-size must be WIDTHxHEIGHT in pixels, at least ${MIN_PROJECTOR_SIZE_PX.widthPx}x${MIN_PROJECTOR_SIZE_PX.heightPx} (got "${v['projector-size']}")`,
      );
    }
  }
  return {
    frame: v.frame,
    table: v.table,
    widthPx,
    heightPx,
    out: v.out ?? 'calibration/projector/projector.json',
    lens: v.lens,
    anchorsFrame: v['anchors-frame'],
    maxResidualPx: v['max-residual-px'] === undefined ? 2 : numberValue(v['max-residual-px'], '--max-residual-px', { above: 0 }),
  };
}

export async function runProjector(args: string[]): Promise<number> {
  const opts = parseProjectorArgs(args);
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
