/**
 * Start-up steps that may fail: when one throws, what the steps before it opened is undone and the error
 * goes on, so a failed start leaves nothing running (no rules worker thread, scanner worker, ffmpeg,
 * socket or timer keeping the process alive) and no data directory locked.
 *
 * `undoOnError(step, undo)` for one step; `startSteps()` for a sequence: each opened thing registers its
 * undo (`opened`), each step runs through `step`, and a failing step undoes everything registered so
 * far, newest first. An undo that throws is said on stderr and does not hide the step's error.
 */
import { log } from '../log/logger.ts';
export type Undo = () => void | Promise<void>;

async function runUndo(undo: Undo): Promise<void> {
  try {
    await undo();
  } catch (err) {
    log.warn(`while undoing a failed start: ${(err as Error).message}`);
  }
}

export async function undoOnError<T>(step: () => T | Promise<T>, undo: Undo): Promise<T> {
  try {
    return await step();
  } catch (err) {
    await runUndo(undo);
    throw err;
  }
}

export interface StartSteps {
  /** What undoes something just opened (run, newest first, when a later step fails). */
  opened(undo: Undo): void;
  /** Runs a step; when it throws, everything `opened` so far is undone and the error goes on. */
  step<T>(run: () => T | Promise<T>): Promise<T>;
}

export function startSteps(): StartSteps {
  const undos: Undo[] = [];
  return {
    opened(undo) {
      undos.push(undo);
    },
    async step(run) {
      try {
        return await run();
      } catch (err) {
        while (undos.length > 0) await runUndo(undos.pop()!);
        throw err;
      }
    },
  };
}
