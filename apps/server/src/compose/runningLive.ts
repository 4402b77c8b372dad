/**
 * The last step of a start: what runs is handed back as a `RunningLive`, whose `stop()` (once) stops the
 * source first (no frame reaches a closed pipeline), then the server, the pipeline and the game.
 */
import type { LivePipeline } from '../live/livePipeline.ts';
import type { RunningLive } from './liveOptions.ts';
import type { LiveServer } from './liveServer.ts';
import type { OpenGame } from './openGame.ts';

/** A game with its pipeline, served. */
export interface ServedGame {
  readonly game: OpenGame;
  readonly pipeline: LivePipeline;
  readonly live: LiveServer;
}

/** A started source of frames or detections. */
export interface StartedSource {
  readonly description: string;
  readonly frameCache: RunningLive['frameCache'];
  stop(): Promise<void>;
}

/** Closes the server, the pipeline and the game session (which closes the data store). */
export async function closeServedGame({ game, pipeline, live }: ServedGame): Promise<void> {
  await live.server.close();
  pipeline.close();
  game.session.close();
}

export function runningLive(served: ServedGame, source: StartedSource): RunningLive {
  const { server, operatorToken } = served.live;
  let stopped = false;
  return {
    url: server.url,
    operatorToken,
    server,
    pipeline: served.pipeline,
    store: served.game.store,
    sourceDescription: source.description,
    rulesNote: served.game.rules.note,
    frameCache: source.frameCache,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      await source.stop();
      await closeServedGame(served);
    },
  };
}
