/**
 * Things printed on the table that are not Muster tags are never stands or anchors: a rendered 1080p
 * frame (1 in tags, DICT_4X4_250) with the lens calibration's ChArUco board (DICT_4X4_50: its ids 0–3
 * are the anchors' ids and 4–16 stand ids at nearly the tags' size), a 6×6 ChArUco board, 6×6 and 5×5
 * markers and DICT_4X4_1000 codes beyond id 249, beside the stands. Before: the board's anchor ids
 * made every anchor a duplicate, so no homography and no stand at all (0 of 113); with the anchors
 * chosen by their layout, the board's markers came out as stands (4 false ids, 9 real ones lost as
 * duplicates).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrameDetector, type FrameDetector } from '../../apps/vision/src/detect/frameDetector.ts';
import { loadTableProfile, parseTableProfile, tableProfileToJson } from '../../apps/vision/src/profile/tableProfile.ts';
import { renderHardFrame } from '../../fixtures/generator/hardFrames.ts';
import type { RenderedFrame } from '../../fixtures/generator/renderTableFrame.ts';
import { scoreDetection } from '../../fixtures/generator/scoreDetection.ts';

const large = loadTableProfile(fileURLToPath(new URL('../../calibration/tables/large-72x48.json', import.meta.url)));
const oneInch = parseTableProfile({ ...tableProfileToJson(large), markerSize: 1 }, 'large-72x48 with 1 in tags');
let detector: FrameDetector;
let rendered: RenderedFrame;

beforeAll(async () => {
  rendered = await renderHardFrame('foreign', oneInch, 1920, 1080, 101, { stands: 120 });
  detector = await createFrameDetector(oneInch);
}, 120_000);
afterAll(() => detector?.dispose());

describe('foreign markers and ChArUco boards on the table', () => {
  it('reports none of them, keeps all four anchors and finds the stands', () => {
    const d = detector.detect(rendered.frame);
    const score = scoreDetection(d, rendered.truth);
    expect(d.anchorIds).toEqual([0, 1, 2, 3]);
    expect(score.falseIds).toEqual([]);
    expect(d.duplicateIds).toEqual([]);
    expect(score.expected).toBeGreaterThan(80);
    expect(score.foundFraction).toBeGreaterThanOrEqual(0.98);
    expect(score.positionRmsIn).toBeLessThan(0.01);
    expect(d.warnings.join('\n')).toMatch(/anchor id\(s\) 0, 1, 2, 3 that do not fit/);
    expect(d.warnings.join('\n')).toMatch(/on a chessboard/);
  });

  it('reads them the same in tracked mode seeded from the full frame', () => {
    const full = detector.detect(rendered.frame);
    const predictions = full.markers.map((m) => ({ id: m.id, cornersPx: m.cornersPx }));
    const tracked = detector.detect(rendered.frame, predictions);
    expect(scoreDetection(tracked, rendered.truth).falseIds).toEqual([]);
    expect(tracked.markers.length).toBe(full.markers.length);
  });
});
