/**
 * The live pipeline for an open game: detections → tracker → roster → rules → published state. What
 * differs between the demo and a camera is only what the table is (`TableSpec`); the rest is the game's.
 */
import { createLivePipeline, type LivePipeline, type LivePipelineOptions } from '../live/livePipeline.ts';
import type { OpenGame } from './openGame.ts';

/** The table the pipeline publishes about, and who moves its stands (for the game log). */
export type TableSpec = Pick<LivePipelineOptions, 'table' | 'profile' | 'tableProfileDoc' | 'calibrationDoc' | 'poseLogBy'>;

export function startPipeline(game: OpenGame, table: TableSpec): LivePipeline {
  const { ruleset, note } = game.rules;
  const pipeline = createLivePipeline({
    ...table,
    session: game.session,
    ruleset,
    rulesUnavailableReason: note,
    // Rules run on a worker thread so a slow evaluation never holds back the poses.
    ...(ruleset ? { rulesWorker: game.rulesetId !== undefined ? { rulesetId: game.rulesetId } : {} } : {}),
  });
  game.forwardLogTo((e) => pipeline.notifyLog(e));
  return pipeline;
}
