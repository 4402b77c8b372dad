/**
 * The 96-stand Volley & Bayonet table (`fixtures/rules/volley-and-bayonet/benchScene.ts`): every unit is
 * answered with finite numbers, two lines 7" apart exchange fire and can charge, and the evaluation is pure.
 * (Its speed is measured outside the tests; see the rule set's README, "Speed".)
 */
import { describe, expect, it } from 'vitest';
import { getRuleset, parseTableStateFor } from '@muster/rules';
import { vbBenchScene } from '../../../fixtures/rules/volley-and-bayonet/benchScene.ts';

const ruleset = getRuleset('volley-and-bayonet');

describe('the large Volley & Bayonet table', () => {
  it('fits the declarations and is answered unit by unit', () => {
    const state = parseTableStateFor(vbBenchScene(), ruleset);
    expect(state.stands.length).toBe(96);
    const ev = ruleset.evaluate(state);
    expect(Object.keys(ev.units)).toHaveLength(state.units.length);
    expect(JSON.stringify(ev)).not.toMatch(/null|NaN|Infinity/);
    const firing = Object.values(ev.units).filter((u) => u.fire.some((f) => f.ok));
    const charging = Object.values(ev.units).filter((u) => u.charge.some((c) => c.ok));
    expect(firing.length).toBeGreaterThan(10);
    expect(charging.length).toBeGreaterThan(10);
    expect(ev.warnings.filter((w) => w.code === 'parameter/missing').map((w) => w.parameterId)).not.toContain('fire-arc-corner-deg');
    expect(JSON.stringify(ruleset.evaluate(parseTableStateFor(vbBenchScene(), ruleset)))).toBe(JSON.stringify(ev));
  });
});
