/**
 * The demo's source, started into a served pipeline: rendered frames through the detector ('frames'), or
 * the script's ground-truth poses straight to the tracker ('truth').
 */
import { createNewestFrameLoop, type FrameDetection } from '@muster/vision';
import { createTruthSource, type TickSource } from '../demo/truthSource.ts';
import { newestFrameDetection, reportFrameError } from './detectFrames.ts';
import type { Demo } from './loadDemo.ts';
import { openTrackedDetector } from './openTrackedDetector.ts';
import { closeServedGame, type ServedGame, type StartedSource } from './runningLive.ts';
import { undoOnError } from './undoOnError.ts';
import { log } from '../log/logger.ts';

export function openDemoSource(demo: Demo, served: ServedGame, dataDir: string): Promise<StartedSource> {
  return demo.source === 'frames' ? openDemoFrames(demo, served, dataDir) : Promise.resolve(openTruthSource(demo, served));
}

/** Frames of the battle rendered by the project's generator (`demo/framesSource.ts`), detected like a camera's. */
async function openDemoFrames(demo: Demo, served: ServedGame, dataDir: string): Promise<StartedSource> {
  const { script, frameSize, fps } = demo;
  // The detector and the renderer load only for this source; when they fail, the served game closes.
  const { detector, createFramesSource } = await undoOnError(async () => {
    const { loadTableProfile } = await import('@muster/vision');
    const { createFramesSource } = await import('../demo/framesSource.ts');
    const profile = loadTableProfile(demo.tablePath);
    return { detector: await openTrackedDetector(profile, { fps }), createFramesSource };
  }, () => closeServedGame(served));
  const frames = createFramesSource({
    script,
    scriptPath: demo.scriptPath,
    rosterPath: demo.rosterPath,
    tablePath: demo.tablePath,
    dataDir,
    ...frameSize,
    playFps: fps,
    speed: demo.speed,
    ...(demo.cacheFps !== undefined ? { cacheFps: demo.cacheFps } : {}),
    onLog: (line) => log.info(line),
  });
  const frameLoop = newestFrameDetection(served.pipeline, detector);
  frames.start((frame) => {
    served.live.setNewestFrame(frame);
    frameLoop.offer(frame);
  });
  return {
    description: `demo "${script.name}" from rendered ${frameSize.widthPx}×${frameSize.heightPx} frames through the detector at ${fps} fps (${frames.mode === 'live' ? 'rendered live' : `cache ${frames.spec.dir}: ${frames.cached()}/${frames.spec.frames} frames rendered`})`,
    frameCache: { cached: () => frames.cached(), total: frames.spec.frames },
    async stop() {
      frameLoop.close();
      await frames.stop();
      await detector.dispose();
    },
  };
}

/** Ground-truth poses from the script, as detections, newest first. */
function openTruthSource(demo: Demo, served: ServedGame): StartedSource {
  const { script, fps } = demo;
  const source: TickSource = createTruthSource({ script, roster: demo.roster, fps, speed: demo.speed });
  const detectionLoop = createNewestFrameLoop<FrameDetection>({ process: (d) => served.pipeline.process(d), onError: reportFrameError });
  source.start((detection) => detectionLoop.offer(detection));
  return {
    description: `demo "${script.name}" from ground-truth poses at ${fps} fps (${demo.scriptPath})`,
    frameCache: null,
    async stop() {
      detectionLoop.close();
      source.stop();
    },
  };
}
