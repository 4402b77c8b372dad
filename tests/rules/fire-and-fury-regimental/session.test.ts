/**
 * The incremental Regimental Fire and Fury session against a fresh evaluation, along seeded walks of the
 * changes a live table makes: units stepping, wheeling and advancing, a unit moved up to an enemy (into its
 * range, arc and charge reach) or next to a leader, statuses and fields changed, a leader attached, a
 * commander riding, terrain edited, a unit lifted off and put back, a stand lifted off, a unit changing
 * sides, parameters changed, and the same state re-sent as new objects. Any cache kept too long shows up
 * as a difference.
 * Tables: the 300-stand bench table (fixtures/rules/rulesetAdapters.ts) and the golden skirmish.
 */
import { describe, expect, it } from 'vitest';
import type { Evaluation, RulesetValues, TableState, Unit } from '@muster/rules';
import { createEvaluator, evaluate, getRuleset, parseTableStateFor } from '@muster/rules';
import { largeScene } from '../../../fixtures/rules/largeScene.ts';
import { benchTableFor } from '../../../fixtures/rules/rulesetAdapters.ts';
import { skirmishScene } from '../../../fixtures/rules/fire-and-fury-regimental/scenes.ts';
import { seededRandom } from '../../../fixtures/seededRandom.ts';
import { pick, shiftUnit, withUnit } from '../tableEdits.ts';

const ruleset = getRuleset('fire-and-fury-regimental');

type Change = (s: TableState, rand: () => number) => TableState;

function withStatus(s: TableState, id: string, key: string, value: unknown): TableState {
  return withUnit(s, id, (u) => ({ ...u, status: { ...u.status, rulesetStatus: { ...u.status?.rulesetStatus, [key]: value } } as Unit['status'] }));
}

/** Small tracker jitter, or a real move with a wheel now and then. */
const moveUnit: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  const first = s.stands.find((st) => st.id === unit.standIds[0]);
  if (!first) return s;
  const stepIn = rand() < 0.7 ? (rand() - 0.5) * 1 : (rand() - 0.5) * 16;
  const r = (first.pose.headingDeg * Math.PI) / 180;
  const turnDeg = rand() < 0.3 ? (rand() - 0.5) * 60 : 0;
  return shiftUnit(s, unit, Math.cos(r) * stepIn, Math.sin(r) * stepIn, turnDeg);
};

/** A unit put 2-14" in front of an enemy unit, facing it: into its range, arc and charge reach. */
const closeOnEnemy: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  const enemies = s.units.filter((u) => u.side !== unit.side);
  if (enemies.length === 0) return s;
  const enemy = pick(enemies, rand);
  const mine = s.stands.find((st) => st.id === unit.standIds[0]);
  const theirs = s.stands.find((st) => st.id === enemy.standIds[0]);
  if (!mine || !theirs) return s;
  const r = (theirs.pose.headingDeg * Math.PI) / 180;
  const gapIn = 2 + rand() * 12;
  const at = { xIn: theirs.pose.xIn + Math.cos(r) * gapIn, yIn: theirs.pose.yIn + Math.sin(r) * gapIn };
  const turnDeg = (((theirs.pose.headingDeg + 180 - mine.pose.headingDeg) % 360) + 360) % 360;
  return shiftUnit(s, unit, at.xIn - mine.pose.xIn, at.yIn - mine.pose.yIn, turnDeg);
};

/** A unit moved next to a leader of its side (into, or out of, a command radius). */
const toLeader: Change = (s, rand) => {
  const c = pick(s.commanders, rand);
  const leaderStand = s.stands.find((st) => st.id === c.standId);
  const friends = s.units.filter((u) => u.side === c.side);
  if (!leaderStand || friends.length === 0) return s;
  const unit = pick(friends, rand);
  const first = s.stands.find((st) => st.id === unit.standIds[0]);
  if (!first) return s;
  const d = 3 + rand() * 8;
  const a = rand() * 2 * Math.PI;
  return shiftUnit(s, unit, leaderStand.pose.xIn + Math.cos(a) * d - first.pose.xIn, leaderStand.pose.yIn + Math.sin(a) * d - first.pose.yIn, 0);
};

