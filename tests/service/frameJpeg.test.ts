import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { ServiceBackend } from '../../apps/server/src/http/backend.ts';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import type { GrayFrame } from '../../apps/vision/src/pipeline/types.ts';

// The frame endpoint needs nothing of the backend; anything else it touched would throw.
const backend = new Proxy({ subscribe: () => () => {} } as unknown as ServiceBackend, {
  get: (target, key) => (key in target ? (target as unknown as Record<PropertyKey, unknown>)[key] : () => {
    throw new Error(`backend.${String(key)} not expected`);
  }),
});

function gradient(seq: number, widthPx = 160, heightPx = 120): GrayFrame {
  const data = new Uint8Array(widthPx * heightPx);
  for (let v = 0; v < heightPx; v++) for (let u = 0; u < widthPx; u++) data[v * widthPx + u] = (u + v + seq * 40) % 256 < 128 ? 40 : 200;
  return { widthPx, heightPx, data, seq, captureTimeMs: 1000 + seq };
}

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('GET /api/frame.jpg', () => {
  it('404 with a JSON error before the first frame, then the newest frame as JPEG', async () => {
    let newest: GrayFrame | null = null;
    server = await startServer({ backend, operatorToken: 'frame-token', port: 0, latestFrame: () => newest });
    const before = await fetch(`${server.url}/api/frame.jpg`);
    expect(before.status).toBe(404);
    expect(await before.json()).toMatchObject({ type: 'error', code: 'not-found', message: 'no camera frame yet' });

    for (const seq of [3, 4]) {
      newest = gradient(seq);
      const res = await fetch(`${server.url}/api/frame.jpg`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-frame-seq')).toBe(String(seq));
      expect(res.headers.get('x-capture-time-ms')).toBe(String(1000 + seq));
      const decoded = await sharp(Buffer.from(await res.arrayBuffer())).greyscale().raw().toBuffer({ resolveWithObject: true });
      expect(decoded.info).toMatchObject({ width: 160, height: 120, channels: 1 });
      // The picture is the frame (JPEG-close), not an older one: the stripes move by 40 px per seq.
      let diff = 0;
      for (let i = 0; i < newest.data.length; i++) diff += Math.abs(decoded.data[i]! - newest.data[i]!);
      expect(diff / newest.data.length).toBeLessThan(6);
    }
  });

  it('404 when the service has no frames at all (ground-truth demo)', async () => {
    server = await startServer({ backend, operatorToken: 'frame-token', port: 0 });
    const res = await fetch(`${server.url}/api/frame.jpg`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ type: 'error', code: 'not-found' });
  });
});

describe('GET /api/frame.jpg on the frames demo', () => {
  it('serves the newest rendered 1080p frame once frames flow', async () => {
    const { startLive } = await import('../../apps/server/src/compose/startLive.ts');
    const { tempDir } = await import('./helpers.ts');
    const dir = tempDir('muster-frame-jpg-');
    const live = await startLive({
      source: { mode: 'demo', demoSource: 'frames', fps: 5, frameSize: { widthPx: 1920, heightPx: 1080 } },
      dataDir: dir.path,
      host: '127.0.0.1',
      port: 0,
      operatorToken: 'frame-jpg-token',
    });
    try {
      let res = await fetch(`${live.url}/api/frame.jpg`);
      for (let i = 0; i < 120 && res.status === 404; i++) {
        await new Promise((r) => setTimeout(r, 250));
        res = await fetch(`${live.url}/api/frame.jpg`);
      }
      expect(res.status).toBe(200);
      const seq = Number(res.headers.get('x-frame-seq'));
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 1920, height: 1080 });
      // Later requests get later frames.
      await new Promise((r) => setTimeout(r, 600));
      const later = await fetch(`${live.url}/api/frame.jpg`);
      expect(Number(later.headers.get('x-frame-seq'))).toBeGreaterThan(seq);
    } finally {
      await live.stop();
      dir.remove();
    }
  }, 60_000);
});
