/**
 * Loopback load script for issue 32 item 2 (a measurement, not a test): a real demo service in this
 * process, hostile clients in a child (`floodClients.ts`), and `/api/health` probed every 100 ms while they
 * run. Prints one JSON line: what the clients got (bytes, snapshots, connections, refusals), what the
 * server sent, and health's p50/p99/max in ms.
 * Usage: node --import tsx tests/hostile/floodLoad.ts resync|slowloris [clients=20] [seconds=20]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../service/helpers.ts';
import { startHostileDemo } from './networkHelpers.ts';

const mode = process.argv[2] ?? 'resync';
const clients = Number(process.argv[3] ?? (mode === 'slowloris' ? 3000 : 20));
const seconds = Number(process.argv[4] ?? 20);

const dir = tempDir('muster-flood-load-');
const live = await startHostileDemo(dir.path);
const snapshot = await (await fetch(`${live.url}/api/snapshot`)).text();
const healthMs: number[] = [];
let healthFailures = 0;
let probing = true;
const probes = (async () => {
  while (probing) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${live.url}/api/health`, { signal: AbortSignal.timeout(10_000) });
      await res.text();
      if (res.status !== 200) healthFailures++;
    } catch {
      healthFailures++;
    }
    healthMs.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 100));
  }
})();

const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'floodClients.ts'), live.url, String(clients), mode, String(seconds)], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
child.stdout.on('data', (d: Buffer) => (out += d.toString()));
await new Promise((r) => child.on('exit', r));
probing = false;
await probes;
const sorted = [...healthMs].sort((a, b) => a - b);
const pct = (p: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
const hub = live.server.hub.stats();
const report = {
  mode,
  clients,
  seconds,
  snapshotBytes: snapshot.length,
  client: JSON.parse(out.trim().split('\n').pop() ?? '{}') as unknown,
  server: { snapshotsSent: hub.snapshotsSent, rateLimitedClients: hub.rateLimitedClients, upgrades: live.server.upgradeStats() },
  health: { probes: healthMs.length, failures: healthFailures, p50Ms: pct(0.5), p99Ms: pct(0.99), maxMs: Math.round(sorted.at(-1) ?? 0) },
};
console.log(JSON.stringify(report));
await live.stop();
dir.remove();
process.exit(0);
