/** The printed pattern of a dictionary marker, read once from opencv.js and cached. */
import type { Cv } from '../cv/loadCv.ts';
import { withMats } from '../cv/withMats.ts';
import type { DictionaryName } from '../profile/tableProfile.ts';

const cache = new Map<string, Uint8Array>();

/**
 * Cells of marker `id` including its one-cell black border, row-major from the top-left, 1 = white.
 * `(bits + 2)²` values.
 */
export function markerCells(cv: Cv, dictionary: DictionaryName, bits: number, id: number): Uint8Array {
  const key = `${dictionary}:${id}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const n = bits + 2;
  const cells = withMats((track) => {
    const dict = track(cv.getPredefinedDictionary(cv[dictionary]));
    const img = track(new cv.Mat());
    cv.generateImageMarker(dict, id, n, img, 1);
    const data = img.data as Uint8Array;
    return Uint8Array.from({ length: n * n }, (_, i) => (data[i]! > 127 ? 1 : 0));
  });
  cache.set(key, cells);
  return cells;
}
