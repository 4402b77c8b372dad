import { describe, expect, it } from 'vitest';
import { devilToPay } from './index.ts';
import { rect, scene } from '../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';

describe('devilToPay ruleset', () => {
  const state = scene(
    [
      { id: 'alabama', xIn: 40, yIn: 10, headingDeg: 90, quality: 'crack', brigadeId: 'b1', status: { hitsByStand: { 'alabama-s4': 1 } } },
      { id: 'tennessee', xIn: 47.75, yIn: 10, headingDeg: 90, stands: 4, brigadeId: 'b1' },
      { id: 'yanks', side: 'confederate', xIn: 40, yIn: 10 + 14 + 0.75, headingDeg: 270 },
    ],
    { areas: [{ id: 'woods', kind: 'open-woods', vertices: rect(25, 23, 55, 32) }] },
  );
  const ev = devilToPay.evaluate(state);

  it('identifies itself', () => {
    expect([devilToPay.id, devilToPay.name, devilToPay.source]).toEqual(['devil-to-pay', 'The Devil to Pay', 'The Devil to Pay, 2018 edition']);
    expect(ev.rulesetId).toBe('devil-to-pay');
  });

  it('evaluates every unit: formation, movement, fire, charge, rally, command', () => {
    expect(Object.keys(ev.units).sort()).toEqual(['alabama', 'tennessee', 'yanks']);
    const a = ev.units['alabama']!;
    expect(a.formation.formation).toBe('line');
    expect(a.movement.ok).toBe(true);
    const shot = a.fire.find((f) => f.targetUnitId === 'yanks');
    expect(shot).toMatchObject({ ok: true, band: '24"' });
    // 4 unhit stands, -2 range, -1 open woods, +1 crack.
    expect(shot?.ok && shot.breakdown.dice).toBe(2);
    expect(a.rally).toMatchObject({ baseDice: 2, dice: 4 });
    expect(a.command.brigadeFormationUnitIds).toEqual(['tennessee']);
    expect(ev.units['yanks']!.rally).toMatchObject({ ok: false, reason: 'rally/no-hits' });
  });

  it('draws arcs, a labelled target line and the brigade link', () => {
    const arcs = ev.shapes.filter((s) => s.id.startsWith('fire/arc/alabama'));
    expect(arcs).toHaveLength(4);
    const label = ev.shapes.find((s) => s.id === 'fire/label/alabama/yanks');
    expect(label).toMatchObject({ kind: 'label', layer: 'fire' });
    expect(label?.kind === 'label' && label.text).toBe('2 dice @ 14"');
    expect(ev.shapes.some((s) => s.id === 'command/brigade/alabama/tennessee' && s.style === 'link')).toBe(true);
    // Shape ids are stable and unique so views can diff frames.
    expect(new Set(ev.shapes.map((s) => s.id)).size).toBe(ev.shapes.length);
  });

  it('warns about a weapon no fire table lists, and draws artillery arcs in their own style', () => {
    const odd = scene([
      { id: 'odd', xIn: 20, yIn: 10, headingDeg: 90, weapon: 'laser' },
      { id: 'guns', xIn: 60, yIn: 10, headingDeg: 90, arm: 'artillery', stands: 2 },
      { id: 'enemy', side: 'confederate', xIn: 60, yIn: 40, headingDeg: 270 },
    ]);
    const e = devilToPay.evaluate(odd);
    expect(e.warnings.map((w) => w.code)).toContain('fire/unknown-weapon');
    expect(e.units['odd']!.fire).toEqual([expect.objectContaining({ ok: false, reason: 'fire/unknown-weapon', targetUnitId: '*' })]);
    expect(e.shapes.filter((s) => s.id.startsWith('fire/arc/guns')).every((s) => s.style === 'arc-artillery')).toBe(true);
    expect(e.shapes.some((s) => s.id === 'fire/target/guns/enemy')).toBe(true);
  });

  it('is pure: the same state gives the same evaluation', () => {
    expect(devilToPay.evaluate(state)).toEqual(ev);
  });
});
