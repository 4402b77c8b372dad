import { describe, expect, it } from 'vitest';
import { evaluateFireAndFuryRegimental, type FfrUnitEvaluation } from './evaluate.ts';
import { inf, mapUnit, table, withParams } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import type { DiceBreakdown } from '../../engine/evaluation.ts';
import type { Terrain, TableState } from '../../model/tableState.ts';
import type { CommanderSpec } from '../../../../../fixtures/rules/sceneBuilder.ts';

const ev = (s: TableState) => evaluateFireAndFuryRegimental(s);
const unitOf = (s: TableState, id = 'u') => ev(s).units[id] as FfrUnitEvaluation;
const leader = (at: { xIn: number; yIn: number }, more: Partial<CommanderSpec> = {}): CommanderSpec => ({ id: 'gen', name: 'Gen. A', side: 'a', brigadeId: 'b1', quality: 'capable', at, headingDeg: 90, ...more });
/** A line facing +y, front edge at y = 10, in brigade b1; the leader `gapIn` behind its rear edge. */
const scene = (gapIn: number, more: { terrain?: Partial<Terrain>; leader?: Partial<CommanderSpec> } = {}) =>
  table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { brigadeId: 'b1' })], { commanders: [leader({ xIn: 36, yIn: 8.5 - gapIn - 0.75 }, more.leader)], terrain: more.terrain ?? {} });
const mods = (b: DiceBreakdown) => b.modifiers.map((m) => `${m.dice > 0 ? '+' : ''}${m.dice} ${m.label}`);

describe('command radius (QRS II, Maneuver Table, Command Radius)', () => {
  it('puts a unit within 8" of its own leader in command, and one farther out of command', () => {
    const inside = unitOf(scene(7.9)).command;
    expect(inside).toMatchObject({ inCommand: true, commanderInRangeId: 'gen', commandRadiusIn: 8 });
    expect(inside.commanderDistanceIn).toBeCloseTo(7.9, 6);
    expect(unitOf(scene(8.1)).command.inCommand).toBe(false);
    expect(ev(scene(8.1)).shapes.find((s) => s.id === 'command/link/gen/u')?.style).toBe('link-broken');
  });

  it('shrinks the radius to 4" in twilight or fog, through dense woods, and for an attached leader', () => {
    expect(unitOf(withParams(scene(5), { visibility: 'twilight-or-fog' })).command).toMatchObject({ inCommand: false, commandRadiusIn: 4 });
    const thicket = { areas: [{ id: 'w', kind: 'thick-woods' as const, vertices: [{ xIn: 30, yIn: 3 }, { xIn: 42, yIn: 3 }, { xIn: 42, yIn: 6 }, { xIn: 30, yIn: 6 }] }] };
    expect(unitOf(scene(5, { terrain: thicket })).command).toMatchObject({ inCommand: false, commandRadiusIn: 4 });
    const attached = table(
      [inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { brigadeId: 'b1' }), inf('v', 'a', { xIn: 36, yIn: 20 }, 90, { brigadeId: 'b1' })],
      { commanders: [leader({ xIn: 36, yIn: 7 }, { attachedToUnitId: 'u' })] },
    );
    expect(unitOf(attached).command).toMatchObject({ inCommand: true, attachedCommanderId: 'gen', commanderDistanceIn: 0 });
    expect(unitOf(attached, 'v').command).toMatchObject({ inCommand: false, commandRadiusIn: 4 });
  });

  it("calls another brigade's leader a provisional command", () => {
    const s = scene(3, { leader: { brigadeId: 'other' } });
    expect(unitOf(s).command.inCommand).toBe(true);
    expect(mods(unitOf(s).rally as DiceBreakdown)).toContain('-1 Provisional command');
  });
});

