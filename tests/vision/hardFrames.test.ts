/**
 * Recall on harder rendered frames, at 1080p with 1 in tags (the same tag size in pixels as 4K with
 * half-inch tags, four times cheaper to render): a camera tilted 25° under harsh light with a glossy hot
 * spot, and a camera at the table's short end tilted 35° whose far tags are 10–14 px, where the
 * magnified second pass (`magnifySmallTags`) finds tags the single pass misses. Numbers for 4K and more
 * frames: `npm run bench -- vision` (part `hard`) and apps/vision/README.md "Harder frames".
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrameDetector, type FrameDetector } from '../../apps/vision/src/detect/frameDetector.ts';
import { loadCv } from '../../apps/vision/src/cv/loadCv.ts';
import { loadTableProfile, parseTableProfile, tableProfileToJson } from '../../apps/vision/src/profile/tableProfile.ts';
import { renderHardFrame } from '../../fixtures/generator/hardFrames.ts';
import type { RenderedFrame } from '../../fixtures/generator/renderTableFrame.ts';
import { scoreDetection } from '../../fixtures/generator/scoreDetection.ts';

const large = loadTableProfile(fileURLToPath(new URL('../../calibration/tables/large-72x48.json', import.meta.url)));
const oneInch = parseTableProfile({ ...tableProfileToJson(large), markerSize: 1 }, 'large-72x48 with 1 in tags');
let single: FrameDetector;
let magnified: FrameDetector;
let tiltedHarsh: RenderedFrame;
let endTilted: RenderedFrame;

beforeAll(async () => {
  tiltedHarsh = await renderHardFrame('tilt25Harsh', oneInch, 1920, 1080, 101);
  endTilted = await renderHardFrame('endTilt35', oneInch, 1920, 1080, 101);
  single = await createFrameDetector(oneInch);
  magnified = await createFrameDetector(oneInch, { magnifySmallTags: 2 });
}, 180_000);
afterAll(() => {
  single?.dispose();
  magnified?.dispose();
});

describe('harder frames', () => {
  it('a camera tilted 25° under harsh light and a hot spot: at least 94 % found, no false id', () => {
    const d = single.detect(tiltedHarsh.frame);
    const s = scoreDetection(d, tiltedHarsh.truth);
    expect(s.expected).toBe(150);
    expect(s.foundFraction).toBeGreaterThanOrEqual(0.94);
    expect(s.falseIds).toEqual([]);
    expect(s.positionRmsIn).toBeLessThan(0.01);
    // Every tag here is above the reliable size: no size warning, and the magnified pass has nothing to do.
    expect(d.tagSize!.reliable).toBe(true);
    expect(scoreDetection(magnified.detect(tiltedHarsh.frame), tiltedHarsh.truth).found).toBe(s.found);
    expect(magnified.lastMagnifiedWindow).toBeNull();
  });

  it('a camera at the end of the table: the magnified pass searches the far side and finds more, with no false id', () => {
    const plain = scoreDetection(single.detect(endTilted.frame), endTilted.truth);
    const d = magnified.detect(endTilted.frame);
    const more = scoreDetection(d, endTilted.truth);
    const w = magnified.lastMagnifiedWindow!;
    expect(w).not.toBeNull();
    // The far side is the top of the image.
    expect(w.v0).toBeLessThan(1080 / 2);
    expect(plain.falseIds).toEqual([]);
    expect(more.falseIds).toEqual([]);
    expect(more.found).toBeGreaterThanOrEqual(plain.found + 10);
    expect(more.positionRmsIn).toBeLessThan(0.02);
    // And the view says why tags are missed, with the size to print.
    expect(d.tagSize!.reliable).toBe(false);
    expect(d.warnings.join('\n')).toMatch(/stand tags \(1"\) are \d+–\d+ px across in this view/);
  });

  it('frees every opencv.js object of the magnified pass and the magnified cell reading', async () => {
    const cv = await loadCv();
    // Where a 64 MB block lands: without a leak freed memory coalesces and it lands at the same place.
    const probe = (): number => {
      const ptr = cv._malloc(64 << 20) as number;
      cv._free(ptr);
      return ptr;
    };
    for (let i = 0; i < 2; i++) magnified.detect(endTilted.frame);
    const before = probe();
    for (let i = 0; i < 8; i++) magnified.detect(endTilted.frame);
    expect(magnified.lastMagnifiedWindow).not.toBeNull();
    expect(probe() - before).toBeLessThan(2 << 20);
  });
});
