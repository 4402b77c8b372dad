/**
 * The session against a fresh evaluation where only change front (wheel.ts) or a charge declaration
 * (chargeMode.ts) sees the change: an enemy stand stepping into and out of the path of a long line's
 * double-quick wheel, farther out than the line's straight moves look, and a unit's declared cold steel or
 * breakthrough charge switched on and off. A cache kept too long shows up as a difference.
 */
import { describe, expect, it } from 'vitest';
import type { MovementOption, TableState } from '@muster/rules';
import { createEvaluator, evaluate, getRuleset } from '@muster/rules';
import { inf, mapUnit, table } from '../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';

const ruleset = getRuleset('fire-and-fury-regimental');

/** The state with unit `id`'s stands moved to have their first stand at (x, y). */
function placeUnit(s: TableState, id: string, x: number, y: number): TableState {
  const first = s.stands.find((st) => st.unitId === id)!;
  const dx = x - first.pose.xIn;
  const dy = y - first.pose.yIn;
  return { ...s, stands: s.stands.map((st) => (st.unitId === id ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn + dx, yIn: st.pose.yIn + dy } } : st)) };
}

const changeFrontNote = (s: TableState) => (evaluate(s, ruleset).units['u']!.movement as MovementOption).notes.find((n) => n.startsWith('Change front'))!;

describe('Regimental Fire and Fury session: change front and charge declarations', () => {
  it('redraws a wheel when an enemy steps into its path beyond the straight-move look, and when it leaves', () => {
    // A 10-stand line (15" frontage) facing +y, front edge at y = 10, left flank at x = 21. At the full move
    // (12") its left-pivot forward wheel turns 45.8°, at the double quick (16") 61.1°; the outside corner
    // passes (29, 23) near 58°, more than the 12" full move beyond the line's box (y 8.5 to 10).
    let s = table([inf('u', 'a', { xIn: 28.5, yIn: 10 }, 90, { stands: 10, files: 10 }), inf('e', 'b', { xIn: 60, yIn: 40 }, 270, { stands: 1, files: 1 })]);
    const session = createEvaluator(ruleset);
    const check = (label: string) => expect(JSON.stringify(session.update(s)), label).toBe(JSON.stringify(evaluate(s, ruleset)));
    check('start');
    const free = changeFrontNote(s);
    expect(free).toContain('pivot on the left flank forward 45.8° (the rate), 61.1° at the double quick');
    s = placeUnit(s, 'e', 29, 23.2);
    check('enemy in the wheel');
    expect(changeFrontNote(s)).not.toBe(free);
    expect(changeFrontNote(s)).toMatch(/left flank forward 45\.8° \(the rate\), 5\d° at the double quick/);
    s = placeUnit(s, 'e', 29.5, 23.4);
    check('enemy nudged');
    s = placeUnit(s, 'e', 60, 40);
    check('enemy gone');
    expect(changeFrontNote(s)).toBe(free);
  });

  it('follows a charge declaration switched on and off', () => {
    const declare = (state: TableState, mode: string) =>
      mapUnit(state, 'u', (u) => ({ ...u, status: { ...u.status, rulesetStatus: { ...u.status?.rulesetStatus, chargeMode: mode } } }));
    const base = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('t', 'b', { xIn: 36, yIn: 17 }, 270)]);
    const session = createEvaluator(ruleset);
    for (const [i, s] of [base, declare(base, 'cold-steel'), declare(base, 'breakthrough'), declare(base, 'none'), base].entries()) {
      expect(JSON.stringify(session.update(s)), `step ${i}`).toBe(JSON.stringify(evaluate(s, ruleset)));
    }
  });
});
