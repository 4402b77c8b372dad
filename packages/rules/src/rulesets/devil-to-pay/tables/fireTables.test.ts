import { describe, expect, it } from 'vitest';
import { WEAPONS, bandAt, maxRangeIn, weaponRow, INFANTRY_BANDS_IN, ARTILLERY_BANDS_IN } from '../tables/fireTables.ts';

describe('fire tables', () => {
  it('has a row per printed weapon with one cell per band', () => {
    expect(WEAPONS.filter((w) => w.class === 'infantry')).toHaveLength(7);
    expect(WEAPONS.filter((w) => w.class === 'artillery')).toHaveLength(7);
    for (const w of WEAPONS) {
      expect(w.diceByBand).toHaveLength(w.class === 'infantry' ? INFANTRY_BANDS_IN.length : ARTILLERY_BANDS_IN.length);
    }
  });

  it('reads the rule book example rows: smoothbore +2 to 6", -2 to 12", nothing beyond', () => {
    const sb = weaponRow('smoothbore-musket')!;
    expect(bandAt(sb, 3)).toEqual({ band: '6"', bandIn: 6, dice: 2 });
    expect(bandAt(sb, 6)?.dice).toBe(2);
    expect(bandAt(sb, 6.01)?.dice).toBe(-2);
    expect(bandAt(sb, 12.5)).toBeUndefined();
    expect(maxRangeIn(sb)).toBe(12);
  });

  it('treats "--" as zero and blanks as out of range', () => {
    const rm = weaponRow('rifled-musket')!;
    expect(bandAt(rm, 10)).toEqual({ band: '12"', bandIn: 12, dice: 0 });
    expect(bandAt(rm, 14)?.dice).toBe(-2);
    expect(bandAt(rm, 24.5)).toBeUndefined();
    const nap = weaponRow('napoleon')!;
    expect(bandAt(nap, 60)?.dice).toBe(-2);
    expect(bandAt(nap, 80)).toBeUndefined();
    expect(maxRangeIn(weaponRow('3-inch-rifle')!)).toBe(108);
    expect(maxRangeIn(weaponRow('12-pound-howitzer')!)).toBe(48);
    expect(bandAt(weaponRow('6-pound-gun')!, 10)?.dice).toBe(0);
  });

  it('returns undefined for an unknown weapon and throws on a negative range', () => {
    expect(weaponRow('laser')).toBeUndefined();
    expect(() => bandAt(weaponRow('shotgun')!, -1)).toThrow(/non-negative/);
  });
});
