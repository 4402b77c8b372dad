import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { GameSession } from '../../apps/server/src/game/gameSession.ts';
import { createLivePipeline } from '../../apps/server/src/live/livePipeline.ts';
import { loadRuleset } from '../../apps/server/src/rules/loadRuleset.ts';
import { loadDemoScript } from '../../apps/server/src/demo/demoScript.ts';
import { truthDetection } from '../../apps/server/src/demo/truthSource.ts';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { tempDir } from './helpers.ts';

const dir = tempDir('muster-assign-');
afterAll(() => dir.remove());

describe('assigning an unknown tag at the table', () => {
  it('an unknown marker is reported, and once assigned to a roster stand that stand stands where the marker is', async () => {
    const roster = await loadRoster(join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml'));
    const script = loadDemoScript(join(REPO_ROOT, 'fixtures/demo/opening-battle.demo.json'), roster);
    const store = openDataStore(dir.path);
    const session = new GameSession({ store, baseRoster: roster, initialTerrain: script.terrain });
    const { ruleset } = await loadRuleset(undefined);
    const pipeline = createLivePipeline({
      session,
      table: script.table,
      ruleset,
      profile: { name: 'test', source: 'demo-truth', frameWidthPx: null, frameHeightPx: null },
      poseLogBy: 'demo',
    });
    try {
      // A replacement tag 500 on the table where us2's third stand should be; that stand's own tag (62) is lost.
      const frame = (seq: number) => {
        const d = truthDetection(script, roster, 0, seq, 1_000_000 + seq * 100);
        const lost = d.markers.find((m) => m.id === 62)!;
        return { ...d, markers: [...d.markers.filter((m) => m.id !== 62), { ...lost, id: 500 }] };
      };
      let seq = 0;
      for (; seq < 15; seq++) pipeline.process(frame(seq));
      let state = pipeline.state();
      expect(state.roster.unknownMarkerIds).toContain(500);
      expect(state.tracks.find((t) => t.markerId === 500)?.standId).toBeNull();
      expect(state.tableState.stands.some((s) => s.id === 'us2-3')).toBe(false);

      expect(() => pipeline.perform({ type: 'assign-tag', markerId: 500, standId: 'no-such-stand' })).toThrow(/no stand/);
      pipeline.perform({ type: 'assign-tag', markerId: 500, standId: 'us2-3' });
      for (const end = seq + 3; seq < end; seq++) pipeline.process(frame(seq));
      state = pipeline.state();
      expect(state.roster.unknownMarkerIds).not.toContain(500);
      expect(state.roster.bindings).toContainEqual({ markerId: 500, standId: 'us2-3' });
      const stand = state.tableState.stands.find((s) => s.id === 'us2-3');
      const marker = frame(seq).markers.find((m) => m.id === 500)!;
      expect(stand).toBeDefined();
      expect(Math.hypot(stand!.pose.xIn - marker.xIn, stand!.pose.yIn - marker.yIn)).toBeLessThan(0.05);
      expect(state.tracks.find((t) => t.markerId === 500)?.standId).toBe('us2-3');
      expect((await session.log.read(0, 100_000)).some((e) => e.kind === 'assign-tag')).toBe(true);
    } finally {
      pipeline.close();
      session.close();
    }
  });
});
