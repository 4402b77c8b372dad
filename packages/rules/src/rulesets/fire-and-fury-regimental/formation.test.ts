import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { inf, mapStands, mapUnit, table } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import type { TableState } from '../../model/tableState.ts';

const formationOf = (s: TableState, id = 'u') => evaluateFireAndFuryRegimental(s).units[id]!.formation;

describe('formation read from the stands (QRS II, Troop Maneuvers; Deploy to the Front; Extended Line Frontage)', () => {
  it('reads one rank side by side as a line, whichever way the unit faces', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 359.9, noNaN: true }), (headingDeg) => {
        const f = formationOf(table([inf('u', 'a', { xIn: 36, yIn: 24 }, headingDeg)], { params: null }));
        expect(f.formation).toBe('line');
        expect(f.name).toBe('Line');
        expect(f.confidence).toBeGreaterThan(0.9);
      }),
      { numRuns: 40 },
    );
  });

  it('reads one file as a march column and two files as a field column', () => {
    expect(formationOf(table([inf('u', 'a', { xIn: 36, yIn: 24 }, 30, { files: 1 })])).name).toBe('March column');
    const fc2 = formationOf(table([inf('u', 'a', { xIn: 36, yIn: 24 }, 200, { files: 2 })]));
    expect(fc2.name).toBe('Field column');
    expect(fc2.formation).toBe('attack-column');
  });

  it('reads a rank with intervals up to 1" as an extended line, and wider gaps as broken', () => {
    expect(formationOf(table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90, { gapIn: 0.75 })])).name).toBe('Extended line');
    expect(formationOf(table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90, { gapIn: 2.5 })])).name).toBe('Broken');
  });

  it('reads a touching rank of a unit that forms only extended line as an extended line', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90, { fields: { extendedLineOnly: true } })]);
    expect(formationOf(s).name).toBe('Extended line');
  });

  it('reads stands facing every way as broken', () => {
    const s = mapStands(table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90)]), 'u', (st, i) => ({ ...st, pose: { ...st.pose, headingDeg: (i * 70) % 360 } }));
    expect(formationOf(s).name).toBe('Broken');
  });

  it('lets the status name the formation, with confidence 1', () => {
    const s = mapUnit(table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90)]), 'u', (u) => ({ ...u, status: { rulesetStatus: { formation: 'garrison' } } }));
    expect(formationOf(s)).toMatchObject({ name: 'Garrison', confidence: 1, source: 'status' });
  });

  it('reads a battery with limbers as limbered guns, without as unlimbered', () => {
    const guns = table([inf('b', 'a', { xIn: 36, yIn: 24 }, 90, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 })]);
    expect(formationOf(guns, 'b').name).toBe('Unlimbered guns');
    const limbered = mapStands(guns, 'b', (st, i) => (i === 1 ? { ...st, role: 'limber' } : st));
    expect(formationOf(limbered, 'b').formation).toBe('limbered');
  });

  it('refuses an extended line of more than six stands with intervals, with the reason (Extended Line Frontage)', () => {
    // "Only skirmishers and other units with six or fewer stands in extended line may expand their frontage.
    // Units with more than six stands in extended line must remain in base-to-base contact."
    const seven = table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90, { stands: 7, files: 7, gapIn: 0.5 })]);
    const ev = evaluateFireAndFuryRegimental(seven);
    const f = ev.units['u']!.formation;
    expect(f.name).toBe('Extended line');
    expect(f.illegal).toMatchObject({ reason: 'formation/extended-line-intervals', section: expect.stringContaining('Extended Line Frontage') });
    expect(f.illegal!.detail).toContain('must remain in base-to-base contact');
    expect(ev.warnings).toContainEqual(expect.objectContaining({ code: 'formation/extended-line-intervals', unitId: 'u' }));
    // Six stands with the same intervals may expand; seven touching stands in extended line are legal too.
    expect(formationOf(table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90, { stands: 6, files: 6, gapIn: 0.5 })])).illegal).toBeUndefined();
    const touching = table([inf('u', 'a', { xIn: 36, yIn: 24 }, 90, { stands: 7, files: 7, fields: { extendedLineOnly: true } })]);
    expect(formationOf(touching)).toMatchObject({ name: 'Extended line' });
    expect(formationOf(touching).illegal).toBeUndefined();
    // Set as extended line by status, the intervals on the table still decide.
    const declared = mapUnit(seven, 'u', (u) => ({ ...u, status: { rulesetStatus: { formation: 'extended-line' } } }));
    expect(formationOf(declared).illegal?.reason).toBe('formation/extended-line-intervals');
  });
});
