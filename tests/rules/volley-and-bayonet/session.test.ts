/**
 * Volley & Bayonet's live evaluator (`createEvaluator`: its queries kept by the incremental engine) against
 * the full evaluation: seeded chains of changes (a stand moved or turned, a unit's whole line stepped, a
 * unit's status changed, a stand carried into an enemy's range or arc or next to a commander, a superior
 * commander moved, terrain edited, a unit removed and put back, a parameter changed), and after every step
 * `session.update(state)` must deep-equal `evaluate(state)`. Tables: the 96-stand V&B bench scene and the
 * shared 300-stand bench table as the rules bench adapts it (fixtures/rules/rulesetAdapters.ts).
 */
import { describe, expect, it } from 'vitest';
import { createEvaluator, evaluate, getRuleset, parseTableStateFor, type RulesetValues, type Stand, type TableState, type Unit } from '@muster/rules';
import { seededRandom } from '../../../fixtures/seededRandom.ts';
import { vbBenchScene } from '../../../fixtures/rules/volley-and-bayonet/benchScene.ts';
import { largeScene } from '../../../fixtures/rules/largeScene.ts';
import { benchTableFor } from '../../../fixtures/rules/rulesetAdapters.ts';
import { scene } from '../../../fixtures/rules/volley-and-bayonet/build.ts';
import { GOLDEN_PARAMETERS } from '../../../fixtures/rules/volley-and-bayonet/skirmishAtTheFence.ts';
import { pick, withUnit } from '../tableEdits.ts';

const ruleset = getRuleset('volley-and-bayonet');

type Change = (state: TableState, rand: () => number) => { state: TableState; what: string };

function withStand(state: TableState, id: string, f: (s: Stand) => Stand): TableState {
  return { ...state, stands: state.stands.map((s) => (s.id === id ? f(s) : s)) };
}

const STATUS_FLAGS = ['stationary', 'skirmish-order', 'road-march', 'routed', 'permanently-disordered'] as const;

