import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import type { ServiceBackend } from '../../apps/server/src/http/backend.ts';
import { startDemo, tempDir } from './helpers.ts';

const dir = tempDir('muster-views-');
let server: RunningServer | null = null;
afterAll(async () => {
  await server?.close();
  dir.remove();
});

describe('views not built', () => {
  it('serves a page that says how to build them, while the API keeps working', async () => {
    const live = await startDemo(dir.path);
    const backend: ServiceBackend = live.pipeline;
    try {
      server = await startServer({ backend, operatorToken: 'views-token', host: '127.0.0.1', port: 0, viewsDir: join(dir.path, 'no-dist') });
      const page = await fetch(`${server.url}/map.html`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('npm run build -w @muster/overlay');
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await live.stop();
    }
  });
});
