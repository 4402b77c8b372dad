import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TableState, Unit, Stand } from '../../model/tableState.ts';
import { createRng } from '../../dice/rng.ts';
import type { Ruleset } from '../ruleset.ts';
import type { DiceRequest, Outcome, RulesetResolution } from './resolution.ts';
import { diceFacesProblems, readRoll, rollRequestedDice } from './readDice.ts';
import { ResolveError, diceForAction, resolveAction } from './resolveAction.ts';
import { applyOutcome, applyStatusPatch } from './applyOutcome.ts';
import { pathAwayFrom, straightPath } from './forcedMovePath.ts';

function unit(id: string, side: string, standIds: string[], status?: Unit['status']): Unit {
  return { id, name: id, side, arm: 'infantry', quality: 'veteran', weapon: 'musket', standIds, status };
}
function stand(id: string, unitId: string, xIn: number, yIn: number): Stand {
  return { id, unitId, pose: { xIn, yIn, headingDeg: 90 }, widthIn: 1, depthIn: 0.5, role: 'base' };
}
const state: TableState = {
  version: 1,
  table: { widthIn: 48, depthIn: 36 },
  units: [unit('blue', 'north', ['b1', 'b2'], { disordered: false, rulesetStatus: { worn: true } }), unit('grey', 'south', ['g1'])],
  stands: [stand('b1', 'blue', 10, 10), stand('b2', 'blue', 12, 10), stand('g1', 'grey', 11, 20)],
  commanders: [],
  terrain: { areas: [], linear: [], roads: [], elevations: [] },
} as unknown as TableState;

/**
 * A two-line rule set written for this test: "fire" rolls one d6 per stand of the firer, hits on 5+, each
 * hit disorders the target and two or more rout it 6" away from the firer.
 */
const toyResolution: RulesetResolution = {
  dice: { sides: 6, styles: ['pool'], source: 'toy' },
  kinds: [{ kind: 'fire', label: 'Fire', needs: ['unitId', 'targetUnitId'], choices: { close: [true, false] }, source: 'toy' }],
  offered: (_s, _e, unitId) => [{ kind: 'fire', unitId, targetUnitId: 'grey' }],
  diceFor(s, action) {
    const firer = s.units.find((u) => u.id === action.unitId)!;
    if (firer.standIds.length === 0) return { ok: false, reason: 'fire/no-stands' };
    return [{ id: 'fire', label: 'Fire', count: firer.standIds.length, sides: 6, reading: 'hits', hitOn: 5, source: 'toy' }];
  },
  resolve(s, action, faces): Outcome {
    const requests = this.diceFor(s, action) as DiceRequest[];
    const roll = readRoll(requests[0]!, faces.fire!);
    const effects = roll.value === 0 ? [] : [{
      unitId: action.targetUnitId!,
      text: roll.value >= 2 ? 'routs' : 'disordered',
      source: 'toy',
      status: { disordered: true },
      move: roll.value >= 2 ? { kind: 'rout' as const, distanceIn: 6, path: pathAwayFrom(s, action.targetUnitId!, { xIn: 11, yIn: 10 }, 6)!.path, text: 'rout 6"', source: 'toy' } : undefined,
    }];
    return { rulesetId: 'toy', action, rolls: [roll], result: `${roll.value} hits`, summary: '', steps: [], effects, followUps: [] };
  },
};
const toy = { id: 'toy', name: 'Toy', source: 'test', resolution: toyResolution } as unknown as Ruleset;

