import { describe, expect, it } from 'vitest';
import type { AreaTerrain, Elevation, TableState } from '../../../model/tableState.ts';
import { buildContext } from '../context.ts';
import { GUN_BLOCKED_REASON_UNASKED, standSight, standSightTraced } from './sight.ts';
import { scene, TEST_PARAMETERS, type BaseKind, type UnitBuild } from '../../../../../../fixtures/rules/volley-and-bayonet/build.ts';

/**
 * A gun's sight (`standSight` with artillery) against the plain trace of all six lines (`standSightTraced`):
 * the gun path tries the pair's last blocker first on each later line, walks the line's grid cells for
 * stands, and runs the cheap tests before the exact ones; every answer must be the trace's.
 */

const GUN = (id: string, x: number, y = 10, heading = 90): UnitBuild => ({
  id,
  side: 'a',
  brigadeId: 'b',
  fields: { 'troop-type': 'light-artillery', morale: 5, 'strength-points': 1 },
  stands: [{ id: `${id}-1`, base: 'artillery', x, y, heading }],
});
const TARGET: UnitBuild = { id: 't', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 't-1', base: 'infantry', x: 20, y: 25, heading: 270 }] };
const blockers = (id: string, side: string, base: BaseKind, at: readonly [number, number][], skirmish = false): UnitBuild => ({
  id,
  side,
  ...(side === 'a' ? { brigadeId: 'b' } : {}),
  fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 1 },
  ...(skirmish ? { status: { rulesetStatus: { 'skirmish-order': true } } } : {}),
  stands: at.map(([x, y], i) => ({ id: `${id}-${i + 1}`, base, x, y, heading: side === 'a' ? 90 : 270 })),
});
const woods = (id: string, x0: number, y0: number, x1: number, y1: number): AreaTerrain => ({ id, kind: 'open-woods', vertices: [{ xIn: x0, yIn: y0 }, { xIn: x1, yIn: y0 }, { xIn: x1, yIn: y1 }, { xIn: x0, yIn: y1 }] });

function table(extra: UnitBuild[], terrain: { areas?: AreaTerrain[]; elevations?: Elevation[] } = {}, units: UnitBuild[] = [GUN('g', 20), TARGET]): TableState {
  return scene({ widthIn: 72, depthIn: 48, units: [...units, ...extra], commanders: [{ id: 'bc', side: 'a', brigadeId: 'b', x: 10, y: 4 }], terrain, parameters: TEST_PARAMETERS });
}

/** The gun's sight and the plain trace's for (firer, target) stand ids, on one context (the gun path first). */
function both(state: TableState, firer = 'g-1', target = 't-1', artillery = true) {
  const ctx = buildContext(state);
  const s = ctx.standById.get(firer)!;
  const t = ctx.standById.get(target)!;
  const fast = standSight(ctx, s, t, artillery);
  return { fast, traced: standSightTraced(buildContext(state), ctx.standById.get(firer)!, ctx.standById.get(target)!, artillery) };
}