const changes: readonly Change[] = [
  // A stand nudged and turned a little.
  (state, rand) => {
    const s = pick(state.stands, rand);
    const moved = withStand(state, s.id, (t) => ({ ...t, pose: { xIn: t.pose.xIn + (rand() - 0.5) * 2, yIn: t.pose.yIn + (rand() - 0.5) * 2, headingDeg: (t.pose.headingDeg + (rand() - 0.5) * 40 + 360) % 360 } }));
    return { state: moved, what: `stand ${s.id} moved` };
  },
  // A whole unit stepped forward or back along its facing.
  (state, rand) => {
    const u = pick(state.units, rand);
    const ids = new Set(u.standIds);
    const first = state.stands.find((s) => s.id === u.standIds[0]);
    if (!first) return { state, what: 'no-op' };
    const r = (first.pose.headingDeg * Math.PI) / 180;
    const step = (rand() - 0.3) * 6;
    return {
      state: { ...state, stands: state.stands.map((s) => (ids.has(s.id) ? { ...s, pose: { ...s.pose, xIn: s.pose.xIn + Math.cos(r) * step, yIn: s.pose.yIn + Math.sin(r) * step } } : s)) },
      what: `unit ${u.id} stepped ${step.toFixed(2)}"`,
    };
  },
  // A status marker set or cleared, strength points lost, the yellow disorder marker.
  (state, rand) => {
    const u = pick(state.units, rand);
    const roll = rand();
    const next = withUnit(state, u.id, (v) => {
      const rs: Record<string, unknown> = { ...(v.status?.rulesetStatus ?? {}) };
      if (roll < 0.6) {
        const flag = pick(STATUS_FLAGS, rand);
        rs[flag] = rs[flag] !== true;
      } else if (roll < 0.85) rs['strength-points-lost'] = Math.floor(rand() * 12);
      else return { ...v, status: { ...(v.status ?? {}), disordered: v.status?.disordered !== true } };
      return { ...v, status: { ...(v.status ?? {}), rulesetStatus: rs as RulesetValues } };
    });
    return { state: next, what: `unit ${u.id} status changed` };
  },
  // A stand of one unit carried next to an enemy stand (into its range, arc and charge reach).
  (state, rand) => {
    const s = pick(state.stands, rand);
    const owner = state.units.find((u) => u.standIds.includes(s.id));
    const enemies = state.stands.filter((t) => {
      const o = state.units.find((u) => u.standIds.includes(t.id));
      return o !== undefined && owner !== undefined && o.side !== owner.side;
    });
    if (!owner || enemies.length === 0) return { state, what: 'no-op' };
    const e = pick(enemies, rand);
    const r = (e.pose.headingDeg * Math.PI) / 180;
    const d = 2 + rand() * 6;
    return {
      state: withStand(state, s.id, (t) => ({ ...t, pose: { xIn: e.pose.xIn + Math.cos(r) * d, yIn: e.pose.yIn + Math.sin(r) * d, headingDeg: (e.pose.headingDeg + 180) % 360 } })),
      what: `stand ${s.id} carried in front of ${e.id}`,
    };
  },
  // A superior commander moved (into or out of command radius of its brigade).
  (state, rand) => {
    const withStandIds = state.commanders.filter((c) => c.standId !== undefined);
    if (withStandIds.length === 0) return { state, what: 'no-op' };
    const c = pick(withStandIds, rand);
    return {
      state: withStand(state, c.standId!, (t) => ({ ...t, pose: { ...t.pose, xIn: t.pose.xIn + (rand() - 0.5) * 14, yIn: t.pose.yIn + (rand() - 0.5) * 8 } })),
      what: `commander ${c.id} moved`,
    };
  },
  // Terrain edited: an area's corner dragged.
  (state, rand) => {
    if (state.terrain.areas.length === 0) return { state, what: 'no-op' };
    const a = pick(state.terrain.areas, rand);
    const k = Math.floor(rand() * a.vertices.length);
    const areas = state.terrain.areas.map((x) =>
      x.id !== a.id ? x : { ...x, vertices: x.vertices.map((p, i) => (i === k ? { xIn: p.xIn + (rand() - 0.5) * 6, yIn: p.yIn + (rand() - 0.5) * 6 } : p)) },
    );
    return { state: { ...state, terrain: { ...state.terrain, areas } }, what: `area ${a.id} edited` };
  },
  // The stands listed in another order (a tracker may list them differently from frame to frame), one nudged.
  (state, rand) => {
    const k = 1 + Math.floor(rand() * (state.stands.length - 1));
    const s = pick(state.stands, rand);
    const rotated = { ...state, stands: [...state.stands.slice(k), ...state.stands.slice(0, k)] };
    return { state: withStand(rotated, s.id, (t) => ({ ...t, pose: { ...t.pose, xIn: t.pose.xIn + 0.5 } })), what: `stands reordered, ${s.id} nudged` };
  },
  // A parameter changed.
  (state, rand) => {
    const p = { ...(state.rulesetParameters ?? {}) };
    p['fire-arc-corner-deg'] = pick([0, 22.5, 45], rand);
    return { state: { ...state, rulesetParameters: p }, what: `fire arc ${String(p['fire-arc-corner-deg'])}` };
  },
];

/** A unit taken off the table (and its stands), to be put back later in its place. */
function removeUnit(state: TableState, id: string): { state: TableState; unit: Unit; stands: Stand[]; index: number } {
  const index = state.units.findIndex((u) => u.id === id);
  const unit = state.units[index]!;
  const ids = new Set(unit.standIds);
  return {
    state: { ...state, units: state.units.filter((u) => u.id !== id), stands: state.stands.filter((s) => !ids.has(s.id)) },
    unit,
    stands: state.stands.filter((s) => ids.has(s.id)),
    index,
  };
}

