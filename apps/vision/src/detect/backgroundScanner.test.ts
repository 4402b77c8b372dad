/**
 * A stand put down while the detector is in tracked mode (only looking where the tracker predicts tags)
 * is found through the background full-frame scan on the worker thread (its own opencv.js).
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadTableProfile, parseTableProfile, tableProfileToJson } from '../profile/tableProfile.ts';
import { createFrameDetector } from './frameDetector.ts';
import { createBackgroundScanner } from './backgroundScanner.ts';
import { cameraLookingDown, renderTableFrame } from '../../../../fixtures/generator/renderTableFrame.ts';
import { truthPredictions } from '../../../../fixtures/generator/scoreDetection.ts';

describe('background scanner', () => {
  it('finds a stand the tracker did not predict within one scan', async () => {
    const base = loadTableProfile(fileURLToPath(new URL('../../../../calibration/tables/default-72x48.json', import.meta.url)));
    const profile = parseTableProfile({ ...tableProfileToJson(base), markerSize: 1 }, '1in');
    const tags = [
      { id: 4, xIn: 10, yIn: 10, headingDeg: 0 },
      { id: 5, xIn: 30, yIn: 25, headingDeg: 120 },
      { id: 9, xIn: 55, yIn: 35, headingDeg: 250 }, // newly put down
    ];
    const { frame, truth } = await renderTableFrame({ profile, tags }, cameraLookingDown(profile, 1280, 720), { seed: 8, blurSigmaPx: 0.6, noiseSigma: 2 });
    const known = truthPredictions(truth).filter((p) => p.id !== 9);
    const scanner = createBackgroundScanner(profile);
    const det = await createFrameDetector(profile, { backgroundScanner: scanner });
    try {
      await scanner.ready;
      expect(det.detect(frame).anchorIds).toEqual([0, 1, 2, 3]); // full frame once: anchors known
      const first = det.detect({ ...frame, seq: 1 }, known); // offers the frame to the scanner
      expect(first.markers.map((m) => m.id)).toEqual([4, 5]);
      const scan = await scanner.next();
      expect(scan.seq).toBe(1);
      expect(scan.markers.map((m) => m.id).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 9]);
      const second = det.detect({ ...frame, seq: 2 }, known);
      expect(second.markers.map((m) => m.id)).toEqual([4, 5, 9]);
      const m9 = second.markers.find((m) => m.id === 9)!;
      expect(Math.hypot(m9.xIn - 55, m9.yIn - 35)).toBeLessThan(0.05);
    } finally {
      det.dispose();
      await scanner.dispose();
    }
  });
});
