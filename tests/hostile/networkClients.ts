/**
 * Child process of the hostile network tests: N ws clients that never read (each socket paused right
 * after the handshake). Mode `flood`: each sends the 15-byte invalid message `{"type":"nope"}` as fast
 * as its socket takes it (up to 1 MiB queued) for at most `seconds`; `idle`: they only stay connected.
 * Prints `connected` once all are open, then one JSON line (`ClientsReport`) and exits.
 * Usage: node --import tsx networkClients.ts <baseUrl> <n> flood|idle <seconds>
 */
import WebSocket from 'ws';

const [url, n, mode, s] = process.argv.slice(2);
if (!url || !n || (mode !== 'flood' && mode !== 'idle') || !s) throw new Error('usage: networkClients.ts <baseUrl> <n> flood|idle <seconds>');
const count = Number(n);
const endMs = Date.now() + Number(s) * 1000;
const MESSAGE = '{"type":"nope"}';
let sent = 0;
let failed = 0;
let closedEarly = 0;
const sockets: WebSocket[] = [];

await Promise.all(
  Array.from(
    { length: count },
    () =>
      new Promise<void>((resolve) => {
        const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
        ws.on('open', () => {
          ws.pause();
          sockets.push(ws);
          resolve();
        });
        ws.on('error', () => {
          // A refused upgrade, or the server dropping a socket that wrote into it: 'close' follows.
          if (ws.readyState === ws.CONNECTING || !sockets.includes(ws)) failed++;
          resolve();
        });
        ws.on('close', () => {
          if (Date.now() < endMs) closedEarly++;
        });
      }),
  ),
);
process.stdout.write('connected\n');

if (mode === 'flood') {
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      const open = sockets.filter((ws) => ws.readyState === ws.OPEN);
      if (Date.now() > endMs || open.length === 0) {
        resolve();
        return;
      }
      for (const ws of open) {
        for (let k = 0; k < 500 && ws.readyState === ws.OPEN && ws.bufferedAmount < 1 << 20; k++) {
          ws.send(MESSAGE);
          sent++;
        }
      }
      setImmediate(pump);
    };
    pump();
  });
} else {
  await new Promise((r) => setTimeout(r, Math.max(0, endMs - Date.now())));
}
// A closed socket that was paused reports its close only once resumed.
for (const ws of sockets) ws.resume();
await new Promise((r) => setTimeout(r, 200));
process.stdout.write(`${JSON.stringify({ opened: sockets.length, failed, sent, closedEarly })}\n`);
process.exit(0);
