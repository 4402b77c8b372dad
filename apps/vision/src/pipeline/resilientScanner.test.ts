import { describe, expect, it } from 'vitest';
import type { BackgroundScanner, CompletedScan } from '../detect/backgroundScanner.ts';
import type { TableProfile } from '../profile/tableProfile.ts';
import type { GrayFrame } from './types.ts';
import type { FrameDetector } from '../detect/frameDetector.ts';
import type { TagPrediction } from '../track/tracker.ts';
import { createResilientScanner, createTrackedDetect, type ResilientScanner } from './resilientScanner.ts';

/** A stand-in scanner: `broken` ones throw from offer() as a scanner whose worker died does. */
function fakeScanner(broken: boolean, log: string[]): BackgroundScanner {
  const scan: CompletedScan = { seq: 1, scanMs: 1, markers: [{ id: 9, corners: new Float64Array(8) }] };
  let offered = false;
  return {
    ready: Promise.resolve(),
    offer() {
      if (broken) throw new Error('background scanner failed: worker died');
      offered = true;
      return true;
    },
    take: () => (offered ? scan : null),
    next: () => Promise.resolve(scan),
    async dispose() {
      log.push(broken ? 'disposed broken' : 'disposed good');
    },
  };
}

describe('resilient background scanner', () => {
  it('starts a scan at most every minIntervalMs', async () => {
    let t = 0;
    let offers = 0;
    const base = fakeScanner(false, []);
    const scanner = await createResilientScanner({} as TableProfile, () => {}, () => ({ ...base, offer: () => (offers++, true) }), 400, () => t);
    const frame = { seq: 1, captureTimeMs: 0, widthPx: 1, heightPx: 1, data: new Uint8Array(1) } as GrayFrame;
    expect(scanner.offer(frame)).toBe(true);
    t = 399;
    expect(scanner.offer(frame)).toBe(false);
    t = 400;
    expect(scanner.offer(frame)).toBe(true);
    expect(offers).toBe(2);
  });

  it('a scanner whose worker died is reported once and replaced; the frame loop never sees the error', async () => {
    const log: string[] = [];
    const warnings: string[] = [];
    let made = 0;
    const scanner = await createResilientScanner({} as TableProfile, (m) => warnings.push(m), () => fakeScanner(made++ === 0, log));
    const frame = { seq: 1, captureTimeMs: 0, widthPx: 1, heightPx: 1, data: new Uint8Array(1) } as GrayFrame;
    expect(scanner.offer(frame)).toBe(false);
    expect(warnings).toEqual(['background scanner failed (background scanner failed: worker died); restarted']);
    expect(made).toBe(2);
    expect(scanner.lastScan()).toEqual([]);
    expect(scanner.offer(frame)).toBe(true);
    expect(scanner.take()?.markers.map((m) => m.id)).toEqual([9]);
    expect(scanner.lastScan().map((m) => m.id)).toEqual([9]);
    await scanner.dispose();
    expect(log).toEqual(['disposed broken', 'disposed good']);
    expect(scanner.offer(frame)).toBe(false);
  });
});

describe('tracked detection for the live loop', () => {
  it('searches the whole frame only before the first homography and scan, then tracks, adding anchors the last frame lacked from the scan', async () => {
    const calls: { full: boolean; ids: number[] }[] = [];
    let homography: number[] | null = null;
    let anchorIds: number[] = [];
    const detector = {
      detect(_f: GrayFrame, predictions?: readonly { id: number }[]) {
        calls.push({ full: predictions === undefined, ids: (predictions ?? []).map((p) => p.id) });
        return { anchorIds, homography, markers: [], warnings: [] };
      },
    } as unknown as FrameDetector;
    let scanned: { id: number; corners: Float64Array }[] = [];
    const scanner = { lastScan: () => scanned } as unknown as ResilientScanner;
    const frame = { seq: 1, captureTimeMs: 0, widthPx: 1, heightPx: 1, data: new Uint8Array(1) } as GrayFrame;
    const step = createTrackedDetect(detector, scanner, new Set([0, 1]), true);
    step(frame, []); // nothing known yet: whole frame
    scanned = [{ id: 0, corners: new Float64Array(8) }, { id: 1, corners: new Float64Array(8) }, { id: 7, corners: new Float64Array(8) }];
    homography = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    anchorIds = [0]; // from here on the detector sees anchor 0 only
    step(frame, []); // a scan exists: tracked, with its anchors (stand 7 is the detector's own business)
    step(frame, [{ id: 5, cornersPx: [], stale: false } as unknown as TagPrediction]);
    step(frame, []);
    expect(calls).toEqual([
      { full: true, ids: [] },
      { full: false, ids: [0, 1] },
      { full: false, ids: [5, 1] },
      { full: false, ids: [1] },
    ]);
    // Without fullFirst the very first frame is tracked too.
    calls.length = 0;
    scanned = [];
    homography = null;
    createTrackedDetect(detector, scanner, new Set([0, 1]))(frame, []);
    expect(calls).toEqual([{ full: false, ids: [] }]);
  });
});
