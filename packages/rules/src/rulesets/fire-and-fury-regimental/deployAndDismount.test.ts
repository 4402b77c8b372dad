import { describe, expect, it } from 'vitest';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { dismountedStrength } from './deployAndDismount.ts';
import { inf, table } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import type { MovementOption } from '../../engine/evaluation.ts';
import type { PolygonShape } from '../../engine/shapes.ts';
import type { TableState } from '../../model/tableState.ts';

const ev = (s: TableState) => evaluateFireAndFuryRegimental(s);
const notes = (s: TableState) => (ev(s).units['u']!.movement as MovementOption).notes.join(' ');

describe('deploy to the front (QRS II, Deploy to the Front, Figure 6)', () => {
  it('draws the line a march column of 6 forms at its head, facing the same way, 9" wide', () => {
    // Facing +y, head's front edge at y = 20, on the axis x = 36.
    const s = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { files: 1 })]);
    const line = ev(s).shapes.find((x) => x.id === 'movement/u/deploy-front') as PolygonShape;
    expect(line.style).toBe('formation');
    const xs = line.vertices.map((v) => v.xIn);
    const ys = line.vertices.map((v) => v.yIn);
    expect(Math.min(...xs)).toBeCloseTo(31.5, 6);
    expect(Math.max(...xs)).toBeCloseTo(40.5, 6);
    expect(Math.max(...ys)).toBeCloseTo(20, 6);
    expect(Math.min(...ys)).toBeCloseTo(18.5, 6);
    expect(notes(s)).toContain('Deploy to the front (Well Handled): into line facing the same way, 6 stands');
    expect(notes(s)).toContain('shifts it up to 3.0"');
    expect(notes(s)).toContain('no half move before or after');
  });

  it('deploys skirmish troops into extended line, warns green troops of broken ground, and draws nothing for a line', () => {
    expect(notes(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { files: 1, fields: { extendedLineOnly: true } })]))).toContain('into extended line');
    expect(notes(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { files: 1, quality: 'green' })]))).toContain('Green troops deploying in broken or rough ground are disordered');
    expect(ev(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90)])).shapes.some((x) => x.id === 'movement/u/deploy-front')).toBe(false);
  });
});

describe('dismounting (QRS II, Markers, Tethered Horses Marker)', () => {
  it('replaces every fourth stand with a horse holder; mounted infantry keep every stand', () => {
    expect(dismountedStrength(8, false)).toEqual({ onFoot: 6, horseHolders: 2 });
    expect(dismountedStrength(7, false)).toEqual({ onFoot: 6, horseHolders: 1 });
    expect(dismountedStrength(3, false)).toEqual({ onFoot: 3, horseHolders: 0 });
    expect(dismountedStrength(8, true)).toEqual({ onFoot: 8, horseHolders: 0 });
  });

  it('tells a mounted cavalry unit what dismounting leaves, and a dismounted one how it remounts', () => {
    const cav = (more = {}) => table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90, { arm: 'cavalry', weapon: 'BLC', stands: 8, files: 8, ...more })]);
    expect(notes(cav())).toContain('Dismount (change of formation): 6 stands fight on foot, 2 horse holder markers');
    expect(notes(cav({ fields: { mountedInfantry: true } }))).toContain('tethered horse marker is placed behind the unit; it cannot move');
    const down = cav({ status: { dismounted: true } });
    expect(notes(down)).toContain('Remount (change of formation): the horse holder markers');
    expect(notes(table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90)]))).not.toContain('Dismount');
  });
});
