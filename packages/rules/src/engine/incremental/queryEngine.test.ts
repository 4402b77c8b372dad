import { describe, expect, it } from 'vitest';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import { samePlainData } from '../samePlainData.ts';
import { createRng } from '../../dice/rng.ts';
import { query } from './query.ts';
import { accumulator, type TableReader } from './tableReader.ts';
import { createQuerySession, evaluateQueries } from './runQueries.ts';

/**
 * A toy rule set, written as a rule set is: for each unit, the enemy stands within 3" of any of its stands
 * (read through a box), its strength (read by id), a warning channel for units with no stands.
 */
interface Ctx {
  readonly t: TableReader<Ctx>;
}
const REACH_IN = 3;
const noStands = accumulator<string>('toy/no-stands');

const unitReach = query('toy/unit-reach', (ctx: Ctx, unitId) => {
  const stands = ctx.t.unitStands(unitId);
  const unit = ctx.t.unit(unitId)!;
  if (stands.length === 0) {
    ctx.t.report(noStands, unitId);
    return { unitId, near: [] as string[] };
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const s of stands) {
    x0 = Math.min(x0, s.pose.xIn);
    y0 = Math.min(y0, s.pose.yIn);
    x1 = Math.max(x1, s.pose.xIn);
    y1 = Math.max(y1, s.pose.yIn);
  }
  const near: string[] = [];
  for (const o of ctx.t.standsIn({ minXIn: x0 - REACH_IN - 2, minYIn: y0 - REACH_IN - 2, maxXIn: x1 + REACH_IN + 2, maxYIn: y1 + REACH_IN + 2 })) {
    const other = ctx.t.unit(o.unitId);
    if (!other || other.side === unit.side) continue;
    if (stands.some((s) => Math.hypot(s.pose.xIn - o.pose.xIn, s.pose.yIn - o.pose.yIn) <= REACH_IN)) near.push(o.id);
  }
  return { unitId, near };
}, { equal: 'plain' });

const unitCount = query('toy/count', (ctx: Ctx) => ctx.t.unitIds().length);

const root = query('toy/root', (ctx: Ctx) => {
  const units = ctx.t.unitIds().map((id) => ctx.t.get(unitReach, id));
  const warnings = ctx.t.reported(noStands, rootReaches).sort();
  return { count: ctx.t.get(unitCount), width: ctx.t.table().widthIn, units, warnings };
});
const rootReaches = query('toy/reaches', (ctx: Ctx) => ctx.t.unitIds().map((id) => ctx.t.get(unitReach, id)));

const toy = { context: (t: TableReader<Ctx>): Ctx => ({ t }), root };

function scene(seed: number): TableState {
  const rand = createRng(seed).nextFloat;
  const stands: Stand[] = [];
  const units: Unit[] = [];
  for (let u = 0; u < 12; u++) {
    const side = u % 2 === 0 ? 'blue' : 'grey';
    const ids: string[] = [];
    const x = rand() * 30, y = side === 'blue' ? 5 + rand() * 6 : 12 + rand() * 6;
    for (let k = 0; k < 3; k++) {
      const id = `u${u}-${k}`;
      ids.push(id);
      stands.push({ id, unitId: `u${u}`, pose: { xIn: x + 1.5 * k, yIn: y, headingDeg: side === 'blue' ? 90 : 270 }, widthIn: 1.5, depthIn: 1.5, role: 'base' });
    }
    units.push({ id: `u${u}`, name: `U${u}`, side, arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ids });
  }
  return { version: 1, table: { widthIn: 36, depthIn: 24 }, stands, units, commanders: [], terrain: { areas: [], linear: [], roads: [], elevations: [] } };
}

function step(s: TableState, rand: () => number): TableState {
  const unit = s.units[Math.floor(rand() * s.units.length)]!;
  const r = rand();
  if (r < 0.1) {
    // Lift the unit's stands off (the unit stays listed), or put them back.
    if (unit.standIds.length > 0) return { ...s, units: s.units.map((u) => (u === unit ? { ...u, standIds: [] } : u)), stands: s.stands.filter((st) => st.unitId !== unit.id) };
    const back: Stand = { id: `${unit.id}-0`, unitId: unit.id, pose: { xIn: rand() * 30, yIn: 8 + rand() * 8, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'base' };
    return { ...s, units: s.units.map((u) => (u === unit ? { ...u, standIds: [back.id] } : u)), stands: [...s.stands, back] };
  }
  if (r < 0.15) return { ...s, table: { ...s.table, widthIn: s.table.widthIn + 1 } };
  if (r < 0.2) return { ...s, units: s.units.map((u) => (u === unit ? { ...u, side: u.side === 'blue' ? 'grey' : 'blue' } : u)) };
  const dx = (rand() - 0.5) * 6, dy = (rand() - 0.5) * 6;
  return { ...s, stands: s.stands.map((st) => (st.unitId === unit.id ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn + dx, yIn: st.pose.yIn + dy } } : st)) };
}

/** Steps of a seeded chain whose incremental answer differs from a fresh one. */
function chainMismatches(breakBoxes: boolean): number {
  const rand = createRng(7).nextFloat;
  const session = createQuerySession(toy);
  if (breakBoxes) session.forgetBoxReads();
  let state = scene(3);
  let wrong = 0;
  for (let i = 0; i < 300; i++) {
    if (!samePlainData(session.update(state), evaluateQueries(toy, state))) wrong++;
    state = step(state, rand);
  }
  return wrong;
}

