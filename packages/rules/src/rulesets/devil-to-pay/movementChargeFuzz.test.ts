/**
 * Robustness: formation, movement, charge and skedaddle on arbitrary (even silly) stand placements never
 * throw and always return finite numbers in range.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { StandRole } from '../../model/tableState.ts';
import { buildContext } from './context.ts';
import { chargeOptions } from './charge.ts';
import { movementOptions } from './movement/movementOptions.ts';
import { skedaddleZone } from './skedaddle.ts';
import { stateOf, unitAt } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';

const localStand = fc.record({
  u: fc.double({ min: -6, max: 6, noNaN: true }),
  v: fc.double({ min: -6, max: 6, noNaN: true }),
  relDeg: fc.double({ min: -180, max: 180, noNaN: true }),
  role: fc.constantFrom<StandRole>('base', 'command', 'mounted', 'dismounted', 'gun', 'limber'),
});
const unitArb = fc.record({
  arm: fc.constantFrom('infantry' as const, 'cavalry' as const, 'artillery' as const),
  quality: fc.constantFrom('crack' as const, 'veteran' as const, 'green' as const),
  xIn: fc.double({ min: 5, max: 65, noNaN: true }),
  yIn: fc.double({ min: 5, max: 43, noNaN: true }),
  headingDeg: fc.double({ min: 0, max: 359.99, noNaN: true }),
  stands: fc.array(localStand, { minLength: 1, maxLength: 7 }),
});

describe('formation, movement, charge, skedaddle on arbitrary tables', () => {
  it('never throw and give finite, in-range answers', () => {
    fc.assert(
      fc.property(fc.array(unitArb, { minLength: 2, maxLength: 5 }), (specs) => {
        const parts = specs.map((s, i) =>
          unitAt({ id: `u${i}`, side: i % 2 ? 'csa' : 'union', arm: s.arm, quality: s.quality }, { xIn: s.xIn, yIn: s.yIn, headingDeg: s.headingDeg }, s.stands),
        );
        const fence = { id: 'f', kind: 'fence' as const, points: [{ xIn: 0, yIn: 24 }, { xIn: 72, yIn: 25 }] };
        const woods = { id: 'w', kind: 'open-woods' as const, vertices: [{ xIn: 20, yIn: 10 }, { xIn: 40, yIn: 10 }, { xIn: 40, yIn: 20 }, { xIn: 20, yIn: 20 }] };
        const ctx = buildContext(stateOf(parts, { linear: [fence], areas: [woods] }));
        for (const p of parts) {
          const f = ctx.formationOf(p.unit.id);
          expect(f.confidence).toBeGreaterThanOrEqual(0);
          expect(f.confidence).toBeLessThanOrEqual(1);
          const m = movementOptions(ctx, p.unit.id).movement;
          if (m.ok) {
            for (const q of m.reach) expect(Number.isFinite(q.xIn) && Number.isFinite(q.yIn)).toBe(true);
            expect(m.allowanceIn).toBeGreaterThan(0);
          }
          for (const c of chargeOptions(ctx, p.unit.id).charge) {
            if (c.ok) {
              expect(c.distanceIn).toBeLessThanOrEqual(6);
              expect(c.attacker.dice).toBeGreaterThanOrEqual(0);
              expect(c.defender.dice).toBeGreaterThanOrEqual(0);
            }
          }
          const z = skedaddleZone(ctx, p.unit.id).zone;
          expect(z.ok).toBe(true);
        }
      }),
      { numRuns: 15 },
    );
  });
});
