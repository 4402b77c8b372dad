/**
 * The incremental While the Devil Rules session against a fresh evaluation, along seeded walks of the
 * changes a live table makes: stands nudged and turned, whole units advancing or wheeling, a unit marched
 * up to an enemy (into range, arc, charge reach and contact) or a leader's command radius, status changes
 * (disordered, bases lost, acted, march column), terrain edited, a unit lifted off and put back, a unit
 * removed from the list and added again, parameters changed, a leader riding, and the same state re-sent
 * as new objects. At every step `session.update(s)` must deep-equal `evaluate(s)`: any cache kept too long
 * shows up as a difference.
 */
import { describe, expect, it } from 'vitest';
import type { Stand, TableState, Unit } from '@muster/rules';
import { createEvaluator, evaluate, getRuleset, parseTableStateFor } from '@muster/rules';
import { largeScene } from '../../../fixtures/rules/largeScene.ts';
import { benchTableFor } from '../../../fixtures/rules/rulesetAdapters.ts';
import { battle } from '../../../fixtures/rules/while-the-devil-rules/makeScenes.ts';
import { tileScene } from '../../../fixtures/rules/tileScene.ts';
import { seededRandom } from '../../../fixtures/seededRandom.ts';
import { mapStands, pick, shiftUnit, withUnit } from '../tableEdits.ts';

const ruleset = getRuleset('while-the-devil-rules');

type Change = (s: TableState, rand: () => number) => TableState;

function centreOf(s: TableState, unit: Unit): { xIn: number; yIn: number } | undefined {
  const stands = s.stands.filter((st) => unit.standIds.includes(st.id));
  if (stands.length === 0) return undefined;
  return { xIn: stands.reduce((a, st) => a + st.pose.xIn, 0) / stands.length, yIn: stands.reduce((a, st) => a + st.pose.yIn, 0) / stands.length };
}

const nudgeStand: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  const id = pick(unit.standIds, rand);
  return mapStands(s, new Set([id]), (st) => ({
    ...st,
    pose: { xIn: st.pose.xIn + (rand() - 0.5) * 0.6, yIn: st.pose.yIn + (rand() - 0.5) * 0.6, headingDeg: (st.pose.headingDeg + (rand() < 0.3 ? (rand() - 0.5) * 30 + 360 : 0)) % 360 },
  }));
};

const moveUnit: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  const far = rand() < 0.2;
  return shiftUnit(s, unit, (rand() - 0.5) * (far ? 16 : 1.5), (rand() - 0.5) * (far ? 16 : 1.5), rand() < 0.3 ? (rand() - 0.5) * 60 : 0);
};

/** A unit marched straight at an enemy (or a friend's leader) until a few inches, or touching, short of it. */
const closeOnEnemy: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  const enemies = s.units.filter((u) => u.side !== unit.side);
  if (enemies.length === 0) return s;
  const from = centreOf(s, unit);
  const to = centreOf(s, pick(enemies, rand));
  if (!from || !to) return s;
  const d = Math.hypot(to.xIn - from.xIn, to.yIn - from.yIn);
  const stopIn = pick([1.5, 2.5, 4, 7, 12], rand);
  const k = Math.max(0, (d - stopIn) / Math.max(d, 1e-9));
  return shiftUnit(s, unit, (to.xIn - from.xIn) * k, (to.yIn - from.yIn) * k, 0);
};

const changeStatus: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  return withUnit(s, unit.id, (u) => {
    const roll = rand();
    if (roll < 0.3) return { ...u, status: { ...u.status, rulesetStatus: { ...u.status?.rulesetStatus, status: pick(['ok', 'disordered', 'demoralized'], rand) } } };
    if (roll < 0.55) return { ...u, status: { ...u.status, rulesetStatus: { ...u.status?.rulesetStatus, 'bases-lost': Math.floor(rand() * 4) } } };
    if (roll < 0.75) return { ...u, status: { ...u.status, rulesetStatus: { ...u.status?.rulesetStatus, acted: rand() < 0.5 } } };
    if (roll < 0.9) return { ...u, status: { ...u.status, ...(rand() < 0.5 ? { formation: 'march-column' as const } : { formation: undefined }) } };
    return { ...u, status: { ...u.status, disordered: rand() < 0.5 } };
  });
};

const editTerrain: Change = (s, rand) => {
  if (s.terrain.areas.length === 0) return s;
  const area = pick(s.terrain.areas, rand);
  const dx = (rand() - 0.5) * 6;
  const dy = (rand() - 0.5) * 6;
  return { ...s, terrain: { ...s.terrain, areas: s.terrain.areas.map((a) => (a === area ? { ...a, vertices: a.vertices.map((p) => ({ xIn: p.xIn + dx, yIn: p.yIn + dy })) } : a)) } };
};

