/**
 * Camera mode of the composition root: a frame source (webcam, IP camera, video file or folder of frames,
 * or the phone) → detector (table profile, lens) → the same game, pipeline and server as the demo. The
 * roster, table profile and calibrations given on the command line are saved in the data directory, so
 * a later start without them continues the same game. Each step is a function named for what it does.
 */
import { detectFrameLoop } from './detectFrames.ts';
import type { CameraLiveOptions, LiveOptions, RunningLive } from './liveOptions.ts';
import { serveLive } from './liveServer.ts';
import { loadCalibrations, saveLensCalibration } from './loadCalibrations.ts';
import { openCamera } from './openCamera.ts';
import { openCameraStore } from './openCameraStore.ts';
import { openGame } from './openGame.ts';
import { openTrackedDetector } from './openTrackedDetector.ts';
import { phoneUpgradeOption } from './phoneCamera.ts';
import { pumpCameraFrames } from './pumpCameraFrames.ts';
import { runningLive } from './runningLive.ts';
import { startPipeline } from './startPipeline.ts';
import { undoOnError } from './undoOnError.ts';

export async function startCamera(src: CameraLiveOptions, options: LiveOptions): Promise<RunningLive> {
  const { store, roster, profile, tableDoc } = openCameraStore(src, options.dataDir);
  const game = await openGame({
    store,
    baseRoster: roster,
    seed: roster.name,
    ...(options.rulesetId !== undefined ? { rulesetId: options.rulesetId } : {}),
  });
  const closeGame = (): void => game.session.close();
  const calibrations = await undoOnError(() => loadCalibrations(src, store, options.dataDir), closeGame);
  saveLensCalibration(src, store, calibrations);
  const pipeline = startPipeline(game, {
    table: { widthIn: profile.widthIn, depthIn: profile.heightIn },
    profile: { name: profile.sourceName, source: 'camera', frameWidthPx: null, frameHeightPx: null },
    tableProfileDoc: JSON.parse(tableDoc.text) as unknown,
    calibrationDoc: calibrations.lensDoc ?? null,
    poseLogBy: 'vision',
  });
  const detector = await undoOnError(() => openTrackedDetector(profile, { fps: src.fps, lens: calibrations.lens, fullFirst: true }), closeGame);
  const closeDetector = async (): Promise<void> => {
    await detector.dispose();
    closeGame();
  };
  const camera = await undoOnError(() => openCamera(src.spec, src.fps), closeDetector);
  const live = await undoOnError(
    () => serveLive(pipeline, options, { projector: calibrations.projector, ...phoneUpgradeOption(camera.source) }),
    async () => {
      await camera.source.close();
      await closeDetector();
    },
  );
  camera.source.on('error', (err) => console.error(`muster: camera ${src.spec}: ${err.message}`));
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
