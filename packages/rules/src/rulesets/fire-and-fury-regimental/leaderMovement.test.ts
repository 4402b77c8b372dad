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

describe('leaders on roads (QRS II, Road Movement: "x1.5 for leaders")', () => {
  const at = { xIn: 36, yIn: 24 };
  const base = (roadYIn: number | undefined) =>
    table([{ ...inf('u', 'a', { xIn: 10, yIn: 5 }, 90), brigadeId: 'b' }], {
      commanders: [leader('L', 'a', at, 'b')],
      terrain: roadYIn === undefined ? {} : { roads: [{ id: 'pike', points: [{ xIn: 0, yIn: roadYIn }, { xIn: 72, yIn: roadYIn }] }] },
    });
  const roadOf = (s: TableState, kind = 'road') => evaluateFireAndFuryRegimental(s).shapes.find((x) => x.id === `movement/leader/L/${kind}/0`) as { points: { xIn: number; yIn: number }[] } | undefined;
  const len = (pts: readonly { xIn: number; yIn: number }[]) => pts.slice(1).reduce((sum, q, i) => sum + Math.hypot(q.xIn - pts[i]!.xIn, q.yIn - pts[i]!.yIn), 0);

  it('gives a mounted leader on a good road 24" x1.5 = 36" each way', () => {
    expect(len(roadOf(base(24))!.points)).toBeCloseTo(72, 6);
    expect(roadOf(base(undefined))).toBeUndefined();
  });

  it('lets a leader reach a road 10" away and go on along it with the rest x1.5: 21" each way', () => {
    // His stand's centre at y = 24, the road at y = 34: 10" at 24", then 14" x1.5 = 21".
    const pts = roadOf(base(34), 'road-entry')!.points;
    expect(pts[0]).toEqual(at);
    expect(len(pts.slice(1))).toBeCloseTo(42, 6);
    expect(roadOf(base(34))).toBeUndefined();
  });
});
