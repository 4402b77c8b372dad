/**
 * A reader that stops early (`muster track … --json | head -2`, `muster rules … --json | head -1`) closes
 * the pipe under the command: it must end quietly with exit code 0, no stack trace, and stop its work.
 * Real processes and real pipes: through bash and head, and through a reader here that closes the pipe.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../service/helpers.ts';
import { MUSTER_BIN, musterEnv, REPO_ROOT } from './runMuster.ts';

const TRACK = ['track', 'fixtures/video/stands-moving.mp4', '--table', 'fixtures/video/clip-table.json', '--json'];
const RULES = ['rules', 'fixtures/rules/in/opening-battle.json', '--json'];

/** `muster <args> | <reader>` in bash, with the exit code of muster (not of the reader) and its stderr. */
function throughShell(args: readonly string[], reader: string): { code: number; stdout: string; stderr: string } {
  const quoted = [process.execPath, MUSTER_BIN, ...args].map((a) => `'${a}'`).join(' ');
  const r = spawnSync('bash', ['-c', `${quoted} 2>&3 | ${reader}; exit "\${PIPESTATUS[0]}"`], {
    cwd: REPO_ROOT,
    env: musterEnv(),
    encoding: 'utf8',
    // fd 3: muster's stderr, kept apart from the reader's output
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: String(r.output[3] ?? '') };
}

/** Read `lines` lines of muster's stdout, then close the pipe; how it ended. */
function readThenClose(args: readonly string[], lines: number): Promise<{ code: number | null; signal: string | null; got: string[]; stderr: string; closedAtMs: number; endedAtMs: number }> {
  const child = spawn(process.execPath, [MUSTER_BIN, ...args], { cwd: REPO_ROOT, env: musterEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const start = Date.now();
  let buffered = '';
  const got: string[] = [];
  let stderr = '';
  let closedAtMs = -1;
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    if (closedAtMs >= 0) return;
    buffered += c;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    got.push(...parts);
    if (got.length >= lines) {
      got.length = lines;
      closedAtMs = Date.now() - start;
      child.stdout.destroy(); // the read end of the pipe closes: the next write fails with EPIPE
    }
  });
  return new Promise((done) =>
    child.on('exit', (code, signal) => done({ code, signal, got, stderr, closedAtMs, endedAtMs: Date.now() - start })),
  );
}

describe.concurrent('a reader that closes the pipe early', () => {
  it('muster track … --json | head -2: two frames out, exit 0, nothing on stderr', () => {
    const r = throughShell(TRACK, 'head -2');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => (JSON.parse(l) as { frame: number }).frame)).toEqual([0, 1]);
  }, 120_000);

  it('muster rules … --json into a reader that is already gone: exit 0, nothing on stderr', () => {
    // `true` exits before muster has started, so its one large write always meets a closed pipe.
    const r = throughShell(RULES, 'true');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const head = throughShell(RULES, 'head -1');
    expect([head.code, head.stderr, head.stdout]).toEqual([0, '', '{\n']);
  }, 120_000);

  it('track stops reading the recording when its reader has gone', async () => {
    // 3000 frames (links to one frame of the clip): ~30 s to track them all here, so ending within 10 s of
    // the close means it stopped, not that it finished.
    const dir = tempDir('muster-long-recording-');
    try {
      const frame = join(dir.path, 'frame.png');
      execFileSync('ffmpeg', ['-loglevel', 'error', '-i', join(REPO_ROOT, 'fixtures/video/stands-moving.mp4'), '-frames:v', '1', frame]);
      const folder = join(dir.path, 'frames');
      mkdirSync(folder);
      for (let i = 0; i < 3000; i++) symlinkSync(frame, join(folder, `f${String(i).padStart(4, '0')}.png`));
      const r = await readThenClose(['track', folder, '--table', 'fixtures/video/clip-table.json', '--json'], 3);
      expect(r.stderr).toBe('');
      expect([r.code, r.signal]).toEqual([0, null]);
      expect(r.got.map((l) => (JSON.parse(l) as { frame: number }).frame)).toEqual([0, 1, 2]);
      expect(r.endedAtMs - r.closedAtMs).toBeLessThan(10_000);
    } finally {
      dir.remove();
    }
  }, 120_000);

  it('an error message still reaches stderr when stdout is closed', async () => {
    const r = await readThenClose(['track', 'nowhere.mp4', '--table', 'fixtures/video/clip-table.json'], 0);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^muster track: nowhere\.mp4: no such file, folder or device/);
  }, 60_000);
});
