import { describe, expect, it } from 'vitest';
import type { Commander, Stand } from '../../model/tableState.ts';
import { buildContext } from './context.ts';
import { evaluateCommand, commanderOrdersPerTurn, unitOrdersPerTurn } from './command.ts';
import { devilToPay } from './index.ts';
import { createEvaluator } from '../../engine/evaluate.ts';
import { scene, type SceneUnit } from '../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';

function commanderAt(xIn: number, yIn: number, extra: Partial<Commander> = {}): { commander: Commander; stand: Stand } {
  return {
    commander: { id: 'cdr', name: 'Col. Alley', side: 'union', brigadeId: 'b1', quality: 'capable', standId: 'cdr-stand', ...extra },
    stand: { id: 'cdr-stand', unitId: 'cdr', pose: { xIn, yIn, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'commander' },
  };
}
// Three 3-stand regiments (4.5" wide) in a row facing +y; gaps between them set by x.
const u = (id: string, xIn: number, extra: Partial<SceneUnit> = {}): SceneUnit => ({ id, xIn, yIn: 10, headingDeg: 90, stands: 3, brigadeId: 'b1', ...extra });

describe('command', () => {
  it('chains units within 1.5" into a brigade formation, and leaves a far unit out', () => {
    // a: 7.75..12.25, b: 13..17.5 (gap 0.75), c: 18.75..23.25 (gap 1.25), d: 30.. (gap > 1.5)
    const ctx = buildContext(scene([u('a', 10), u('b', 15.25), u('c', 21), u('d', 32)]));
    const r = evaluateCommand(ctx).readings;
    expect([...r.get('a')!.brigadeFormationUnitIds].sort()).toEqual(['b', 'c']);
    expect(r.get('d')!.brigadeFormationUnitIds).toEqual([]);
  });

  it('chains through the commander and finds units inside his order radius', () => {
    // a and b are 3" apart; the commander between them is within 1.5" of both.
    const ctx = buildContext(scene([u('a', 10), u('b', 17.5)], {}, [commanderAt(13.75, 8)]));
    const res = evaluateCommand(ctx);
    expect(res.readings.get('a')).toMatchObject({ brigadeFormationUnitIds: ['b'], commanderInRangeId: 'cdr' });
    expect(res.readings.get('b')!.commanderInRangeId).toBe('cdr');
    expect(res.shapes.filter((s) => s.id.startsWith('command/order/'))).toHaveLength(2);
    expect(res.shapes.every((s) => s.layer === 'command')).toBe(true);
  });

  it('an attached commander orders only his unit and chains nobody', () => {
    const ctx = buildContext(scene([u('a', 10), u('b', 17.5)], {}, [commanderAt(13.75, 8, { attachedToUnitId: 'a' })]));
    const r = evaluateCommand(ctx).readings;
    expect(r.get('a')).toMatchObject({ commanderInRangeId: 'cdr', attachedCommanderId: 'cdr', brigadeFormationUnitIds: [] });
    expect(r.get('b')!.commanderInRangeId).toBeUndefined();
  });

  it('keeps independent units out of brigade formation and passes orders left through', () => {
    const ctx = buildContext(scene([u('a', 10), u('i', 15.25, { independent: true, status: { ordersLeft: 1 } })]));
    const r = evaluateCommand(ctx).readings;
    expect(r.get('i')).toEqual({ brigadeFormationUnitIds: [], ordersLeft: 1 });
  });

  it('gives orders per turn by quality and by independence', () => {
    expect(['superb', 'capable', 'weak'].map((q) => commanderOrdersPerTurn(q as 'weak'))).toEqual([3, 2, 1]);
    expect(unitOrdersPerTurn({ brigadeId: 'b1' })).toBe(2);
    expect(unitOrdersPerTurn({ brigadeId: 'b1', independent: true })).toBe(3);
  });

  it('reports each commander\'s orders per turn by quality in the evaluation, on or off the table', () => {
    const superb = commanderAt(13.75, 8, { quality: 'superb' });
    const weakOff = { ...commanderAt(0, 0, { id: 'cdr2', quality: 'weak', brigadeId: 'b2' }).commander, standId: undefined };
    const state = scene([u('a', 10), u('b', 17.5)], {}, [superb]);
    const withOff = { ...state, commanders: [...state.commanders, weakOff] };
    const ev = devilToPay.evaluate(withOff);
    expect(ev.commanders).toEqual({
      cdr: { commanderId: 'cdr', ordersPerTurn: 3, quality: 'superb', source: 'Commanders, Orders and Brigade Formation (p. 6)' },
      cdr2: { commanderId: 'cdr2', ordersPerTurn: 1, quality: 'weak', source: 'Commanders, Orders and Brigade Formation (p. 6)' },
    });
    const capable = { ...withOff, commanders: [{ ...superb.commander, quality: 'capable' as const }] };
    expect(devilToPay.evaluate(capable).commanders?.cdr?.ordersPerTurn).toBe(2);
    // The session says the same, and a table without commanders has no commanders field.
    const session = createEvaluator(devilToPay);
    expect(session.update(withOff)).toEqual(ev);
    expect(session.update(capable)).toEqual(devilToPay.evaluate(capable));
    expect('commanders' in devilToPay.evaluate(scene([u('a', 10)]))).toBe(false);
  });
});
