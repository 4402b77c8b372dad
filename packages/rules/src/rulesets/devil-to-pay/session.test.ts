import { describe, expect, it } from 'vitest';
import { createRng } from '../../dice/rng.ts';
import { devilToPay } from './index.ts';
import { createEvaluator } from '../../engine/evaluate.ts';
import { moveRandomUnit, randomTable } from '../../../../../fixtures/rules/devil-to-pay/sessionTestTable.ts';
import { scene } from '../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';
import { megaScene } from '../../../../../fixtures/rules/megaScene.ts';
import type { Evaluation } from '../../engine/evaluation.ts';
import type { DtpMovementOption } from './movement/movementResult.ts';

describe('devil to pay session', () => {
  it('returns exactly what evaluate returns, after every random move', () => {
    const rng = createRng(20261122);
    let state = randomTable(rng, 10);
    const session = createEvaluator(devilToPay);
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    // The same table re-sent as new objects (as a tracker does every frame).
    expect(session.update(JSON.parse(JSON.stringify(state)))).toEqual(devilToPay.evaluate(state));
    for (let i = 0; i < 10; i++) {
      state = moveRandomUnit(state, rng, 6).state;
      expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    }
  });

  it('returns exactly what evaluate returns on the 1,000-stand mega-game table, after every seeded change', () => {
    // Long artillery sight lines across many units: pairs are kept while the stands that blocked their lines
    // and the lines found clear are untouched, and fire lists are patched entry by entry.
    const rng = createRng(20261124);
    let state = megaScene(1);
    const session = createEvaluator(devilToPay);
    expect(firstDifference(session.update(state), devilToPay.evaluate(state))).toBeUndefined();
    const artillery = state.units.filter((u) => u.arm === 'artillery');
    for (let i = 0; i < 14; i++) {
      if (i === 5) {
        // A unit leaves the table, then comes back.
        const gone = state.units[rng.nextInt(state.units.length)]!;
        const without = { ...state, stands: state.stands.filter((st) => st.unitId !== gone.id) };
        expect(firstDifference(session.update(without), devilToPay.evaluate(without))).toBeUndefined();
      }
      // Every third change moves a battery (its pairs reach across the table), the others any unit.
      const moved = i % 3 === 0 ? moveUnitOf(state, artillery[rng.nextInt(artillery.length)]!.id, rng) : moveRandomUnit(state, rng, 3).state;
      state = moved;
      expect(firstDifference(session.update(state), devilToPay.evaluate(state))).toBeUndefined();
    }
  });

  it('matches evaluate as units at the start, middle and end of the list move, and as a unit edges up to its neighbour', () => {
    // Shapes are copied from the last result in runs around the units whose parts changed, unit infos are
    // kept for unchanged units, and a neighbour's movement is kept unless one of the mover's stands (not
    // just its box) comes near its paths: each of these, got wrong, leaves a stale part behind.
    let state = megaScene(2);
    const session = createEvaluator(devilToPay);
    expect(firstDifference(session.update(state), devilToPay.evaluate(state))).toBeUndefined();
    const ids = state.units.map((u) => u.id);
    const shift = (s: typeof state, unitIds: readonly string[], dxIn: number, dyIn: number): typeof state => ({
      ...s,
      stands: s.stands.map((st) => (unitIds.includes(st.unitId) ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn + dxIn, yIn: st.pose.yIn + dyIn } } : st)),
    });
    const steps: [readonly string[], number, number][] = [
      [[ids[0]!], 0.5, 0],
      [[ids.at(-1)!], 0, 0.5],
      [[ids[ids.length >> 1]!], -0.5, 0.25],
      [[ids[0]!, ids.at(-1)!], 0.25, 0.25],
      [[ids[1]!, ids[2]!], -0.25, 0],
    ];
    for (const [unitIds, dx, dy] of steps) {
      state = shift(state, unitIds, dx, dy);
      expect(firstDifference(session.update(state), devilToPay.evaluate(state))).toBeUndefined();
    }
    // The nearest pair of units: one edges up to the other in half-inch steps.
    const centre = (id: string) => {
      const own = state.stands.filter((st) => st.unitId === id);
      return { x: own.reduce((a, st) => a + st.pose.xIn, 0) / own.length, y: own.reduce((a, st) => a + st.pose.yIn, 0) / own.length };
    };
    let best: [string, string, number] = ['', '', Infinity];
    for (const a of ids.slice(0, 40)) for (const b of ids) if (a !== b) {
      const p = centre(a), q = centre(b);
      const d = Math.hypot(p.x - q.x, p.y - q.y);
      if (d < best[2]) best = [a, b, d];
    }
    const [mover, still] = best;
    for (let i = 0; i < 6; i++) {
      const p = centre(mover), q = centre(still);
      const d = Math.hypot(q.x - p.x, q.y - p.y);
      state = shift(state, [mover], (0.5 * (q.x - p.x)) / d, (0.5 * (q.y - p.y)) / d);
      const got = session.update(state);
      const want = devilToPay.evaluate(state);
      expect(got.units[still]).toEqual(want.units[still]);
      expect(firstDifference(got, want)).toBeUndefined();
    }
  });

  it('starts afresh when a commander stand with a troop role moves (it blocks sight lines)', () => {
    // A wide stand, so that between the two units it blocks every line.
    const cdrStand = { id: 'c-stand', unitId: 'c', pose: { xIn: 70, yIn: 26, headingDeg: 90 }, widthIn: 14, depthIn: 1, role: 'base' as const };
    const withCdr = scene(
      [
        { id: 'f', side: 'a', xIn: 40, yIn: 20, headingDeg: 90, brigadeId: 'a-b' },
        { id: 't', side: 'b', xIn: 40, yIn: 32, headingDeg: 270 },
      ],
      {},
      [{ commander: { id: 'c', name: 'C', side: 'a', brigadeId: 'a-b', quality: 'capable', standId: 'c-stand' }, stand: cdrStand }],
    );
    const session = createEvaluator(devilToPay);
    expect(session.update(withCdr)).toEqual(devilToPay.evaluate(withCdr));
    const between = { ...withCdr, stands: withCdr.stands.map((st) => (st.id === 'c-stand' ? { ...st, pose: { ...st.pose, xIn: 40 } } : st)) };
    const blocked = devilToPay.evaluate(between);
    expect(blocked.units.f!.fire[0]).toEqual(expect.objectContaining({ ok: false, reason: 'fire/no-line-of-sight' }));
    expect(session.update(between)).toEqual(blocked);
  });

  it('follows units leaving and re-entering the table, and a change of attached commander', () => {
    const rng = createRng(11);
    const state = randomTable(rng, 6);
    const session = createEvaluator(devilToPay);
    session.update(state);
    const gone = state.units[3]!;
    const without = { ...state, units: state.units.filter((u) => u !== gone), stands: state.stands.filter((s) => s.unitId !== gone.id) };
    expect(session.update(without)).toEqual(devilToPay.evaluate(without));
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    const reordered = { ...state, units: [...state.units].reverse() };
    expect(session.update(reordered)).toEqual(devilToPay.evaluate(reordered));
    const cdr = state.commanders[0]!;
    const attached = { ...state, units: state.units.map((u, i) => (i === 1 ? { ...u, status: { ...u.status, attachedCommanderId: cdr.id } } : u)) };
    expect(session.update(attached)).toEqual(devilToPay.evaluate(attached));
  });

  it('stays equal to evaluate with odd units: off the table, prone, disordered, march column, unknown weapon, limbered', () => {
    for (const seed of [1, 2, 3]) {
      const rng = createRng(seed);
      let state = randomTable(rng, 5);
      const gone = state.units[rng.nextInt(state.units.length)]!;
      state = {
        ...state,
        stands: state.stands.filter((s) => s.unitId !== gone.id),
        units: state.units.map((u, i) => {
          const k = (i + seed) % 7;
          if (k === 0) return { ...u, status: { ...u.status, prone: true } };
          if (k === 1) return { ...u, status: { ...u.status, disordered: true } };
          if (k === 2) return { ...u, status: { ...u.status, formation: 'march-column' as const } };
          if (k === 3) return { ...u, weapon: 'laser' };
          if (k === 4) return { ...u, status: { ...u.status, limbered: true } };
          return u;
        }),
      };
      const session = createEvaluator(devilToPay);
      for (let i = 0; i < 4; i++) {
        expect(session.update(state)).toEqual(devilToPay.evaluate(state));
        state = moveRandomUnit(state, rng, 8).state;
      }
    }
  });

  it('follows a brigade commander riding along the line', () => {
    const rng = createRng(5);
    let state = randomTable(rng, 10);
    const session = createEvaluator(devilToPay);
    session.update(state);
    const standId = state.commanders[0]!.standId!;
    for (const dx of [3, 3, -9]) {
      state = { ...state, stands: state.stands.map((s) => (s.id === standId ? { ...s, pose: { ...s.pose, xIn: s.pose.xIn + dx } } : s)) };
      expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    }
  });

  it('reuses a stand by its place only while the same stand object and hits are there', () => {
    // The session tries last update's stand info and kind (unit, commander, stray) at the same place in
    // `stands` before any lookup by id: reordering, removing, swapping places and hits on an unmoved stand
    // must all read as evaluate reads them.
    const rng = createRng(77);
    let state = randomTable(rng, 10);
    const session = createEvaluator(devilToPay);
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    // The same stand objects, in reverse order (the units and commanders arrays unchanged).
    state = { ...state, stands: [...state.stands].reverse() };
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    // A commander's stand and a troop stand swap places.
    const cdrAt = state.stands.findIndex((st) => st.id === state.commanders[0]!.standId);
    expect(cdrAt).toBeGreaterThanOrEqual(0);
    const troopAt = cdrAt === 0 ? 1 : 0;
    const swapped = [...state.stands];
    [swapped[cdrAt], swapped[troopAt]] = [swapped[troopAt]!, swapped[cdrAt]!];
    state = { ...state, stands: swapped };
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    // A hit on a stand whose object and place stay the same.
    const hitUnit = state.units.find((u) => u.standIds.length > 1 && !u.status?.hitsByStand)!;
    const hitStand = hitUnit.standIds[1]!;
    state = { ...state, units: state.units.map((u) => (u === hitUnit ? { ...u, status: { ...u.status, hitsByStand: { [hitStand]: 1 } } } : u)) };
    const before = devilToPay.evaluate(state);
    expect(session.update(state)).toEqual(before);
    // A stand taken off the table: every stand after it moves up one place.
    const gone = state.stands.findIndex((st) => st.unitId !== undefined && st.id !== hitStand && state.units.some((u) => u.standIds.includes(st.id)));
    state = { ...state, stands: state.stands.filter((_, i) => i !== gone) };
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
    state = moveRandomUnit(state, rng, 6).state;
    expect(session.update(state)).toEqual(devilToPay.evaluate(state));
  });

  it('redraws the fire arrow when the target moves to a mirror position that reads the same option', () => {
    // Mirrored about the firer's centre the option is identical (same range to the last bit), but the
    // arrow ends at the other corner: a session keeping the option must still redraw the arrow.
    // 12" away the firer's charge and movement are looked at again; 18" away nothing but fire is.
    for (const yIn of [32, 38]) {
      const at = (xIn: number) => scene([{ id: 'f', side: 'a', xIn: 40, yIn: 20, headingDeg: 90 }, { id: 't', side: 'b', xIn, yIn, headingDeg: 270, stands: 2 }]);
      const left = devilToPay.evaluate(at(37));
      const right = devilToPay.evaluate(at(43));
      expect(right.units.f!.fire[0]!.ok).toBe(true);
      expect(right.units.f!.fire).toEqual(left.units.f!.fire);
      expect(right.shapes.find((s) => s.id === 'fire/target/f/t')).not.toEqual(left.shapes.find((s) => s.id === 'fire/target/f/t'));
      const session = createEvaluator(devilToPay);
      session.update(at(37));
      expect(session.update(at(43))).toEqual(right);
    }
  });

  it('lists a far enemy as out of range as it leaves, re-enters, moves and changes side far away', () => {
    // Every enemy on the table is in the fire list, so a unit appearing or vanishing 60" away changes it
    // although no changed box comes near the firer.
    const base = scene([
      { id: 'f', side: 'a', xIn: 10, yIn: 10, headingDeg: 90 },
      { id: 't', side: 'b', xIn: 80, yIn: 50, headingDeg: 270, stands: 2 },
    ]);
    const session = createEvaluator(devilToPay);
    const ev0 = session.update(base);
    expect(ev0).toEqual(devilToPay.evaluate(base));
    expect(ev0.units.f!.fire).toEqual([expect.objectContaining({ ok: false, targetUnitId: 't', reason: 'fire/target-out-of-range' })]);
    const offTable = { ...base, stands: base.stands.filter((st) => st.unitId !== 't') };
    expect(session.update(offTable)).toEqual(devilToPay.evaluate(offTable));
    expect(session.update(offTable).units.f!.fire).toEqual([]);
    expect(session.update(base)).toEqual(devilToPay.evaluate(base));
    const moved = { ...base, stands: base.stands.map((st) => (st.unitId === 't' ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn - 5 } } : st)) };
    expect(session.update(moved)).toEqual(devilToPay.evaluate(moved));
    const turned = { ...moved, units: moved.units.map((u) => (u.id === 't' ? { ...u, side: 'a' } : u)) };
    expect(session.update(turned)).toEqual(devilToPay.evaluate(turned));
    expect(session.update(turned).units.f!.fire).toEqual([]);
  });

  it("recomputes a unit's fudge move as an enemy's grown corner comes onto its far corner", () => {
    // A one-gun section (1.5" x 3", grown 1" for the enemy clearance) comes grown corner first, from behind
    // and to the right (where the line has no ordinary move), at the outermost point of the line's 3" fudge
    // moves that way: the rear-right corner of its outline carried to the fudge point furthest along that
    // diagonal. Once the grown corner crosses that point the fudge move that way stops short (fudgeWalk tests
    // grown rectangles whole), while the section's centre is still 3" from every swept outline: the session
    // must count the clearance when it asks whether a stand comes near a path (without it, this fails).
    const line = { id: 'u', side: 'a', xIn: 40, yIn: 20, headingDeg: 90 } as const;
    const base = scene([line]);
    const fudge = (devilToPay.evaluate(base).units.u!.movement as DtpMovementOption).fudgeReach;
    const own = base.stands.filter((st) => st.unitId === 'u');
    const ref = own.find((st) => st.role === 'command')!.pose;
    // Facing +y, the outline's rear-right corner is its largest x and smallest y; the gun's grown corner faces -n.
    const rightXIn = Math.max(...own.map((st) => st.pose.xIn + st.widthIn / 2));
    const rearYIn = Math.min(...own.map((st) => st.pose.yIn - st.depthIn / 2));
    const nx = 1.75 / Math.hypot(1.75, 2.5);
    const ny = -2.5 / Math.hypot(1.75, 2.5);
    const furthest = fudge.reduce((a, v) => (v.xIn * nx + v.yIn * ny > a.xIn * nx + a.yIn * ny ? v : a));
    const cornerX = furthest.xIn + rightXIn - ref.xIn;
    const cornerY = furthest.yIn + rearYIn - ref.yIn;
    const at = (dIn: number) =>
      scene([line, { id: 'e', side: 'b', arm: 'artillery', stands: 1, xIn: cornerX + nx * dIn, yIn: cornerY + ny * dIn, headingDeg: 90 }]);
    const far = JSON.stringify(devilToPay.evaluate(at(3.3)).units.u!.movement);
    const session = createEvaluator(devilToPay);
    let shortened = false;
    for (let dIn = 3.3; dIn > 2.6; dIn -= 0.02) {
      const state = at(dIn);
      const want = devilToPay.evaluate(state);
      expect(firstDifference(session.update(state), want)).toBeUndefined();
      shortened ||= JSON.stringify(want.units.u!.movement) !== far;
    }
    // The scan did reach the contact it is about.
    expect(shortened).toBe(true);
  });

  it('follows a stand that moves and names another unit in place, and stands that name a unit not listing them', () => {
    // Most updates lay the changed stands over the last stand map and look again only at the units those
    // stands name: a stand that changes the unit it names, or a table where a unit lists a stand naming
    // another unit, must not leave the listing unit's info behind.
    const base = scene([
      { id: 'u', side: 'a', xIn: 30, yIn: 20, headingDeg: 90 },
      { id: 'v', side: 'a', xIn: 50, yIn: 20, headingDeg: 90 },
      { id: 'e', side: 'b', xIn: 40, yIn: 34, headingDeg: 270 },
    ]);
    const edit = (state: typeof base, standId: string, dxIn: number, unitId: string) => ({
      ...state,
      stands: state.stands.map((st) => (st.id === standId ? { ...st, unitId, pose: { ...st.pose, xIn: st.pose.xIn + dxIn } } : st)),
    });
    const session = createEvaluator(devilToPay);
    expect(firstDifference(session.update(base), devilToPay.evaluate(base))).toBeUndefined();
    const warm = edit(base, 'v-s2', 0.5, 'v');
    expect(firstDifference(session.update(warm), devilToPay.evaluate(warm))).toBeUndefined();
    // u still lists u-s1, which moves and now names v.
    const renamed = edit(warm, 'u-s1', 0.5, 'v');
    expect(firstDifference(session.update(renamed), devilToPay.evaluate(renamed))).toBeUndefined();
    // u-s1 (naming v, listed by u) moves again, twice.
    let state = renamed;
    for (const step of [0.5, -1]) {
      state = edit(state, 'u-s1', step, 'v');
      expect(firstDifference(session.update(state), devilToPay.evaluate(state))).toBeUndefined();
    }
  });

  it('starts afresh when the terrain changes', () => {
    const rng = createRng(7);
    const state = randomTable(rng, 6);
    const session = createEvaluator(devilToPay);
    session.update(state);
    const wooded = { ...state, terrain: { ...state.terrain, areas: [...state.terrain.areas, { id: 'new-woods', kind: 'thick-woods' as const, vertices: [{ xIn: 0, yIn: 21 }, { xIn: 96, yIn: 21 }, { xIn: 96, yIn: 39 }, { xIn: 0, yIn: 39 }] }] } };
    expect(session.update(wooded)).toEqual(devilToPay.evaluate(wooded));
  });
});