const toggleStatus: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  const k = Math.floor(rand() * 9);
  if (k === 0) return withUnit(s, unit.id, (u) => ({ ...u, status: { ...u.status, disordered: !u.status?.disordered } }));
  if (k === 1) return withStatus(s, unit.id, 'cover', pick(['none', 'partial', 'full'], rand));
  if (k === 2) return withStatus(s, unit.id, 'formation', pick(['line', 'extended-line', 'field-column', 'march-column', 'broken', 'garrison'], rand));
  if (k === 3) return withStatus(s, unit.id, 'outflanked', rand() < 0.5);
  if (k === 4) return withStatus(s, unit.id, 'standsLost', Math.floor(rand() * 5));
  if (k === 5) return withStatus(s, unit.id, 'silenced', rand() < 0.5);
  if (k === 6) return withStatus(s, unit.id, 'position', pick(['none', 'favorable', 'strong'], rand));
  if (k === 7) return withUnit(s, unit.id, (u) => ({ ...u, status: { ...u.status, limbered: !u.status?.limbered } }));
  return withUnit(s, unit.id, (u) => ({ ...u, rulesetFields: { ...u.rulesetFields, braveColonel: !u.rulesetFields?.['braveColonel'] } }));
};

/** A leader attached to (or taken from) a unit of its side. */
const attachLeader: Change = (s, rand) => {
  const c = pick(s.commanders, rand);
  const friends = s.units.filter((u) => u.side === c.side);
  if (friends.length === 0) return s;
  const unit = pick(friends, rand);
  return withUnit(s, unit.id, (u) => {
    const status = { ...u.status };
    if (status.attachedCommanderId) delete status.attachedCommanderId;
    else status.attachedCommanderId = c.id;
    return { ...u, status };
  });
};

const riderMoves: Change = (s, rand) => {
  const c = pick(s.commanders, rand);
  return { ...s, stands: s.stands.map((st) => (st.id === c.standId ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn + (rand() - 0.5) * 10 } } : st)) };
};

const editTerrain: Change = (s, rand) => {
  const areas = s.terrain.areas;
  if (areas.length === 0) return s;
  const i = Math.floor(rand() * areas.length);
  const a = areas[i]!;
  const dx = (rand() - 0.5) * 6;
  const kinds = ['open-woods', 'thick-woods', 'rough', 'farm'] as const;
  const moved = { ...a, kind: rand() < 0.3 ? pick(kinds, rand) : a.kind, vertices: a.vertices.map((v) => ({ xIn: v.xIn + dx, yIn: v.yIn })) };
  return { ...s, terrain: { ...s.terrain, areas: areas.map((x, k) => (k === i ? moved : x)) } };
};

/** Parameters the rule set reads, set to other valid values (or removed). */
const changeParameter: Change = (s, rand) => {
  const p: Record<string, RulesetValues[string]> = { ...s.rulesetParameters };
  const k = Math.floor(rand() * 6);
  if (k === 0) p['fire-arc-half-deg'] = pick([30, 45, 60], rand);
  else if (k === 1) p['visibility'] = pick(['clear', 'twilight-or-fog'], rand);
  else if (k === 2) p['command-radius-to'] = pick(['any-stand', 'command-stand'], rand);
  else if (k === 3) p['road-condition'] = pick(['good', 'poor'], rand);
  else if (k === 4) p['weapon-r-effective-in'] = pick([10, 12, 14], rand);
  else delete p['woods-sight-depth-in'];
  return { ...s, rulesetParameters: p };
};

/** A unit changes sides (a tracker's mis-read tag, then corrected): every enemy list changes. */
const switchSide: Change = (s, rand) => {
  const sides = [...new Set(s.units.map((u) => u.side))];
  if (sides.length < 2) return s;
  const unit = pick(s.units, rand);
  return withUnit(s, unit.id, (u) => ({ ...u, side: sides.find((x) => x !== u.side)! }));
};

/** The same table re-sent as new objects (a tracker that rebuilds its state every frame). */
const resend: Change = (s) => JSON.parse(JSON.stringify(s)) as TableState;

/** A walk that lifts units and stands off the table and puts them back. */
function liftAndReturn(original: TableState): { lift: Change; putBack: Change; liftStand: Change } {
  return {
    lift: (s, rand) => {
      const unit = pick(s.units, rand);
      const ids = new Set(unit.standIds);
      return { ...s, units: s.units.filter((u) => u.id !== unit.id), stands: s.stands.filter((st) => !ids.has(st.id)) };
    },
    putBack: (s) => {
      const missing = original.units.filter((u) => !s.units.some((x) => x.id === u.id));
      if (missing.length === 0) return s;
      const unit = missing[0]!;
      const ids = new Set(unit.standIds);
      return { ...s, units: [...s.units, unit], stands: [...s.stands, ...original.stands.filter((st) => ids.has(st.id) && !s.stands.some((x) => x.id === st.id))] };
    },
    liftStand: (s, rand) => {
      const unit = pick(s.units, rand);
      const standId = pick(unit.standIds, rand);
      return s.stands.some((st) => st.id === standId)
        ? { ...s, stands: s.stands.filter((st) => st.id !== standId) }
        : { ...s, stands: [...s.stands, ...original.stands.filter((st) => st.id === standId)] };
    },
  };
}

