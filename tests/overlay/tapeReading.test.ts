import { describe, expect, it } from 'vitest';
import { evaluate, getRuleset, type UnitEvaluation, type WeaponRangeReading } from '@muster/rules';
import { bandAtDistance, bandsAlongTape, chargeAnswer, fireAnswer, isOutOfRange, tapeAnswers } from '../../apps/overlay/src/ui/tapeReading.ts';
import { optionalRulesTable, SHARPSHOOTERS, TEXAS } from '../e2e/helpers/optionalRulesScene.ts';

const musket: WeaponRangeReading = {
  weapon: 'Rifled Musket',
  bands: [
    { upToIn: 6, label: '6"', modifier: 1 },
    { upToIn: 12, label: '12"', modifier: 0 },
    { upToIn: 24, label: '24"', modifier: -2 },
  ],
  measuredFrom: 'from the centre of the firing stands',
  source: 'Fire table',
};

describe('bandsAlongTape', () => {
  it('cuts the bands at the tape’s end and marks which limits lie on it', () => {
    const bands = bandsAlongTape(musket, 14);
    expect(bands.map((b) => [b.fromIn, b.toIn, b.endsOnTape, b.text])).toEqual([
      [0, 6, true, '6" +1'],
      [6, 12, true, '12" ±0'],
      [12, 14, false, '24" −2'],
    ]);
    expect(bandsAlongTape(musket, 30).map((b) => b.toIn)).toEqual([6, 12, 24]);
    expect(bandsAlongTape(musket, 3)).toHaveLength(1);
  });
  it('gives nothing without a reading (a rule set that publishes no bands) or for an empty tape', () => {
    expect(bandsAlongTape(undefined, 20)).toEqual([]);
    expect(bandsAlongTape(musket, 0)).toEqual([]);
  });
  it('finds the band a distance falls in, a limit belonging to its band', () => {
    expect(bandAtDistance(musket, 6)?.label).toBe('6"');
    expect(bandAtDistance(musket, 6.01)?.label).toBe('12"');
    expect(bandAtDistance(musket, 24.5)).toBeNull();
  });
});

describe('fire and charge answers from the real rules', () => {
  const state = optionalRulesTable();
  const ev = evaluate(state, getRuleset('devil-to-pay'));
  const names = new Map(state.units.map((u) => [u.id, u.name]));
  const nameOf = (id: string) => names.get(id) ?? id;
  const sharp = ev.units[SHARPSHOOTERS]!;

  it('says in range with the band and the dice, and names both units', () => {
    const option = sharp.fire.find((f) => f.targetUnitId === TEXAS);
    expect(option?.ok).toBe(true);
    const lines = tapeAnswers({ selected: sharp, targetUnitId: TEXAS, distanceIn: 15, nameOf });
    expect(lines[0]).toMatch(/^1st U\.S\. Sharpshooters → 1st Texas: fire in range \(\d+" band\): \d+ dice/);
    expect(lines[0]).toContain(`fire in range (${option?.ok ? option.band : ''} band)`);
    // The rules list no charge at that distance: no charge sentence is made up.
    expect(sharp.charge.some((c) => c.targetUnitId === TEXAS)).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines.join(' ')).not.toContain(TEXAS);
  });

  it('publishes the weapon bands The Devil to Pay measures with', () => {
    expect(sharp.weaponRange?.bands.map((b) => b.label)).toEqual(['6"', '12"', '24"']);
  });

  it('for a free point, reads the band by the tape’s length', () => {
    expect(tapeAnswers({ selected: sharp, targetUnitId: null, distanceIn: 10, nameOf })[0]).toContain('10.0" is in range, 12" band of its Rifled Musket');
    expect(tapeAnswers({ selected: sharp, targetUnitId: null, distanceIn: 30, nameOf })[0]).toContain('out of range, beyond its Rifled Musket\'s 24"');
    const noBands: UnitEvaluation = { ...sharp, weaponRange: undefined } as unknown as UnitEvaluation;
    expect(tapeAnswers({ selected: noBands, targetUnitId: null, distanceIn: 10, nameOf })).toEqual([]);
  });

  it('tells distance refusals from others', () => {
    expect(isOutOfRange('fire/target-out-of-range')).toBe(true);
    expect(isOutOfRange('fire/out-of-range')).toBe(true);
    expect(isOutOfRange('charge/out-of-reach')).toBe(true);
    expect(isOutOfRange('charge/target-out-of-reach')).toBe(true);
    expect(isOutOfRange('fire/target-out-of-arc')).toBe(false);
    expect(fireAnswer([{ ok: false, targetUnitId: 'x', reason: 'fire/target-out-of-range', detail: 'Beyond 24".' }], 'x')).toBe('out of range: Beyond 24".');
    expect(fireAnswer([{ ok: false, targetUnitId: 'x', reason: 'fire/no-line-of-sight' }], 'x')).toBe('cannot fire at it: no line of sight');
    expect(chargeAnswer([{ ok: false, targetUnitId: 'x', reason: 'charge/out-of-reach' }], 'x')).toBe('out of reach: out of reach');
    expect(fireAnswer([], 'x')).toBeNull();
    const pool = { baseDice: 6, modifiers: [], dice: 6, limits: [] };
    expect(chargeAnswer([{ ok: true, targetUnitId: 'x', distanceIn: 4.25, attacker: pool, defender: { ...pool, dice: 5 }, disorderedBy: [], enemyFlanked: false }], 'x')).toBe('in reach (4.3"): attacker 6 dice vs defender 5 dice');
  });
});
