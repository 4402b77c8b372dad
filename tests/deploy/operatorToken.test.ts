/**
 * The operator token kept in the data directory (issue 13): the operator URL printed at one start
 * still works after a restart, `--rotate-token` replaces it (the old URL stops working), the file is
 * 0600, and a token given by flag, environment or file still wins. Real `muster start` processes on
 * loopback, one after the other on the same temporary data directory.
 */
import { readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { refusedStart, startCli, tempDir, type TempDir } from './startCli.ts';

const dirs: TempDir[] = [];
afterAll(() => dirs.forEach((d) => d.remove()));
function dir(): string {
  const d = tempDir('muster-token-');
  dirs.push(d);
  return d.path;
}

/** The printed operator URL's token, used the way the operator page uses it (REST with the bearer). */
async function operatorCall(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/api/actions`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ type: 'set-turn', turn: 2 }) });
  return res.status;
}

function operatorUrlToken(stdout: string): string {
  return decodeURIComponent(/operator:\s+\S+\/operator\.html\?token=(\S+)/.exec(stdout)![1]!);
}

describe('the stored operator token', () => {
  it('is made on the first start (0600), reused by the next, replaced by --rotate-token', async () => {
    const data = dir();
    const file = join(data, 'operator-token');

    const first = await startCli(['--data', data]);
    let token1: string;
    try {
      token1 = first.token;
      expect(operatorUrlToken(first.stdout)).toBe(token1);
      expect(first.stdout).toContain(`(made now, kept in ${file})`);
      // The token, then its checksum (a changed token is refused: tests/hostile/savedDamage.test.ts).
      expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`^${token1}\\nsha256:[0-9a-f]{64}\\n$`));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(await operatorCall(first.url, token1)).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    // A restart: the URL printed by the first start works on the second.
    const second = await startCli(['--data', data]);
    try {
      expect(second.token).toBe(token1);
      expect(second.stdout).toContain(`(kept in ${file})`);
      expect(await operatorCall(second.url, token1)).toBe(200);
    } finally {
      await second.stop();
    }

    const rotated = await startCli(['--data', data, '--rotate-token']);
    try {
      expect(rotated.token).not.toBe(token1);
      expect(rotated.token.length).toBeGreaterThanOrEqual(20);
      expect(rotated.stdout).toContain(`(new (--rotate-token), kept in ${file})`);
      expect(readFileSync(file, 'utf8').split('\n')[0]).toBe(rotated.token);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(await operatorCall(rotated.url, token1)).toBe(403); // a wrong token (401 is for none)
      expect(await operatorCall(rotated.url, rotated.token)).toBe(200);
    } finally {
      await rotated.stop();
    }

    // And the rotated one is what the next start uses.
    const after = await startCli(['--data', data]);
    try {
      expect(after.token).toBe(rotated.token);
    } finally {
      await after.stop();
    }
  });

  it('a given token wins and leaves the stored one alone; --rotate-token with a given token is refused', async () => {
    const data = dir();
    const first = await startCli(['--data', data]);
    const stored = first.token;
    await first.stop();

    const given = await startCli(['--data', data], { env: { MUSTER_TOKEN: 'given-token-0123456789' } });
    try {
      expect(given.token).toBe('given-token-0123456789');
      expect(given.stdout).toContain('(MUSTER_TOKEN)');
      expect(await operatorCall(given.url, stored)).toBe(403);
    } finally {
      await given.stop();
    }
    expect(readFileSync(join(data, 'operator-token'), 'utf8').split('\n')[0]).toBe(stored);

    const r = await refusedStart(['--data', data, '--rotate-token'], { env: { MUSTER_TOKEN: 'given-token-0123456789' } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('muster start: --rotate-token replaces the token stored in the data directory, but the token is given by MUSTER_TOKEN; drop one of them');
    expect(readFileSync(join(data, 'operator-token'), 'utf8').split('\n')[0]).toBe(stored);
  });

  it('a stored token readable by others is made 0600 (with a warning); a damaged one stops the start and says how to fix it', async () => {
    const data = dir();
    const file = join(data, 'operator-token');
    writeFileSync(file, 'hand-made-token-0123\n');
    chmodSync(file, 0o644);
    const s = await startCli(['--data', data]);
    try {
      expect(s.token).toBe('hand-made-token-0123');
      expect(s.stderr()).toContain(`warning: ${file} could be read by other users; its permissions are now 0600`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      await s.stop();
    }

    writeFileSync(file, 'short\n');
    const r = await refusedStart(['--data', data]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`muster start: ${file}: the stored operator token must be at least 8 characters; start with --rotate-token to make a new one`);
    expect(readFileSync(file, 'utf8')).toBe('short\n');
  });
});
