import { describe, expect, it } from 'vitest';
import { parseTableStateFor } from '../../validate/parseTableState.ts';
import { TableStateError } from '../../validate/tableStateError.ts';
import { whileTheDevilRules } from './index.ts';
import { TROOP_TYPES } from './tables/troopTypes.ts';
import { WTDR_BASES, row, wtdrScene } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

describe('While the Devil Rules declarations', () => {
  it('never gives a default to a number the guide does not give', () => {
    const params = whileTheDevilRules.parameters!;
    const notInDocument = params.filter((p) => p.notInDocument);
    expect(notInDocument.length).toBeGreaterThan(50);
    for (const p of notInDocument) {
      expect(p.default, p.id).toBeUndefined();
      expect(p.source).toMatch(/game app/);
    }
    // One advance, march and charge reach per troop type that moves or charges (heavy guns only pivot; guns
    // never charge; the guide gives a camp neither).
    const ids = new Set(params.map((p) => p.id));
    for (const t of TROOP_TYPES) {
      expect(ids.has(`advance-${t.id}`), t.id).toBe(t.id !== 'heavy-artillery' && t.id !== 'camp');
      expect(ids.has(`charge-${t.id}`), t.id).toBe(t.family !== 'artillery' && t.id !== 'camp');
    }
    expect(new Set(params.map((p) => p.id)).size).toBe(params.length);
  });

  it('requires a troop type from the guide\'s list and checks parameters against their ranges', () => {
    const base = wtdrScene([{ id: 'u', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: 20, yIn: 20 }, headingDeg: 90 }]);
    expect(() => parseTableStateFor(base, whileTheDevilRules)).not.toThrow();
    const badType = { ...base, units: base.units.map((u) => ({ ...u, rulesetFields: { 'troop-type': 'musketeers' } })) };
    expect(() => parseTableStateFor(badType, whileTheDevilRules)).toThrow(TableStateError);
    expect(() => parseTableStateFor(badType, whileTheDevilRules)).toThrow(/troop-type: expected one of dutch-battalion/);
    const noType = { ...base, units: base.units.map((u) => ({ ...u, rulesetFields: {} })) };
    expect(() => parseTableStateFor(noType, whileTheDevilRules)).toThrow(/troop-type: missing \(required by ruleset "while-the-devil-rules"/);
    const badParam = { ...base, rulesetParameters: { 'advance-commanded-shot': -2, 'leader-bonus-superb': 3 } };
    expect(() => parseTableStateFor(badParam, whileTheDevilRules)).toThrow(/advance-commanded-shot: expected at least 0/);
    const badStatus = { ...base, units: base.units.map((u) => ({ ...u, status: { rulesetStatus: { status: 'routed' } } })) };
    expect(() => parseTableStateFor(badStatus, whileTheDevilRules)).toThrow(/rulesetStatus\.status: expected one of ok, disordered, demoralized/);
  });

  it('evaluates a unit without a troop type with a warning instead of failing', () => {
    const base = wtdrScene([{ id: 'u', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: 20, yIn: 20 }, headingDeg: 90 }]);
    const state = { ...base, units: base.units.map((u) => ({ ...u, rulesetFields: {} })) };
    const ev = whileTheDevilRules.evaluate(state);
    expect(ev.units['u']!.movement).toMatchObject({ ok: false, reason: 'movement/no-troop-type' });
    expect(ev.units['u']!.formation.formation).toBe('unknown');
    expect(ev.warnings).toContainEqual(expect.objectContaining({ code: 'unit/no-troop-type', unitId: 'u' }));
  });
});