describe('maneuver check (QRS II, Maneuver Table Procedure, Die Roll Modifiers)', () => {
  it('adds leader rating, troop rating and effectiveness for a unit in command', () => {
    const s = scene(3, { leader: { quality: 'superb' } });
    const u = unitOf(mapUnit(s, 'u', (x) => ({ ...x, rulesetFields: { startingStands: 6, wornAtStandsLost: 2, spentAtStandsLost: 4 } })));
    expect(u.rally).toMatchObject({ kind: 'modifier', dice: 4 });
    expect(mods(u.rally as DiceBreakdown)).toEqual(['+1 Gen. A: gallant leader', '+1 Veteran unit', '+2 Fresh troops']);
    // Good order column: Double Quick at 8 or more needs a 4 on the die.
    expect(u.maneuver.column).toBe('good-order-and-guns');
    expect(u.maneuver.effects[0]).toEqual({ effect: 'double-quick', modifiedAtLeast: 8, dieAtLeast: 4 });
  });

  it('takes two off out of command, never adding the militia penalty on top', () => {
    const s = mapUnit(scene(20), 'u', (x) => ({ ...x, rulesetFields: { militia: true } }));
    const m = mods(unitOf(s).rally as DiceBreakdown);
    expect(m).toContain('-2 Out of command');
    expect(m.some((x) => x.includes('Provisional'))).toBe(false);
    expect(mods(unitOf(mapUnit(scene(3), 'u', (x) => ({ ...x, rulesetFields: { militia: true } }))).rally as DiceBreakdown)).toContain('-1 Provisional command (militia)');
  });

  it('reads a disordered unit down the D1 column and counts column, broken and status modifiers', () => {
    const s = mapUnit(scene(3), 'u', (x) => ({ ...x, status: { disordered: true, rulesetStatus: { casualties: 'greater', keyPositionLost: true } } }));
    const u = unitOf(s);
    expect(u.maneuver.column).toBe('disordered-or-broken');
    expect(u.maneuver.effects.map((e) => e.effect)).toEqual(['rally-with-elan', 'rally', 'shaken', 'wavering', 'panic']);
    expect(mods(u.rally as DiceBreakdown)).toEqual(expect.arrayContaining(['-1 Key position lost', '-2 Greater losses']));
    const column = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { files: 1, brigadeId: 'b1' })], { commanders: [leader({ xIn: 30, yIn: 10 })] });
    expect(mods(unitOf(column).rally as DiceBreakdown)).toContain('+1 Field or march column, garrison, limbered gun, or linear cover');
  });
});

describe('fresh, worn, spent (QRS II, Inflicting Troop Casualties; the unit label)', () => {
  const withLoss = (lost: number) =>
    unitOf(mapUnit(scene(3), 'u', (x) => ({ ...x, rulesetFields: { startingStands: 6 + lost, wornAtStandsLost: 2, spentAtStandsLost: 4 } }))).morale!;
  it('counts stands lost against the label thresholds', () => {
    expect(withLoss(0)).toMatchObject({ state: 'fresh', counted: { label: 'stands lost', value: 0 } });
    expect(withLoss(2).state).toBe('worn');
    expect(withLoss(4)).toMatchObject({ state: 'spent', thresholds: [{ label: 'worn', at: 2, reached: true }, { label: 'spent', at: 4, reached: true }] });
  });

  it('says which label values are missing and leaves the effectiveness modifier out', () => {
    const e = ev(scene(3));
    expect(e.units['u']!.morale!.state).toBe('unknown');
    expect(e.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['unit/missing-field', 'morale/losses-unknown']));
    expect(mods(e.units['u']!.rally as DiceBreakdown).some((m) => m.includes('troops'))).toBe(false);
  });
});

