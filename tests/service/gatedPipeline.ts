/**
 * A live pipeline on the opening-battle demo whose rules run on a worker with the gated rule set
 * (`fixtures/gatedRuleset.ts`): the test opens and closes the gate through `ctl` to hold the rules
 * mid-evaluation. `frame(seq)` is the demo's ground truth ten battle seconds per seq apart, so every frame's
 * stands stand somewhere else.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { GameSession } from '../../apps/server/src/game/gameSession.ts';
import { createLivePipeline } from '../../apps/server/src/live/livePipeline.ts';
import { loadRuleset } from '../../apps/server/src/rules/loadRuleset.ts';
import { loadDemoScript } from '../../apps/server/src/demo/demoScript.ts';
import { truthDetection } from '../../apps/server/src/demo/truthSource.ts';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';

const GATED = pathToFileURL(join(import.meta.dirname, 'fixtures/gatedRuleset.ts')).href;

export async function gatedDemoPipeline(storeDir: string, ctl: Int32Array) {
  const roster = await loadRoster(join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml'));
  const script = loadDemoScript(join(REPO_ROOT, 'fixtures/demo/opening-battle.demo.json'), roster);
  const session = new GameSession({ store: openDataStore(storeDir), baseRoster: roster, initialTerrain: script.terrain });
  const { ruleset } = await loadRuleset(undefined);
  const pipeline = createLivePipeline({
    session,
    table: script.table,
    ruleset,
    rulesWorker: { moduleUrl: GATED, exportName: 'gatedRuleset', moduleData: ctl.buffer },
    profile: { name: 'test', source: 'demo-truth', frameWidthPx: null, frameHeightPx: null },
    poseLogBy: 'demo',
  });
  const frame = (seq: number) => truthDetection(script, roster, seq * 10, seq, 1_000_000 + seq * 100);
  return { pipeline, session, frame };
}
