import { describe, expect, it } from 'vitest';
import type { DiceBreakdown } from '../../engine/evaluation.ts';
import type { TableState } from '../../model/tableState.ts';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import type { FfrChargeOption } from './charge.ts';
import { inf, mapStands, table, type FfrUnitSpec } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';

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
    // A wider charger (four stands, x 33 to 39) has two stands in its path (34-35.5, 36.5-38); those at
    // 31.5-33 and 39-40.5 only touch its flanks' lines, beside the path: 4 stands to 2.
    expect(outnumbered(charge(scene({ stands: 4, files: 4 }, 1)).defender)).toEqual([
      '-2 Outnumbered 2:1 (4 stands to 2; the extended line with intervals counts only its 2 stands in the path of the charge)',
    ]);
  });

  it('leaves lines and columns counting all their stands', () => {
    const c = charge(scene({ stands: 2, files: 2 }, 0));
    expect(evaluateFireAndFuryRegimental(scene({ stands: 2, files: 2 }, 0)).units['t']!.formation.name).toBe('Line');
    expect(outnumbered(c.attacker)).toEqual(['-3 Outnumbered 3:1 or more (6 stands to 2)']);
  });

  it('does not count a stand beside the path, even within 1" of the charger\'s flank ("within 1" of the charging unit and in the path")', () => {
    // The charger's two stands span x 34.5-37.5. Close the defender's two right stands up by 0.5" (39-40.5 to
    // 38.5-40, 41.5-43 to 41-42.5): the first is then 1" beside the path, not in it.
    const beside = mapStands(scene({ stands: 2, files: 2 }, 1), 't', (st) => (st.pose.xIn > 39 ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn - 0.5 } } : st));
    const c = charge(beside);
    expect(outnumbered(c.attacker)).toEqual([]);
    expect(outnumbered(c.defender)).toEqual([]);
  });

  it('does not count a stand in the path lying more than 1" deeper than the first stand met', () => {
    // A stand pulled back is no longer one rank to the camera: the players set the formation.
    const refused = { status: { rulesetStatus: { formation: 'extended-line' } } };
    // Stand 36.5-38 (centre x 37.25) pulled 1.5" back: in the path but 1.5" beyond the stand met first.
    const deep = mapStands(scene({ stands: 3, files: 3 }, 1, refused), 't', (st) => (Math.abs(st.pose.xIn - 37.25) < 1e-6 ? { ...st, pose: { ...st.pose, yIn: st.pose.yIn + 1.5 } } : st));
    // Three chargers (x 33.75-38.25) meet 34-35.5 and the pulled-back 36.5-38: only one counts, 3 to 1.
    expect(outnumbered(charge(deep).defender)).toEqual(['-3 Outnumbered 3:1 or more (3 stands to 1; the extended line with intervals counts only its 1 stand in the path of the charge)']);
    // 1" back it still counts: 3 stands to 2.
    const near = mapStands(scene({ stands: 3, files: 3 }, 1, refused), 't', (st) => (Math.abs(st.pose.xIn - 37.25) < 1e-6 ? { ...st, pose: { ...st.pose, yIn: st.pose.yIn + 1 } } : st));
    expect(outnumbered(charge(near).defender)).toEqual(['-1 Outnumbered 3:2 (3 stands to 2; the extended line with intervals counts only its 2 stands in the path of the charge)']);
  });
});
