/**
 * The live pipeline on the opening-battle demo's ground truth at one battle moment, the rules inline (each
 * published state carries its own evaluation), its log entries forwarded to the clients as the composition
 * root wires them. For tests that need the real rules on a table that holds still.
 */
import { join } from 'node:path';
import type { GameLogEntry } from '@muster/protocol';
import type { Ruleset } from '@muster/rules';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { GameSession } from '../../apps/server/src/game/gameSession.ts';
import { createLivePipeline, type LivePipeline } from '../../apps/server/src/live/livePipeline.ts';
import { loadDemoScript } from '../../apps/server/src/demo/demoScript.ts';
import { truthDetection } from '../../apps/server/src/demo/truthSource.ts';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';

export async function demoPipelineAt(storeDir: string, battleSeconds: number, ruleset: Ruleset, seed = 'demo-pipeline'): Promise<{ pipeline: LivePipeline; session: GameSession; close(): void }> {
  const roster = await loadRoster(join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml'));
  const script = loadDemoScript(join(REPO_ROOT, 'fixtures/demo/opening-battle.demo.json'), roster);
  let forward: (entry: GameLogEntry) => void = () => {};
  const session = new GameSession({ store: openDataStore(storeDir), baseRoster: roster, initialTerrain: script.terrain, seed, onLog: (e) => forward(e) });
  const pipeline = createLivePipeline({ session, table: script.table, ruleset, profile: { name: 'test', source: 'demo-truth', frameWidthPx: null, frameHeightPx: null }, poseLogBy: 'demo' });
  forward = (e) => pipeline.notifyLog(e);
  pipeline.process(truthDetection(script, roster, battleSeconds, 1, 1_000_000));
  return {
    pipeline,
    session,
    close() {
      pipeline.close();
      session.close();
    },
  };
}
