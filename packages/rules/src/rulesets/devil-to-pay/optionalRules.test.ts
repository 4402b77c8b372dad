/**
 * The Devil to Pay, Optional Rules (rulebook "OPTIONAL RULES"): Sharpshooters, Trained and Veteran Troops,
 * Split Fire, Constructing Hasty Works. Each test names the rule it checks.
 */
import { describe, expect, it } from 'vitest';
import type { FireRefusal, FireTargetOption, UnitEvaluation } from '../../engine/evaluation.ts';
import type { OptionalRule, TableState, Unit } from '../../model/tableState.ts';
import { buildContext } from './context.ts';
import { fireAtTarget } from './fire/fire.ts';
import { buildFireScene } from './fire/fireScene.ts';
import { fireShapes } from './fire/fireShapes.ts';
import { facingPair, fireOn, fireOption, modifierLabels, rect, scene } from '../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';
import { unitOrdersPerTurn } from './command.ts';
import { devilToPay } from './index.ts';
import { createEvaluator } from '../../engine/evaluate.ts';
import { evaluateDevilToPay } from './evaluate.ts';
import { createRng } from '../../dice/rng.ts';
import { moveRandomUnit, randomTable } from '../../../../../fixtures/rules/devil-to-pay/sessionTestTable.ts';
import { splitFireOptions } from './optionalRules.ts';
import { universalModifiers } from './universalModifiers.ts';

const fire = (state: TableState, firer: string, target: string): FireTargetOption => fireOption(fireOn(state, firer, target));
const labels = modifierLabels;
/** As in fire.test.ts. */
const facing = facingPair;

function withUnit(state: TableState, id: string, patch: Partial<Unit>): TableState {
  return { ...state, units: state.units.map((u) => (u.id === id ? { ...u, ...patch } : u)) };
}
function withRules(state: TableState, ...rules: OptionalRule[]): TableState {
  return { ...state, optionalRules: rules };
}
const WOODS_14 = { areas: [{ id: 'woods', kind: 'open-woods' as const, vertices: rect(25, 23, 55, 32) }] };

describe('Optional Rules, Sharpshooters', () => {
  it('"Sharpshooters receive no range penalties when firing": the 24" band -2 is cancelled, with its source', () => {
    // The rulebook fire example (crack, 5 stands, open woods, 14": 3 dice), fired by sharpshooters: 5 dice.
    const base = scene(facing(14 - 0.75, { quality: 'crack' }), WOODS_14);
    expect(fire(base, 'f', 't').breakdown.dice).toBe(3);
    const o = fire(withUnit(base, 'f', { sharpshooters: true }), 'f', 't');
    expect(labels(o)).toEqual(['Range 14.0" (24" band), Rifled Musket:-2', 'Sharpshooters: no range penalty:2', 'Open woods:-1', 'Crack:1']);
    expect(o.breakdown.modifiers[1]!.source).toBe('Optional Rules, Sharpshooters');
    expect(o.breakdown.dice).toBe(5);
  });

  it('keeps a range bonus: at 5" (6" band +1) sharpshooters fire as anyone else', () => {
    const base = scene(facing(5 - 0.75));
    const plain = fire(base, 'f', 't');
    const sharp = fire(withUnit(base, 'f', { sharpshooters: true }), 'f', 't');
    expect(sharp.breakdown).toEqual(plain.breakdown);
    expect(labels(sharp).some((l) => l.startsWith('Sharpshooters'))).toBe(false);
  });

  it('"each receives three orders instead of two": 3 orders per turn, reported in the command reading', () => {
    expect(unitOrdersPerTurn({ brigadeId: 'b1' })).toBe(2);
    expect(unitOrdersPerTurn({ brigadeId: 'b1', sharpshooters: true })).toBe(3);
    const state = withUnit(scene([...facing(30, { brigadeId: 'b1' }), { id: 'g', xIn: 70, yIn: 10, headingDeg: 90, brigadeId: 'b1' }]), 'f', { sharpshooters: true });
    const ev = evaluateDevilToPay(state);
    expect(ev.units.f!.command.ordersPerTurn).toBe(3);
    expect(ev.units.g!.command.ordersPerTurn).toBeUndefined();
  });

  it('"Sharpshooters must fight in loose order": a warning when they stand in line, none in loose order', () => {
    const inLine = withUnit(scene(facing(30, { status: { formation: 'line' } })), 'f', { sharpshooters: true });
    expect(evaluateDevilToPay(inLine).warnings).toContainEqual(expect.objectContaining({ code: 'sharpshooters/not-loose-order', unitId: 'f' }));
    const loose = withUnit(scene(facing(30, { status: { formation: 'loose-order' } })), 'f', { sharpshooters: true });
    expect(evaluateDevilToPay(loose).warnings.filter((w) => w.code.startsWith('sharpshooters/'))).toEqual([]);
    // The same line without the flag: no warning.
    expect(evaluateDevilToPay(scene(facing(30, { status: { formation: 'line' } }))).warnings.filter((w) => w.code.startsWith('sharpshooters/'))).toEqual([]);
  });

  it('"If a Sharpshooter unit is reduced to one stand it is removed": reported as a warning', () => {
    const one = withUnit(scene(facing(30, { stands: 1 })), 'f', { sharpshooters: true });
    const ev = evaluateDevilToPay(one);
    expect(ev.warnings).toContainEqual(expect.objectContaining({ code: 'sharpshooters/removed', unitId: 'f' }));
    expect(ev.warnings.some((w) => w.code === 'sharpshooters/not-loose-order')).toBe(false);
    const two = withUnit(scene(facing(30, { stands: 2, status: { formation: 'loose-order' } })), 'f', { sharpshooters: true });
    expect(evaluateDevilToPay(two).warnings.some((w) => w.code === 'sharpshooters/removed')).toBe(false);
  });
});