describe('query engine', () => {
  it('gives what a fresh evaluation gives after every change of a seeded chain', () => {
    expect(chainMismatches(false)).toBe(0);
  });

  it('is caught by the chain when a read goes unrecorded (box reads switched off)', () => {
    expect(chainMismatches(true)).toBeGreaterThan(0);
  });

  it('recomputes only the units a move meets', () => {
    const session = createQuerySession(toy);
    const s0 = scene(3);
    session.update(s0);
    const before = session.stats.computed;
    // Move one unit a tenth of an inch: only it and units whose box reads meet it run again.
    const mover = s0.units[0]!;
    const s1 = { ...s0, stands: s0.stands.map((st) => (st.unitId === mover.id ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn + 0.1 } } : st)) };
    const out = session.update(s1);
    const ran = session.stats.computed - before;
    expect(ran).toBeGreaterThan(1);
    expect(ran).toBeLessThan(s0.units.length);
    expect(out).toEqual(evaluateQueries(toy, s1));
    // The same state again costs nothing.
    const again = session.stats.computed;
    expect(session.update(s1)).toBe(out);
    expect(session.stats.computed).toBe(again);
  });

  it('keeps an unchanged answer when a recomputed piece gives the same plain data (early cut-off)', () => {
    const session = createQuerySession(toy);
    const s0 = scene(3);
    const first = session.update(s0);
    // The same table as new objects: nothing changed, the very same answer comes back.
    const copy = JSON.parse(JSON.stringify(s0)) as TableState;
    expect(session.update(copy)).toBe(first);
  });

  it('collects reported items and drops them when their cause goes', () => {
    const session = createQuerySession(toy);
    const s0 = scene(3);
    expect(session.update(s0).warnings).toEqual([]);
    const bare = { ...s0, units: s0.units.map((u, i) => (i === 2 ? { ...u, standIds: [] } : u)), stands: s0.stands.filter((st) => st.unitId !== 'u2') };
    expect(session.update(bare).warnings).toEqual(['u2']);
    expect(evaluateQueries(toy, bare).warnings).toEqual(['u2']);
    expect(session.update(s0).warnings).toEqual([]);
  });

  it('drops what a query reported once nothing reads that query any more', () => {
    const session = createQuerySession(toy);
    const s0 = scene(3);
    const bare = { ...s0, units: s0.units.map((u, i) => (i === 2 ? { ...u, standIds: [] } : u)), stands: s0.stands.filter((st) => st.unitId !== 'u2') };
    expect(session.update(bare).warnings).toEqual(['u2']);
    // u2 leaves the roll: the reaches no longer read its piece, whose report must go with it.
    const gone = { ...bare, units: bare.units.filter((u) => u.id !== 'u2') };
    expect(session.update(gone).warnings).toEqual([]);
    expect(evaluateQueries(toy, gone).warnings).toEqual([]);
  });

  it('reads a pair of keys without building a key of its own', () => {
    const gap = query('toy/gap', (ctx: Ctx, a, b) => Math.abs(ctx.t.unitStands(a)[0]!.pose.xIn - ctx.t.unitStands(b)[0]!.pose.xIn));
    const pairs = query('toy/pairs', (ctx: Ctx) => ctx.t.get(gap, 'u0', 'u1') + ctx.t.get(gap, 'u1', 'u0'));
    const rs = { context: (t: TableReader<Ctx>): Ctx => ({ t }), root: pairs };
    const s0 = scene(3);
    const session = createQuerySession(rs);
    expect(session.update(s0)).toBeCloseTo(evaluateQueries(rs, s0), 12);
    const s1 = { ...s0, stands: s0.stands.map((st) => (st.unitId === 'u1' ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn + 2 } } : st)) };
    expect(session.update(s1)).toBeCloseTo(evaluateQueries(rs, s1), 12);
  });

  it('names a query that reads itself', () => {
    const loop = query('toy/loop', (ctx: Ctx): number => ctx.t.get(loop) + 1);
    expect(() => evaluateQueries({ context: (t: TableReader<Ctx>) => ({ t }), root: loop }, scene(1))).toThrow(/toy\/loop\(\) reads itself/);
  });

  it('keeps a pure query\'s answers across evaluations, and refuses one that reads the table', () => {
    let walks = 0;
    const square = query('toy/square', (_ctx: Ctx, key) => {
      walks++;
      return Number(key) ** 2;
    }, { pure: true });
    const sum = query('toy/sum', (ctx: Ctx) => ctx.t.unitIds().reduce((acc, id) => acc + ctx.t.get(square, String(ctx.t.unitStands(id).length)), 0));
    const rs = { context: (t: TableReader<Ctx>): Ctx => ({ t }), root: sum };
    const s0 = scene(4);
    const first = evaluateQueries(rs, s0);
    const afterFirst = walks;
    expect(evaluateQueries(rs, s0)).toBe(first);
    // Every unit's stand count was seen in the first evaluation: nothing is computed again.
    expect(walks).toBe(afterFirst);
    expect(createQuerySession(rs).update(s0)).toBe(first);
    expect(walks).toBe(afterFirst);
    const peeks = query('toy/peeks', (ctx: Ctx, key) => ctx.t.unitStands(key).length, { pure: true });
    const root = query('toy/peek-root', (ctx: Ctx) => ctx.t.get(peeks, 'u0'));
    expect(() => evaluateQueries({ context: (t: TableReader<Ctx>) => ({ t }), root }, s0)).toThrow(/pure query .* read units u0/);
  });
});
