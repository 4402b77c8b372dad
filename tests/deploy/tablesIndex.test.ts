/**
 * `muster tables`, the convention hub, as run for real: two truth-demo services on loopback (each its own
 * port and data directory) plus a URL where nothing listens, and the hub's index page and /api/tables
 * polling them. Also its refusals of bad table lists (exit 2, one line on stderr).
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { indexPage } from '../../apps/server/src/hub/indexPage.ts';
import { pollTables, type TableStatus } from '../../apps/server/src/hub/tableStatus.ts';
import { MUSTER_BIN, startCli, tempDir, type StartedCli, type TempDir } from './startCli.ts';

interface Hub {
  readonly url: string;
  readonly stdout: string;
  stop(): Promise<number | null>;
}

function startHub(args: readonly string[]): Promise<Hub> {
  const child = spawn(process.execPath, [MUSTER_BIN, 'tables', '--port', '0', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`muster tables did not start in 30 s: ${out} ${err}`));
    }, 30_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`muster tables exited ${code}: ${err}`));
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      resolve({
        url: /Muster tables: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)![1]!,
        stdout: out,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

/** A loopback port where nothing listens (bound, then released). */
function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

let dirs: TempDir[] = [];
let services: StartedCli[] = [];
let deadUrl = '';

beforeAll(async () => {
  dirs = [tempDir(), tempDir(), tempDir()];
  services = await Promise.all([startCli(['--data', dirs[0]!.path]), startCli(['--data', dirs[1]!.path])]);
  deadUrl = `http://127.0.0.1:${await deadPort()}`;
}, 120_000);

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  for (const d of dirs) d.remove();
});

describe('muster tables', () => {
  it('lists two live tables and a dead one, with status, rules, turn and links', async () => {
    const file = join(dirs[2]!.path, 'tables.yaml');
    // Table 1's token is in the file (operator link); Table 2 and the dead one come as flags.
    writeFileSync(file, `tables:\n  - name: Table 1\n    url: ${services[0]!.url}/\n    token: ${services[0]!.token}\n`);
    const hub = await startHub(['--file', file, '--table', `Table 2=${services[1]!.url}`, '--table', `Back room=${deadUrl}`, '--timeout-ms', '800']);
    try {
      // A service answers before its first rules evaluation (which names the rule set) is in: ask again
      // until both have one, as the page's own refresh would.
      let api: { tables: TableStatus[] };
      const until = Date.now() + 30_000;
      do {
        api = (await (await fetch(`${hub.url}/api/tables`)).json()) as { tables: TableStatus[] };
        if (api.tables.slice(0, 2).every((t) => t.rulesetId !== undefined)) break;
        await new Promise((r) => setTimeout(r, 250));
      } while (Date.now() < until);
      expect(api.tables.map((t) => [t.name, t.up])).toEqual([
        ['Table 1', true],
        ['Table 2', true],
        ['Back room', false],
      ]);
      for (const t of api.tables.slice(0, 2)) {
        expect(t.health).toBe('ok');
        expect(t.rulesetId).toBe('devil-to-pay');
        expect(t.turn).toBeGreaterThanOrEqual(1);
        expect(t.source).toBe('demo-truth');
        expect(t.trackedStands).toBeGreaterThan(0);
      }
      expect(api.tables[2]!.problem).toMatch(/ECONNREFUSED/);
      expect(JSON.stringify(api)).not.toContain(services[0]!.token);

      const pageRes = await fetch(`${hub.url}/`);
      expect(pageRes.status).toBe(200);
      const page = await pageRes.text();
      expect(page).toContain(`<a href="${services[0]!.url}/map.html">map</a>`);
      expect(page).toContain(`<a href="${services[1]!.url}/projector.html">projector</a>`);
      expect(page).toContain(`<a href="${services[1]!.url}/overlay.html">overlay</a>`);
      // From this machine: the operator link of the table with a token, and none for the others.
      expect(page).toContain(`${services[0]!.url}/operator.html?token=${encodeURIComponent(services[0]!.token)}`);
      expect(page.match(/operator\.html/g)).toHaveLength(1);
      expect(page).toMatch(/data-table="Back room" data-up="false"/);
      expect(page).toMatch(/data-table="Table 2" data-up="true"/);
      // The links really lead to the table's views.
      expect((await fetch(`${services[1]!.url}/map.html`)).status).toBe(200);
    } finally {
      expect(await hub.stop()).toBe(0);
    }
  }, 60_000);

  it('gives the operator link only when the page is for this machine', async () => {
    const tables = [{ name: 'T', url: services[0]!.url, token: services[0]!.token }];
    const statuses = await pollTables(tables, 800);
    expect(indexPage(tables, statuses, false, new Date())).not.toContain(services[0]!.token);
    expect(indexPage(tables, statuses, true, new Date())).toContain('operator.html?token=');
  });

  it('escapes table names in the page', async () => {
    const tables = [{ name: '<b>x</b>', url: deadUrl }];
    const page = indexPage(tables, await pollTables(tables, 300), false, new Date());
    expect(page).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(page).not.toContain('<b>x</b>');
  });

  it('refuses bad table lists with one line and exit 2', () => {
    const cases: [string[], RegExp][] = [
      [[], /no tables: give --table/],
      [['--table', 'http://127.0.0.1:8081'], /--table takes "Name=URL"/],
      [['--table', 'A=ftp://x'], /must start with http:\/\/ or https:\/\//],
      [['--table', 'A=http://x:1', '--table', 'A=http://y:2'], /table "A" is listed twice/],
      [['--table', 'A=http://x:1', '--port', 'abc'], /--port/],
      [['--file', join(dirs[2]!.path, 'missing.yaml')], /cannot read .*missing\.yaml/],
    ];
    for (const [args, message] of cases) {
      const r = spawnSync(process.execPath, [MUSTER_BIN, 'tables', ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  }, 60_000);
});
