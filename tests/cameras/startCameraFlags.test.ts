/**
 * `muster start --camera-size / --camera-fps / --camera-format`, run as a user runs it: bad values and
 * misplaced flags end the start with one line on stderr and exit code 2, and the help lists them.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { tempDir } from '../service/helpers.ts';

const MUSTER = join(REPO_ROOT, 'apps/server/bin/muster.js');
const TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');
const ROSTER = join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml');
const dir = tempDir('muster-camera-flags-');
let clip: string;

beforeAll(async () => {
  clip = join(dir.path, 'camera.mp4');
  await promisify(execFile)('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-frames:v', '10', '-pix_fmt', 'yuv420p', clip]);
});
afterAll(() => dir.remove());

async function start(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [MUSTER, 'start', '--no-build', '--port', '0', ...args], { cwd: dir.path, timeout: 60_000 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe('muster start camera flags', () => {
  it('are listed in the help', async () => {
    const help = await start(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--camera-size <WxH> +webcam capture size asked of the camera/);
    expect(help.stdout).toMatch(/--camera-fps <n> +webcam frame rate asked of the camera/);
    expect(help.stdout).toMatch(/--camera-format <f> +the webcam's own encoding: mjpeg/);
  });

  it('a bad value is refused before anything starts', async () => {
    const size = await start(['--camera', '/dev/video0', '--camera-size', '1920']);
    expect(size.code).toBe(2);
    expect(size.stderr).toMatch(/--camera-size must be WIDTHxHEIGHT in pixels, e\.g\. 1920x1080, got "1920"/);
    const format = await start(['--camera', '/dev/video0', '--camera-format', 'rgb']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--camera-format must be one of mjpeg, yuyv, h264, got "rgb"/);
  }, 60_000);

  it('without --camera, or with a recording, they are refused with why', async () => {
    const demo = await start(['--camera-fps', '30', '--data', join(dir.path, 'a')]);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toMatch(/--camera-size, --camera-fps and --camera-format go with --camera \(a webcam\)/);
    const recording = await start(['--camera', clip, '--table', TABLE, '--roster', ROSTER, '--camera-size', '640x480', '--data', join(dir.path, 'b')]);
    expect(recording.code).toBe(2);
    expect(recording.stderr.trim().split('\n').at(-1)).toMatch(/camera\.mp4: --camera-size, --camera-fps and --camera-format apply to webcams only, not to a recording \(video\): the file decides$/);
    expect(recording.stdout).not.toMatch(/Muster is running/);
  }, 90_000);
});
