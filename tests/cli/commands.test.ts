/**
 * The `muster` command as a user runs it (`node apps/server/bin/muster.js …`, a real process): every
 * command answers --help on stdout with exit 0 and an unknown option with the same one-line message on
 * stderr and exit 2; --opt=value works for every command; --version; warnings and progress on stderr;
 * colour only when asked for; the README's first step (markers with the example roster).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { commandNames } from '../../apps/server/src/cli/main.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { rosterTagIds } from '../../apps/server/src/roster/roster.ts';
import { tempDir } from '../service/helpers.ts';
import { muster, REPO_ROOT as root } from './runMuster.ts';

const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const dir = tempDir('muster-cli-');
afterAll(() => dir.remove());

const VIDEO = 'fixtures/video/stands-moving.mp4';
const CLIP_TABLE = 'fixtures/video/clip-table.json';

/** Every command, and the subcommands of calibrate, as typed after `muster`. */
const COMMAND_LINES = [...commandNames().filter((n) => n !== 'calibrate'), 'calibrate lens', 'calibrate undistort', 'calibrate projector'];

describe.concurrent('every command', () => {
  it.each(COMMAND_LINES)('%s --help: the usage on stdout, exit 0', async (line) => {
    const r = await muster([...line.split(' '), '--help']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^usage: muster ${line}`));
    expect(r.stdout).toContain('-h, --help');
  });

  it.each(COMMAND_LINES)('%s --no-such-option: one line on stderr naming the valid options, exit 2', async (line) => {
    const r = await muster([...line.split(' '), '--no-such-option']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const command = line.split(' ')[0]!;
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^muster ${command}: unknown option --no-such-option; valid options: --.*, -h/--help, --version \\(muster ${line} --help\\)$`)),
    ]);
  });

  it('calibrate --help lists the three subcommands; calibrate alone says which exist, exit 2', async () => {
    const help = await muster(['calibrate', '-h']);
    expect(help.code).toBe(0);
    for (const sub of ['lens', 'undistort', 'projector']) expect(help.stdout).toMatch(new RegExp(`^usage: muster calibrate ${sub} `, 'm'));
    const bare = await muster(['calibrate']);
    expect(bare.code).toBe(2);
    expect(bare.stderr.trim()).toBe('muster calibrate: which calibration? muster calibrate lens|undistort|projector (muster calibrate --help)');
  });
});

describe.concurrent('the top level', () => {
  it('--version prints the package version, also after a command', async () => {
    for (const args of [['--version'], ['track', '--version'], ['rules', '--version']]) {
      const r = await muster(args);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, `muster ${version}\n`, '']);
    }
  });

  it('--help and help on stdout with exit 0; nothing at all: the same usage on stderr with exit 2', async () => {
    const help = await muster(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: muster <command>/);
    for (const name of commandNames()) expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    const bare = await muster([]);
    expect([bare.code, bare.stdout, bare.stderr]).toEqual([2, '', help.stdout]);
    const helpTrack = await muster(['help', 'track']);
    const trackHelp = await muster(['track', '--help']);
    expect(helpTrack.code).toBe(0);
    expect(helpTrack.stdout).toBe(trackHelp.stdout);
  });

  it('an unknown command or option: one line, a suggestion, exit 2', async () => {
    const r = await muster(['trak']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^muster: unknown command "trak" \(did you mean track\?\); commands: .*\n$/);
    const o = await muster(['--verbose']);
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/^muster: unknown option --verbose; valid options: --version, -h\/--help/);
  });
});

