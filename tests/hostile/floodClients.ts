/**
 * Child process of the flood load script (`floodLoad.ts`): hostile clients on loopback, without a token.
 * Mode `resync`: N viewers that read everything and send `{"type":"resync"}` as fast as their sockets take
 * it; each reconnects at once when the server closes it or refuses it. `slowloris`: N raw TCP connections
 * that send half a request header and then one header line every few seconds, never finishing. Prints one
 * JSON line when the time is up and exits.
 * Usage: node --import tsx floodClients.ts <baseUrl> <n> resync|slowloris <seconds>
 */
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';

const [url, n, mode, s] = process.argv.slice(2);
if (!url || !n || (mode !== 'resync' && mode !== 'slowloris') || !s) throw new Error('usage: floodClients.ts <baseUrl> <n> resync|slowloris <seconds>');
const count = Number(n);
const endMs = Date.now() + Number(s) * 1000;
const stillRunning = (): boolean => Date.now() < endMs;

let bytesReceived = 0;
let snapshots = 0;
let messagesSent = 0;
let connections = 0;
let refusedUpgrades = 0;
const refusedStatuses: Record<string, number> = {};

function viewer(): Promise<void> {
  return new Promise((done) => {
    if (!stillRunning()) return done();
    const ws = new WebSocket(`${url!.replace(/^http/, 'ws')}/ws`);
    let finished = false;
    const again = (): void => {
      if (finished) return;
      finished = true;
      void viewer().then(done);
    };
    ws.on('unexpected-response', (req, res) => {
      refusedUpgrades++;
      refusedStatuses[res.statusCode ?? 0] = (refusedStatuses[res.statusCode ?? 0] ?? 0) + 1;
      res.resume();
      req.destroy();
      // A refused client retries at once too (the worst case for the server).
      setImmediate(again);
    });
    ws.on('error', () => setImmediate(again));
    ws.on('close', () => setImmediate(again));
    ws.on('message', (data: Buffer) => {
      bytesReceived += data.byteLength;
      if (data.subarray(0, 20).toString().startsWith('{"type":"snapshot"')) snapshots++;
    });
    ws.on('open', () => {
      connections++;
      const pump = (): void => {
        if (ws.readyState !== ws.OPEN) return;
        if (!stillRunning()) {
          ws.terminate();
          return;
        }
        for (let k = 0; k < 50 && ws.bufferedAmount < 64 * 1024; k++) {
          ws.send('{"type":"resync"}');
          messagesSent++;
        }
        setImmediate(pump);
      };
      pump();
    });
  });
}

async function slowloris(): Promise<{ opened: number; heldAtEnd: number; closedByServer: number }> {
  const port = Number(new URL(url!).port);
  const sockets: Socket[] = [];
  let opened = 0;
  let closedByServer = 0;
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const sock = connect({ host: '127.0.0.1', port }, () => {
            opened++;
            sock.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
            resolve();
          });
          sock.on('error', () => resolve());
          sock.on('close', () => {
            if (stillRunning()) closedByServer++;
            sockets.splice(sockets.indexOf(sock), 1);
          });
          sockets.push(sock);
        }),
    ),
  );
  const trickle = setInterval(() => {
    for (const sock of sockets) if (!sock.destroyed) sock.write(`X-Slow-${Date.now() % 1000}: 1\r\n`);
  }, 5000);
  await new Promise((r) => setTimeout(r, Math.max(0, endMs - Date.now())));
  clearInterval(trickle);
  const heldAtEnd = sockets.filter((x) => !x.destroyed).length;
  for (const sock of sockets) sock.destroy();
  return { opened, heldAtEnd, closedByServer };
}

if (mode === 'resync') {
  await Promise.all(Array.from({ length: count }, () => viewer()));
  process.stdout.write(`${JSON.stringify({ mode, clients: count, connections, refusedUpgrades, refusedStatuses, messagesSent, snapshots, bytesReceived })}\n`);
} else {
  const r = await slowloris();
  process.stdout.write(`${JSON.stringify({ mode, ...r })}\n`);
}
process.exit(0);
