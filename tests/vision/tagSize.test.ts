/**
 * Tags too small for the camera are said, with the size to print: a rendered 1080p frame of half-inch
 * tags over the 72×48 in table (about 11 px each, where most are missed) warns and advises 1 in tags;
 * the same frame with 1 in tags does not. `muster markers --camera` says it before anything is printed.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrameDetector, type FrameDetector } from '../../apps/vision/src/detect/frameDetector.ts';
import { tagSizeAdvice } from '../../apps/vision/src/detect/tagSizeAdvice.ts';
import { loadTableProfile, parseTableProfile, tableProfileToJson } from '../../apps/vision/src/profile/tableProfile.ts';
import { cameraLookingDown, renderTableFrame, scatterStands, type RenderedFrame } from '../../fixtures/generator/renderTableFrame.ts';
import { USUAL_EFFECTS } from '../../fixtures/generator/hardFrames.ts';
import { muster } from '../cli/runMuster.ts';

const large = loadTableProfile(fileURLToPath(new URL('../../calibration/tables/large-72x48.json', import.meta.url)));
const oneInch = parseTableProfile({ ...tableProfileToJson(large), markerSize: 1 }, 'large-72x48 with 1 in tags');
let small: RenderedFrame;
let big: RenderedFrame;
let detectors: FrameDetector[] = [];

beforeAll(async () => {
  const camera = cameraLookingDown(large, 1920, 1080);
  small = await renderTableFrame({ profile: large, tags: scatterStands(large, 40, 5) }, camera, { seed: 5, ...USUAL_EFFECTS });
  big = await renderTableFrame({ profile: oneInch, tags: scatterStands(oneInch, 40, 5) }, camera, { seed: 5, ...USUAL_EFFECTS });
}, 120_000);
afterAll(() => detectors.forEach((d) => d.dispose()));

describe('tag size for the camera', () => {
  it('warns on half-inch tags at 1080p over a 72 in table and advises 1 in tags', async () => {
    const det = await createFrameDetector(large);
    detectors.push(det);
    const d = det.detect(small.frame);
    expect(d.tagSize).toBeDefined();
    expect(d.tagSize!.maxSidePx).toBeLessThan(14);
    expect(d.tagSize!.reliable).toBe(false);
    expect(d.tagSize!.advisedSizeIn).toBe(1);
    expect(d.warnings.join('\n')).toMatch(/stand tags \(1\/2"\) are \d+–\d+ px across.*print 1" tags/);
    // What it warns about is real: most half-inch tags are missed at this size.
    expect(d.markers.length).toBeLessThan(30);
  });

  it('is quiet on 1 in tags at 1080p, and measures the tags it found', async () => {
    const det = await createFrameDetector(oneInch);
    detectors.push(det);
    const d = det.detect(big.frame);
    expect(d.tagSize!.reliable).toBe(true);
    expect(d.tagSize!.advisedSizeIn).toBeNull();
    expect(d.tagSize!.seenMedianSidePx).toBeGreaterThan(18);
    expect(d.tagSize!.seenMedianSidePx).toBeLessThan(24);
    expect(d.warnings.some((w) => w.includes('px across'))).toBe(false);
    expect(d.markers.length).toBe(40);
  });

  it('advises from the view: smaller tags for a closer or sharper camera', () => {
    expect(tagSizeAdvice(large, 0.5, { widthPx: 1920, heightPx: 1080 }).advisedSizeIn).toBe(1);
    expect(tagSizeAdvice(large, 0.5, { widthPx: 3840, heightPx: 2160 })).toMatchObject({ reliable: true, advisedSizeIn: 0.5 });
    expect(tagSizeAdvice(large, 0.5, { widthPx: 1280, heightPx: 720 }).advisedSizeIn).toBe(1.5);
    expect(tagSizeAdvice({ widthIn: 48, heightIn: 48 }, 0.5, { widthPx: 1920, heightPx: 1080 }).advisedSizeIn).toBe(1);
  });

  it('muster markers --camera refuses tags too small and names the size', async () => {
    const tooSmall = await muster(['markers', '--camera', '1080p', '--no-board', '--out', '/dev/null.svg']);
    expect(tooSmall.code).toBe(2);
    expect(tooSmall.stderr).toMatch(/1\/2" tags .* would be 11 px across at 1920x1080 over the 72x48" table/);
    expect(tooSmall.stderr).toMatch(/Advised: 1" tags, about 23 px across: copy the table profile, set "markerSize": 1/);
    const bad = await muster(['markers', '--camera', 'huge', '--no-board']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--camera must be a resolution like 1920x1080/);
  });
});
