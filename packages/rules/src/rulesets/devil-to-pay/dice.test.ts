import { describe, expect, it } from 'vitest';
import { createRng } from '../../dice/rng.ts';
import { rollCarpeDiem, rollFire, rollMelee, rollRally, rollShotFromSaddle, rollSkedaddle } from './dice.ts';

describe('DTP rolls', () => {
  it('replays the same rolls from the same seed', () => {
    const a = createRng(99), b = createRng(99);
    expect(rollMelee(a, 6, 5)).toEqual(rollMelee(b, 6, 5));
    expect(rollSkedaddle(a)).toEqual(rollSkedaddle(b));
    expect(rollCarpeDiem(a, [{ id: 'union' }, { id: 'confederate' }])).toEqual(rollCarpeDiem(b, [{ id: 'union' }, { id: 'confederate' }]));
  });

  it('fire takes the dice from a breakdown and treats negative counts as none', () => {
    const r = rollFire(createRng(1), { baseDice: 5, modifiers: [], dice: 3, limits: [] });
    expect(r.faces).toHaveLength(3);
    expect(r.hits).toBe(r.faces.filter((f) => f >= 4).length);
    expect(rollFire(createRng(1), -2)).toEqual({ faces: [], hits: 0 });
  });

  it('melee: fewer hits suffered wins, the defender wins ties', () => {
    const rng = createRng(5);
    let ties = 0;
    let wrong = 0;
    for (let i = 0; i < 500; i++) {
      const m = rollMelee(rng, 4, 4);
      if (m.hitsOnAttacker !== m.defender.hits || m.hitsOnDefender !== m.attacker.hits) wrong++;
      if (m.hitsOnAttacker === m.hitsOnDefender) ties++;
      if (m.winner !== (m.hitsOnAttacker < m.hitsOnDefender ? 'attacker' : 'defender')) wrong++;
    }
    expect(wrong).toBe(0);
    expect(ties).toBeGreaterThan(0);
  });

  it('rally never removes more hits than the unit has', () => {
    const rng = createRng(8);
    let wrong = 0;
    for (let i = 0; i < 200; i++) {
      const r = rollRally(rng, 5, 1);
      if (r.hitsRemoved !== Math.min(1, r.roll.hits)) wrong++;
    }
    expect(wrong).toBe(0);
    expect(() => rollRally(rng, 2, -1)).toThrow(/non-negative/);
  });

  it('skedaddle: 3D6" averages 10.5 over 10,000 rolls, 3..18, +6" mounted', () => {
    const rng = createRng(2018);
    let sum = 0;
    let outside = 0;
    for (let i = 0; i < 10_000; i++) {
      const s = rollSkedaddle(rng);
      sum += s.distanceIn;
      if (s.distanceIn < 3 || s.distanceIn > 18) outside++;
    }
    expect(outside).toBe(0);
    // 3D6 has standard deviation 2.96; the mean of 10,000 has 0.03, allow 5 sigma.
    expect(Math.abs(sum / 10_000 - 10.5)).toBeLessThan(0.15);
    const m = rollSkedaddle(createRng(3), { mounted: true });
    expect(m.distanceIn).toBe(m.faces.reduce((a, b) => a + b, 0) + 6);
  });

  it('Shot from the Saddle: a 6, about one time in six; superb and capable are replaced by weak', () => {
    const rng = createRng(61);
    let shot = 0;
    let wrong = 0;
    for (let i = 0; i < 10_000; i++) {
      const r = rollShotFromSaddle(rng, 'capable');
      if (r.shot !== (r.face === 6) || (r.shot && r.replacement !== 'weak')) wrong++;
      if (r.shot) shot++;
    }
    expect(wrong).toBe(0);
    // p = 1/6, sd of the rate over 10,000 = 0.0037; allow 5 sigma.
    expect(Math.abs(shot / 10_000 - 1 / 6)).toBeLessThan(0.019);
    let weak;
    do weak = rollShotFromSaddle(rng, 'weak');
    while (!weak.shot);
    expect(weak.replacement).toBeUndefined();
  });

  it('Carpe Diem: ties are re-rolled by the leaders only, and two equal sides win about half each', () => {
    const rng = createRng(44);
    let union = 0;
    let sawTie = false;
    let badEnd = 0;
    for (let i = 0; i < 10_000; i++) {
      const r = rollCarpeDiem(rng, [{ id: 'union' }, { id: 'confederate' }]);
      if (r.winnerId === 'union') union++;
      const last = r.rounds[r.rounds.length - 1]!;
      const top = Math.max(...last.map((y) => y.best));
      if (last.filter((x) => x.best === top).length !== 1 || last.find((x) => x.best === top)!.id !== r.winnerId) badEnd++;
      if (r.rounds.length > 1) sawTie = true;
    }
    expect(badEnd).toBe(0);
    expect(sawTie).toBe(true);
    expect(Math.abs(union / 10_000 - 0.5)).toBeLessThan(0.025);
    const three = rollCarpeDiem(createRng(1), [{ id: 'a' }, { id: 'b' }, { id: 'c', dice: 2 }]);
    expect(three.rounds[0]!.find((x) => x.id === 'c')!.faces).toHaveLength(2);
    expect(() => rollCarpeDiem(rng, [])).toThrow(/at least one entrant/);
  });
});
