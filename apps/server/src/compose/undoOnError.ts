/**
 * A start-up step that may fail: when it throws, what the steps before it opened is undone (`undo`) and
 * the error goes on, so a failed start leaves nothing running and no data directory locked.
 */
export async function undoOnError<T>(step: () => T | Promise<T>, undo: () => void | Promise<void>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    await undo();
    throw err;
  }
}
