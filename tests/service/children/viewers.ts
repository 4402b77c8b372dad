/**
 * Child process for the service bench: N ws viewers in their own process (so their JSON parsing does not
 * load the server's event loop). Connects, counts deltas and their capture → receive latency for
 * `seconds`, then prints one JSON line and exits.
 * Usage: node --import tsx viewers.ts <baseUrl> <viewers> <seconds>
 */
import WebSocket from 'ws';

const [url, n, s] = process.argv.slice(2);
if (!url || !n || !s) throw new Error('usage: viewers.ts <baseUrl> <viewers> <seconds>');
const count = Number(n);
const seconds = Number(s);
const latencies: number[] = [];
const deltas: number[] = Array.from({ length: count }, () => 0);
let bytes = 0;
let measuring = false;
const sockets = await Promise.all(
  Array.from({ length: count }, (_, i) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
    ws.on('message', (data: Buffer) => {
      if (!measuring) return;
      const now = Date.now();
      bytes += data.length;
      const msg = JSON.parse(data.toString()) as { type: string; captureTimeMs?: number };
      if (msg.type === 'delta' && msg.captureTimeMs !== undefined) {
        deltas[i]!++;
        latencies.push(now - msg.captureTimeMs);
      }
    });
    return new Promise<WebSocket>((resolve, reject) => {
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  }),
);
process.stdout.write('connected\n');
measuring = true;
await new Promise((r) => setTimeout(r, seconds * 1000));
measuring = false;
for (const ws of sockets) ws.close();
process.stdout.write(`${JSON.stringify({ latencies, deltas, bytes })}\n`);
process.exit(0);