describe('Optional Rules, Trained and Veteran Troops', () => {
  const sum = (ms: { dice: number }[]) => ms.reduce((s, m) => s + m.dice, 0);
  const on = (roll: 'fire' | 'melee' | 'rally') => ({ roll, trainedVeteran: true });
  const off = (roll: 'fire' | 'melee' | 'rally') => ({ roll, trainedVeteran: false });

  it('without the option trained troops are veterans: no modifier for either, whatever the roll', () => {
    for (const roll of ['fire', 'melee', 'rally'] as const) {
      expect(universalModifiers({ quality: 'trained' }, false, off(roll))).toEqual([]);
      expect(universalModifiers({ quality: 'veteran' }, false, off(roll))).toEqual([]);
    }
  });

  it('"Trained troops suffer -1 Die in Melee. Veteran Troops receive +1 Die when firing."', () => {
    expect(sum(universalModifiers({ quality: 'trained' }, false, on('melee')))).toBe(-1);
    expect(universalModifiers({ quality: 'trained' }, false, on('fire'))).toEqual([]);
    expect(universalModifiers({ quality: 'trained' }, false, on('rally'))).toEqual([]);
    expect(sum(universalModifiers({ quality: 'veteran' }, false, on('fire')))).toBe(1);
    expect(universalModifiers({ quality: 'veteran' }, false, on('melee'))).toEqual([]);
    expect(universalModifiers({ quality: 'veteran' }, false, on('fire'))[0]!.source).toBe('Optional Rules, Trained and Veteran Troops');
    // Crack and green keep their core numbers only.
    expect(sum(universalModifiers({ quality: 'crack' }, false, on('fire')))).toBe(1);
    expect(sum(universalModifiers({ quality: 'green' }, false, on('melee')))).toBe(-1);
  });

  it('a veteran unit fires with +1 die only when the table lists trained-veteran', () => {
    const base = scene(facing(14 - 0.75), WOODS_14);
    const plain = fire(base, 'f', 't');
    const opt = fire(withRules(base, 'trained-veteran'), 'f', 't');
    expect(opt.breakdown.dice).toBe(plain.breakdown.dice + 1);
    expect(labels(opt)).toContain('Veteran:1');
  });

  it('a trained unit charges with -1 die only when the table lists trained-veteran', () => {
    const base = withUnit(scene(facing(3)), 'f', { quality: 'trained' });
    const attacker = (s: TableState) => {
      const c = evaluateDevilToPay(s).units.f!.charge.find((x) => x.targetUnitId === 't');
      if (!c?.ok) throw new Error(`expected a charge option, got ${JSON.stringify(c)}`);
      return c.attacker;
    };
    const plain = attacker(base);
    const opt = attacker(withRules(base, 'trained-veteran'));
    expect(opt.dice).toBe(plain.dice - 1);
    expect(opt.modifiers.some((m) => /Trained$/.test(m.label) && m.dice === -1 && m.source === 'Optional Rules, Trained and Veteran Troops')).toBe(true);
  });
});

