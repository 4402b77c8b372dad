import { describe, expect, it } from 'vitest';
import type { BackgroundScanner, CompletedScan } from '../detect/backgroundScanner.ts';
import type { TableProfile } from '../profile/tableProfile.ts';
import type { GrayFrame } from '../pipeline/types.ts';
import { createResilientScanner } from './resilientScanner.ts';

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
