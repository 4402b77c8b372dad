/**
 * `muster markers --roster army.yaml --out tags.pdf` prints every tag at true size with its label and a
 * cutting outline, the table's anchors and the ChArUco calibration board, with scale bars on each page.
 */
import { extname } from 'node:path';
import { DEFAULT_CHARUCO_BOARD, loadCharucoBoardSpec, type CharucoBoardSpec } from '@muster/vision';
import { writeFileAtomic } from '../../persist/writeFileAtomic.ts';
import { loadCv } from '@muster/vision';
import { charucoBoardSheet } from '@muster/vision';
import { anchorTagItems } from '@muster/vision';
import { rosterTagItems } from '../../roster/rosterTagItems.ts';
import { addPageHeaders, layoutTagSheets, type TagItem } from '@muster/vision';
import { renderPdf } from '@muster/vision';
import { renderSvg } from '@muster/vision';
import type { PaperName, Sheet } from '@muster/vision';
import { inchesLabel, loadTableProfile, MIN_RELIABLE_TAG_SIDE_PX, tagSizeAdvice, type TableProfile } from '@muster/vision';
import { loadRoster } from '../../roster/loadRoster.ts';
import { rosterTagIds, type Roster } from '../../roster/roster.ts';
import { CliError } from '../cliError.ts';
import { parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { DEFAULT_TABLE_PATH, idList, rosterDoesNotFit, shippedTableFor, shownPath, tagsNotStands } from '../tableForRoster.ts';

const SPEC = {
  command: 'markers',
  synopsis: ['[--roster <army.yaml>] [--table <profile.json>] [--out <tags.pdf | tags.svg>] [options]'],
  options: {
    roster: { type: 'string', arg: '<file>', help: 'army file (YAML or JSON); one tag per stand, commander and status token' },
    table: {
      type: 'string',
      arg: '<file>',
      help:
        'table profile: dictionary, tag size, anchors. Default calibration/tables/default-72x48.json\n' +
        '(DICT_4X4_50), or, when the roster has ids it cannot hold, the smallest profile in\n' +
        'calibration/tables/ that holds them (it says which: start --camera needs the same one)',
    },
    camera: {
      type: 'string',
      arg: '<WxH>',
      help:
        "the camera's resolution (1920x1080, 1080p, 4k): says how many pixels a tag will be and the tag\n" +
        'size to print; refuses tags too small to be read (below 16 px) and names the size to set',
    },
    paper: { type: 'string', arg: '<name>', help: 'letter (default) or a4' },
    board: { type: 'string', arg: '<file>', help: 'ChArUco board definition to print (default calibration/boards/charuco-5x7.json layout)' },
    'no-anchors': { type: 'boolean', help: 'leave out the anchor tags' },
    'no-board': { type: 'boolean', help: 'leave out the calibration board page' },
    out: { type: 'string', arg: '<file>', help: '.pdf (one document) or .svg (one file per page: name.svg, name-2.svg, ...);\ndefault tags.pdf in the current directory' },
  },
  notes: 'Print at 100% ("actual size"); check the 1 inch and 50 mm bars on each page with a ruler.',
} as const satisfies CommandSpec;

/**
 * The profile to print with: `--table` as given (refused, naming one that fits, when it cannot hold the
 * roster's tags), else the default, else the smallest shipped profile holding the roster, said on stderr
 * because the same profile must then go to `start --camera --table`.
 */
function pickTable(tablePath: string | undefined, rosterPath: string | undefined, roster: Roster | undefined): { profile: TableProfile; path: string } {
  const load = (path: string): TableProfile => {
    try {
      return loadTableProfile(path);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  };
  const ids = roster ? rosterTagIds(roster) : [];
  const path = tablePath ?? DEFAULT_TABLE_PATH;
  const profile = load(path);
  if (tagsNotStands(profile, ids).length === 0) return { profile, path };
  const shown = tablePath ?? shownPath(DEFAULT_TABLE_PATH);
  if (tablePath !== undefined) throw new CliError(rosterDoesNotFit(rosterPath ?? 'the roster', shown, profile, ids));
  const fit = shippedTableFor(ids);
  if (fit === undefined) throw new CliError(rosterDoesNotFit(rosterPath ?? 'the roster', shown, profile, ids));
  const beyond = tagsNotStands(profile, ids);
  process.stderr.write(
    `muster markers: tags ${idList(beyond)} are not in ${profile.dictionary} (the default table profile); printing with ` +
      `${shownPath(fit.path)} (${fit.profile.dictionary}): give start --camera and track the same --table, or base your table profile on it\n`,
  );
  return { profile: fit.profile, path: fit.path };
}

/** `1920x1080`, `1080p`, `720p`, `1440p`, `4k`/`2160p` → pixels. */
export function parseResolution(text: string): { widthPx: number; heightPx: number } {
  const named: Record<string, [number, number]> = { '720p': [1280, 720], '1080p': [1920, 1080], '1440p': [2560, 1440], '2160p': [3840, 2160], '4k': [3840, 2160] };
  const n = named[text.toLowerCase()];
  if (n) return { widthPx: n[0], heightPx: n[1] };
  const m = /^(\d+)x(\d+)$/i.exec(text);
  if (!m || Number(m[1]) < 160 || Number(m[2]) < 120) throw new CliError(`--camera must be a resolution like 1920x1080, 1080p or 4k (got "${text}")`);
  return { widthPx: Number(m[1]), heightPx: Number(m[2]) };
}

/**
 * With the camera's resolution: the tag side in pixels with the table filling the frame (a camera
 * straight overhead; a tilted one sees its far side smaller: \`muster detect\` then measures it), the
 * advised size, and a refusal when the profile's tags would be too small to read.
 */
function checkTagSizeForCamera(profile: TableProfile, tablePath: string, camera: string): void {
  const res = parseResolution(camera);
  const advice = tagSizeAdvice(profile, profile.markerSizeIn, res);
  const view = `${res.widthPx}x${res.heightPx} over the ${profile.widthIn}x${profile.heightIn}" table`;
  const advised = advice.advisedSizeIn === null ? 'no tag up to 2" is big enough: use a higher resolution or a closer camera' : `${inchesLabel(advice.advisedSizeIn)} tags, about ${Math.round(advice.advisedSidePx!)} px across`;
  if (!advice.reliable) {
    throw new CliError(
      `${inchesLabel(profile.markerSizeIn)} tags (${shownPath(tablePath)}) would be ${Math.round(advice.minSidePx)} px across at ${view}; ` +
        `below ${MIN_RELIABLE_TAG_SIDE_PX} px many are missed. Advised: ${advised}` +
        (advice.advisedSizeIn === null ? '' : `: copy the table profile, set "markerSize": ${advice.advisedSizeIn} and give it with --table (and to start/track)`),
    );
  }
  console.log(`${view}: ${inchesLabel(profile.markerSizeIn)} tags are about ${Math.round(advice.minSidePx)} px across (read reliably from ${MIN_RELIABLE_TAG_SIDE_PX} px; advised for this camera: ${advised})`);
}

/** Pages as files: the SVG path for page i (1-based). */
export function svgPagePath(out: string, page: number): string {
  if (page === 1) return out;
  const ext = extname(out);
  return `${out.slice(0, out.length - ext.length)}-${page}${ext}`;
}

export async function run(args: string[]): Promise<number> {
  const { values: v } = parseCommandArgs(SPEC, args);
  const out = v.out ?? 'tags.pdf';
  const format = extname(out).toLowerCase();
  if (format !== '.pdf' && format !== '.svg') throw new CliError(`--out must end in .pdf or .svg (got "${out}")`);
  const paperName = (v.paper ?? 'letter').toLowerCase();
  if (paperName !== 'letter' && paperName !== 'a4') throw new CliError(`--paper must be letter or a4 (got "${v.paper}")`);
  const paper: PaperName = paperName;
  const opts = { anchors: !v['no-anchors'], boardPage: !v['no-board'] };

  let roster: Roster | undefined;
  let board: CharucoBoardSpec = DEFAULT_CHARUCO_BOARD;
  try {
    if (v.roster !== undefined) roster = await loadRoster(v.roster);
    if (v.board !== undefined) board = loadCharucoBoardSpec(v.board);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const { profile, path: tablePath } = pickTable(v.table, v.roster, roster);
  if (v.camera !== undefined) checkTagSizeForCamera(profile, tablePath, v.camera);
  if (!roster && !opts.anchors && !opts.boardPage) throw new CliError('nothing to print: give --roster, or keep the anchors or the board');

  const cv = await loadCv();
  let items: TagItem[];
  let sheets: Sheet[];
  try {
    items = [...(roster ? rosterTagItems(cv, roster, profile) : []), ...(opts.anchors ? anchorTagItems(cv, profile) : [])];
    sheets = items.length > 0 ? layoutTagSheets(items, paper) : [];
    if (opts.boardPage) sheets.push(charucoBoardSheet(cv, board, paper));
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const title = roster ? `Muster tags: ${roster.name}` : 'Muster tags';
  sheets = addPageHeaders(sheets, title);

  const written: string[] = [];
  if (format === '.pdf') {
    writeFileAtomic(out, renderPdf(sheets, title));
    written.push(out);
  } else {
    sheets.forEach((s, i) => {
      const path = svgPagePath(out, i + 1);
      writeFileAtomic(path, renderSvg(s));
      written.push(path);
    });
  }
  console.log(`${items.length} tags on ${sheets.length} ${paper} page(s)${opts.boardPage ? ' (last: calibration board)' : ''}: ${written.join(', ')}`);
  return 0;
}
