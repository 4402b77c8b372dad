/**
 * `muster export --out` writes a temp file and renames it over the target. Before the fix a target that
 * was a FIFO, a device node or a link was replaced by a regular file (as root, /dev/full became a CSV) and
 * the export exited 0 (issue 32, item 1). Now only a new path or a regular file is taken; anything else is
 * refused with what it is and how to write there instead, and is left as it was. (Device nodes cannot be
 * made safely here; a FIFO, a link and a directory take the same path through the check.)
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { muster } from '../cli/runMuster.ts';
import { startDemo, tempDir } from '../service/helpers.ts';

const dir = tempDir('muster-export-out-');
const record = join(dir.path, 'game');
const outDir = join(dir.path, 'out');
afterAll(() => dir.remove());

beforeAll(async () => {
  const live = await startDemo(record, { token: 'export-out-token' });
  // One logged action, so the export has an entry to write.
  const res = await fetch(`${live.url}/api/actions`, {
    method: 'POST',
    headers: { authorization: 'Bearer export-out-token', 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'roll-dice', dice: 2 }),
  });
  expect(res.status).toBe(200);
  await live.stop();
  mkdirSync(outDir);
});

/** No temp file of an export is left beside the target. */
const partials = (): string[] => readdirSync(outDir).filter((n) => n.includes('.partial-'));

describe('muster export --out refuses targets that are not regular files', () => {
  it('a FIFO: refused, still a FIFO, nothing written', async () => {
    const fifo = join(outDir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await muster(['export', record, '--format', 'csv', '--out', fifo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out .*pipe is a FIFO \(named pipe\), not a regular file; .*redirect standard output/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(partials()).toEqual([]);
  });

  it('a symbolic link (to a regular file): refused, the link and its target unchanged', async () => {
    const target = join(outDir, 'target.csv');
    writeFileSync(target, 'keep me\n');
    const link = join(outDir, 'link.csv');
    symlinkSync(target, link);
    const r = await muster(['export', record, '--format', 'csv', '--out', link]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/link\.csv is a symbolic link, not a regular file/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    expect(partials()).toEqual([]);
  });

  it('a directory: refused', async () => {
    const sub = join(outDir, 'sub');
    mkdirSync(sub);
    const r = await muster(['export', record, '--format', 'json', '--out', sub]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sub is a directory, not a regular file/);
    expect(lstatSync(sub).isDirectory()).toBe(true);
  });

  it('a regular file is replaced and a new path created, as before', async () => {
    const existing = join(outDir, 'old.csv');
    writeFileSync(existing, 'old\n');
    const replaced = await muster(['export', record, '--format', 'csv', '--out', existing]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(readFileSync(existing, 'utf8')).toMatch(/^index,/);
    const fresh = join(outDir, 'new.jsonl');
    const created = await muster(['export', record, '--format', 'json', '--out', fresh]);
    expect(created.code, created.stderr).toBe(0);
    expect(readFileSync(fresh, 'utf8')).toMatch(/"kind":"dice"/);
    expect(partials()).toEqual([]);
  });
});