describe('after the roll: the checked entry', () => {
  it('resolves faces through the rule set and applies the status in one step', () => {
    const outcome = resolveAction(toy, state, { kind: 'fire', unitId: 'blue', targetUnitId: 'grey' }, { fire: [5, 6] }) as Outcome;
    expect(outcome.result).toBe('2 hits');
    expect(outcome.effects[0]!.move!.path[1]).toEqual({ xIn: 11, yIn: 26 });
    const after = applyOutcome(state, outcome);
    expect(after.units[1]!.status).toEqual({ disordered: true });
    expect(after.units[0]).toBe(state.units[0]);
  });

  it('refuses malformed requests with what to change', () => {
    expect(() => resolveAction(toy, state, { kind: 'melee', unitId: 'blue' }, {})).toThrow(/unknown action kind "melee".*fire/);
    expect(() => resolveAction(toy, state, { kind: 'fire', unitId: 'blue' }, {})).toThrow(/needs targetUnitId/);
    expect(() => resolveAction(toy, state, { kind: 'fire', unitId: 'red', targetUnitId: 'grey' }, {})).toThrow(/unit "red" is not on this table/);
    expect(() => resolveAction(toy, state, { kind: 'fire', unitId: 'blue', targetUnitId: 'grey', choices: { close: 'yes' } }, { fire: [1, 1] })).toThrow(/choice "close" must be one of true, false/);
    expect(() => resolveAction(toy, state, { kind: 'fire', unitId: 'blue', targetUnitId: 'grey' }, { fire: [5] })).toThrow(ResolveError);
    expect(() => resolveAction(toy, state, { kind: 'fire', unitId: 'blue', targetUnitId: 'grey' }, { fire: [5, 7] })).toThrow(/7 is not a face of a d6/);
    expect(() => resolveAction({ ...toy, resolution: undefined } as Ruleset, state, { kind: 'fire' }, {})).toThrow(/does not resolve rolls yet/);
    expect(diceForAction(toy, state, { kind: 'fire', unitId: 'blue', targetUnitId: 'grey' })).toHaveLength(1);
  });

  it('reads each kind of dice as the request says', () => {
    const base = { id: 'x', label: 'x', sides: 6 as const, source: 't' };
    expect(readRoll({ ...base, count: 3, reading: 'hits', hitOn: 4 }, [3, 4, 6]).value).toBe(2);
    expect(readRoll({ ...base, count: 3, reading: 'under', target: 3 }, [3, 4, 1]).value).toBe(2);
    expect(readRoll({ ...base, count: 2, reading: 'total', modifier: -1 }, [3, 4]).value).toBe(6);
    expect(readRoll({ ...base, sides: 10, count: 1, reading: 'each', modifier: 2 }, [9]).value).toBe(11);
  });
});

describe('the seeded roller', () => {
  it('gives every face of the die, and only those, in every request', () => {
    fc.assert(fc.property(fc.integer(), fc.constantFrom(6 as const, 10 as const), fc.integer({ min: 0, max: 40 }), (seed, sides, count) => {
      const request: DiceRequest = { id: 'd', label: 'd', count, sides, reading: 'each', source: 't' };
      const faces = rollRequestedDice([request], createRng(seed));
      expect(diceFacesProblems([request], faces)).toEqual([]);
    }));
  });

  it('rolls each face about equally often (chi-square, d6 and d10)', () => {
    for (const sides of [6, 10] as const) {
      const n = 60_000;
      const faces = rollRequestedDice([{ id: 'd', label: 'd', count: n, sides, reading: 'each', source: 't' }], createRng(sides));
      const counts = new Array(sides).fill(0);
      for (const f of faces.d!) counts[f - 1]++;
      const expected = n / sides;
      const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
      // 99.9th percentile of chi-square: 20.5 (5 dof), 27.9 (9 dof).
      expect(chi2).toBeLessThan(sides === 6 ? 20.5 : 27.9);
    }
  });
});

describe('status patches and straight paths', () => {
  it('merges ruleset status and hits key by key, null clears', () => {
    const next = applyStatusPatch({ disordered: true, hitsByStand: { a: 1 }, rulesetStatus: { worn: true, spent: false } }, {
      disordered: null, hitsByStand: { a: null, b: 1 }, rulesetStatus: { spent: true, worn: null },
    });
    expect(next).toEqual({ hitsByStand: { b: 1 }, rulesetStatus: { spent: true } });
  });

  it('stops a path at the table edge and says so', () => {
    const p = straightPath(state, { xIn: 46, yIn: 10 }, 0, 6);
    expect(p.path[1]).toEqual({ xIn: 48, yIn: 10 });
    expect(p.leavesTable).toBe(true);
    expect(straightPath(state, { xIn: 10, yIn: 10 }, 90, 6).leavesTable).toBe(false);
  });
});