function walk(start: TableState, seed: number, steps: number): void {
  const rand = seededRandom(seed);
  const session = createEvaluator(ruleset);
  let state = start;
  expect(session.update(state)).toEqual(evaluate(state, ruleset));
  let removed: ReturnType<typeof removeUnit> | undefined;
  for (let i = 0; i < steps; i++) {
    let what: string;
    if (i % 9 === 4 && !removed) {
      removed = removeUnit(state, pick(state.units, rand).id);
      state = removed.state;
      what = `unit ${removed.unit.id} removed`;
    } else if (i % 9 === 8 && removed) {
      const units = [...state.units];
      units.splice(removed.index, 0, removed.unit);
      state = { ...state, units, stands: [...state.stands, ...removed.stands] };
      what = `unit ${removed.unit.id} put back`;
      removed = undefined;
    } else {
      // Mostly moves (what a camera sees frame to frame), now and then the rarer edits.
      const r = rand();
      const change = r < 0.3 ? changes[0]! : r < 0.55 ? changes[1]! : r < 0.7 ? changes[3]! : r < 0.82 ? changes[2]! : r < 0.9 ? changes[4]! : r < 0.95 ? changes[5]! : changes[6]!;
      ({ state, what } = change(state, rand));
    }
    const expected = evaluate(state, ruleset);
    const actual = session.update(state);
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      // Name the step and the first unit that differs before the (long) structural diff.
      const unit = Object.keys(expected.units).find((id) => JSON.stringify(actual.units[id]) !== JSON.stringify(expected.units[id]));
      expect({ step: i, what, unit: unit ?? '(shapes or warnings)' }).toEqual({ step: i, what, unit: 'none' });
    }
    expect(actual).toEqual(expected);
  }
}