/** A unit's stands lifted off the table (kept aside) or put back where they were. */
function liftAndReturn(): Change {
  let lifted: { unitId: string; stands: Stand[] } | undefined;
  return (s, rand) => {
    if (lifted) {
      const back = lifted;
      lifted = undefined;
      return { ...s, stands: [...s.stands, ...back.stands] };
    }
    const unit = pick(s.units, rand);
    const ids = new Set(unit.standIds);
    lifted = { unitId: unit.id, stands: s.stands.filter((st) => ids.has(st.id)) };
    return { ...s, stands: s.stands.filter((st) => !ids.has(st.id)) };
  };
}

/** A unit (and its stands) taken out of the lists, then added again at the end. */
function removeAndAdd(): Change {
  let removed: { unit: Unit; stands: Stand[] } | undefined;
  return (s, rand) => {
    if (removed) {
      const back = removed;
      removed = undefined;
      return { ...s, units: [...s.units, back.unit], stands: [...s.stands, ...back.stands] };
    }
    const unit = pick(s.units, rand);
    const ids = new Set(unit.standIds);
    removed = { unit, stands: s.stands.filter((st) => ids.has(st.id)) };
    return { ...s, units: s.units.filter((u) => u !== unit), stands: s.stands.filter((st) => !ids.has(st.id)) };
  };
}

const changeParameters: Change = (s, rand) => {
  const params = { ...s.rulesetParameters };
  const key = pick(['charge-dutch-battalion', 'advance-commanded-shot', 'modifier-fire-force-even', 'charge-commanded-shot', 'charge-reiter'], rand);
  if (rand() < 0.3) delete params[key];
  else params[key] = 1 + Math.floor(rand() * 8);
  return { ...s, rulesetParameters: params };
};

const rideLeader: Change = (s, rand) => {
  const leader = s.commanders.length > 0 ? pick(s.commanders, rand) : undefined;
  if (!leader?.standId) return s;
  return mapStands(s, new Set([leader.standId]), (st) => ({ ...st, pose: { ...st.pose, xIn: st.pose.xIn + (rand() - 0.5) * 10, yIn: st.pose.yIn + (rand() - 0.5) * 10 } }));
};

const resendAsNew: Change = (s) => JSON.parse(JSON.stringify(s)) as TableState;

/** What the walk reached (so a walk that never brings units into range or contact cannot pass unnoticed). */
interface Seen {
  fireOptions: number;
  chargeOptions: number;
  inCombat: number;
  retireReaches: number;
}

function walk(start: TableState, seed: number, steps: number): Seen {
  const seen: Seen = { fireOptions: 0, chargeOptions: 0, inCombat: 0, retireReaches: 0 };
  const rand = seededRandom(seed);
  const session = createEvaluator(ruleset);
  const changes: [Change, number][] = [
    [nudgeStand, 4],
    [moveUnit, 6],
    [closeOnEnemy, 4],
    [changeStatus, 3],
    [editTerrain, 1],
    [liftAndReturn(), 1],
    [removeAndAdd(), 1],
    [changeParameters, 1],
    [rideLeader, 1],
    [resendAsNew, 1],
  ];
  const total = changes.reduce((n, [, w]) => n + w, 0);
  let s = start;
  expect(session.update(s)).toEqual(evaluate(s, ruleset));
  for (let i = 0; i < steps; i++) {
    let r = rand() * total;
    const change = changes.find(([, w]) => (r -= w) < 0)![0];
    s = change(s, rand);
    const expected = evaluate(s, ruleset);
    const actual = session.update(s);
    expect(actual, `step ${i}`).toEqual(expected);
    for (const u of Object.values(expected.units)) {
      seen.fireOptions += u.fire.filter((f) => f.ok).length;
      seen.chargeOptions += u.charge.filter((c) => c.ok).length;
      if (!u.movement.ok && u.movement.reason === 'movement/in-combat') seen.inCombat++;
    }
    seen.retireReaches += expected.shapes.filter((sh) => sh.id.endsWith('/movement/retire')).length;
  }
  return seen;
}

describe('While the Devil Rules session', () => {
  it('is incremental (the engine keeps its queries live)', () => {
    expect(createEvaluator(ruleset).incremental).toBe(true);
  });

  it.each([1, 2, 3])('matches a fresh evaluation at every step of a seeded walk on the golden battle tiled twice (seed %i)', (seed) => {
    const seen = walk(tileScene(battle(true), 2), seed, 120);
    // The walk brings units into range, charge reach and contact (Retire reaches drawn).
    expect(seen.fireOptions).toBeGreaterThan(0);
    expect(seen.chargeOptions).toBeGreaterThan(0);
    expect(seen.inCombat).toBeGreaterThan(0);
    expect(seen.retireReaches).toBeGreaterThan(0);
  });

  it('matches a fresh evaluation on the golden battle without parameters (missing-parameter warnings)', () => {
    walk(battle(false), 7, 80);
  });

  it('matches a fresh evaluation at every step on the 300-stand bench table', () => {
    walk(parseTableStateFor(benchTableFor(ruleset.id, largeScene(1)), ruleset), 11, 40);
  });
});
