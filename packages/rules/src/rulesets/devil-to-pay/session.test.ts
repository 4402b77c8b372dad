import { describe, expect, it } from 'vitest';
import { createRng } from '../../dice/rng.ts';
import { devilToPay } from './index.ts';
import { moveRandomUnit, randomTable } from './sessionTestTable.ts';

describe('devil to pay session', () => {
  it('returns exactly what evaluate returns, after every random move', () => {
    const rng = createRng(20261122);
    let state = randomTable(rng, 10);
    const session = devilToPay.createSession!();
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    for (let i = 0; i < 10; i++) {
      state = moveRandomUnit(state, rng, 6).state;
      expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    }
  });

  it('follows units leaving and re-entering the table, and a change of attached commander', () => {
    const rng = createRng(11);
    const state = randomTable(rng, 6);
    const session = devilToPay.createSession!();
    session.update(state);
    const gone = state.units[3]!;
    const without = { ...state, units: state.units.filter((u) => u !== gone), stands: state.stands.filter((s) => s.unitId !== gone.id) };
    expect(session.update(without)).toEqual(devilToPay.evaluate(without));
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    const cdr = state.commanders[0]!;
    const attached = { ...state, units: state.units.map((u, i) => (i === 1 ? { ...u, status: { ...u.status, attachedCommanderId: cdr.id } } : u)) };
    expect(session.update(attached)).toEqual(devilToPay.evaluate(attached));
  });

  it('starts afresh when the terrain changes', () => {
    const rng = createRng(7);
    const state = randomTable(rng, 6);
    const session = devilToPay.createSession!();
    session.update(state);
    const wooded = { ...state, terrain: { ...state.terrain, areas: [...state.terrain.areas, { id: 'new-woods', kind: 'thick-woods' as const, vertices: [{ xIn: 0, yIn: 21 }, { xIn: 96, yIn: 21 }, { xIn: 96, yIn: 39 }, { xIn: 0, yIn: 39 }] }] } };
    expect(session.update(wooded)).toEqual(devilToPay.evaluate(wooded));
  });
});