describe.concurrent('--opt=value works for every command', () => {
  it('track', async () => {
    const r = await muster(['track', VIDEO, `--table=${CLIP_TABLE}`, '--fps=20', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const last = JSON.parse(r.stdout.trimEnd().split('\n').at(-1)!) as { summary: boolean; frames: number; tracks: number };
    expect(last).toMatchObject({ summary: true, frames: 60, tracks: 4 });
    // the value was taken: a bad one is refused by name
    expect((await muster(['track', VIDEO, `--table=${CLIP_TABLE}`, '--fps=fast'])).stderr).toMatch(/^muster track: --fps must be a number > 0 \(got "fast"\)/);
  });

  it('detect', async () => {
    const r = await muster(['detect', 'no-such.png', `--table=${join(dir.path, 'nope.json')}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nope\.json: cannot read the table profile/);
    const m = await muster(['detect', 'no-such.png', '--max-megapixels=0']);
    expect(m.stderr).toMatch(/--max-megapixels must be a number > 0 \(got "0"\)/);
  });

  it('markers', async () => {
    const out = join(dir.path, 'opt.svg');
    const r = await muster(['markers', `--out=${out}`, '--paper=a4', '--no-board', `--table=${CLIP_TABLE}`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^4 tags on 1 a4 page\(s\): .*opt\.svg\n$/);
    expect(readFileSync(out, 'utf8')).toContain('width="8.267717in" height="11.692913in"'); // A4
  });

  it('rules', async () => {
    const scene = 'fixtures/rules/in/charge.json';
    const r = await muster(['rules', scene, '--ruleset=devil-to-pay', '--unit=assault']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^15th Alabama \(assault\)/);
    const p = await muster(['rules', '--params=devil-to-pay']);
    expect(p.code).toBe(0);
    expect(p.stdout).toMatch(/\(devil-to-pay\)/);
  });

  it('calibrate lens, undistort and projector', async () => {
    const lens = await muster(['calibrate', 'lens', `--images=${dir.path}/none`, '--min-views=0']);
    expect(lens.stderr).toMatch(/^muster calibrate: --min-views must be a whole number >= 1 \(got "0"\)/);
    const und = await muster(['calibrate', 'undistort', `--lens=${dir.path}/nope.json`, '--image=x.png', '--out=y.png']);
    expect(und.code).toBe(2);
    expect(und.stderr).toMatch(/nope\.json/);
    const proj = await muster(['calibrate', 'projector', '--frame=x.png', `--table=${CLIP_TABLE}`, '--projector-size=1920']);
    expect(proj.stderr).toMatch(/--projector-size must be WIDTHxHEIGHT in pixels, at least .* \(got "1920"\)/);
  });

  it('start', async () => {
    // Refused before anything opens, so the value was read: a negative one only goes inline.
    const port = await muster(['start', '--port=-1', '--no-build']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--port must be an integer 0\.\.65535, got "-1"/);
    const src = await muster(['start', '--demo-source=bogus', '--no-build']);
    expect(src.stderr).toMatch(/--demo-source must be truth or frames, got "bogus"/);
  });
});

describe.concurrent('output', () => {
  it('detect: the table on stdout, its warnings on stderr', async () => {
    const blank = join(dir.path, 'blank.png');
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#808080' } }).png().toFile(blank);
    const r = await muster(['detect', blank]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/0 stand tag\(s\), anchors none of 0, 1, 2, 3/);
    expect(r.stdout).not.toMatch(/warning/);
    expect(r.stderr).toMatch(/^warning: 0 of 4 anchors seen/);
  });

  it('track --progress --json: progress with the time left on stderr, only JSON lines on stdout', async () => {
    const r = await muster(['track', VIDEO, '--table', CLIP_TABLE, '--json', '--progress']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(61);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    const progress = r.stderr.trimEnd().split('\n');
    expect(progress.at(-1)).toMatch(/^track {2}60\/60 frames {2}100% {2}[\d.]+ frames\/s {2}done in \d+:\d\d$/);
    for (const l of progress.slice(0, -1)) expect(l).toMatch(/^track {2}\d+\/60 frames {2}\d+% {2}[\d.]+ frames\/s {2}ETA \d+:\d\d$/);
    // Off a terminal and without --progress: nothing on stderr (tests/tracking/trackCommand.test.ts too).
  });

  it('calibrate lens --progress: the photos read, on stderr', async () => {
    const photos = join(dir.path, 'photos');
    await sharp({ create: { width: 320, height: 240, channels: 3, background: '#c8c8c8' } }).png().toFile(join(dir.path, 'p.png'));
    mkdirSync(photos, { recursive: true });
    for (const n of ['a.png', 'b.png']) copyFileSync(join(dir.path, 'p.png'), join(photos, n));
    const r = await muster(['calibrate', 'lens', '--images', photos, '--progress', '--out', join(dir.path, 'lens.json')]);
    expect(r.code).toBe(2); // blank photos: no board, refused after reading them
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^calibrate lens: reading photos {2}2\/2 photos {2}100% {2}[\d.]+ photos\/s {2}done in \d+:\d\d$/m);
    expect(existsSync(join(dir.path, 'lens.json'))).toBe(false);
  });

  it('errors are red only when colour is asked for (a pipe gets none; NO_COLOR: tests/cli/progress.test.ts)', async () => {
    const plain = await muster(['trak']);
    expect(plain.stderr).not.toContain('\x1b[');
    const forced = await muster(['trak'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stderr).toMatch(/^\x1b\[31mmuster\x1b\[39m: unknown command/);
  });
});

describe('the README\'s first step: muster markers --roster fixtures/rosters/opening-battle.yaml', () => {
  const roster = join(root, 'fixtures/rosters/opening-battle.yaml');

  it('prints with the profile whose dictionary holds the roster and says which, for start --camera', async () => {
    const cwd = join(dir.path, 'readme');
    mkdirSync(cwd);
    const r = await muster(['markers', '--roster', roster], { cwd });
    expect(r.code).toBe(0);
    const ids = rosterTagIds(await loadRoster(roster));
    expect(Math.max(...ids)).toBeGreaterThan(49); // beyond the default DICT_4X4_50
    expect(r.stdout).toBe(`${ids.length + 4} tags on 4 letter page(s) (last: calibration board): tags.pdf\n`); // 3 pages of tags (a line for the unit type under each), then the board
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/tags 50, 51, .* are not in DICT_4X4_50 .*calibration\/tables\/large-72x48\.json \(DICT_4X4_250\): give start --camera and track the same --table/),
    ]);
    expect(readFileSync(join(cwd, 'tags.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('with a --table that cannot hold it: exit 2 naming the --table that can, nothing written', async () => {
    const out = join(dir.path, 'refused.pdf');
    const r = await muster(['markers', '--roster', roster, '--table', 'calibration/tables/default-72x48.json', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^muster markers: .*opening-battle\.yaml: tags 50, 51, .* cannot be stands on calibration\/tables\/default-72x48\.json \(DICT_4X4_50, ids 0-49, anchors 0, 1, 2, 3\); use --table calibration\/tables\/large-72x48\.json \(DICT_4X4_250\)/),
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