describe('Optional Rules, Split Fire', () => {
  /** Two targets beyond 12" (no target priority): t1 in the open at 14", t2 in open woods at 20". */
  function twoTargets(): TableState {
    return scene(
      [
        { id: 'f', xIn: 40, yIn: 10, headingDeg: 90 },
        { id: 't1', side: 'confederate', xIn: 32, yIn: 10 + 14 + 0.75, headingDeg: 270, stands: 2 },
        { id: 't2', side: 'confederate', xIn: 48, yIn: 10 + 20 + 0.75, headingDeg: 270, stands: 2 },
      ],
      { areas: [{ id: 'woods', kind: 'open-woods', vertices: rect(44, 29, 54, 36) }] },
    );
  }
  const okFire = (u: UnitEvaluation) => u.fire.filter((o): o is FireTargetOption => o.ok);

  it('"Calculate the number of dice ... based upon the most difficult target": the pair gets the fewer dice', () => {
    const ev = evaluateDevilToPay(withRules(twoTargets(), 'split-fire'));
    const f = ev.units.f!;
    const [o1, o2] = okFire(f);
    expect([o1!.targetUnitId, o2!.targetUnitId]).toEqual(['t1', 't2']);
    expect(o2!.breakdown.dice).toBeLessThan(o1!.breakdown.dice);
    expect(f.splitFire).toEqual([
      { targetUnitIds: ['t1', 't2'], harderTargetUnitId: 't2', dice: o2!.breakdown.dice, breakdown: o2!.breakdown, source: 'Optional Rules, Split Fire' },
    ]);
    // The ordinary options are the same with and without the option.
    expect(evaluateDevilToPay(twoTargets()).units.f!.fire).toEqual(f.fire);
  });

  it('is absent unless the table lists split-fire', () => {
    expect(evaluateDevilToPay(twoTargets()).units.f!.splitFire).toBeUndefined();
  });

  it('leaves out pairs with fewer than 2 dice to allocate, and refused targets', () => {
    const opt = (id: string, dice: number): FireTargetOption => ({
      ok: true,
      targetUnitId: id,
      eligibleStandIds: ['s'],
      rangeIn: 14,
      band: '24"',
      breakdown: { baseDice: dice, modifiers: [], dice, limits: [] },
      priority: false,
    });
    const refused: FireRefusal = { ok: false, reason: 'fire/target-priority', targetUnitId: 'r' };
    const pairs = splitFireOptions([opt('a', 4), opt('b', 1), refused, opt('c', 2), opt('d', 2)]);
    expect(pairs.map((p) => [...p.targetUnitIds, p.harderTargetUnitId, p.dice])).toEqual([
      ['a', 'c', 'c', 2],
      ['a', 'd', 'd', 2],
      ['c', 'd', 'c', 2],
    ]);
  });
});

describe('Optional Rules, Constructing Hasty Works', () => {
  it('"four MOVE actions. When in woods, only three": read where the unit stands, only with the option', () => {
    const base = scene(facing(30), { areas: [{ id: 'woods', kind: 'thick-woods', vertices: rect(25, 5, 55, 12) }] });
    expect(evaluateDevilToPay(base).units.f!.hastyWorks).toBeUndefined();
    const ev = evaluateDevilToPay(withRules(base, 'hasty-works'));
    expect(ev.units.f!.hastyWorks).toEqual({ moveActions: 3, inWoods: true, source: 'Optional Rules, Constructing Hasty Works' });
    expect(ev.units.t!.hastyWorks).toEqual({ moveActions: 4, inWoods: false, source: 'Optional Rules, Constructing Hasty Works' });
  });
});

describe('fire labels on the map', () => {
  it('a fire option with 0 dice keeps its arrow but gets no "0 dice" label', () => {
    // Green, one stand, 8": 1 + 0 (12" band) - 1 (green) = 0 dice.
    const state = scene(facing(8 - 0.75, { quality: 'green', stands: 1 }));
    const ctx = buildContext(state);
    const o = fireAtTarget(ctx, buildFireScene(ctx), 'f', 't');
    expect(o.ok && o.breakdown.dice).toBe(0);
    const shapes = fireShapes(ctx, 'f', [o]);
    expect(shapes.some((s) => s.id === 'fire/target/f/t')).toBe(true);
    expect(shapes.some((s) => s.kind === 'label')).toBe(false);
    // Veteran: 1 die, and the label is there.
    const ctx2 = buildContext(withUnit(state, 'f', { quality: 'veteran' }));
    const o2 = fireAtTarget(ctx2, buildFireScene(ctx2), 'f', 't');
    expect(fireShapes(ctx2, 'f', [o2]).filter((s) => s.kind === 'label').map((s) => s.kind === 'label' && s.text)).toEqual(['1 die @ 8"']);
  });
});

describe('optional rules in a session', () => {
  it('returns what evaluate returns with every optional rule on, sharpshooters and trained units, and when the list changes', () => {
    const rng = createRng(1098); // the rulebook line where OPTIONAL RULES start
    const plain = randomTable(rng, 8);
    let state: TableState = {
      ...plain,
      optionalRules: ['trained-veteran', 'split-fire', 'hasty-works'],
      units: plain.units.map((u, i) => (i % 3 === 0 ? { ...u, sharpshooters: true } : i % 3 === 1 ? { ...u, quality: 'trained' as const } : u)),
    };
    const session = createEvaluator(devilToPay);
    const first = session.update(state);
    expect(first).toEqual(devilToPay.evaluate(state));
    expect(Object.values(first.units).some((u) => (u.splitFire?.length ?? 0) > 0)).toBe(true);
    for (let i = 0; i < 6; i++) {
      state = moveRandomUnit(state, rng, 6).state;
      expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    }
    const fewer = { ...state, optionalRules: ['split-fire' as const] };
    expect(session.update(fewer)).toEqual(devilToPay.evaluate(fewer));
  });
});
