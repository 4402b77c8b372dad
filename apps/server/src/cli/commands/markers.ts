/**
 * `muster markers --roster army.yaml --out tags.pdf` prints every tag at true size with its label and a
 * cutting outline, the table's anchors and the ChArUco calibration board, with scale bars on each page.
 */
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { loadTableProfile, type TableProfile } from '@muster/vision';
import { loadRoster } from '../../roster/loadRoster.ts';
import type { Roster } from '../../roster/roster.ts';
import { CliError } from '../cliError.ts';

export const summary = 'print tags, anchors and the calibration board at true size (PDF or SVG)';

const DEFAULT_TABLE = join(dirname(fileURLToPath(import.meta.url)), '../../../../../calibration/tables/default-72x48.json');

const USAGE = `usage: muster markers --out <tags.pdf | tags.svg> [options]

  --roster <file>   army file (YAML or JSON); one tag per stand, commander and status token
  --table <file>    table profile: dictionary, tag size, anchors (default calibration/tables/default-72x48.json)
  --paper <name>    letter (default) or a4
  --board <file>    ChArUco board definition to print (default calibration/boards/charuco-5x7.json layout)
  --no-anchors      leave out the anchor tags
  --no-board        leave out the calibration board page
  --out <file>      .pdf (one document) or .svg (one file per page: name.svg, name-2.svg, ...)

Print at 100% ("actual size"); check the 1 inch and 50 mm bars on each page with a ruler.`;

interface MarkersArgs {
  roster?: string;
  table: string;
  paper: PaperName;
  board?: string;
  anchors: boolean;
  boardPage: boolean;
  out?: string;
}

function parseArgs(args: string[]): MarkersArgs {
  const a: MarkersArgs = { table: DEFAULT_TABLE, paper: 'letter', anchors: true, boardPage: true };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] as string;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new CliError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--roster') a.roster = value();
    else if (flag === '--table') a.table = value();
    else if (flag === '--paper') {
      const p = value().toLowerCase();
      if (p !== 'letter' && p !== 'a4') throw new CliError(`--paper must be letter or a4 (got "${p}")`);
      a.paper = p;
    } else if (flag === '--board') a.board = value();
    else if (flag === '--no-anchors') a.anchors = false;
    else if (flag === '--no-board') a.boardPage = false;
    else if (flag === '--out') a.out = value();
    else throw new CliError(`unknown option "${flag}" (see muster markers --help)`);
  }
  return a;
}

/** Pages as files: the SVG path for page i (1-based). */
export function svgPagePath(out: string, page: number): string {
  if (page === 1) return out;
  const ext = extname(out);
  return `${out.slice(0, out.length - ext.length)}-${page}${ext}`;
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const opts = parseArgs(args);
  if (opts.out === undefined) throw new CliError(`--out is required\n${USAGE}`);
  const format = extname(opts.out).toLowerCase();
  if (format !== '.pdf' && format !== '.svg') throw new CliError(`--out must end in .pdf or .svg (got "${opts.out}")`);

  let profile: TableProfile;
  let roster: Roster | undefined;
  let board: CharucoBoardSpec = DEFAULT_CHARUCO_BOARD;
  try {
    profile = loadTableProfile(opts.table);
    if (opts.roster !== undefined) roster = await loadRoster(opts.roster);
    if (opts.board !== undefined) board = loadCharucoBoardSpec(opts.board);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (!roster && !opts.anchors && !opts.boardPage) throw new CliError('nothing to print: give --roster, or keep the anchors or the board');

  const cv = await loadCv();
  let items: TagItem[];
  let sheets: Sheet[];
  try {
    items = [...(roster ? rosterTagItems(cv, roster, profile) : []), ...(opts.anchors ? anchorTagItems(cv, profile) : [])];
    sheets = items.length > 0 ? layoutTagSheets(items, opts.paper) : [];
    if (opts.boardPage) sheets.push(charucoBoardSheet(cv, board, opts.paper));
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const title = roster ? `Muster tags: ${roster.name}` : 'Muster tags';
  sheets = addPageHeaders(sheets, title);

  const written: string[] = [];
  if (format === '.pdf') {
    writeFileAtomic(opts.out, renderPdf(sheets, title));
    written.push(opts.out);
  } else {
    sheets.forEach((s, i) => {
      const path = svgPagePath(opts.out as string, i + 1);
      writeFileAtomic(path, renderSvg(s));
      written.push(path);
    });
  }
  console.log(`${items.length} tags on ${sheets.length} ${opts.paper} page(s)${opts.boardPage ? ' (last: calibration board)' : ''}: ${written.join(', ')}`);
  return 0;
}
