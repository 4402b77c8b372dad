import { afterAll, describe, expect, it } from 'vitest';
import type { LiveState } from '@muster/protocol';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { TestClient, tempDir } from './helpers.ts';

const dir = tempDir('muster-frames-');
let live: RunningLive | null = null;
let client: TestClient | null = null;
afterAll(async () => {
  await client?.close();
  await live?.stop();
  dir.remove();
});

describe('demo from rendered frames', () => {
  it('renders a frame with the generator, detects it with the real detector and publishes the stands where the script put them', async () => {
    live = await startLive({
      // One cached frame for the whole loop (battle time 0), replayed at 5 fps.
      source: { mode: 'demo', demoSource: 'frames', fps: 5, frameSize: { widthPx: 1920, heightPx: 1080 }, cacheFps: 1 / 150 },
      dataDir: dir.path,
      host: '127.0.0.1',
      port: 0,
      operatorToken: 'frames-token',
    });
    expect(live.frameCache?.total).toBe(1);
    client = await TestClient.connect(live.url);
    const deadline = Date.now() + 90_000;
    let state: LiveState = live.pipeline.state();
    while (state.tableState.stands.length < 40 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      state = live.pipeline.state();
    }
    expect(state.profile).toMatchObject({ source: 'demo-frames', frameWidthPx: 1920, frameHeightPx: 1080 });
    expect(state.tableState.stands).toHaveLength(40);
    // Script, t = 0: the 19th Alabama in line centred on (24, 6) facing +y; its command stand in the middle.
    const command = state.tableState.stands.find((s) => s.id === 'al19-1')!;
    expect(Math.hypot(command.pose.xIn - 24, command.pose.yIn - 6)).toBeLessThan(0.15);
    expect(Math.abs(command.pose.headingDeg - 90)).toBeLessThan(3);
    // The battery's tags sit 0.75" behind the gun centres: the roster offset is applied.
    const gun = state.tableState.stands.find((s) => s.id === 'alley-battery-1')!;
    expect(Math.hypot(gun.pose.xIn - 38, gun.pose.yIn - 41)).toBeLessThan(0.15);
    expect(state.profile.homography).not.toBeNull();
    // And a ws viewer gets it.
    await client.next('delta', (d) => d.seq > state.seq);
  });
});
