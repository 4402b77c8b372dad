/**
 * Demo mode of the composition root: the demo's script and roster → its own data store → game and rules
 * → pipeline → server → the demo's source (rendered frames through the detector, or ground-truth poses).
 * Each step is a function named for what it does, in a module of that name.
 */
import { openProjectorCalibration } from '../persist/projectorCalibrationStore.ts';
import type { DemoLiveOptions, LiveOptions, RunningLive } from './liveOptions.ts';
import { serveLive } from './liveServer.ts';
import { demoTableSpec, loadDemo } from './loadDemo.ts';
import { openDemoSource } from './openDemoSource.ts';
import { openDemoStore } from './openDemoStore.ts';
import { openGame } from './openGame.ts';
import { runningLive } from './runningLive.ts';
import { startPipeline } from './startPipeline.ts';
import { undoOnError } from './undoOnError.ts';
import { log } from '../log/logger.ts';

export async function startDemo(src: DemoLiveOptions, options: LiveOptions): Promise<RunningLive> {
  const demo = await loadDemo(src, options.rulesetId);
  const { store, note } = openDemoStore(options.dataDir, demo);
  const game = await openGame({
    store,
    baseRoster: demo.roster,
    initialTerrain: demo.script.terrain,
    seed: demo.script.name,
    ...(options.rulesetId !== undefined ? { rulesetId: options.rulesetId } : {}),
  });
  const closeGame = (): void => game.session.close();
  // The pipeline runs the rules on a worker thread: when the server cannot start (port in use), it is
  // closed with the game, or the process would never exit.
  const pipeline = await undoOnError(() => startPipeline(game, demoTableSpec(demo)), closeGame);
  const live = await undoOnError(
    () =>
      serveLive(pipeline, options, {
        // The demo must always start: a bad saved projector calibration is reported, not fatal.
        projector: openProjectorCalibration(store, { tolerateBadSaved: true, warn: (m) => log.warn(m) }),
      }),
    () => {
      pipeline.close();
      closeGame();
    },
  );
  const served = { game, pipeline, live };
  const source = await openDemoSource(demo, served, options.dataDir);
  return runningLive(served, { ...source, description: source.description + note });
}
