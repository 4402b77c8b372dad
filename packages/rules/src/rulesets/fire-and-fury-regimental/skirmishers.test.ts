import { describe, expect, it } from 'vitest';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { inf, table, type FfrUnitSpec } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import type { TableState } from '../../model/tableState.ts';

/** A regiment of `regStands` in line facing +y, front edge at y = 10, and its skirmishers with front edge at `skirY`. */
const scene = (skirY: number, skir: Partial<FfrUnitSpec> = {}, regStands = 8) =>
  table([
    inf('r', 'a', { xIn: 36, yIn: 10 }, 90, { brigadeId: 'b', stands: regStands, files: regStands }),
    inf('s', 'a', { xIn: 36, yIn: skirY }, 90, { brigadeId: 'b', stands: 3, files: 3, gapIn: 0.5, fields: { skirmishers: true }, ...skir }),
  ]);
const codes = (s: TableState) => evaluateFireAndFuryRegimental(s).warnings.filter((w) => w.code.startsWith('skirmishers/')).map((w) => w.code);

describe('skirmisher detachments (QRS II, Skirmishers)', () => {
  it('accepts three skirmishers in extended line 2" in front of their eight-stand regiment', () => {
    expect(evaluateFireAndFuryRegimental(scene(13.5)).units['s']!.formation.name).toBe('Extended line');
    expect(codes(scene(13.5))).toEqual([]);
  });

  it('refuses a detachment of half or more of the regiment, more than six, or from a regiment under five stands', () => {
    // 3 of 3 + 3 = 6: half.
    expect(codes(scene(13.5, {}, 3))).toContain('skirmishers/too-many-stands');
    // 3 of 3 + 4 = 7 is less than half, but ... a five-stand regiment is the smallest: 7 is fine.
    expect(codes(scene(13.5, {}, 4))).toEqual([]);
    expect(codes(scene(13.5, { stands: 2, files: 2 }, 2))).toContain('skirmishers/too-many-stands');
    expect(codes(scene(13.5, { stands: 7, files: 7 }, 10))).toContain('skirmishers/too-many-stands');
  });

  it('says skirmishers deploy only in extended line', () => {
    expect(codes(scene(13.5, { gapIn: 0 }))).toContain('skirmishers/formation');
  });

  it('asks skirmishers behind the regiment\'s front line, or beyond 16" of it, to conform', () => {
    // Beside the regiment's right flank, reaching back past its front line at y = 10.
    expect(codes(scene(10.5, { frontCenter: { xIn: 50, yIn: 10.5 } }))).toContain('skirmishers/not-in-front');
    // 20" ahead: no regiment stand within 16".
    expect(codes(scene(30))).toContain('skirmishers/out-of-reach');
    // 15" ahead of the regiment's front (their rear at 23.5, 13.5" from it): within 16".
    expect(codes(scene(25))).toEqual([]);
    // Off to the side: the regiment is not in their retreat path.
    const aside = table([
      inf('r', 'a', { xIn: 20, yIn: 10 }, 90, { brigadeId: 'b', stands: 4, files: 4 }),
      inf('s', 'a', { xIn: 40, yIn: 14 }, 90, { brigadeId: 'b', stands: 3, files: 3, gapIn: 0.5, fields: { skirmishers: true } }),
    ]);
    expect(codes(aside)).toContain('skirmishers/out-of-reach');
  });

  it('makes the skirmishers the regiment when the regiment has no stand left', () => {
    const s = scene(13.5);
    const gone = { ...s, stands: s.stands.filter((st) => st.unitId !== 'r'), units: s.units.map((u) => (u.id === 'r' ? { ...u, standIds: [] } : u)) };
    expect(codes(gone)).toEqual(['skirmishers/regiment-gone']);
  });

  it('rejoins on contact, and sends a single stand back to rejoin', () => {
    expect(codes(scene(11.5))).toEqual(['skirmishers/rejoin']);
    expect(codes(scene(13.5, { stands: 1, files: 1 }))).toContain('skirmishers/one-stand');
  });
});

describe('fresh / worn / spent of a regiment and its skirmishers (QRS II, Skirmishers: "the combined strength")', () => {
  const label = { startingStands: 8, wornAtStandsLost: 2, spentAtStandsLost: 4 };
  const withLabel = (regStands: number) =>
    table([
      inf('r', 'a', { xIn: 36, yIn: 10 }, 90, { brigadeId: 'b', stands: regStands, files: regStands, fields: label }),
      inf('s', 'a', { xIn: 36, yIn: 13.5 }, 90, { brigadeId: 'b', stands: 3, files: 3, gapIn: 0.5, fields: { skirmishers: true } }),
    ]);
  it('counts the detached stands as the regiment\'s, and gives the skirmishers the regiment\'s level', () => {
    const ev = evaluateFireAndFuryRegimental(withLabel(5));
    expect(ev.units['r']!.morale).toMatchObject({ state: 'fresh', counted: { value: 0 } });
    expect(ev.units['s']!.morale).toMatchObject({ state: 'fresh' });
    const worn = evaluateFireAndFuryRegimental(withLabel(3));
    expect(worn.units['r']!.morale).toMatchObject({ state: 'worn', counted: { value: 2 } });
    expect(worn.units['s']!.morale).toMatchObject({ state: 'worn' });
    // The skirmishers carry no label of their own: no missing-field warning for them.
    expect(worn.warnings.some((w) => w.unitId === 's' && w.code === 'unit/missing-field')).toBe(false);
  });
});
