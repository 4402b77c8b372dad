/**
 * An append that fails half-way (the disk fills up mid-write): the error names the file and says what to
 * do, the half-written line is cut off again (so the next entry is not glued to it, which the next start
 * would report as a corrupt line), and the log keeps working once the disk has room. The full disk is
 * simulated by failing `writeSync` after it wrote half the line; everything else is the real file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir, type TempDir } from '../service/helpers.ts';
import { withLineSum } from '../../apps/server/src/persist/gameLogScan.ts';

const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((fd: number, buffer: Buffer, offset: number, length: number, position?: number | null) => {
    if (!disk.full) return fs.writeSync(fd, buffer, offset, length, position);
    if (length > 1) return fs.writeSync(fd, buffer, offset, Math.floor(length / 2), position); // half of it fits
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});

const { openGameLog } = await import('../../apps/server/src/persist/gameLog.ts');
const { GameLogError } = await import('../../apps/server/src/persist/gameLogError.ts');

const dirs: TempDir[] = [];
afterEach(() => {
  disk.full = false;
  for (const d of dirs.splice(0)) d.remove();
});

const entry = (index: number): { index: number; kind: string; note: string } => ({ index, kind: 'note', note: `entry ${index}` });

describe('an append on a full disk', () => {
  it('throws naming the file and what to do, cuts off the half-written line, and the log goes on when there is room', async () => {
    const d = tempDir('muster-hostile-logfull-');
    dirs.push(d);
    const file = join(d.path, 'game-log.jsonl');
    writeFileSync(file, `${JSON.stringify(entry(0))}\n`);
    const log = openGameLog<ReturnType<typeof entry>>(file, { onProblem: (p) => expect.fail(p), keepInMemory: 1 });
    try {
      const before = readFileSync(file, 'utf8');
      disk.full = true;
      let error: unknown;
      try {
        log.append(entry(1));
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(GameLogError);
      expect((error as Error).message).toBe(`${file}: cannot append to the game log, the entry was not saved (ENOSPC: no space left on device; the disk is full: free some space)`);
      expect(readFileSync(file, 'utf8'), 'the half-written line is cut off').toBe(before);
      expect(log.count()).toBe(1);

      disk.full = false;
      log.append(entry(1));
      expect(readFileSync(file, 'utf8')).toBe(`${before}${withLineSum(JSON.stringify(entry(1)))}\n`);
      expect(await log.read(0, 10)).toEqual([entry(0), entry(1)]);
    } finally {
      log.close();
    }
    // The next start finds nothing wrong.
    const again = openGameLog(file, { onProblem: (p) => expect.fail(p) });
    expect(again.problems).toEqual([]);
    expect(again.count()).toBe(2);
    again.close();
  });
});