describe('a gun\'s sight: the shortcuts answer as the full trace of all six lines', () => {
  it('a line of friendly stands across every line: blocked by stands', () => {
    const { fast, traced } = both(table([blockers('w', 'a', 'infantry', [[17, 15], [20, 15], [23, 15]])]));
    expect(traced).toEqual({ clear: false, blockedBy: 'stands' });
    expect(fast).toEqual(traced);
  });

  it('a blocker over the first lines only (front centre and left corner): the right corner still sees, so clear', () => {
    // A 1.5" detachment over x 18.85-20.35: the gun's front is x 19.25-20.75; the lines from the right corner pass it.
    const { fast, traced } = both(table([blockers('d', 'a', 'detachment', [[19.6, 14]])]));
    expect(traced).toEqual({ clear: true });
    expect(fast).toEqual(traced);
  });

  it('a blocker whose side stops 1e-7" short of the right corner\'s straight line does not count for it; one on that line does, as the trace has it', () => {
    const off = both(table([blockers('d', 'a', 'detachment', [[20.75 - 1e-7 - 0.75, 14]])]));
    expect(off.traced).toEqual({ clear: true });
    expect(off.fast).toEqual(off.traced);
    const on = both(table([blockers('d', 'a', 'detachment', [[20.75 - 0.75, 14]])]));
    expect(on.fast).toEqual(on.traced);
  });

  it('enemy skirmishers across every line: the gun fires past them (clear); small arms are screened', () => {
    const screen = [blockers('sk', 'z', 'infantry-skirmisher', [[17, 15], [20, 15], [23, 15]], true)];
    const gun = both(table(screen));
    expect(gun.traced).toEqual({ clear: true });
    expect(gun.fast).toEqual(gun.traced);
    // The same stands in the way of small arms (the path without the gun's shortcuts) screen the target.
    const small = both(table(screen), 'g-1', 't-1', false);
    expect(small.traced).toEqual({ clear: false, blockedBy: 'skirmishers', screenUnitId: 'sk' });
    expect(small.fast).toEqual(small.traced);
  });

  it('the first line\'s reason in the rules\' order: woods before the stands in front of them', () => {
    const wall = [blockers('w', 'a', 'infantry', [[17, 15], [20, 15], [23, 15]])];
    const { fast, traced } = both(table(wall, { areas: [woods('wd', 10, 18, 30, 20)] }));
    expect(traced).toEqual({ clear: false, blockedBy: 'terrain' });
    expect(fast).toEqual(traced);
  });

  it('woods over the left lines and a stand over the right ones: every line blocked, by two different things', () => {
    // Woods x 10-20.3 cover the front centre's and left corner's lines; a detachment at x 20.2-21.7 the right corner's.
    const { fast, traced } = both(table([blockers('d', 'a', 'detachment', [[20.95, 21.5]])], { areas: [woods('wd', 10, 17, 20.3, 19)] }));
    expect(traced.clear).toBe(false);
    expect(fast).toEqual(traced);
  });

  it('states sharing one terrain object (its areas are kept between them): each answers as with its own copy', () => {
    const first = table([], { areas: [woods('wd', 10, 20, 30, 22.5)] });
    // The target wholly in the woods, then beyond them (its lines run 2.5" through the woods: blocked, where
    // a target still taken for one inside would see out from its edge, 3" allowed), then back: what the
    // areas learn about one state's stands must not carry over to the next.
    const at = (y: number): TableState => ({ ...first, stands: first.stands.map((s) => (s.id === 't-1' ? { ...s, pose: { ...s.pose, yIn: y } } : s)) });
    const answers: string[] = [];
    for (const state of [at(21.25), at(24), at(21.25)]) {
      const shared = buildContext({ ...state, terrain: first.terrain });
      const own = buildContext({ ...state, terrain: structuredClone(first.terrain) });
      for (const artillery of [true, false]) {
        const a = standSight(shared, shared.standById.get('g-1')!, shared.standById.get('t-1')!, artillery);
        expect(a).toEqual(standSightTraced(own, own.standById.get('g-1')!, own.standById.get('t-1')!, artillery));
        answers.push(a.blockedBy ?? 'clear');
      }
    }
    expect(answers).toEqual(Array(6).fill('terrain'));
  });

  it('random tables: every (gun, target stand) pair, in a shuffled order on one context, as the trace', () => {
    let seed = 12345;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const kinds: BaseKind[] = ['infantry', 'detachment', 'mounted', 'infantry-skirmisher', 'command', 'artillery'];
    let clear = 0, byStands = 0, byTerrain = 0;
    for (let layout = 0; layout < 40; layout++) {
      const guns = [GUN('g', 14 + rnd() * 12), GUN('h', 14 + rnd() * 12, 10, 80 + rnd() * 20)];
      const targets: UnitBuild = { id: 't', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [0, 1, 2, 3].map((i) => ({ id: `t-${i + 1}`, base: 'infantry' as const, x: 12 + i * 3.2 + rnd() * 2, y: 24 + rnd() * 4, heading: 250 + rnd() * 40 })) };
      const extra: UnitBuild[] = [];
      for (let i = 0; i < 8; i++) {
        const side = rnd() < 0.5 ? 'a' : 'z';
        const base = kinds[Math.floor(rnd() * kinds.length)]!;
        const b = blockers(`x${i}`, side, base, [[12 + rnd() * 16, 13.5 + rnd() * 9]], base === 'infantry-skirmisher' || (side === 'z' && rnd() < 0.3));
        extra.push({ ...b, stands: b.stands.map((s) => ({ ...s, heading: rnd() * 360 })) });
      }
      const areas = rnd() < 0.6 ? [woods('wd', 10 + rnd() * 10, 15 + rnd() * 5, 20 + rnd() * 10, 18 + rnd() * 5)] : [];
      const elevations: Elevation[] = rnd() < 0.3 ? [{ id: 'h', level: 1, vertices: [{ xIn: 0, yIn: 19 }, { xIn: 60, yIn: 19 }, { xIn: 60, yIn: 20 }, { xIn: 0, yIn: 20 }] }] : [];
      const state = table(extra, { areas, elevations }, [...guns, targets]);
      const pairs: [string, string][] = [];
      for (const g of ['g-1', 'h-1']) for (const t of ['t-1', 't-2', 't-3', 't-4', ...extra.filter((u) => u.side === 'z').map((u) => u.stands[0]!.id)]) pairs.push([g, t]);
      for (let i = pairs.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
      }
      const ctx = buildContext(state);
      const plain = buildContext(state);
      for (const [g, t] of pairs) {
        const fast = standSight(ctx, ctx.standById.get(g)!, ctx.standById.get(t)!, true);
        const traced = standSightTraced(plain, plain.standById.get(g)!, plain.standById.get(t)!, true);
        expect(fast, `layout ${layout}: ${g} -> ${t}`).toEqual(traced);
        // Asked only "clear or not", on the same context after the exact answer and on a fresh one.
        const unranked = (c: typeof ctx) => standSight(c, c.standById.get(g)!, c.standById.get(t)!, true, false);
        for (const [got, where] of [[unranked(ctx), 'same context'], [unranked(buildContext(state)), 'fresh context']] as const) {
          expect(got.clear, `layout ${layout}: ${g} -> ${t}, unranked, ${where}`).toBe(traced.clear);
          if (!traced.clear) expect(got).toBe(GUN_BLOCKED_REASON_UNASKED);
        }
        if (traced.clear) clear++;
        else if (traced.blockedBy === 'stands') byStands++;
        else if (traced.blockedBy === 'terrain') byTerrain++;
      }
    }
    // The tables give every kind of answer (a check on the test, not on the code).
    expect(clear).toBeGreaterThan(20);
    expect(byStands).toBeGreaterThan(20);
    expect(byTerrain).toBeGreaterThan(20);
  });
});
