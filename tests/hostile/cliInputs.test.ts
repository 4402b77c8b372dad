/**
 * CLI input that is not what it claims (issue 32, item 7), run as the real commands: a FIFO (`rules`,
 * `detect` and `markers` used to hang on it), `/dev/zero` (`rules` grew without end: its size limit read
 * the stat size, 0), a 50 MB roster (2.3 GB and 46 s before an error), a roster nested 100k deep ("Maximum
 * call stack size exceeded"), a log line nested 100k deep (export crashed with a stack trace), a log of
 * random bytes (export took it as "0 entries", exit 0, where start refuses it), and the
 * MaxListenersExceededWarning every export printed. Each run has a 60 s cap so a hang fails, not blocks.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '@muster/rules';
import { startDemo, tempDir } from '../service/helpers.ts';

const root = join(import.meta.dirname, '../..');
const bin = join(root, 'apps/server/bin/muster.js');
const dir = tempDir('muster-hostile-cli-inputs-');
afterAll(() => dir.remove());

function muster(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function fifo(name: string): string {
  const path = join(dir.path, name);
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

describe('special files are refused before they are opened', () => {
  it('muster rules on a FIFO and on /dev/zero', () => {
    const r = muster('rules', fifo('state.fifo'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/state\.fifo is a FIFO \(named pipe\), not a regular file; give the table state as a file/);
    const z = muster('rules', '/dev/zero');
    expect(z.status).toBe(2);
    expect(z.stderr).toMatch(/\/dev\/zero is a device, not a regular file/);
  });

  it('muster markers --roster on a FIFO, and muster detect on a FIFO', () => {
    const m = muster('markers', '--roster', fifo('army.fifo'), '--out', join(dir.path, 'tags.svg'));
    expect(m.status).toBe(2);
    expect(m.stderr).toMatch(/army\.fifo is a FIFO \(named pipe\), not a regular file; give the roster as a file/);
    const d = muster('detect', fifo('frame.fifo'));
    expect(d.status).toBe(2);
    expect(d.stderr).toMatch(/frame\.fifo is a FIFO \(named pipe\), not a regular file/);
  });
});

describe('rosters', () => {
  it('a 50 MB roster is refused from its size, before it is read', () => {
    const big = join(dir.path, 'big-army.yaml');
    writeFileSync(big, `name: big\nunits: []\n# ${'x'.repeat(50 * 1024 * 1024)}\n`);
    const r = muster('markers', '--roster', big, '--out', join(dir.path, 'big.svg'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/big-army\.yaml is 52\.4 MB, above the 8 MB limit for a roster \(an army file is a few KB\)/);
  });

  it('a roster nested 100,000 deep: a one-line refusal, not a stack overflow', () => {
    const deep = join(dir.path, 'deep-army.yaml');
    writeFileSync(deep, `version: 1\nname: deep\nunits: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    const r = muster('markers', '--roster', deep, '--out', join(dir.path, 'deep.svg'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/deep-army\.yaml.*nests lists and maps deeper than 64 levels/);
    expect(r.stderr).not.toMatch(/Maximum call stack|    at /);
  });
});

describe('export of damaged logs', () => {
  const played = join(dir.path, 'played');
  beforeAll(async () => {
    const live = await startDemo(played, { token: 'cli-inputs-token' });
    const res = await fetch(`${live.url}/api/actions`, {
      method: 'POST',
      headers: { authorization: 'Bearer cli-inputs-token', 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'roll-dice', dice: 2 }),
    });
    expect(res.status).toBe(200);
    await live.stop();
  });

  let copies = 0;
  const copy = (): string => {
    const to = join(dir.path, `copy-${copies++}`);
    cpSync(played, to, { recursive: true });
    return to;
  };

  it('a line nested 100,000 deep is skipped with a warning naming it; no stack trace; no MaxListenersExceededWarning', () => {
    const data = copy();
    appendFileSync(join(data, 'demo', 'game-log.jsonl'), `{"kind":"dice","x":${'['.repeat(100_000)}${']'.repeat(100_000)},"index":999}\n`);
    const r = muster('export', data, '--format', 'json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/game-log\.jsonl line \d+: not a game log entry \(nested deeper than 64 levels/);
    expect(r.stderr).not.toMatch(/    at |RangeError/);
    expect(r.stderr).not.toMatch(/MaxListenersExceededWarning/);
    expect(r.stdout).toMatch(/"kind":"dice"/);
  });

  it('a long export to --out (the file stream makes it wait for drain thousands of times) prints no MaxListenersExceededWarning', () => {
    const data = copy();
    const log = join(data, 'demo', 'game-log.jsonl');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n').length;
    const pose = (i: number): string =>
      `{"kind":"pose","by":"demo","standId":"al19-1","pose":{"xIn":${10 + (i % 50)},"yIn":20,"headingDeg":90},"index":${i},"timeMs":${1_700_000_000_000 + i},"turn":1}\n`;
    appendFileSync(log, Array.from({ length: 20_000 }, (_, k) => pose(lines + k)).join(''));
    const r = muster('export', data, '--format', 'csv', '--out', join(dir.path, 'long.csv'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/MaxListenersExceededWarning/);
  });

  it('a log of random bytes is refused as start refuses it (exit 2), not exported as "0 entries"', () => {
    const data = copy();
    const rng = createRng(7);
    writeFileSync(join(data, 'demo', 'game-log.jsonl'), Uint8Array.from({ length: 100_000 }, () => rng.nextInt(256)));
    const r = muster('export', data, '--format', 'csv', '--out', join(dir.path, 'random.csv'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/game-log\.jsonl: not a Muster game log, or too damaged to use/);
  });
});
