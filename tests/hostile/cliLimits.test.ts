/**
 * The CLI refuses oversized input before reading it (issue "Nothing one client or one fault can break",
 * item 10): a 50 MB JSON once took `muster rules` to 2.4 GB, a 16000×16000 PNG `muster detect` to 1.15 GB.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../service/helpers.ts';

const root = join(import.meta.dirname, '../..');
const bin = join(root, 'apps/server/bin/muster.js');
const dir = tempDir('muster-hostile-cli-');
afterAll(() => dir.remove());

function muster(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('size limits', () => {
  it('muster rules refuses a state file over the limit without reading it, naming the option', () => {
    const big = join(dir.path, 'big.json');
    // 12 MB of valid JSON (a long array of numbers).
    writeFileSync(big, `[${'1234567,'.repeat(1_500_000)}0]`);
    const r = muster('rules', big);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/big\.json is 12\.0 MB, above the 8 MB limit for a table state; if it really is one, pass --max-input-mb 13/);
    const raised = muster('rules', big, '--max-input-mb', '13');
    expect(raised.status).toBe(2);
    expect(raised.stderr).not.toMatch(/limit/); // read, then refused as not a table state
  });

  it('muster detect refuses an image over the megapixel limit from its header, naming the option', async () => {
    const big = join(dir.path, 'big.png');
    await sharp({ create: { width: 9000, height: 5000, channels: 3, background: { r: 128, g: 128, b: 128 } } }).png().toFile(big);
    const r = muster('detect', big);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/big\.png is 9000×5000 \(45\.0 megapixels\), above the 40 megapixel limit; pass --max-megapixels 45/);
  });
});