/** The first unit (or top-level field) whose evaluation differs, as text; undefined when they are the same. */
function firstDifference(a: Evaluation, b: Evaluation): string | undefined {
  for (const id of new Set([...Object.keys(a.units), ...Object.keys(b.units)])) {
    if (JSON.stringify(a.units[id]) !== JSON.stringify(b.units[id])) return `unit ${id}`;
  }
  for (const k of ['rulesetId', 'shapes', 'warnings', 'commanders', 'combinedCharges'] as const) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return k;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? undefined : 'the whole evaluation';
}

/** A copy of `state` with one unit's stands shifted up to 4" and turned up to 20 degrees about its first stand. */
function moveUnitOf(state: ReturnType<typeof megaScene>, unitId: string, rng: ReturnType<typeof createRng>): ReturnType<typeof megaScene> {
  const dx = (rng.nextFloat() * 2 - 1) * 4;
  const dy = (rng.nextFloat() * 2 - 1) * 4;
  const turnDeg = (rng.nextFloat() * 2 - 1) * 20;
  const unit = state.units.find((u) => u.id === unitId)!;
  const pivot = state.stands.find((st) => st.id === unit.standIds[0])!.pose;
  const r = (turnDeg * Math.PI) / 180;
  return {
    ...state,
    stands: state.stands.map((st) => {
      if (st.unitId !== unitId) return st;
      const ox = st.pose.xIn - pivot.xIn, oy = st.pose.yIn - pivot.yIn;
      const xIn = pivot.xIn + ox * Math.cos(r) - oy * Math.sin(r) + dx;
      const yIn = pivot.yIn + ox * Math.sin(r) + oy * Math.cos(r) + dy;
      return { ...st, pose: { xIn, yIn, headingDeg: (((st.pose.headingDeg + turnDeg) % 360) + 360) % 360 } };
    }),
  };
}
