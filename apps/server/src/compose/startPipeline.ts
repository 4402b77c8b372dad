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
    // Rules run on a worker thread so a slow evaluation never holds back the poses (also after a live switch,
    // so the worker options are given even when the start has no rule set).
    rulesWorker: game.rulesetId !== undefined && ruleset ? { rulesetId: game.rulesetId } : {},
  });
  game.forwardLogTo((e) => pipeline.notifyLog(e));
  return pipeline;
}
