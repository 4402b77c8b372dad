/**
 * The opencv.js runtime, loaded once per thread. Only `detect/`, `cv/` and the synthetic frame
 * generator touch it; everything leaving those modules is plain arrays.
 */
import { createRequire } from 'node:module';

/**
 * The opencv.js module object. The package ships no typings for the aruco classes, so it is typed
 * loosely here and wrapped by small typed functions (`detect/`, `cv/convert.ts`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Cv = any;

let loading: Promise<Cv> | undefined;

/**
 * Resolves once the WASM runtime is initialised (~0.3–1 s). `require` is used on purpose: the
 * module's export is a thenable, so `await import()` would wait on it forever.
 *
 * opencv.js also installs process-wide `uncaughtException`/`unhandledRejection` handlers that abort
 * the process on any error anywhere; they are removed again so a bad frame is an ordinary exception.
 */
export function loadCv(): Promise<Cv> {
  loading ??= new Promise<Cv>((resolve, reject) => {
    const before = {
      unhandledRejection: new Set(process.listeners('unhandledRejection')),
      uncaughtException: new Set(process.listeners('uncaughtException')),
    };
    let cv: Cv;
    try {
      cv = createRequire(import.meta.url)('@techstark/opencv-js');
    } catch (err) {
      reject(new Error(`cannot load opencv.js (@techstark/opencv-js): ${(err as Error).message}`));
      return;
    }
    const restoreHandlers = (): void => {
      for (const l of process.listeners('unhandledRejection')) {
        if (!before.unhandledRejection.has(l)) process.removeListener('unhandledRejection', l);
      }
      for (const l of process.listeners('uncaughtException')) {
        if (!before.uncaughtException.has(l)) process.removeListener('uncaughtException', l);
      }
    };
    const done = (): void => {
      restoreHandlers();
      // The module object is a thenable whose `then` calls back with itself: resolving a promise with
      // it loops forever. It is fully initialised now, so drop `then` and hand it out as plain object.
      delete cv.then;
      resolve(cv);
    };
    if (cv.Mat) done();
    else cv.onRuntimeInitialized = done;
  });
  return loading;
}