function walk(start: TableState, seed: number, steps: number): { step: number; change: string; state: TableState }[] {
  const rand = seededRandom(seed);
  const { lift, putBack, liftStand } = liftAndReturn(start);
  const changes: [string, number, Change][] = [
    ['moveUnit', 30, moveUnit],
    ['closeOnEnemy', 14, closeOnEnemy],
    ['toLeader', 6, toLeader],
    ['toggleStatus', 12, toggleStatus],
    ['attachLeader', 4, attachLeader],
    ['riderMoves', 4, riderMoves],
    ['editTerrain', 3, editTerrain],
    ['changeParameter', 3, changeParameter],
    ['resend', 3, resend],
    ['switchSide', 2, switchSide],
    ['lift', 3, lift],
    ['putBack', 4, putBack],
    ['liftStand', 3, liftStand],
  ];
  const total = changes.reduce((n, c) => n + c[1], 0);
  const out: { step: number; change: string; state: TableState }[] = [];
  let s = start;
  for (let step = 0; step < steps; step++) {
    let r = rand() * total;
    const [name, , change] = changes.find((c) => (r -= c[1]) < 0) ?? changes[0]!;
    s = change(s, rand);
    out.push({ step, change: name, state: s });
  }
  return out;
}

/** Walks the session along the states; the first step where it differs from a fresh evaluation, if any. */
function firstDifference(start: TableState, seed: number, steps: number): string | undefined {
  const session = createEvaluator(ruleset);
  expect(session.incremental).toBe(true);
  const first: Evaluation = session.update(start);
  expect(first).toStrictEqual(evaluate(start, ruleset));
  for (const { step, change, state } of walk(start, seed, steps)) {
    const got = session.update(state);
    const want = evaluate(state, ruleset);
    // Text first (fast on big evaluations); the structural comparison names what differs.
    if (JSON.stringify(got) === JSON.stringify(want)) continue;
    const where = [
      ...Object.keys(want.units).filter((id) => JSON.stringify(got.units[id]) !== JSON.stringify(want.units[id])).map((id) => `unit ${id}`),
      ...(JSON.stringify(got.shapes) !== JSON.stringify(want.shapes) ? ['shapes'] : []),
      ...(JSON.stringify(got.warnings) !== JSON.stringify(want.warnings) ? ['warnings'] : []),
    ].join(', ');
    try {
      expect(got).toStrictEqual(want);
    } catch (e) {
      return `seed ${seed}, step ${step} (${change}), ${where}: ${(e as Error).message.slice(0, 2000)}`;
    }
    return `seed ${seed}, step ${step} (${change}): the JSON texts differ`;
  }
  return undefined;
}

describe('Regimental Fire and Fury session', () => {
  it('is incremental and matches a fresh evaluation on the skirmish along seeded walks', () => {
    for (const seed of [1, 2, 3]) expect(firstDifference(skirmishScene(true), seed, 120)).toBeUndefined();
  });

  it('matches a fresh evaluation on the skirmish with no parameters entered', () => {
    expect(firstDifference(skirmishScene(false), 5, 120)).toBeUndefined();
  });

  it('matches a fresh evaluation on the 300-stand bench table along a seeded walk', () => {
    const table = parseTableStateFor(benchTableFor(ruleset.id, largeScene(1)), ruleset);
    expect(firstDifference(table, 11, 80)).toBeUndefined();
  });

  it('returns the same evaluation object for an unchanged table and after a change and its undoing', () => {
    const start = skirmishScene(true);
    const session = createEvaluator(ruleset);
    const a = session.update(start);
    expect(session.update(start)).toBe(a);
    expect(session.update(resend(start, () => 0))).toBe(a);
    const moved = shiftUnit(start, start.units[0]!, 0, 3, 0);
    expect(session.update(moved)).toStrictEqual(evaluate(moved, ruleset));
    expect(session.update(start)).toStrictEqual(a);
  });
});
