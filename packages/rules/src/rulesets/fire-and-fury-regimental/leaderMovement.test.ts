import { describe, expect, it } from 'vitest';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { inf, table } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import type { CommanderSpec } from '../../../../../fixtures/rules/sceneBuilder.ts';
import type { PolygonShape } from '../../engine/shapes.ts';
import type { TableState } from '../../model/tableState.ts';

const leader = (id: string, side: string, at: { xIn: number; yIn: number }, brigadeId: string): CommanderSpec => ({ id, name: id, side, brigadeId, quality: 'capable', at, headingDeg: 90 });
const reachOf = (s: TableState, id: string) => evaluateFireAndFuryRegimental(s).shapes.find((x) => x.id === `movement/leader/${id}/reach`) as PolygonShape | undefined;
/** Farthest reach vertex from `from` along `dirDeg` (within a millionth of a degree). */
const alongIn = (p: PolygonShape, from: { xIn: number; yIn: number }, dirDeg: number) =>
  Math.max(0, ...p.vertices.filter((v) => Math.abs(((Math.atan2(v.yIn - from.yIn, v.xIn - from.xIn) * 180) / Math.PI - dirDeg + 540) % 360 - 180) < 1e-6).map((v) => Math.hypot(v.xIn - from.xIn, v.yIn - from.yIn)));

describe("a leader's own move (QRS II, Figure 2 Movement Rate, Leader rows)", () => {
  const brigade = (u: ReturnType<typeof inf>) => ({ ...u, brigadeId: 'b' });

  it('reaches 24" every way over open ground from his own stand, stopped by the table edge and by an enemy unit', () => {
    const at = { xIn: 36, yIn: 30 };
    const s = table([brigade(inf('u', 'a', { xIn: 20, yIn: 10 }, 90)), inf('e', 'z', { xIn: 36, yIn: 40 }, 270)], { commanders: [leader('L', 'a', at, 'b')] });
    const reach = reachOf(s, 'L')!;
    expect(reach).toMatchObject({ layer: 'movement', style: 'reach', side: 'a' });
    expect(reach.vertices).toHaveLength(48);
    expect(alongIn(reach, at, 0)).toBeCloseTo(24, 6);
    expect(alongIn(reach, at, 270)).toBeCloseTo(24, 6);
    // 36" from the right edge is farther than 24"; 30" from the near edge is farther too; the enemy's front
    // rank faces him at y = 40, its stands 40 to 41.5" (1.5" deep): he stops on their front edge, 10" on.
    expect(alongIn(reach, at, 90)).toBeCloseTo(10, 6);
    // Table edge: 12" from the left edge when he stands at x = 12.
    const nearEdge = table([brigade(inf('u', 'a', { xIn: 36, yIn: 10 }, 90))], { commanders: [leader('L', 'a', { xIn: 12, yIn: 30 }, 'b')] });
    expect(alongIn(reachOf(nearEdge, 'L')!, { xIn: 12, yIn: 30 }, 180)).toBeCloseTo(12, 6);
  });

  it('goes at the slowest ground crossed: 20" into broken woods, 12" into rough ground', () => {
    const at = { xIn: 36, yIn: 20 };
    const woods = (kind: 'open-woods' | 'thick-woods') => table([brigade(inf('u', 'a', { xIn: 10, yIn: 5 }, 90))], {
      commanders: [leader('L', 'a', at, 'b')],
      terrain: { areas: [{ id: 'w', kind, vertices: [{ xIn: 38, yIn: 0 }, { xIn: 72, yIn: 0 }, { xIn: 72, yIn: 48 }, { xIn: 38, yIn: 48 }] }] },
    });
    expect(alongIn(reachOf(woods('open-woods'), 'L')!, at, 0)).toBeCloseTo(20, 6);
    expect(alongIn(reachOf(woods('thick-woods'), 'L')!, at, 0)).toBeCloseTo(12, 6);
    // Away from the woods he keeps the open rate.
    expect(alongIn(reachOf(woods('thick-woods'), 'L')!, at, 180)).toBeCloseTo(24, 6);
  });

  it('gives no reach of his own to a leader attached to a unit (he moves with it)', () => {
    const s = table([brigade(inf('u', 'a', { xIn: 36, yIn: 10 }, 90))], { commanders: [{ ...leader('L', 'a', { xIn: 36, yIn: 30 }, 'b'), attachedToUnitId: 'u' }] });
    expect(reachOf(s, 'L')).toBeUndefined();
  });
});

describe('dismounted leaders and leaders on roads (QRS II, Figure 2 Leader rows; Road Movement)', () => {
  const at = { xIn: 36, yIn: 24 };
  const base = (roads: boolean) =>
    table([{ ...inf('u', 'a', { xIn: 10, yIn: 5 }, 90), brigadeId: 'b' }], {
      commanders: [leader('L', 'a', at, 'b')],
      terrain: roads ? { roads: [{ id: 'pike', points: [{ xIn: 0, yIn: 24 }, { xIn: 72, yIn: 24 }] }] } : {},
    });
  const dismounted = (s: TableState): TableState => ({ ...s, stands: s.stands.map((st) => (st.unitId === 'L' ? { ...st, role: 'dismounted' as const } : st)) });

  it('moves a dismounted leader by the Dismounted row: 16" open', () => {
    expect(alongIn(reachOf(base(false), 'L')!, at, 90)).toBeCloseTo(24, 6);
    expect(alongIn(reachOf(dismounted(base(false)), 'L')!, at, 90)).toBeCloseTo(16, 6);
  });

  it('gives a leader on a good road his open rate x1.5: 36" mounted, 24" dismounted, each way', () => {
    const roadOf = (s: TableState) => evaluateFireAndFuryRegimental(s).shapes.find((x) => x.id === 'movement/leader/L/road/0') as { points: { xIn: number; yIn: number }[] } | undefined;
    const len = (p: { points: { xIn: number; yIn: number }[] }) => p.points.slice(1).reduce((sum, q, i) => sum + Math.hypot(q.xIn - p.points[i]!.xIn, q.yIn - p.points[i]!.yIn), 0);
    expect(len(roadOf(base(true))!)).toBeCloseTo(36 + 36, 6);
    expect(len(roadOf(dismounted(base(true)))!)).toBeCloseTo(48, 6);
    expect(roadOf(base(false))).toBeUndefined();
  });
});