describe('artillery leaders (QRS II, Provisional Command: "except for artillery commanders who can only command guns")', () => {
  it('lets an artillery commander command only guns, provisionally too', () => {
    // The leader's brigade 'arty' holds only a battery; the infantry of b1 has no leader of its own near.
    const s = table(
      [inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { brigadeId: 'b1' }), inf('g', 'a', { xIn: 50, yIn: 10 }, 90, { brigadeId: 'arty', arm: 'artillery', weapon: 'LR', stands: 2, files: 2 })],
      { commanders: [leader({ xIn: 40, yIn: 5 }, { brigadeId: 'arty' })] },
    );
    expect(unitOf(s).command.inCommand).toBe(false);
    expect(mods(unitOf(s).rally as DiceBreakdown)).toContain('-2 Out of command');
    expect(unitOf(s, 'g').command.inCommand).toBe(true);
    // A battery of another brigade is under his provisional command.
    const other = table([inf('h', 'a', { xIn: 36, yIn: 10 }, 90, { brigadeId: 'b1', arm: 'artillery', weapon: 'LR', stands: 2, files: 2 }), inf('g', 'a', { xIn: 50, yIn: 10 }, 90, { brigadeId: 'arty', arm: 'artillery', weapon: 'LR', stands: 2, files: 2 })], {
      commanders: [leader({ xIn: 40, yIn: 5 }, { brigadeId: 'arty' })],
    });
    expect(mods(unitOf(other, 'h').rally as DiceBreakdown)).toContain('-1 Provisional command');
    // An infantry brigade's leader commands infantry of another brigade provisionally, as before.
    const mixed = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { brigadeId: 'b1' }), inf('w', 'a', { xIn: 50, yIn: 10 }, 90, { brigadeId: 'b2' })], { commanders: [leader({ xIn: 40, yIn: 5 }, { brigadeId: 'b2' })] });
    expect(unitOf(mixed).command.inCommand).toBe(true);
  });
});

describe('attached to a contiguous line of march (QRS II, Maneuver Table, Command Radius)', () => {
  /** Three march columns of 4 stands in file facing +y, end to end; the third `gapIn` behind the second. */
  const column = (gapIn: number, leaderOn = 'u1', brigade3 = 'b1') =>
    table(
      [
        inf('u1', 'a', { xIn: 36, yIn: 26 }, 90, { brigadeId: 'b1', stands: 4, files: 1 }),
        inf('u2', 'a', { xIn: 36, yIn: 20 }, 90, { brigadeId: 'b1', stands: 4, files: 1 }),
        inf('u3', 'a', { xIn: 36, yIn: 14 - gapIn }, 90, { brigadeId: brigade3, stands: 4, files: 1 }),
      ],
      { commanders: [leader({ xIn: 36, yIn: 30 }, { attachedToUnitId: leaderOn })] },
    );

  it('commands every unit of the line from the unit he is attached to, however long the line', () => {
    const s = column(0);
    expect(ev(s).units['u1']!.formation.name).toBe('March column');
    expect(unitOf(s, 'u3').command).toMatchObject({ inCommand: true, commanderInRangeId: 'gen' });
    expect(mods(unitOf(s, 'u3').rally as DiceBreakdown)).not.toContain('-2 Out of command');
  });

  it('stops at a gap in the line: the unit behind it is out of his 4" attached radius', () => {
    const s = column(2);
    expect(unitOf(s, 'u2').command.inCommand).toBe(true);
    expect(unitOf(s, 'u3').command.inCommand).toBe(false);
  });

  it('gives provisional command to a unit of another brigade in the line', () => {
    expect(mods(unitOf(column(0, 'u1', 'b2'), 'u3').rally as DiceBreakdown)).toContain('-1 Provisional command');
  });

  it('is no line of march when the units are not in march column', () => {
    const lines = table(
      [inf('u1', 'a', { xIn: 36, yIn: 26 }, 90, { brigadeId: 'b1' }), inf('u2', 'a', { xIn: 36, yIn: 24.5 }, 90, { brigadeId: 'b1' }), inf('u3', 'a', { xIn: 36, yIn: 14 }, 90, { brigadeId: 'b1' })],
      { commanders: [leader({ xIn: 36, yIn: 30 }, { attachedToUnitId: 'u1' })] },
    );
    expect(unitOf(lines, 'u3').command.inCommand).toBe(false);
  });
});
