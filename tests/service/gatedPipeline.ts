/**
 * A live pipeline on the opening-battle demo whose rules run on a worker with the gated rule set
 * (`fixtures/gatedRuleset.ts`): the test opens and closes the gate through `ctl` to hold the rules
 * mid-evaluation. `frame(seq)` is the demo's ground truth ten battle seconds per seq apart, so every frame's
 * stands stand somewhere else.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../apps/vision/src/app/startLive.ts';
import { GameSession } from '../../apps/vision/src/app/gameSession.ts';
import { createLivePipeline } from '../../apps/vision/src/app/livePipeline.ts';
import { loadRuleset } from '../../apps/vision/src/app/rules.ts';
import { loadDemoScript } from '../../apps/vision/src/demo/demoScript.ts';
import { truthDetection } from '../../apps/vision/src/demo/truthSource.ts';
import { openDataStore } from '../../apps/vision/src/persist/dataStore.ts';
import { loadRoster } from '../../apps/vision/src/roster/loadRoster.ts';

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
