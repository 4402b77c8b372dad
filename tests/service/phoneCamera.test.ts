/**
 * `--camera phone`: a phone page pushes JPEG frames over the WebSocket `/camera` (with the operator token)
 * and the live pipeline tracks the stands in them. Driven here by a real ws client sending a rendered frame
 * of the opening battle, as `phone.html` does.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { REPO_ROOT, type RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { loadTableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { loadDemoScript } from '../../apps/server/src/demo/demoScript.ts';
import { truthDetection } from '../../apps/server/src/demo/truthSource.ts';
import { cameraLookingDown, renderTableFrame } from '../../fixtures/generator/renderTableFrame.ts';
import { tempDir } from './helpers.ts';

const TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');
const ROSTER = join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml');
const TOKEN = 'phone-token';
const dir = tempDir('muster-phone-');
let jpeg: Buffer;
let live: RunningLive | null = null;

beforeAll(async () => {
  const roster = await loadRoster(ROSTER);
  const script = loadDemoScript(join(REPO_ROOT, 'fixtures/demo/opening-battle.demo.json'), roster);
  const profile = loadTableProfile(TABLE);
  const tags = truthDetection(script, roster, 60, 0, 0).markers.map((m) => ({ id: m.id, xIn: m.xIn, yIn: m.yIn, headingDeg: m.headingDeg }));
  const { frame } = await renderTableFrame({ profile, tags }, cameraLookingDown(profile, 1920, 1080), { seed: 4, blurSigmaPx: 0.6, noiseSigma: 1.5 });
  jpeg = await sharp(frame.data, { raw: { width: frame.widthPx, height: frame.heightPx, channels: 1 } }).jpeg({ quality: 85 }).toBuffer();
  live = await startLive({ source: { mode: 'camera', spec: 'phone', tablePath: TABLE, rosterPath: ROSTER }, dataDir: dir.path, port: 0, operatorToken: TOKEN });
});
afterAll(async () => {
  await live?.stop();
  dir.remove();
});

function cameraUrl(token: string): string {
  return `${live!.url.replace(/^http/, 'ws')}/camera?token=${token}`;
}

describe('phone camera over WebSocket', () => {
  it('refuses a sender without the operator token', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(cameraUrl('wrong'));
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('a sender without the token was accepted')));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(401);
  });

  it('tracks the stands in the frames the phone sends, one ack per frame', async () => {
    const ws = new WebSocket(cameraUrl(TOKEN));
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => resolve());
      ws.on('error', reject);
    });
    const replies: { type: string; seq?: number }[] = [];
    ws.on('message', (data) => replies.push(JSON.parse(String(data)) as { type: string; seq?: number }));
    try {
      // Ack-paced like the page: send, wait for the ack, send again, until the stands are tracked.
      const deadline = Date.now() + 60_000;
      let sent = 0;
      while (live!.pipeline.state().tableState.stands.length < 40 && Date.now() < deadline) {
        ws.send(jpeg);
        sent++;
        while (replies.length < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      }
      expect(live!.pipeline.state().tableState.stands).toHaveLength(40);
      expect(replies.every((r) => r.type === 'ack')).toBe(true);
      expect(replies.map((r) => r.seq)).toEqual(replies.map((_, i) => i));
      const health = (await (await fetch(`${live!.url}/api/health`)).json()) as { trackedStands: number };
      expect(health.trackedStands).toBe(40);
    } finally {
      ws.close();
    }
  });
});
