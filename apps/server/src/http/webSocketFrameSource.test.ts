// The phone camera's frame source: JPEG messages over a ws path of the service's own HTTP server.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { GrayFrame } from '@muster/vision';
import { brightColumn, markedImage } from '../../../../fixtures/generator/markedImage.ts';
import { createWebSocketFrameSource } from './webSocketFrameSource.ts';

describe('WebSocket frames from a browser page', () => {
  it('decodes JPEG messages into frames, acks them, and reports bad ones', async () => {
    const source = createWebSocketFrameSource({ path: '/camera' });
    const server = createServer();
    server.on('upgrade', (req, socket, head) => {
      if (!source.handleUpgrade(req, socket, head)) socket.destroy();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const errors: string[] = [];
    source.on('error', (e) => errors.push(e.message));

    const ws = new WebSocket(`ws://127.0.0.1:${port}/camera`);
    await once(ws, 'open');
    const replies: Array<{ type: string; seq?: number; message?: string }> = [];
    const nextReply = () => once(ws, 'message').then(([m]) => {
      const r = JSON.parse(String(m)) as { type: string; seq?: number; message?: string };
      replies.push(r);
      return r;
    });

    const iterator = source[Symbol.asyncIterator]();
    ws.send(await markedImage(1, 'jpeg'));
    expect(await nextReply()).toEqual({ type: 'ack', seq: 0 });
    const f0 = (await iterator.next()).value as GrayFrame;
    expect([f0.seq, f0.widthPx, f0.heightPx, Math.round(brightColumn(f0))]).toEqual([0, 64, 48, 15]);

    ws.send('hello');
    expect((await nextReply()).message).toMatch(/binary message holding a JPEG/);
    ws.send(Buffer.from('garbage'));
    expect((await nextReply()).message).toMatch(/message 1: cannot decode the image/);
    expect(errors.join('\n')).toMatch(/cannot decode the image/);

    ws.send(await markedImage(3, 'jpeg'));
    expect(await nextReply()).toEqual({ type: 'ack', seq: 1 });
    const f1 = (await iterator.next()).value as GrayFrame;
    expect([f1.seq, Math.round(brightColumn(f1))]).toEqual([1, 31]);
    expect(source.connected).toBe(true);

    // A phone that reconnects replaces its old socket.
    const phone2 = new WebSocket(`ws://127.0.0.1:${port}/camera`);
    const oldClosed = once(ws, 'close');
    await once(phone2, 'open');
    const [oldCode] = await oldClosed;
    expect(oldCode).toBe(4000);
    phone2.send(await markedImage(2, 'jpeg'));
    const [ack2] = await once(phone2, 'message');
    expect(JSON.parse(String(ack2))).toEqual({ type: 'ack', seq: 2 });
    expect(Math.round(brightColumn((await iterator.next()).value as GrayFrame))).toBe(23);

    // Another path is left for other handlers.
    const other = new WebSocket(`ws://127.0.0.1:${port}/elsewhere`);
    await expect(once(other, 'open')).rejects.toThrow();

    const closed = once(phone2, 'close');
    await source.close();
    const [code] = await closed;
    expect(code).toBe(1001);
    expect((await iterator.next()).done).toBe(true);
    await new Promise((r) => server.close(r));
  });
});
