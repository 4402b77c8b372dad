import { describe, expect, it } from 'vitest';
import { buildContext } from './context.ts';
import { evaluateCommand } from './command.ts';
import { scene, type CommanderBuild, type UnitBuild } from '../../../../../fixtures/rules/volley-and-bayonet/build.ts';

const inf = (id: string, brigadeId: string, stands: UnitBuild['stands'], troopType = 'fast-infantry'): UnitBuild => ({ id, side: 'a', brigadeId, fields: { 'troop-type': troopType, morale: 5, 'strength-points': 3 }, stands });

function command(units: UnitBuild[], commanders: CommanderBuild[] = []) {
  const ctx = buildContext(scene({ units, commanders }));
  return evaluateCommand(ctx);
}

describe('command and control (pp. 1-2)', () => {
  it('in command within 6" of its brigade commander, edge to edge; out at 6.5"', () => {
    // Commander base 1.5" square at y=10 (top edge 10.75); infantry 1.5" deep.
    const near = command([inf('u', 'b', [{ id: 's', base: 'infantry', x: 10, y: 10.75 + 6 + 0.75, heading: 90 }])], [{ id: 'bc', side: 'a', brigadeId: 'b', x: 10, y: 10 }]);
    expect(near.readings.get('u')).toMatchObject({ inCommand: true, commanderInRangeId: 'bc', commandRadiusIn: 6 });
    expect(near.readings.get('u')!.commanderDistanceIn).toBeCloseTo(6, 9);
    const far = command([inf('u', 'b', [{ id: 's', base: 'infantry', x: 10, y: 10.75 + 6.5 + 0.75, heading: 90 }])], [{ id: 'bc', side: 'a', brigadeId: 'b', x: 10, y: 10 }]);
    expect(far.readings.get('u')!.inCommand).toBe(false);
    expect(far.warnings.map((w) => w.code)).toEqual(['command/out-of-command']);
    expect(far.shapes.some((s) => s.style === 'link-broken')).toBe(true);
  });

  it('another brigade\'s commander does not command it', () => {
    const r = command([inf('u', 'b', [{ id: 's', base: 'infantry', x: 10, y: 13, heading: 90 }]), inf('v', 'c', [{ id: 't', base: 'infantry', x: 30, y: 13, heading: 90 }])], [{ id: 'cc', side: 'a', brigadeId: 'c', x: 10, y: 10 }]);
    expect(r.readings.get('u')!.inCommand).toBe(false);
  });

  it('the Army Commander (brigadeId "army") commands every stand of his side; a Wing Commander ("wing-<n>") only units of wing n', () => {
    const stand = (id: string): UnitBuild['stands'] => [{ id, base: 'infantry', x: 10, y: 13, heading: 90 }];
    const inWing = (wing: number | undefined): UnitBuild => ({ ...inf('u', 'b', stand('s')), fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 3, ...(wing !== undefined ? { wing } : {}) } });
    const army = command([inWing(undefined)], [{ id: 'ac', side: 'a', brigadeId: 'army', x: 10, y: 10 }]);
    expect(army.readings.get('u')).toMatchObject({ inCommand: true, commanderInRangeId: 'ac', commandRadiusIn: 6 });
    // The other side's Army Commander does not.
    expect(command([inWing(undefined)], [{ id: 'ac', side: 'z', brigadeId: 'army', x: 10, y: 10 }]).readings.get('u')!.inCommand).toBe(false);
    expect(command([inWing(2)], [{ id: 'wc', side: 'a', brigadeId: 'wing-2', x: 10, y: 10 }]).readings.get('u')).toMatchObject({ inCommand: true, commanderInRangeId: 'wc' });
    expect(command([inWing(1)], [{ id: 'wc', side: 'a', brigadeId: 'wing-2', x: 10, y: 10 }]).readings.get('u')!.inCommand).toBe(false);
    expect(command([inWing(undefined)], [{ id: 'wc', side: 'a', brigadeId: 'wing-2', x: 10, y: 10 }]).readings.get('u')!.inCommand).toBe(false);
  });

  it('its own unit commander within 3"; command spreads through touching stands of the unit', () => {
    const r = command([
      inf('u', 'b', [
        { id: 'uc', base: 'command', x: 10, y: 10 },
        { id: 's1', base: 'infantry', x: 10, y: 10.75 + 3 + 0.75, heading: 90 },
        { id: 's2', base: 'infantry', x: 13, y: 10.75 + 3 + 0.75, heading: 90 },
        { id: 's3', base: 'infantry', x: 16, y: 10.75 + 3 + 0.75, heading: 90 },
        { id: 's4', base: 'infantry', x: 25, y: 10.75 + 3 + 0.75, heading: 90 },
      ].map((s) => ({ heading: 90, ...s })) as UnitBuild['stands']),
    ]);
    expect([...r.standInCommand.entries()].filter(([id]) => id !== 'uc')).toEqual([['s1', true], ['s2', true], ['s3', true], ['s4', false]]);
    expect(r.readings.get('u')).toMatchObject({ inCommand: false, commandRadiusIn: 3 });
  });

  it('a unit commander never commands another unit, but any commander of its side commands artillery in his range', () => {
    const units = [
      inf('u', 'b', [{ id: 'uc', base: 'command', x: 10, y: 10, heading: 90 }, { id: 's1', base: 'infantry', x: 30, y: 10, heading: 90 }]),
      inf('v', 'c', [{ id: 't', base: 'infantry', x: 10, y: 13, heading: 90 }]),
      inf('g', 'c', [{ id: 'gun', base: 'artillery', x: 13, y: 10, heading: 90 }], 'light-artillery'),
    ];
    const r = command(units);
    expect(r.readings.get('v')!.inCommand).toBe(false);
    expect(r.readings.get('g')!.inCommand).toBe(true);
  });
});
