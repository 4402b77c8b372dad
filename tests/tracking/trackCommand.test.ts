/**
 * `muster track` end to end: the real CLI process, V1's detector (opencv.js), the ffmpeg video source and
 * the tracker, over the committed synthetic clip (`fixtures/video/stands-moving.mp4`, rendered by
 * `fixtures/video/renderStandsClip.ts` with exact truth). Asserts table-inch error against the truth,
 * the occlusion hold, and that a stand lifted and put down elsewhere stays one track.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP_FPS, CLIP_FRAMES, clipPoses, type ClipTruth } from '../../fixtures/video/renderStandsClip.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'apps/server/bin/muster.js');
const clip = join(root, 'fixtures/video/stands-moving.mp4');
const table = join(root, 'fixtures/video/clip-table.json');

interface Marker { id: number; x: number; y: number; heading: number; corners: [number, number][]; track: number; stale: boolean }
interface FrameLine { frame: number; ms: number; markers: Marker[] }
interface Summary { summary: true; frames: number; medianMs: number; tracks: number; duplicateIds: number[]; unknownIds: number[] }

function muster(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function parse(stdout: string): { frames: FrameLine[]; summary: Summary } {
  const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as FrameLine | Summary);
  const summary = lines.pop() as Summary;
  return { frames: lines as FrameLine[], summary };
}

const angleErr = (a: number, b: number): number => Math.abs(((a - b + 540) % 360) - 180);

let dir: string;
let truth: ClipTruth;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'muster-track-'));
  truth = JSON.parse(await readFile(clip.replace(/\.mp4$/, '.truth.json'), 'utf8')) as ClipTruth;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('muster track on the synthetic clip', () => {
  let frames: FrameLine[];
  let summary: Summary;

  beforeAll(async () => {
    const r = await muster(['track', clip, '--table', table, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    ({ frames, summary } = parse(r.stdout));
  }, 120_000);

  it('prints one line per frame and a summary with the median time', () => {
    expect(frames.map((f) => f.frame)).toEqual(truth.frames.map((f) => f.seq));
    expect(summary).toMatchObject({ summary: true, frames: truth.frames.length, tracks: 4, duplicateIds: [], unknownIds: [] });
    const ms = frames.map((f) => f.ms).sort((a, b) => a - b);
    expect(summary.medianMs).toBeCloseTo((ms[29]! + ms[30]!) / 2, 1);
    for (const m of frames[0]!.markers) expect(m.corners).toHaveLength(4);
  });

  it('puts every visible stand where the truth says, in table inches', () => {
    const worst = new Map<number, { posIn: number; headingDeg: number }>();
    for (const [i, f] of frames.entries()) {
      for (const t of truth.frames[i]!.tags) {
        if (!t.visible) continue;
        const m = f.markers.find((x) => x.id === t.id);
        expect(m, `tag ${t.id} in frame ${i}`).toBeDefined();
        expect(m!.stale).toBe(false);
        const w = worst.get(t.id) ?? { posIn: 0, headingDeg: 0 };
        worst.set(t.id, {
          posIn: Math.max(w.posIn, Math.hypot(m!.x - t.xIn, m!.y - t.yIn)),
          headingDeg: Math.max(w.headingDeg, angleErr(m!.heading, t.headingDeg)),
        });
      }
    }
    // Still stands: well under a tenth of an inch and a degree.
    for (const id of [10, 13]) {
      expect(worst.get(id)!.posIn).toBeLessThan(0.05);
      expect(worst.get(id)!.headingDeg).toBeLessThan(1);
    }
    // Pushed at 2 in/s: the smoothing may trail a little, not more.
    expect(worst.get(11)!.posIn).toBeLessThan(0.25);
    // Turning 40°/s through 0°/360°: a few degrees of lag at most, never a 180° flip.
    expect(worst.get(12)!.posIn).toBeLessThan(0.05);
    expect(worst.get(12)!.headingDeg).toBeLessThan(5);
  });

  it('keeps a lifted stand as one track and places it at once where it is put down', () => {
    const { liftedAt, placedAt } = truth.liftFrames;
    const t13 = frames.map((f) => f.markers.find((m) => m.id === 13)!);
    expect(new Set(t13.map((m) => m.track)).size).toBe(1);
    const before = t13[liftedAt - 1]!;
    for (let i = liftedAt; i < placedAt; i++) {
      expect(t13[i]!.stale).toBe(true);
      expect([t13[i]!.x, t13[i]!.y]).toEqual([before.x, before.y]);
    }
    const placed = truth.frames[placedAt]!.tags.find((t) => t.id === 13)!;
    expect(Math.hypot(placed.xIn - before.x, placed.yIn - before.y)).toBeGreaterThan(5);
    expect(Math.hypot(t13[placedAt]!.x - placed.xIn, t13[placedAt]!.y - placed.yIn)).toBeLessThan(0.05);
    expect(angleErr(t13[placedAt]!.heading, placed.headingDeg)).toBeLessThan(1);
  });

  it('holds a stand covered by a hand, stale, on the same track', () => {
    const { from, to } = truth.coveredFrames;
    const t10 = frames.map((f) => f.markers.find((m) => m.id === 10)!);
    expect(new Set(t10.map((m) => m.track)).size).toBe(1);
    expect(t10.slice(from, to).every((m) => m.stale)).toBe(true);
    expect(t10.slice(0, from).some((m) => m.stale)).toBe(false);
    expect(t10[to]!.stale).toBe(false);
  });
});

describe('the committed clip', () => {
  it('matches its script (regenerate with node --import tsx fixtures/video/renderStandsClip.ts)', () => {
    expect(truth.fps).toBe(CLIP_FPS);
    expect(truth.frames).toHaveLength(CLIP_FRAMES);
    for (const f of truth.frames) {
      const script = clipPoses(f.seq);
      expect(f.tags.map((t) => [t.id, t.visible])).toEqual(script.map((t) => [t.id, t.visible]));
      f.tags.forEach((t, k) => {
        expect(t.xIn).toBeCloseTo(script[k]!.xIn, 9);
        expect(t.yIn).toBeCloseTo(script[k]!.yIn, 9);
        expect(angleErr(t.headingDeg, script[k]!.headingDeg)).toBeLessThan(1e-9);
      });
    }
  });
});

describe('muster track on a folder of frames', () => {
  it('reads frames in name order at --fps and finds the same stands', async () => {
    const folder = join(dir, 'frames');
    execFileSync('mkdir', ['-p', folder]);
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', clip, '-frames:v', '12', join(folder, 'f%d.png')]);
    const r = await muster(['track', folder, '--table', table, '--fps', String(CLIP_FPS), '--json']);
    expect(r.stderr).toBe('');
    const { frames, summary } = parse(r.stdout);
    expect(summary.frames).toBe(12);
    // f1..f12 sorted numerically (f10 after f9): the pushed stand's x grows every frame.
    const xs = frames.map((f) => f.markers.find((m) => m.id === 11)!.x);
    expect(xs.every((x, i) => i === 0 || x > xs[i - 1]!)).toBe(true);
    for (const [i, f] of frames.entries()) {
      for (const t of truth.frames[i]!.tags) {
        const m = f.markers.find((x) => x.id === t.id)!;
        expect(Math.hypot(m.x - t.xIn, m.y - t.yIn)).toBeLessThan(0.25);
      }
    }
  }, 120_000);
});

describe('muster track with a roster', () => {
  it('makes a tag outside the roster persist before it counts, and reports it', async () => {
    const roster = join(dir, 'three.yaml');
    await writeFile(roster, `version: 1
units:
  - id: a
    name: Alpha
    side: blue
    arm: infantry
    quality: veteran
    weapon: rifled-musket
    independent: true
    stands: [{ tag: 10 }, { tag: 11 }, { tag: 12 }]
`);
    const r = await muster(['track', clip, '--table', table, '--roster', roster, '--json']);
    // Warnings go to stderr, once, when they start (stdout keeps only the JSON lines).
    expect(r.stderr).toBe('warning: frame 10: tag 13 is not in the roster; tracking it as unknown\n');
    const { frames, summary } = parse(r.stdout);
    expect(summary.unknownIds).toEqual([13]);
    const firstWith13 = frames.findIndex((f) => f.markers.some((m) => m.id === 13));
    // Default persistence: 10 sightings spanning 500 ms at 20 fps → the 11th frame (index 10).
    expect(firstWith13).toBe(10);
    expect(frames[0]!.markers.map((m) => m.id)).toEqual([10, 11, 12]);
  }, 120_000);
});

describe.concurrent('muster track bad input', () => {
  it.each([
    ['a missing recording', ['track', 'nowhere/clip.mp4', '--table', 'fixtures/video/clip-table.json'], /muster track: nowhere\/clip\.mp4: no such file, folder or device/],
    ['no --table', ['track', 'fixtures/video/stands-moving.mp4'], /--table <profile\.json> is required/],
    ['a bad profile', ['track', 'fixtures/video/stands-moving.mp4', '--table', 'fixtures/video/stands-moving.truth.json'], /stands-moving\.truth\.json: width must be a positive number/],
    ['an unknown option', ['track', 'fixtures/video/stands-moving.mp4', '--tabel', 'x'], /unknown option --tabel/],
    ['a bad --fps', ['track', 'fixtures/video', '--table', 'fixtures/video/clip-table.json', '--fps', 'fast'], /--fps must be a number > 0/],
    ['a roster the dictionary cannot hold', ['track', 'fixtures/video/stands-moving.mp4', '--table', 'fixtures/video/clip-table.json', '--roster', 'fixtures/rosters/opening-battle.yaml'], /opening-battle\.yaml: tags 50, 51, .* cannot be stands on .*clip-table\.json \(DICT_4X4_50/],
    ['a live camera', ['track', '/dev/video0', '--table', 'fixtures/video/clip-table.json'], /track reads a recording .* not a webcam/],
    ['a file that is not a video', ['track', 'fixtures/video/clip-table.json', '--table', 'fixtures/video/clip-table.json'], /clip-table\.json: ffmpeg exited with code/],
  ])('rejects %s with one line on stderr and exit code 2', async (_name, args, message) => {
    const r = await muster(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  }, 60_000);
});
