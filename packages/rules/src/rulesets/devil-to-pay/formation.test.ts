import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { recognizeFormation } from './formation.ts';
import { ARTILLERY_BASE, CAVALRY_BASE, INFANTRY_BASE, file, grid, placeStands, staggered, unitOf } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';
import type { LocalStand, UnitSpec } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';
import type { Stand } from '../../model/tableState.ts';

function read(locals: readonly LocalStand[], headingDeg = 90, spec: UnitSpec = { id: 'u' }, base: { widthIn: number; depthIn: number } = INFANTRY_BASE, jitter?: (s: Stand) => Stand) {
  let stands = placeStands({ unitId: spec.id, xIn: 30, yIn: 20, headingDeg, base }, locals);
  if (jitter) stands = stands.map(jitter);
  return recognizeFormation(unitOf(spec, stands), stands);
}

describe('recognizeFormation (The Devil to Pay (2018), Armies)', () => {
  it('reads six stands side by side as a line, whichever way the unit faces', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 359.9, noNaN: true }), (headingDeg) => {
        const r = read(grid(6, 6, INFANTRY_BASE), headingDeg);
        expect(r.formation).toBe('line');
        expect(r.confidence).toBeGreaterThan(0.9);
        expect(r.source).toBe('geometry');
        expect(r.frontRankStandIds).toHaveLength(6);
        expect(r.referenceStandId).toBe('u-s0');
      }),
      { numRuns: 40 },
    );
  });

  it('tolerates small placement errors in a line but loses confidence', () => {
    const exact = read(grid(5, 5, INFANTRY_BASE));
    const rough = read(grid(5, 5, INFANTRY_BASE), 90, { id: 'u' }, INFANTRY_BASE, (s) =>
      s.id === 'u-s3' ? { ...s, pose: { ...s.pose, yIn: s.pose.yIn + 0.5 } } : s,
    );
    expect(rough.formation).toBe('line');
    expect(rough.confidence).toBeLessThan(exact.confidence);
  });

  it('reads one to two stand widths between stands as loose order, and more as unknown', () => {
    expect(read(grid(5, 5, INFANTRY_BASE, 1.5)).formation).toBe('loose-order');
    expect(read(grid(5, 5, INFANTRY_BASE, 3)).formation).toBe('loose-order');
    const wide = read(grid(5, 5, INFANTRY_BASE, 6));
    expect(wide.formation).toBe('unknown');
    expect(wide.confidence).toBe(0);
    // Half a width apart is neither line nor loose order: low confidence either way.
    expect(read(grid(5, 5, INFANTRY_BASE, 0.75)).confidence).toBeLessThan(0.7);
  });

  it('reads two ranks with the front at least as long as the rear as a double line', () => {
    const r = read(grid(7, 4, INFANTRY_BASE));
    expect(r.formation).toBe('double-line');
    expect(r.frontRankStandIds).toHaveLength(4);
    // Rear rank longer than the front is not a double line (Armies, Infantry: double line).
    const reversed = grid(7, 4, INFANTRY_BASE).map((l) => ({ ...l, v: -INFANTRY_BASE.depthIn - l.v }));
    expect(read(reversed).formation).not.toBe('double-line');
  });

  it('reads two wide and three or more deep with the colours in front as an attack column', () => {
    const r = read(grid(6, 2, INFANTRY_BASE), 200);
    expect(r.formation).toBe('attack-column');
    expect(r.confidence).toBeGreaterThan(0.9);
    expect(r.frontRankStandIds).toHaveLength(2);
    expect(r.frontRankStandIds).toContain('u-s0');
    // Five stands (2, 2, 1) still make an attack column.
    expect(read(grid(5, 2, INFANTRY_BASE)).formation).toBe('attack-column');
    // Four stands 2 x 2 are only two ranks: a double line, never an attack column (needs five stands).
    expect(read(grid(4, 2, INFANTRY_BASE)).formation).toBe('double-line');
  });

  it('trusts an attack column less when the command stand is not in front', () => {
    const locals = grid(6, 2, INFANTRY_BASE);
    const back = locals.map((l, i) => (i === 0 ? { ...l, v: locals[5]!.v } : i === 5 ? { ...l, v: 0 } : l));
    const r = read(back);
    expect(r.formation === 'attack-column' ? r.confidence : 0).toBeLessThan(0.6);
  });

  it('reads single file as a march column, also when it bends along a road', () => {
    const straight = read(file(6, INFANTRY_BASE), 0);
    expect(straight.formation).toBe('march-column');
    expect(straight.frontRankStandIds).toEqual(['u-s0']);
    // Bend: each stand turns 15° more and sits behind the previous one in its own frame.
    const bent: LocalStand[] = [];
    let u = 0;
    let v = 0;
    let rel = 0;
    for (let i = 0; i < 6; i++) {
      bent.push({ u, v, relDeg: rel, role: i === 0 ? 'command' : 'base' });
      const back = (rel * Math.PI) / 180;
      // Next stand 1.5" behind along the current facing; then turn.
      u += Math.sin(back) * 1.5;
      v -= Math.cos(back) * 1.5;
      rel -= 15;
    }
    expect(read(bent, 45).formation).toBe('march-column');
  });

  it('reads staggered stands as disordered', () => {
    const r = read(staggered(6, INFANTRY_BASE), 135);
    expect(r.formation).toBe('disordered');
    expect(r.confidence).toBeGreaterThan(0.9);
  });

  it('lets status.formation and status.disordered override geometry', () => {
    const byStatus = read(grid(6, 6, INFANTRY_BASE), 90, { id: 'u', status: { formation: 'loose-order' } });
    expect(byStatus).toMatchObject({ formation: 'loose-order', confidence: 1, source: 'status' });
    const disordered = read(grid(6, 6, INFANTRY_BASE), 90, { id: 'u', status: { disordered: true } });
    expect(disordered).toMatchObject({ formation: 'disordered', confidence: 1, source: 'status' });
    // The front rank still comes from the stands: a status attack column fires with its two front stands.
    const column = read(grid(6, 2, INFANTRY_BASE), 90, { id: 'u', status: { formation: 'attack-column' } });
    expect(column.frontRankStandIds).toHaveLength(2);
  });

  it('reads artillery limbered or unlimbered from stand roles, and status.limbered overrides', () => {
    const guns = grid(3, 3, ARTILLERY_BASE).map((l) => ({ ...l, role: 'gun' as const }));
    const unlimbered = read(guns, 90, { id: 'b', arm: 'artillery' }, ARTILLERY_BASE);
    expect(unlimbered).toMatchObject({ formation: 'unlimbered', limbered: false });
    const withLimbers = [...guns, { u: 0, v: -4, role: 'limber' as const }];
    expect(read(withLimbers, 90, { id: 'b', arm: 'artillery' }, ARTILLERY_BASE)).toMatchObject({ formation: 'limbered', limbered: true });
    expect(read(guns, 90, { id: 'b', arm: 'artillery', status: { limbered: true } }, ARTILLERY_BASE).formation).toBe('limbered');
  });

  it('reads cavalry mounted or dismounted from roles; the horse-holder command stand is left out', () => {
    const mounted = read(grid(4, 4, CAVALRY_BASE).map((l, i) => ({ ...l, role: i === 0 ? ('command' as const) : ('mounted' as const) })), 90, { id: 'c', arm: 'cavalry' }, CAVALRY_BASE);
    expect(mounted).toMatchObject({ formation: 'line', mounted: true, dismounted: false });
    // Dismounted: four dismounted stands in loose order, the mounted command stand 3" behind.
    const dis: LocalStand[] = [
      { u: 0, v: -3, role: 'mounted' },
      ...grid(4, 4, INFANTRY_BASE, 1.5).map((l) => ({ ...l, role: 'dismounted' as const })),
    ];
    const r = read(dis, 90, { id: 'c', arm: 'cavalry' });
    expect(r).toMatchObject({ formation: 'loose-order', mounted: false, dismounted: true });
    expect(r.frontRankStandIds).not.toContain('c-s0');
  });

  it('reads every template through camera noise of ±0.1" and ±3° per stand', () => {
    const templates: [string, LocalStand[]][] = [
      ['line', grid(6, 6, INFANTRY_BASE)],
      ['double-line', grid(8, 4, INFANTRY_BASE)],
      ['attack-column', grid(6, 2, INFANTRY_BASE)],
      ['march-column', file(6, INFANTRY_BASE)],
      ['loose-order', grid(5, 5, INFANTRY_BASE, 2)],
      ['disordered', staggered(6, INFANTRY_BASE)],
    ];
    const noise = fc.array(fc.tuple(fc.double({ min: -0.1, max: 0.1, noNaN: true }), fc.double({ min: -0.1, max: 0.1, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })), { minLength: 8, maxLength: 8 });
    for (const [name, locals] of templates) {
      fc.assert(
        fc.property(fc.double({ min: 0, max: 359.9, noNaN: true }), noise, (headingDeg, jitter) => {
          const r = read(locals, headingDeg, { id: 'u' }, INFANTRY_BASE, (s) => {
            const [dx, dy, dh] = jitter[Number(s.id.slice(3))]!;
            return { ...s, pose: { xIn: s.pose.xIn + dx, yIn: s.pose.yIn + dy, headingDeg: (s.pose.headingDeg + dh + 360) % 360 } };
          });
          expect(r.formation).toBe(name);
          expect(r.confidence).toBeGreaterThan(0.6);
        }),
        { numRuns: 15 },
      );
    }
  });

  it('throws an actionable error for a unit with no stands', () => {
    expect(() => recognizeFormation(unitOf({ id: 'ghost' }, []), [])).toThrow(/ghost/);
  });
});
