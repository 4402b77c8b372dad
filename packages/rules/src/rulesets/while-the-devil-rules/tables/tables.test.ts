import { describe, expect, it } from 'vitest';
import { BASE_SIZES, mmToIn } from './baseSizes.ts';
import { FORCE_RATIO_LABELS, forceRatio, rangeRow } from './fireTables.ts';
import { fireOutcome, meleeOutcome } from './outcomeTables.ts';
import { basesLostToDestroy, breakPoint } from './moraleTables.ts';
import { facingChangeCostIn, linearObstacleCostIn, roughCostPerIn, veryRoughCostPerIn, ROAD_COST_PER_IN } from './movementTables.ts';
import { TROOP_TYPES } from './troopTypes.ts';

describe('While the Devil Rules tables', () => {
  it('converts the printed base sizes exactly (mm / 25.4)', () => {
    expect(mmToIn(80)).toBeCloseTo(3.149606, 6);
    expect(mmToIn(40)).toBeCloseTo(1.574803, 6);
    expect(mmToIn(60)).toBeCloseTo(2.362205, 6);
    const pike = BASE_SIZES.find((b) => b.baseClass === 'pike')!;
    expect([pike.widthMm, pike.depthMm]).toEqual([[80, 80], [60, 60]]);
  });

  it('reads the range table as printed (Fire)', () => {
    expect(rangeRow('musket')).toMatchObject({ shortIn: 6, maxIn: 12 });
    expect(rangeRow('carbine-bow')).toMatchObject({ shortIn: 3, maxIn: 6 });
    expect(rangeRow('light-artillery')).toMatchObject({ shortIn: 6, maxIn: 18 });
    expect(rangeRow('medium-artillery')).toMatchObject({ shortIn: 9, maxIn: 24 });
    expect(rangeRow('heavy-artillery')).toMatchObject({ shortIn: 12, maxIn: 36 });
    expect(rangeRow('pistol')).toMatchObject({ shortIn: null, maxIn: null });
  });

  it('bands force ratios: more than equal is outnumbered, fully twice is badly', () => {
    expect(forceRatio(2, 2)).toBe('force-even');
    expect(forceRatio(2, 3)).toBe('actor-outnumbered');
    expect(forceRatio(2, 4)).toBe('actor-badly-outnumbered');
    expect(forceRatio(3, 2)).toBe('target-outnumbered');
    expect(forceRatio(6, 3)).toBe('target-badly-outnumbered');
    expect(Object.keys(FORCE_RATIO_LABELS)).toHaveLength(5);
  });

  it('turns dice differences into status levels (Calculating Fire and Combat Outcomes Using Dice)', () => {
    expect(fireOutcome(3, 3)).toEqual({ levels: 0, who: 'none' });
    expect(fireOutcome(2, 5)).toEqual({ levels: 0, who: 'none' });
    expect([1, 3, 4, 5, 6, 7, 8, 11].map((d) => fireOutcome(d + 1, 1).levels)).toEqual([1, 1, 2, 2, 3, 3, 'destroyed', 'destroyed']);
    expect(meleeOutcome(4, 4)).toEqual({ levels: 1, who: 'both' });
    expect(meleeOutcome(2, 7)).toEqual({ levels: 2, who: 'actor' });
    expect(meleeOutcome(9, 1)).toEqual({ levels: 'destroyed', who: 'target' });
  });

  it('destroys a unit at a full half of its starting bases and rounds break points up', () => {
    expect([1, 2, 3, 6, 8].map(basesLostToDestroy)).toEqual([1, 1, 2, 3, 4]);
    expect(breakPoint(15, 'typical')).toBe(15);
    expect(breakPoint(15, 'higher')).toBe(23);
    expect(breakPoint(15, 'lower')).toBe(12);
  });

  it('charges movement as the terrain table prints it', () => {
    expect(facingChangeCostIn('foot')).toBe(3);
    expect(facingChangeCostIn('forlorn-hope')).toBe(0);
    expect(facingChangeCostIn('dragoons')).toBe(0);
    expect(roughCostPerIn('foot')).toBe(2);
    expect(roughCostPerIn('light-horse')).toBe(1);
    expect(veryRoughCostPerIn('foot')).toBe(3);
    expect(veryRoughCostPerIn('forlorn-hope')).toBe(2);
    expect(veryRoughCostPerIn('mounted')).toBe(4);
    expect(veryRoughCostPerIn('dragoons')).toBe(4);
    expect(veryRoughCostPerIn('medium-artillery')).toBeNull();
    expect(linearObstacleCostIn('medium-artillery')).toBeNull();
    expect(linearObstacleCostIn('foot')).toBe(2);
    expect(ROAD_COST_PER_IN * 1.5).toBeCloseTo(1, 12);
  });

  it('gives every troop type a source and its base counts', () => {
    // The guide's 20 troop types, and the baggage or camp Army Morale counts as a unit.
    expect(TROOP_TYPES).toHaveLength(21);
    expect(TROOP_TYPES.at(-1)).toMatchObject({ id: 'camp', baseCounts: [1], fires: 'never' });
    for (const t of TROOP_TYPES) {
      expect(t.source.length).toBeGreaterThan(5);
      expect(t.baseCounts.length).toBeGreaterThan(0);
    }
    expect(TROOP_TYPES.find((t) => t.id === 'tercio')!.pikeBasesByTotal).toEqual({ 6: 2, 8: 4 });
  });
});
