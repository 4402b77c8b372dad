/**
 * The charge declarations the table state now carries (declarations.ts): a charge led by the attached
 * commander (Commanders: Attached Commander Benefits) and which units reinforce a defence (Charge: Reinforce
 * a Defense). Without them the output is what it was; with them the melee pools follow the rulebook.
 */
import { describe, expect, it } from 'vitest';
import type { Commander, TableState, UnitStatus } from '../../model/tableState.ts';
import { parseTableStateFor } from '../../validate/parseTableState.ts';
import { devilToPay } from './index.ts';
import { createEvaluator } from '../../engine/evaluate.ts';
import type { DtpChargeTargetOption } from './charge.ts';
import { INFANTRY_BASE, grid, stateOf, unitAt } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';

const COMMANDER: Commander = { id: 'cdr', name: 'Col. Oates', side: 'union', brigadeId: 'ub', quality: 'capable' };

/** Example 1's regiments (5 stands each, 4" apart), the attacker with the given status. */
function example1(attackerStatus?: UnitStatus, commanders: Commander[] = []): TableState {
  const att = unitAt({ id: 'att', side: 'union', ...(attackerStatus ? { status: attackerStatus } : {}) }, { xIn: 30, yIn: 10, headingDeg: 90 }, grid(5, 5, INFANTRY_BASE));
  const def = unitAt({ id: 'def', side: 'csa' }, { xIn: 30, yIn: 14, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
  return stateOf([{ ...att, unit: { ...att.unit, brigadeId: 'ub' } }, def], {}, commanders);
}

/** Example 3's table: two attack columns on 'def', and 'r' in the second line, able to reinforce. */
function example3(reinforcerStatus?: UnitStatus, second?: UnitStatus): TableState {
  const a1 = unitAt({ id: 'a1', side: 'union' }, { xIn: 28, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
  const a2 = unitAt({ id: 'a2', side: 'union' }, { xIn: 32, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
  const def = unitAt({ id: 'def', side: 'csa' }, { xIn: 30, yIn: 14, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
  const r = unitAt({ id: 'r', side: 'csa', ...(reinforcerStatus ? { status: reinforcerStatus } : {}) }, { xIn: 30, yIn: 16, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
  const parts = [a1, a2, def, r];
  // A second possible reinforcer on the defender's flank, turned towards a1, only when its status is given.
  if (second) parts.push(unitAt({ id: 'r2', side: 'csa', status: second }, { xIn: 21, yIn: 13, headingDeg: 300 }, grid(5, 5, INFANTRY_BASE)));
  return stateOf(parts);
}

function option(state: TableState, attackerId: string, targetId = 'def'): DtpChargeTargetOption {
  const o = devilToPay.evaluate(state).units[attackerId]!.charge.find((c) => c.targetUnitId === targetId);
  if (!o || !o.ok) throw new Error(`expected a charge option of ${attackerId} on ${targetId}`);
  return o as DtpChargeTargetOption;
}

describe('a charge led by the attached commander (Commanders: Attached Commander Benefits)', () => {
  it('spends no order and so gets no Charge Order +1 die; the commander\'s own +1 stays', () => {
    const attached = example1({ attachedCommanderId: 'cdr' }, [COMMANDER]);
    const led = example1({ attachedCommanderId: 'cdr', rulesetStatus: { chargeLedByCommander: true } }, [COMMANDER]);
    const withOrder = option(attached, 'att').attacker;
    const withoutOrder = option(led, 'att').attacker;
    expect(withOrder.modifiers.map((m) => m.label)).toContain('Charge order');
    expect(withoutOrder.modifiers.map((m) => m.label)).not.toContain('Charge order');
    expect(withoutOrder.modifiers.filter((m) => m.label !== 'Charge order')).toEqual(withOrder.modifiers.filter((m) => m.label !== 'Charge order'));
    expect(withoutOrder.dice).toBe(withOrder.dice - 1);
    expect(devilToPay.evaluate(led).warnings).toEqual([]);
  });

  it('without an attached commander reads as a charge with an order, and says why', () => {
    const state = example1({ rulesetStatus: { chargeLedByCommander: true } });
    expect(option(state, 'att').attacker).toEqual(option(example1(), 'att').attacker);
    expect(devilToPay.evaluate(state).warnings).toEqual([expect.objectContaining({ code: 'charge/led-without-commander', unitId: 'att' })]);
  });
});

describe('which units reinforce a defence (Charge: Reinforce a Defense)', () => {
  it('undeclared: every unit that may reinforce is counted, as before, with no declaration mark', () => {
    const o = option(example3(), 'a1');
    expect(o.reinforcerIds).toEqual(['r']);
    expect(o.reinforcedDefender?.dice).toBe(10);
    expect('reinforcementDeclared' in o).toBe(false);
  });

  it('declared not reinforcing: the defender fights alone, in the option and in the combined pool', () => {
    const state = example3({ rulesetStatus: { reinforcing: false } });
    const o = option(state, 'a1');
    expect(o.reinforcerIds).toEqual([]);
    expect(o.reinforcementDeclared).toBe(true);
    expect(o.reinforcedDefender).toBeUndefined();
    const combined = devilToPay.evaluate(state).combinedCharges?.find((c) => c.targetUnitId === 'def');
    expect(combined).toMatchObject({ attackerUnitIds: ['a1', 'a2'], reinforcerIds: [] });
    expect(combined!.reinforcedDefender).toBeUndefined();
  });

  it('declared reinforcing: Example 3\'s reinforced 10 dice; of two that may, only the declared one joins', () => {
    const one = option(example3({ rulesetStatus: { reinforcing: true } }), 'a1');
    expect(one.reinforcerIds).toEqual(['r']);
    expect(one.reinforcedDefender?.dice).toBe(10);
    const both = option(example3({}, {}), 'a1');
    const picked = option(example3({}, { rulesetStatus: { reinforcing: true } }), 'a1');
    expect(both.reinforcerIds.length).toBe(2);
    expect(picked.reinforcerIds).toEqual(['r2']);
    expect(picked.reinforcementDeclared).toBe(true);
    expect(picked.reinforcedDefender?.dice).toBe(10); // def 5 + r2 5
    expect(both.reinforcedDefender?.dice).toBe(15);
  });

  it('a reinforcing unit with no order left is flagged (it must expend one)', () => {
    const state = example3({ ordersLeft: 0, rulesetStatus: { reinforcing: true } });
    expect(devilToPay.evaluate(state).warnings).toEqual([expect.objectContaining({ code: 'charge/reinforce-without-order', unitId: 'r' })]);
  });

  it('a session follows the declarations being set and cleared', () => {
    const session = createEvaluator(devilToPay);
    for (const state of [example3(), example3({ rulesetStatus: { reinforcing: false } }), example3({ rulesetStatus: { reinforcing: true } }), example3()]) {
      expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    }
  });
});

describe('the declarations as status fields', () => {
  it('are listed on the rule set and checked when a state is read for it', () => {
    expect(devilToPay.statusFields?.map((f) => [f.id, f.type])).toEqual([
      ['chargeLedByCommander', 'boolean'],
      ['reinforcing', 'boolean'],
      ['pendingFireHits', 'integer'],
    ]);
    const json = (status: unknown) => JSON.parse(JSON.stringify({ ...example3(), units: example3().units.map((u) => (u.id === 'r' ? { ...u, status } : u)) }));
    expect(parseTableStateFor(json({ rulesetStatus: { reinforcing: true } }), devilToPay).units[3]!.status?.rulesetStatus).toEqual({ reinforcing: true });
    expect(() => parseTableStateFor(json({ rulesetStatus: { reinforcing: 'yes' } }), devilToPay)).toThrow(/units\[3\]\.status\.rulesetStatus.*true or false/);
    expect(() => parseTableStateFor(json({ rulesetStatus: { reinforce: true } }), devilToPay)).toThrow(/reinforce/);
  });
});
