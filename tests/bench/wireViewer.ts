/**
 * Child process for the service bench: one ws viewer in its own process, so that what it measures is
 * the wire, not the server's event loop (an in-process client only reads a message once the server's
 * main thread is free, e.g. after the demo renderer's next frame). Records, per delta, its arrival time
 * and what the wire says; the parent turns that into latencies.
 * Usage: node --import tsx wireViewer.ts <baseUrl> <warmupS> <seconds>
 * Prints one JSON line (`WireRecord[]` under `deltas`) and exits.
 */
import WebSocket from 'ws';
import { parseServerMessage } from '@muster/protocol';

/** One delta as the viewer saw it. */
export interface WireRecord {
  /** Arrival, ms since the epoch. */
  readonly atMs: number;
  readonly seq: number;
  readonly frameSeq: number;
  readonly captureTimeMs: number;
  /** The delta carried an evaluation change. */
  readonly evaluationChanged: boolean;
  /** From the wire (protocol 2); undefined from a protocol 1 server. */
  readonly evaluatedState?: { readonly seq: number; readonly frameSeq: number; readonly captureTimeMs: number } | null;
  readonly bytes: number;
}

const [url, warmup, s] = process.argv.slice(2);
if (!url || !warmup || !s) throw new Error('usage: wireViewer.ts <baseUrl> <warmupS> <seconds>');
const records: WireRecord[] = [];
let measuring = false;
let serverVersion = 1;
const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
ws.on('message', (data: Buffer) => {
  const atMs = Date.now();
  const parsed = parseServerMessage(data.toString(), serverVersion);
  if (!parsed.ok) {
    process.stderr.write(`wireViewer: invalid server message: ${parsed.message}\n`);
    process.exit(3);
  }
  const msg = parsed.value;
  if (msg.type === 'welcome') serverVersion = msg.protocolVersion;
  if (!measuring || msg.type !== 'delta') return;
  records.push({
    atMs,
    seq: msg.seq,
    frameSeq: msg.frameSeq,
    captureTimeMs: msg.captureTimeMs,
    evaluationChanged: msg.evaluation !== undefined,
    ...(msg.evaluatedState !== undefined ? { evaluatedState: msg.evaluatedState } : {}),
    bytes: data.length,
  });
});
await new Promise<void>((resolve, reject) => {
  ws.once('open', () => resolve());
  ws.once('error', reject);
});
await new Promise((r) => setTimeout(r, Number(warmup) * 1000));
process.stdout.write('measuring\n');
measuring = true;
await new Promise((r) => setTimeout(r, Number(s) * 1000));
measuring = false;
ws.close();
process.stdout.write(`${JSON.stringify({ deltas: records })}\n`);
process.exit(0);
