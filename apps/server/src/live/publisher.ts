/**
 * The live pipeline's publisher: holds the published `LiveState`, logs the poses of each new state to the
 * game, tells subscribers (the server), then hands the state to the rules worker. A worker evaluation is
 * published as a new state with the same poses (nothing logged, nothing resubmitted).
 */
import type { EvaluatedStateRef, LiveState } from '@muster/protocol';
import type { GameSession } from '../game/gameSession.ts';
import type { BackendEvent } from '../http/backend.ts';
import type { RulesResult } from '../rules/rulesWorker.ts';
import { withWorkerEvaluation } from './liveState.ts';
import type { RulesStage } from './rulesStage.ts';
import type { StageTimings } from './stageTimings.ts';

export interface Publisher {
  state(): LiveState;
  /** The `seq` of the next state (every publication takes one). */
  nextSeq(): number;
  publish(next: LiveState): LiveState;
  publishEvaluation(r: RulesResult<EvaluatedStateRef>): void;
  /** Publishes the current state with these parts replaced (same poses and evaluation; nothing logged or evaluated). */
  publishPatch(patch: Pick<Partial<LiveState>, 'focus' | 'ruleset'>): LiveState;
  emit(e: BackendEvent): void;
  subscribe(listener: (e: BackendEvent) => void): () => void;
}

export interface PublisherOptions {
  readonly session: GameSession;
  /** Who moves the stands, for the game log. */
  readonly poseLogBy: 'vision' | 'demo';
  readonly rules: Pick<RulesStage, 'submit' | 'error'>;
  readonly timings: StageTimings;
}

export function createPublisher(initial: LiveState, options: PublisherOptions): Publisher {
  const { session, rules, timings } = options;
  const listeners = new Set<(e: BackendEvent) => void>();
  const emit = (e: BackendEvent): void => {
    for (const l of listeners) l(e);
  };
  let state = initial;
  let seq = initial.seq;
  return {
    state: () => state,
    nextSeq: () => ++seq,
    publish(next) {
      const t0 = performance.now();
      state = next;
      session.logPoses(next.tableState.stands, options.poseLogBy);
      emit({ kind: 'state' });
      timings.published(performance.now() - t0);
      // Poses are out; now hand this state to the rules worker (coalesced while it is busy).
      rules.submit(next.tableState, { seq: next.seq, frameSeq: next.frameSeq, captureTimeMs: next.captureTimeMs });
      return next;
    },
    publishEvaluation(r) {
      // Same poses as the state out there, new evaluation: no pose logging, nothing resubmitted.
      const t0 = performance.now();
      state = withWorkerEvaluation(state, ++seq, r.evaluation, r.tag, rules.error());
      emit({ kind: 'state' });
      timings.evaluated(r, performance.now() - t0);
    },
    publishPatch(patch) {
      state = { ...state, ...patch, seq: ++seq };
      emit({ kind: 'state' });
      return state;
    },
    emit,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