describe('volley-and-bayonet session', () => {
  it('is incremental', () => {
    expect(createEvaluator(ruleset).incremental).toBe(true);
  });

  it.each([1, 2, 3])('matches the full evaluation along a chain of changes on the 96-stand table (seed %i)', (seed) => {
    walk(parseTableStateFor(vbBenchScene(), ruleset), seed, 30);
  });

  it.each([4, 5])('matches the full evaluation along a chain of changes on the 300-stand bench table (seed %i)', (seed) => {
    walk(parseTableStateFor(benchTableFor(ruleset.id, largeScene(seed)), ruleset), seed, 14);
  }, 120_000);

  it("follows a defender's stationary dice when a far unit of its brigade exhausts the brigade", () => {
    // A charge whose defender holds stationary dice, then a unit of the defender's brigade far from the
    // attacker loses enough strength points to exhaust the brigade (no stationary dice in an exhausted
    // brigade): only the defender's exhaustion changed near the attacker.
    const scene = vbBenchScene();
    const stationary = { ...scene, units: scene.units.map((u) => ({ ...u, status: { ...(u.status ?? {}), rulesetStatus: { ...(u.status?.rulesetStatus ?? {}), stationary: true } } })) };
    const state = parseTableStateFor(stationary, ruleset);
    const before = evaluate(state, ruleset);
    const found = Object.values(before.units).flatMap((u) =>
      u.charge.flatMap((c) => (c.ok && c.defender.modifiers.some((m) => m.label === 'Stationary') ? [{ attacker: u.unitId, defender: c.targetUnitId }] : [])),
    )[0];
    expect(found).toBeDefined();
    const defender = state.units.find((u) => u.id === found!.defender)!;
    const attackerX = state.stands.find((s) => s.id === state.units.find((u) => u.id === found!.attacker)!.standIds[0])!.pose.xIn;
    const far = state.units
      .filter((u) => u.brigadeId === defender.brigadeId && u.id !== defender.id)
      .sort((a, b) => Math.abs(state.stands.find((s) => s.id === b.standIds[0])!.pose.xIn - attackerX) - Math.abs(state.stands.find((s) => s.id === a.standIds[0])!.pose.xIn - attackerX))[0]!;
    const exhausted = withUnit(state, far.id, (u) => ({ ...u, status: { ...(u.status ?? {}), rulesetStatus: { ...(u.status?.rulesetStatus ?? {}), 'strength-points-lost': 99 } } }));
    const after = evaluate(exhausted, ruleset);
    expect(after.units[found!.attacker]!.charge).not.toEqual(before.units[found!.attacker]!.charge);
    const session = createEvaluator(ruleset);
    expect(session.update(state)).toEqual(before);
    expect(session.update(exhausted)).toEqual(after);
  });

  it("follows the caches' finer tests: a gun's far supporter, a unit commander near artillery, a stand on a sight line, a danger zone", () => {
    // A crown gun (facing -y) with a supporter 1" behind it; a rebel attacker 15.5" in front (within its 16"
    // charge, but the supporter lies beyond the attacker's nearer look, 19.5" from it); another crown unit far
    // off whose unit commander and stand are carried about.
    const base = parseTableStateFor(
      scene({
        widthIn: 72,
        depthIn: 48,
        units: [
          { id: 'gun', side: 'crown', brigadeId: 'cb', fields: { 'troop-type': 'field-artillery', morale: 5, 'strength-points': 2 }, stands: [{ id: 'gun-1', base: 'artillery', x: 30, y: 30, heading: 270 }] },
          { id: 'sup', side: 'crown', brigadeId: 'cb', fields: { 'troop-type': 'slow-infantry', morale: 4, 'strength-points': 4 }, stands: [{ id: 'sup-1', base: 'infantry', x: 30, y: 33.25, heading: 270 }] },
          {
            id: 'far', side: 'crown', brigadeId: 'cb2', fields: { 'troop-type': 'slow-infantry', morale: 4, 'strength-points': 4 },
            stands: [{ id: 'far-uc', base: 'command', x: 60, y: 44, heading: 270 }, { id: 'far-1', base: 'infantry', x: 60, y: 42, heading: 270 }],
          },
          {
            id: 'att', side: 'rebel', brigadeId: 'rb', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 4 },
            stands: [{ id: 'att-uc', base: 'command', x: 30, y: 10.5, heading: 90 }, { id: 'att-1', base: 'infantry', x: 30, y: 12.25, heading: 90 }],
          },
        ],
        commanders: [{ id: 'cb-cmd', side: 'crown', brigadeId: 'cb', x: 36, y: 34 }],
        parameters: GOLDEN_PARAMETERS,
      }),
      ruleset,
    );
    const moved = (state: TableState, id: string, xIn: number, yIn: number, headingDeg: number): TableState => withStand(state, id, (t) => ({ ...t, pose: { xIn, yIn, headingDeg } }));
    const states: TableState[] = [base];
    const push = (f: (s: TableState) => TableState): void => void states.push(f(states[states.length - 1]!));
    push((s) => moved(s, 'sup-1', 30, 37, 270)); // 1: the gun loses its supporter
    push((s) => moved(s, 'far-uc', 32, 30, 270)); // 2: a unit commander of its side next to the gun
    push((s) => moved(s, 'far-uc', 31.9, 30, 270)); // 3: nudged, still the nearest giver
    push((s) => moved(s, 'far-uc', 60, 44, 270)); // 4: back far off
    push((s) => moved(s, 'far-uc', 59, 44, 270)); // 5: nudged far off
    push((s) => moved(s, 'far-1', 30, 20, 0)); // 6: a stand on the gun's line to the attacker
    push((s) => moved(s, 'far-1', -40, -40, 0)); // 7: off the table, outside the sight grid's cells
    push((s) => moved(s, 'far-1', 30, 20, 0)); // 8: back on the line
    push((s) => moved(s, 'att-1', 45, 12.25, 90)); // 9: the attacker's stand out of the gun's danger zone
    push((s) => moved(s, 'att-1', 30, 12.25, 90)); // 10: back in it
    const expected = states.map((s) => evaluate(s, ruleset));
    // Each change changes what it should (else the session's keeping would go untested).
    expect(expected[1]!.units['att']!.charge).not.toEqual(expected[0]!.units['att']!.charge);
    expect(expected[2]!.units['gun']!.command).not.toEqual(expected[1]!.units['gun']!.command);
    expect(expected[4]!.units['gun']!.command).toEqual(expected[1]!.units['gun']!.command);
    expect(expected[6]!.units['gun']!.fire).not.toEqual(expected[5]!.units['gun']!.fire);
    expect(expected[7]!.units['gun']!.fire).toEqual(expected[5]!.units['gun']!.fire);
    expect(expected[8]!.units['gun']!.fire).toEqual(expected[6]!.units['gun']!.fire);
    const inDanger = (e: (typeof expected)[number]): boolean => e.warnings.some((w) => w.code === 'morale/danger-zone' && w.unitId === 'att');
    expect([inDanger(expected[8]!), inDanger(expected[9]!), inDanger(expected[10]!)]).toEqual([true, false, true]);
    const session = createEvaluator(ruleset);
    states.forEach((s, i) => expect({ step: i, evaluation: session.update(s) }).toEqual({ step: i, evaluation: expected[i] }));
  });

  it("asks a gun's kept blocked line for its reason again once the reason can be the one reported", () => {
    // Two guns of one battery at one target: the left gun sees it past a small wood on its first line, so
    // the right gun's lines (all in a wood) are traced without their reason. A friendly stand then stands
    // across every line of the left gun: its first line is now blocked by the wood (terrain, before
    // stands), no gun has a shot, and the right gun's reason, kept from before, must be traced again (a kept
    // "blocked, reason not asked" would report blocked by stands).
    const wood = (id: string, x: number, y: number, h: number) => ({ id, kind: 'open-woods' as const, vertices: [{ xIn: x - h, yIn: y - h }, { xIn: x + h, yIn: y - h }, { xIn: x + h, yIn: y + h }, { xIn: x - h, yIn: y + h }] });
    const base = parseTableStateFor(
      scene({
        widthIn: 72,
        depthIn: 48,
        units: [
          {
            id: 'bat', side: 'crown', brigadeId: 'cb', fields: { 'troop-type': 'field-artillery', morale: 5, 'strength-points': 2 },
            stands: [{ id: 'bat-1', base: 'artillery', x: 16, y: 10, heading: 90 }, { id: 'bat-2', base: 'artillery', x: 28, y: 10, heading: 90 }],
          },
          { id: 'scr', side: 'crown', brigadeId: 'cb', fields: { 'troop-type': 'slow-infantry', morale: 4, 'strength-points': 2 }, stands: [{ id: 'scr-1', base: 'infantry', x: 60, y: 40, heading: 90 }] },
          { id: 't', side: 'rebel', brigadeId: 'rb', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 't-1', base: 'infantry', x: 22, y: 24, heading: 270 }] },
        ],
        commanders: [{ id: 'cb-cmd', side: 'crown', brigadeId: 'cb', x: 22, y: 6 }, { id: 'rb-cmd', side: 'rebel', brigadeId: 'rb', x: 22, y: 30 }],
        terrain: { areas: [wood('w1', 17.9, 16, 0.15), wood('w2', 28, 13, 1.2)] },
        parameters: GOLDEN_PARAMETERS,
      }),
      ruleset,
    );
    const screened = withStand(base, 'scr-1', (t) => ({ ...t, pose: { xIn: 16, yIn: 12.5, headingDeg: 90 } }));
    const expected = [base, screened].map((s) => evaluate(s, ruleset));
    const reasons = (e: (typeof expected)[number]) => e.units['bat']!.fire.map((f) => (f.ok ? 'ok' : f.reason));
    expect(reasons(expected[0]!)).toEqual(['ok']);
    expect(reasons(expected[1]!)).toEqual(['fire/no-line-of-sight']);
    const session = createEvaluator(ruleset);
    expect(session.update(base)).toEqual(expected[0]);
    expect(session.update(screened)).toEqual(expected[1]);
  });

  it('gives back the previous answers when a state is re-sent as new objects', () => {
    const state = parseTableStateFor(vbBenchScene(), ruleset);
    const session = createEvaluator(ruleset);
    const first = session.update(state);
    const copy = JSON.parse(JSON.stringify(state)) as TableState;
    const again = session.update(copy);
    expect(again).toEqual(first);
    // Nothing changed, so every unit's movement, fire and charges are the very objects already computed.
    for (const id of Object.keys(first.units)) {
      expect(again.units[id]!.movement).toBe(first.units[id]!.movement);
      expect(again.units[id]!.charge).toBe(first.units[id]!.charge);
    }
  });
});
