/**
 * A venue through a real Mosquitto broker, as run for real: `muster tables --mqtt` (the index) and two
 * `muster start --publish` tables in child processes. The index lists each table as it comes, with its
 * rule set and turn from the retained messages; a table killed with SIGKILL (no goodbye) is marked down
 * by its last will; a table stopped with SIGTERM says so itself. Bad broker URLs are refused at once with
 * a clear line, and an unreachable broker never stops a table's own service.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBrokerMessage, type TableStatusMessage } from '@muster/protocol';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import type { TableStatus } from '../../apps/server/src/hub/tableStatus.ts';
import { freePort, Mosquitto, Subscriber } from '../service/mosquitto.ts';
import { MUSTER_BIN, refusedStart, startCli, tempDir, type TempDir } from './startCli.ts';

interface Hub {
  readonly url: string;
  stdout(): string;
  stop(): Promise<number | null>;
}

function startTablesHub(args: readonly string[]): Promise<Hub> {
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
    let resolved = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (resolved || !out.includes('Press Ctrl+C')) return;
      resolved = true;
      clearTimeout(timer);
      resolve({
        url: /Muster tables: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)![1]!,
        stdout: () => out,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function apiTables(hub: Hub): Promise<TableStatus[]> {
  return ((await (await fetch(`${hub.url}/api/tables`)).json()) as { tables: TableStatus[] }).tables;
}

let dir: TempDir;
let broker: Mosquitto;

beforeAll(async () => {
  dir = tempDir('muster-venue-');
  broker = await Mosquitto.start(dir.path);
}, 30_000);

afterAll(async () => {
  await broker?.stop();
  dir?.remove();
});

describe('muster tables --mqtt and muster start --publish', () => {
  it('lists tables as they come, and marks a killed one down by its last will and a stopped one as stopped', async () => {
    const hub = await startTablesHub(['--mqtt', broker.mqttUrl]);
    const a = await startCli(['--data', `${dir.path}/a`, '--publish', broker.mqttUrl, '--publish-table', 'table-a']);
    let b: Awaited<ReturnType<typeof startCli>> | null = null;
    try {
      expect(a.stdout).toMatch(new RegExp(`publish: +mqtt://127\\.0\\.0\\.1:${broker.mqttPort} as muster/table-a/… \\(MQTT\\)`));
      b = await startCli(['--data', `${dir.path}/b`, '--publish', broker.mqttUrl, '--publish-table', 'table-b']);
      // Both appear on the index, up, with what the broker's retained messages say.
      const listed = await until('both tables up with their rule set', async () => {
        const t = await apiTables(hub);
        return t.length === 2 && t.every((x) => x.up && x.rulesetId !== undefined && x.turn !== undefined) ? t : undefined;
      });
      expect(listed.map((t) => t.name)).toEqual(['table-a', 'table-b']);
      for (const t of listed) {
        expect(t.rulesetId).toBe('devil-to-pay');
        expect(t.turn).toBeGreaterThanOrEqual(1);
        expect(t.trackedStands).toBeGreaterThan(0);
      }
      expect(listed[0]!.url).toBe(a.url);
      const page = await (await fetch(`${hub.url}/`)).text();
      expect(page).toContain(`<a href="${a.url}/map.html">map</a>`);
      expect(page).toMatch(/data-table="table-b" data-up="true"/);
      await until('the hub to print both arrivals', () => (/table-a: up/.test(hub.stdout()) && /table-b: up/.test(hub.stdout()) ? true : undefined));

      // Killed without a word: the broker publishes table-b's will (retained).
      process.kill(b.pid, 'SIGKILL');
      await b.stop();
      const down = await until('table-b down', async () => (await apiTables(hub)).find((t) => t.name === 'table-b' && !t.up));
      expect(down.problem).toMatch(/connection lost \(the broker's last will/);
      await until('the hub to print the loss', () => (/table-b: down \(lost\)/.test(hub.stdout()) ? true : undefined));
      expect((await apiTables(hub)).find((t) => t.name === 'table-a')!.up).toBe(true);
      // A late subscriber sees the will too: it is retained.
      const late = await Subscriber.connect(broker.mqttUrl, ['muster/table-b/status']);
      const will = parseBrokerMessage('status', (await late.next((r) => r.retain)).received.text);
      await late.close();
      expect(will.ok && (will.value as TableStatusMessage)).toMatchObject({ online: false, reason: 'lost', sinceMs: null });

      // A table gone for good: clearing its retained status takes it off the index.
      const admin = await Subscriber.connect(broker.mqttUrl, []);
      await admin.client.publishAsync('muster/table-b/status', '', { qos: 1, retain: true });
      await admin.close();
      await until('table-b off the index', async () => ((await apiTables(hub)).some((t) => t.name === 'table-b') ? undefined : true));

      // Stopped properly: it says so itself.
      expect(await a.stop()).toBe(0);
      const stopped = await until('table-a stopped', async () => (await apiTables(hub)).find((t) => t.name === 'table-a' && !t.up));
      expect(stopped.problem).toBe('stopped');
    } finally {
      await b?.stop();
      await a.stop();
      expect(await hub.stop()).toBe(0);
    }
  }, 120_000);

  it('refuses bad broker URLs and table ids with one clear line', async () => {
    const cases: [string[], RegExp][] = [
      [['--publish', 'http://127.0.0.1:1883'], /--publish: the broker URL must start with mqtt:\/\/, mqtts:\/\/, ws:\/\/ or wss:\/\//],
      [['--publish', 'mqtt://'], /--publish/],
      [['--publish', 'mqtt://host:1883/some/path'], /an mqtt:\/\/ URL has no path/],
      [['--publish', broker.mqttUrl, '--publish-table', 'a/b'], /--publish-table.*letters, digits/],
      [['--publish-table', 'x'], /--publish-table goes with --publish/],
    ];
    for (const [args, why] of cases) {
      const r = await refusedStart(['--data', `${dir.path}/refused`, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(why);
    }
    const hub = spawnSync(process.execPath, [MUSTER_BIN, 'tables', '--mqtt', 'tcp//nowhere'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(hub.status).toBe(2);
    expect(hub.stderr).toMatch(/--mqtt takes a broker URL/);
    const both = spawnSync(process.execPath, [MUSTER_BIN, 'tables', '--mqtt', broker.mqttUrl, '--table', 'T=http://127.0.0.1:1'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/without --table or --file/);
  }, 120_000);

  it('an unreachable broker: the table starts and serves, and the log says what is wrong', async () => {
    const port = await freePort();
    const t = await startCli(['--data', `${dir.path}/c`, '--publish', `mqtt://127.0.0.1:${port}`, '--publish-table', 'table-c']);
    try {
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
      await until('the broker warning', () => (/cannot publish to mqtt:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/.test(t.stderr()) ? true : undefined));
      expect(t.stderr()).toMatch(/the table's own service runs on/);
      expect((await fetch(`${t.url}/api/snapshot`)).status).toBe(200);
    } finally {
      expect(await t.stop()).toBe(0);
    }
  }, 60_000);
});
