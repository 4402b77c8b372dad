/**
 * Scoped ownership for opencv.js objects. Every Mat, MatVector, Dictionary, DetectorParameters and
 * detector lives on the WASM heap and is freed only by `.delete()`; a hundred leaked 4K Mats fill the
 * heap and the error is a bare number. Allocate through `track` and they are deleted when `fn` returns
 * or throws.
 *
 * @example
 * const count = withMats((track) => {
 *   const mat = track(new cv.Mat(h, w, cv.CV_8UC1));
 *   return cv.countNonZero(mat); // plain number out, Mat deleted
 * });
 */
export interface Deletable {
  delete(): void;
}

export type Track = <T extends Deletable>(obj: T) => T;

export function withMats<R>(fn: (track: Track) => R): R {
  const owned: Deletable[] = [];
  const track: Track = (obj) => {
    owned.push(obj);
    return obj;
  };
  try {
    const result = fn(track);
    if (result instanceof Promise) {
      throw new Error('withMats: fn must be synchronous (opencv objects would be freed before it finished)');
    }
    return result;
  } finally {
    for (let i = owned.length - 1; i >= 0; i--) {
      try {
        owned[i]!.delete();
      } catch {
        // Already deleted by its owner; nothing more to free.
      }
    }
  }
}
