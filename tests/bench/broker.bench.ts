/**
 * Broker bench (`npm run bench -- broker`): the demo table publishing through a real Mosquitto, first
 * with 1 viewer subscribed, then with 1,000 (MQTT.js clients in a child process, `brokerViewers.ts`),
 * in the same run. For each, over a 10 s window: the table's outbound bytes per second to the broker
 * (its socket's bytes written, MQTT framing included, and the message payloads alone), the table
 * process's CPU (the whole service: demo, tracker, rules worker, publisher), the broker's CPU, and what
 * the viewers received in all. The table's bytes and CPU should not depend on the viewer count: the
 * broker does the fan-out. Nothing here asserts; numbers are printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { attachBrokerPublisher } from '../../apps/server/src/mqtt/brokerPublisher.ts';
import { parseBrokerUrl } from '../../apps/server/src/mqtt/brokerUrl.ts';
import { Mosquitto } from '../service/mosquitto.ts';
import { round } from './stats.ts';

const VIEWERS = join(import.meta.dirname, 'brokerViewers.ts');
const WINDOW_MS = 10_000;
const TABLE_ID = 'bench-table';
/** Linux clock ticks per second for /proc/<pid>/stat (USER_HZ, 100 on every common kernel). */
const CLOCK_TICKS_PER_S = 100;

interface ViewerLine {
  connected: number;
  withSnapshot: number;
  messages: number;
  bytes: number;
}

function processCpuS(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after "pid (comm) ".
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

function startViewers(url: string, count: number): { child: ChildProcess; latest: () => ViewerLine | null; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', VIEWERS, url, TABLE_ID, String(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let latest: ViewerLine | null = null;
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    latest = JSON.parse(line) as ViewerLine;
    if (latest.connected === count && latest.withSnapshot === count) resolveReady();
  });
  return { child, latest: () => latest, ready };
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'muster-bench-broker-'));
  const broker = await Mosquitto.start(dir);
  const live = await startLive({ source: { mode: 'demo', demoSource: 'truth' }, dataDir: dir, host: '127.0.0.1', port: 0, operatorToken: 'bench-broker' });
  const publisher = attachBrokerPublisher(live.pipeline, { broker: parseBrokerUrl(broker.mqttUrl, '--publish'), tableId: TABLE_ID, warn: (m) => process.stderr.write(`${m}\n`), info: () => {} });
  await publisher.whenConnected();
  const phases: Record<string, unknown>[] = [];
  const loadAtStart = loadavg()[0];
  try {
    for (const viewers of [1, 1000]) {
      process.stderr.write(`bench: broker: ${viewers} viewer(s) connecting...\n`);
      const v = startViewers(broker.mqttUrl, viewers);
      const connectStarted = performance.now();
      await v.ready;
      const connectS = (performance.now() - connectStarted) / 1000;
      // Settle, then measure one window.
      await new Promise((r) => setTimeout(r, 2000));
      const s0 = publisher.stats();
      const cpu0 = process.cpuUsage();
      const broker0 = processCpuS(broker.pid);
      const seq0 = live.pipeline.state().seq;
      const viewers0 = v.latest()!;
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, WINDOW_MS));
      const seconds = (performance.now() - t0) / 1000;
      const s1 = publisher.stats();
      const cpu1 = process.cpuUsage(cpu0);
      const broker1 = processCpuS(broker.pid);
      const viewers1 = v.latest()!;
      phases.push({
        viewers,
        connectAllS: round(connectS, 1),
        statesPerS: round((live.pipeline.state().seq - seq0) / seconds, 1),
        tableSocketBytesPerS: Math.round((s1.socketBytesWritten - s0.socketBytesWritten) / seconds),
        tablePayloadBytesPerS: Math.round((s1.bytesPublished - s0.bytesPublished) / seconds),
        tableStatesSkipped: s1.statesSkipped - s0.statesSkipped,
        tableCpuPct: round(((cpu1.user + cpu1.system) / 1e6 / seconds) * 100, 1),
        brokerCpuPct: round(((broker1 - broker0) / seconds) * 100, 1),
        viewersMessagesPerS: Math.round((viewers1.messages - viewers0.messages) / seconds),
        viewersBytesPerS: Math.round((viewers1.bytes - viewers0.bytes) / seconds),
        tableWsClients: live.pipeline.state().health.clients,
      });
      v.child.kill('SIGTERM');
      await new Promise((r) => v.child.once('exit', r));
    }
  } finally {
    await publisher.close();
    await live.stop();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const [one, many] = phases as { tableSocketBytesPerS: number; tableCpuPct: number }[];
  return {
    path: 'demo-truth → publisher → Mosquitto (loopback) → MQTT.js viewers in a child process',
    windowS: WINDOW_MS / 1000,
    phases,
    tableBytesRatio1000to1: round(many!.tableSocketBytesPerS / one!.tableSocketBytesPerS, 2),
    tableCpuRatio1000to1: round(many!.tableCpuPct / one!.tableCpuPct, 2),
    loadAvg: { start: round(loadAtStart!, 2), end: round(loadavg()[0]!, 2) },
  };
}
