/**
 * Camera mode of the composition root: a frame source (webcam, IP camera, video file or folder of frames,
 * or the phone) → detector (table profile, lens) → the same game, pipeline and server as the demo. The
 * roster, table profile and calibrations given on the command line are saved in the data directory, so
 * a later start without them continues the same game. Each step is a function named for what it does.
 * A step that fails closes what the steps before it opened (`startSteps`), so a failed start exits.
 */
import { detectFrameLoop } from './detectFrames.ts';
import type { CameraLiveOptions, LiveOptions, RunningLive } from './liveOptions.ts';
import { serveLive } from './liveServer.ts';
import { loadCalibrations, saveLensCalibration } from './loadCalibrations.ts';
import { openCamera, sourceFrameRate } from './openCamera.ts';
import { openCameraStore } from './openCameraStore.ts';
import { openGame } from './openGame.ts';
import { openTrackedDetector } from './openTrackedDetector.ts';
import { phoneUpgradeOption } from './phoneCamera.ts';
import { pumpCameraFrames } from './pumpCameraFrames.ts';
import { runningLive } from './runningLive.ts';
import { startPipeline } from './startPipeline.ts';
import { startSteps } from './undoOnError.ts';
import { log } from '../log/logger.ts';

export async function startCamera(src: CameraLiveOptions, options: LiveOptions): Promise<RunningLive> {
  const { store, roster, profile, tableDoc } = openCameraStore(src, options.dataDir);
  const steps = startSteps();
  steps.opened(() => store.close());
  const game = await steps.step(() =>
    openGame({
      store,
      baseRoster: roster,
      seed: roster.name,
      ...(options.rulesetId !== undefined ? { rulesetId: options.rulesetId } : {}),
    }),
  );
  steps.opened(() => game.session.close());
  const calibrations = await steps.step(async () => {
    const loaded = await loadCalibrations(src, store, options.dataDir);
    saveLensCalibration(src, store, loaded);
    return loaded;
  });
  // The pipeline runs the rules on a worker thread: a start that fails after this must close it.
  const pipeline = await steps.step(() =>
    startPipeline(game, {
      table: { widthIn: profile.widthIn, depthIn: profile.heightIn },
      profile: { name: profile.sourceName, source: 'camera', frameWidthPx: null, frameHeightPx: null },
      tableProfileDoc: JSON.parse(tableDoc.text) as unknown,
      calibrationDoc: calibrations.lensDoc ?? null,
      poseLogBy: 'vision',
    }),
  );
  steps.opened(() => pipeline.close());
  const detector = await steps.step(async () => openTrackedDetector(profile, { fps: await sourceFrameRate(src), lens: calibrations.lens, fullFirst: true }));
  steps.opened(() => detector.dispose());
  const camera = await steps.step(() => openCamera(src));
  steps.opened(() => camera.source.close());
  camera.source.on('error', (err) => log.warn(`camera ${src.spec}: ${err.message}`));
  // Health says what the camera is doing (connecting, reconnecting with the last error, ended), also
  // while no frame comes: the pipeline's watchdog republishes when it changes.
  pipeline.setCameraStatus(camera.status);
  const live = await steps.step(() => serveLive(pipeline, options, { projector: calibrations.projector, ...phoneUpgradeOption(camera.source) }));
  const frameLoop = detectFrameLoop(camera.live, pipeline, detector);
  const pumping = pumpCameraFrames(src.spec, camera.source, calibrations.lens, live, frameLoop);
  return runningLive(
    { game, pipeline, live },
    {
      description: `camera ${src.spec} with table ${profile.sourceName} and roster "${roster.name}"`,
      frameCache: null,
      async stop() {
        frameLoop.close();
        await camera.source.close();
        await pumping;
        await detector.dispose();
      },
    },
  );
}
