import { describe, expect, it } from 'vitest';
import { screenPxToTable, tableToScreenPx } from './homography.ts';
import { fitTable, fitTableReserving, fitToHomography, panFit, zoomFitAt } from './tableFit.ts';

describe('fitTable', () => {
  it('fits a 6×4 ft table into a wide view, centred, near edge at the bottom', () => {
    const fit = fitTable({ widthIn: 72, depthIn: 48 }, { widthPx: 1000, heightPx: 524 }, 12);
    expect(fit.pxPerIn).toBeCloseTo(500 / 48, 9); // height-limited
    const h = fitToHomography(fit);
    const nearLeft = tableToScreenPx(h, { xIn: 0, yIn: 0 });
    const farRight = tableToScreenPx(h, { xIn: 72, yIn: 48 });
    expect(nearLeft.yPx).toBeCloseTo(512, 9); // bottom margin 12
    expect(farRight.yPx).toBeCloseTo(12, 9); // top margin 12
    expect((nearLeft.xPx + farRight.xPx) / 2).toBeCloseTo(500, 9); // centred
  });

  it('fits a phone in portrait by width', () => {
    const fit = fitTable({ widthIn: 72, depthIn: 48 }, { widthPx: 390, heightPx: 700 }, 10);
    expect(fit.pxPerIn).toBeCloseTo(370 / 72, 9);
  });

  it('keeps the point under the cursor fixed when zooming, and pans by pixels', () => {
    const fit = fitTable({ widthIn: 72, depthIn: 48 }, { widthPx: 800, heightPx: 600 });
    const anchor = { xPx: 300, yPx: 200 };
    const before = screenPxToTable(fitToHomography(fit), anchor);
    const zoomed = zoomFitAt(fit, 2.5, anchor);
    expect(zoomed.pxPerIn).toBeCloseTo(fit.pxPerIn * 2.5, 9);
    const after = screenPxToTable(fitToHomography(zoomed), anchor);
    expect(after.xIn).toBeCloseTo(before.xIn, 9);
    expect(after.yIn).toBeCloseTo(before.yIn, 9);
    const panned = tableToScreenPx(fitToHomography(panFit(fit, 10, -4)), { xIn: 1, yIn: 1 });
    const orig = tableToScreenPx(fitToHomography(fit), { xIn: 1, yIn: 1 });
    expect(panned.xPx - orig.xPx).toBeCloseTo(10, 9);
    expect(panned.yPx - orig.yPx).toBeCloseTo(-4, 9);
  });

  it('turns a landscape table a quarter on a portrait phone when allowed, keeping handedness', () => {
    const upright = fitTable({ widthIn: 72, depthIn: 48 }, { widthPx: 390, heightPx: 700 }, 10, false);
    const fit = fitTable({ widthIn: 72, depthIn: 48 }, { widthPx: 390, heightPx: 700 }, 10, true);
    expect(fit.quarterTurn).toBe(true);
    expect(fit.pxPerIn).toBeCloseTo(Math.min(370 / 48, 680 / 72), 9);
    expect(fit.pxPerIn).toBeGreaterThan(upright.pxPerIn * 1.4);
    const h = fitToHomography(fit);
    const o = tableToScreenPx(h, { xIn: 0, yIn: 0 });
    const x = tableToScreenPx(h, { xIn: 1, yIn: 0 });
    const y = tableToScreenPx(h, { xIn: 0, yIn: 1 });
    expect(x.yPx - o.yPx).toBeGreaterThan(0); // +x runs down
    expect(y.xPx - o.xPx).toBeGreaterThan(0); // +y runs right
    // A rotation, not a mirror: same orientation sign as the upright fit.
    const det = (hh: readonly number[]) => hh[0]! * hh[4]! - hh[1]! * hh[3]!;
    expect(Math.sign(det(h))).toBe(Math.sign(det(fitToHomography(upright))));
    const far = tableToScreenPx(h, { xIn: 72, yIn: 48 });
    expect(far.xPx).toBeLessThanOrEqual(380 + 1e-9);
    expect(far.yPx).toBeLessThanOrEqual(690 + 1e-9);
    // A landscape view never turns.
    expect(fitTable({ widthIn: 72, depthIn: 48 }, { widthPx: 1000, heightPx: 600 }, 10, true).quarterTurn).toBe(false);
  });

  it('rejects an empty table', () => {
    expect(() => fitTable({ widthIn: 0, depthIn: 48 }, { widthPx: 100, heightPx: 100 })).toThrow(/positive/);
  });
});

describe('fitTableReserving', () => {
  const table = { widthIn: 72, depthIn: 48 };
  const box = (fit: ReturnType<typeof fitTable>) => {
    const h = fitToHomography(fit);
    const a = tableToScreenPx(h, { xIn: 0, yIn: 0 });
    const b = tableToScreenPx(h, { xIn: 72, yIn: 48 });
    return { top: Math.min(a.yPx, b.yPx), bottom: Math.max(a.yPx, b.yPx), left: Math.min(a.xPx, b.xPx), right: Math.max(a.xPx, b.xPx) };
  };

  it('keeps the table under a top bar, whatever that costs', () => {
    const fit = fitTableReserving(table, { widthPx: 1600, heightPx: 858 }, { topPx: 96, bottomPx: 0 }, 12);
    expect(box(fit).top).toBeCloseTo(96 + 12, 9);
    expect(box(fit).bottom).toBeCloseTo(858 - 12, 9);
    expect(fit.pxPerIn).toBeCloseTo((858 - 96 - 24) / 48, 9);
  });

  it('on a portrait phone puts the legend band under the table, the table at the top at full width', () => {
    const viewport = { widthPx: 390, heightPx: 802 };
    const plain = fitTable(table, viewport, 4, true);
    const fit = fitTableReserving(table, viewport, { topPx: 0, bottomPx: 150 }, 4, true);
    expect(fit.quarterTurn).toBe(true);
    expect(fit.pxPerIn).toBeCloseTo(plain.pxPerIn, 9); // the spare height was there anyway
    expect(fit.pxPerIn).toBeCloseTo(382 / 48, 9);
    expect(box(fit).top).toBeCloseTo(4, 9);
    expect(box(fit).bottom).toBeLessThanOrEqual(802 - 150);
  });

  it('leaves a small bottom band over the table where clearing it would shrink the table', () => {
    const viewport = { widthPx: 1280, heightPx: 758 };
    const plain = fitTable(table, viewport, 12);
    const fit = fitTableReserving(table, viewport, { topPx: 0, bottomPx: 60 }, 12);
    expect(fit).toEqual(plain);
  });
});

