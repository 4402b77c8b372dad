import { describe, expect, it } from 'vitest';
import type { TableState } from '../../model/tableState.ts';
import { buildContext, boxGapIn } from './context.ts';
import { grid, placeStands, unitOf } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';

function scene(): TableState {
  const a = placeStands({ unitId: 'a', xIn: 10, yIn: 10, headingDeg: 90 }, grid(4, 4, { widthIn: 1.5, depthIn: 1.5 }));
  const b = placeStands({ unitId: 'b', xIn: 10, yIn: 30, headingDeg: 270 }, grid(4, 4, { widthIn: 1.5, depthIn: 1.5 }));
  return {
    version: 1,
    table: { widthIn: 72, depthIn: 48 },
    stands: [...a, ...b, { id: 'cmd', unitId: 'c1', pose: { xIn: 10, yIn: 8, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'commander' }],
    units: [
      unitOf({ id: 'a', status: { hitsByStand: { 'a-s1': 1 } } }, a),
      unitOf({ id: 'b', side: 'confederate' }, b),
    ],
    commanders: [{ id: 'c1', name: 'C', side: 'union', brigadeId: 'br1', quality: 'capable', standId: 'cmd', attachedToUnitId: 'a' }],
    terrain: {
      areas: [{ id: 'w', kind: 'open-woods', vertices: [{ xIn: 0, yIn: 25 }, { xIn: 20, yIn: 25 }, { xIn: 20, yIn: 35 }, { xIn: 0, yIn: 35 }] }],
      linear: [],
      roads: [],
      elevations: [{ id: 'h', level: 1, vertices: [{ xIn: 0, yIn: 0 }, { xIn: 20, yIn: 0 }, { xIn: 20, yIn: 15 }, { xIn: 0, yIn: 15 }] }],
    },
  };
}

describe('buildContext', () => {
  const ctx = buildContext(scene());
  it('indexes units, stands, hits, sides and enemies', () => {
    expect(ctx.units.get('a')!.stands).toHaveLength(4);
    expect(ctx.stands.get('a-s1')!.hits).toBe(1);
    expect(ctx.stands.get('a-s2')!.hits).toBe(0);
    expect(ctx.sides).toEqual(['union', 'confederate']);
    expect(ctx.enemiesOf('a').map((u) => u.unit.id)).toEqual(['b']);
    expect(ctx.units.get('a')!.command!.stand.role).toBe('command');
  });
  it('finds attached commanders, brigade commanders, area terrain and elevation', () => {
    expect(ctx.units.get('a')!.attachedCommanderId).toBe('c1');
    expect(ctx.commanderOfBrigade('br1')!.stand!.stand.id).toBe('cmd');
    expect(ctx.areaOf('b')?.id).toBe('w');
    expect(ctx.areaOf('a')).toBeUndefined();
    expect(ctx.elevationOf('a')).toBe(1);
    expect(ctx.elevationOf('b')).toBe(0);
  });
  it('reads formations through recognizeFormation', () => {
    expect(ctx.formationOf('a').formation).toBe('line');
    expect(ctx.formationOf('a').frontRankStandIds).toHaveLength(4);
  });
  it('bounds distances with box gaps', () => {
    const gap = boxGapIn(ctx.units.get('a')!.box, ctx.units.get('b')!.box);
    expect(gap).toBeGreaterThan(17);
    expect(gap).toBeLessThan(19);
  });
  it('throws an actionable error for an unknown unit id', () => {
    expect(() => ctx.formationOf('nope')).toThrow(/no unit with id 'nope'/);
  });
});
