import { describe, expect, it } from 'vitest';
import type { DiceBreakdown, Refusal } from '../../engine/evaluation.ts';
import { buildContext } from './context.ts';
import { evaluateRally, nearestEnemyDistanceIn } from './rally.ts';
import { scene, type SceneUnit } from '../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';

const hits4 = { hitsByStand: { 'r-s0': 1, 'r-s1': 1, 'r-s2': 1, 'r-s3': 1 } };
function rally(unit: Partial<SceneUnit>, enemyGapIn: number | undefined) {
  const units: SceneUnit[] = [{ id: 'r', xIn: 40, yIn: 10, headingDeg: 90, ...unit }];
  // Enemy front edge `enemyGapIn` beyond the rallying unit's front edge (both 1.5" deep stands).
  if (enemyGapIn !== undefined) units.push({ id: 'e', side: 'confederate', xIn: 40, yIn: 10 + 1.5 + enemyGapIn, headingDeg: 270 });
  const ctx = buildContext(scene(units));
  return { ctx, result: evaluateRally(ctx, 'r') };
}
function dice(r: DiceBreakdown | Refusal): DiceBreakdown {
  if ('ok' in r) throw new Error(`expected dice, got ${r.reason}`);
  return r;
}

describe('rally', () => {
  it('the rule book example: crack, 4 hits, 18" from the enemy rolls 4 dice', () => {
    const { ctx, result } = rally({ quality: 'crack', status: hits4 }, 18);
    expect(nearestEnemyDistanceIn(ctx, 'r')).toBeCloseTo(18, 6);
    const d = dice(result);
    expect(d.baseDice).toBe(2);
    expect(d.hitOn).toBe(4); // Rally: "Any rolls of a 4, 5 or 6 removes a hit"
    expect(d.modifiers.map((m) => [m.label.split(' (')[0], m.dice])).toEqual([['Beyond 12" of enemy', 1], ['Crack', 1]]);
    expect(d.dice).toBe(4);
  });

  it('applies only one distance modifier: +2 beyond 24", none within 12"', () => {
    expect(dice(rally({ status: hits4 }, 30).result).dice).toBe(4);
    expect(dice(rally({ status: hits4 }, 12).result).dice).toBe(2);
    expect(dice(rally({ status: hits4 }, undefined).result).dice).toBe(4);
  });

  it('takes 2 dice for prone and never goes below zero', () => {
    const d = dice(rally({ quality: 'green', status: { ...hits4, prone: true } }, 5).result);
    expect(d.dice).toBe(0);
    expect(d.limits).toHaveLength(1);
  });

  it('counts an attached brigade commander', () => {
    expect(dice(rally({ status: { ...hits4, attachedCommanderId: 'c' } }, 5).result).dice).toBe(3);
  });

  it('makes the disordered reform first, the prone disordered stand up first, and refuses without hits', () => {
    expect(rally({ status: { ...hits4, disordered: true } }, 5).result).toMatchObject({ ok: false, reason: 'rally/disordered-must-reform' });
    expect(rally({ status: { ...hits4, disordered: true, prone: true } }, 5).result).toMatchObject({ ok: false, reason: 'rally/prone-must-stand-up' });
    expect(rally({}, 5).result).toMatchObject({ ok: false, reason: 'rally/no-hits' });
    // Hits recorded on a stand no longer on the table do not count.
    expect(rally({ status: { hitsByStand: { 'r-gone': 2 } } }, 5).result).toMatchObject({ ok: false, reason: 'rally/no-hits' });
  });
});
