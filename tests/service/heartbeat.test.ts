import type { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { startDemo, TestClient, tempDir } from './helpers.ts';

const dir = tempDir('muster-heartbeat-');
let server: RunningServer | null = null;
afterAll(async () => {
  await server?.close();
  dir.remove();
});

describe('heartbeat', () => {
  it('drops a client that stopped answering pings and keeps one that answers', async () => {
    const live = await startDemo(dir.path);
    try {
      server = await startServer({ backend: live.pipeline, operatorToken: 'heartbeat-token', host: '127.0.0.1', port: 0, viewsDir: dir.path, hub: { heartbeatMs: 150 } });
      const healthy = await TestClient.connect(server.url);
      const dead = await TestClient.connect(server.url);
      await healthy.next('snapshot');
      await dead.next('snapshot');
      // A paused socket reads nothing, so it cannot answer pings: like a peer that vanished.
      (dead.ws as unknown as { _socket: Socket })._socket.pause();
      const deadline = Date.now() + 5000;
      while (server.hub.clientCount() > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(server.hub.clientCount()).toBe(1);
      expect(healthy.closed).toBe(false);
      await healthy.close();
      dead.ws.terminate();
    } finally {
      await live.stop();
    }
  });
});
