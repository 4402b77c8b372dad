import { describe, expect, it } from 'vitest';
import { bandAt, maxRangeIn, WEAPONS, weaponRow } from '../tables/fireTables.ts';
import { weaponRangeReading } from './weaponRange.ts';

describe('weaponRangeReading', () => {
  it('lists the printed bands a weapon can fire in, nearest first, with their dice', () => {
    const r = weaponRangeReading(weaponRow('smoothbore-musket')!);
    expect(r.weapon).toBe('Smoothbore Musket');
    expect(r.bands).toEqual([{ upToIn: 6, label: '6"', modifier: 2 }, { upToIn: 12, label: '12"', modifier: -2 }]);
    expect(r.source).toMatch(/Infantry Fire table/);
    expect(weaponRangeReading(weaponRow('3-inch-rifle')!).bands.map((b) => b.upToIn)).toEqual([6, 12, 24, 48, 72, 108]);
  });

  it('agrees with bandAt on every row: each band label is the one a target in it gets, and the last band is the longest range', () => {
    for (const row of WEAPONS) {
      const { bands } = weaponRangeReading(row);
      expect(bands.at(-1)!.upToIn).toBe(maxRangeIn(row));
      let from = 0;
      for (const b of bands) {
        for (const at of [from + 0.01, (from + b.upToIn) / 2, b.upToIn]) expect(bandAt(row, at)).toEqual({ band: b.label, bandIn: b.upToIn, dice: b.modifier });
        from = b.upToIn;
      }
      expect(bandAt(row, from + 0.01)).toBeUndefined();
    }
  });
});
