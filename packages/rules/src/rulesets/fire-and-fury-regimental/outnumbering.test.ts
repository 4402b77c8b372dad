import { describe, expect, it } from 'vitest';
import type { DiceBreakdown } from '../../engine/evaluation.ts';
import type { TableState } from '../../model/tableState.ts';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import type { FfrChargeOption } from './charge.ts';
import { inf, table, type FfrUnitSpec } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';

const charge = (s: TableState) => evaluateFireAndFuryRegimental(s).units['u']!.charge.find((c) => c.targetUnitId === 't') as FfrChargeOption;
const outnumbered = (b: DiceBreakdown) => b.modifiers.filter((m) => m.label.startsWith('Outnumbered')).map((m) => `${m.dice} ${m.label}`);
/** A charger facing +y at y = 10 against six stands facing it 4" away, 1" apart (`gapIn`) or touching. */
const scene = (attacker: Partial<FfrUnitSpec>, gapIn: number, defender: Partial<FfrUnitSpec> = {}) =>
  table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, attacker), inf('t', 'b', { xIn: 36, yIn: 14 }, 270, { stands: 6, files: 6, gapIn, ...defender })]);

describe('outnumbered by stand count against an extended line (QRS II, Figure 4; Extended Line Frontage)', () => {
  it('counts only the stands of an extended line with intervals that lie in the path of the charge', () => {
    // Two charging stands (x 34.5 to 37.5, widened by 1" to 33.5-38.5) meet two of the six stands 2.5" apart.
    const c = charge(scene({ stands: 2, files: 2 }, 1));
    expect(evaluateFireAndFuryRegimental(scene({ stands: 2, files: 2 }, 1)).units['t']!.formation.name).toBe('Extended line');
    expect(c.ok).toBe(true);
    expect(outnumbered(c.attacker)).toEqual([]);
    expect(outnumbered(c.defender)).toEqual([]);
  });

  it('counts every stand of an extended line without intervals', () => {
    const touching = scene({ stands: 2, files: 2 }, 0, { fields: { extendedLineOnly: true } });
    expect(evaluateFireAndFuryRegimental(touching).units['t']!.formation.name).toBe('Extended line');
    expect(outnumbered(charge(touching).attacker)).toEqual(['-3 Outnumbered 3:1 or more (6 stands to 2)']);
  });

  it('lets the charged line be outnumbered by what it counts, and says so', () => {
    // A field column of eight (two stands wide) against the two stands in its path.
    const c = charge(scene({ stands: 8, files: 2 }, 1));
    expect(outnumbered(c.defender)).toEqual(['-3 Outnumbered 3:1 or more (8 stands to 2; the extended line with intervals counts only its 2 stands in the path of the charge)']);
    expect(c.defender.modifiers.find((m) => m.label.startsWith('Outnumbered'))!.source).toContain('Extended Line Frontage');
    // A wider charger (four stands, 32-40 widened) meets four of them.
    expect(outnumbered(charge(scene({ stands: 4, files: 4 }, 1)).defender)).toEqual([]);
  });

  it('leaves lines and columns counting all their stands', () => {
    const c = charge(scene({ stands: 2, files: 2 }, 0));
    expect(evaluateFireAndFuryRegimental(scene({ stands: 2, files: 2 }, 0)).units['t']!.formation.name).toBe('Line');
    expect(outnumbered(c.attacker)).toEqual(['-3 Outnumbered 3:1 or more (6 stands to 2)']);
  });
});
