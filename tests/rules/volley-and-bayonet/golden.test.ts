/**
 * Volley & Bayonet golden scenes: every `fixtures/rules/volley-and-bayonet/in/<name>.json` is evaluated and
 * compared with `out/<name>.json`. After an intended rules change, regenerate and review the diff:
 * `REGEN=1 npx vitest run tests/rules/volley-and-bayonet/golden.test.ts`. The same scenes are held to the
 * rule-set contract (pure, finite, coded refusals, drawable shapes) and to invariance: the whole table
 * turned half or a quarter round, or its units listed in another order, gives the same decisions.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getRuleset, parseTableStateFor, polygonArea, type Evaluation, type PointIn, type TableState } from '@muster/rules';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dir = join(root, 'fixtures/rules/volley-and-bayonet');
const regen = process.env.REGEN === '1';
const ruleset = getRuleset('volley-and-bayonet');
const names = readdirSync(join(dir, 'in')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
const load = (name: string): TableState => parseTableStateFor(JSON.parse(readFileSync(join(dir, 'in', `${name}.json`), 'utf8')), ruleset);

function goldenJson(ev: Evaluation): string {
  return `${JSON.stringify(ev, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 + 0 : v), 2)}\n`;
}

describe('volley-and-bayonet golden scenes', () => {
  it('has the fence scene with and without its parameters', () => {
    expect(names).toEqual(['skirmish-at-the-fence', 'skirmish-at-the-fence-no-parameters']);
  });

  it.each(names)('%s matches its golden output', (name) => {
    const actual = goldenJson(ruleset.evaluate(load(name)));
    const outFile = join(dir, 'out', `${name}.json`);
    if (regen) {
      writeFileSync(outFile, actual);
      return;
    }
    if (!existsSync(outFile)) throw new Error(`no golden output for ${name}: run REGEN=1 npx vitest run tests/rules/volley-and-bayonet/golden.test.ts and review it`);
    expect(actual).toBe(readFileSync(outFile, 'utf8'));
  });

  it('the parameters make the difference: fire only with them, and the no-parameter scene names what is missing', () => {
    const withP = ruleset.evaluate(load('skirmish-at-the-fence'));
    const without = ruleset.evaluate(load('skirmish-at-the-fence-no-parameters'));
    expect(Object.values(withP.units).some((u) => u.fire.some((f) => f.ok))).toBe(true);
    expect(Object.values(without.units).every((u) => u.fire.length === 0)).toBe(true);
    // Fire needs the arc and the measuring point; each unit charging a gun needs the support distance.
    const missing = without.warnings.filter((w) => w.code === 'parameter/missing');
    expect(missing.map((w) => w.parameterId).slice(0, 2)).toEqual(['fire-arc-corner-deg', 'range-measured-from']);
    expect(new Set(missing.slice(2).map((w) => w.parameterId))).toEqual(new Set(['artillery-support-in']));
    const guns = new Set(load('skirmish-at-the-fence-no-parameters').units.filter((x) => /artillery|howitzer/.test(String(x.rulesetFields?.['troop-type']))).map((x) => x.id));
    const gunCharges = Object.values(without.units).filter((u) => u.charge.some((c) => c.ok && guns.has(c.targetUnitId)));
    expect(gunCharges.length).toBeGreaterThan(0);
    expect(missing.slice(2).map((w) => w.unitId).sort()).toEqual(gunCharges.map((u) => u.unitId).sort());
    // Movement, command, charges (other than at guns) and morale do not need them.
    expect(without.units.r23!.movement).toEqual(withP.units.r23!.movement);
    expect(without.units.r33!.charge).toEqual(withP.units.r33!.charge);
    expect(without.units.md1!.morale).toEqual(withP.units.md1!.morale);
  });
});

function deepFreeze<T>(x: T): T {
  if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}
const nonFinite = (x: unknown, path = ''): string[] =>
  typeof x === 'number' ? (Number.isFinite(x) ? [] : [path]) : typeof x === 'object' && x !== null ? Object.entries(x).flatMap(([k, v]) => nonFinite(v, `${path}.${k}`)) : [];
const refusals = (x: unknown): { reason: unknown }[] =>
  typeof x !== 'object' || x === null ? [] : [...((x as { ok?: unknown }).ok === false ? [x as { reason: unknown }] : []), ...Object.values(x).flatMap(refusals)];

/** The whole table turned half or a quarter round (the table edges, which stop moves, turn with it). */
function turned(s: TableState, quarter = false): TableState {
  const p = (q: PointIn): PointIn =>
    quarter ? { xIn: s.table.depthIn - q.yIn, yIn: q.xIn } : { xIn: s.table.widthIn - q.xIn, yIn: s.table.depthIn - q.yIn };
  const turn = quarter ? 90 : 180;
  return {
    ...s,
    table: quarter ? { widthIn: s.table.depthIn, depthIn: s.table.widthIn } : s.table,
    stands: s.stands.map((st) => ({ ...st, pose: { ...p({ xIn: st.pose.xIn, yIn: st.pose.yIn }), headingDeg: (st.pose.headingDeg + turn) % 360 } })),
    terrain: {
      areas: s.terrain.areas.map((a) => ({ ...a, vertices: a.vertices.map(p) })),
      linear: s.terrain.linear.map((l) => ({ ...l, points: l.points.map(p) })),
      roads: s.terrain.roads.map((r) => ({ ...r, points: r.points.map(p) })),
      elevations: s.terrain.elevations.map((e) => ({ ...e, vertices: e.vertices.map(p) })),
    },
  };
}

const byTarget = (a: { targetUnitId: string }, b: { targetUnitId: string }): number => a.targetUnitId.localeCompare(b.targetUnitId);
const r6 = (x: number): number => Math.round(x * 1e5) / 1e5;
function decisions(ev: Evaluation): unknown {
  return Object.fromEntries(
    Object.entries(ev.units).map(([id, u]) => [
      id,
      {
        formation: u.formation,
        movement: u.movement.ok ? { allowanceIn: u.movement.allowanceIn, area: r6(polygonArea(u.movement.reach)) } : u.movement.reason,
        fire: [...u.fire].sort(byTarget).map((f) => (f.ok ? [f.targetUnitId, r6(f.rangeIn), f.breakdown.dice, f.breakdown.hitOn, f.eligibleStandIds, f.priority] : [f.targetUnitId, f.reason])),
        charge: [...u.charge].sort(byTarget).map((c) => (c.ok ? [c.targetUnitId, r6(c.distanceIn), c.attacker.dice, c.attacker.hitOn, c.defender.dice, c.enemyFlanked, c.disorderedBy] : [c.targetUnitId, c.reason])),
        command: { inCommand: u.command.inCommand, r: u.command.commandRadiusIn, d: u.command.commanderDistanceIn === undefined ? undefined : r6(u.command.commanderDistanceIn) },
        rally: 'ok' in u.rally ? u.rally.reason : u.rally.dice,
        morale: u.morale,
      },
    ]),
  );
}

describe.each(names)('volley-and-bayonet contract on %s', (name) => {
  it('is pure, answers every unit with finite numbers and coded refusals, and draws keyed shapes', () => {
    const a = ruleset.evaluate(deepFreeze(load(name)));
    expect(JSON.stringify(a)).toBe(JSON.stringify(ruleset.evaluate(load(name))));
    expect(Object.keys(a.units).sort()).toEqual(load(name).units.map((u) => u.id).sort());
    expect(nonFinite(a)).toEqual([]);
    for (const r of refusals(a)) expect(r.reason).toMatch(/^[a-z]+(-[a-z]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/);
    const ids = a.shapes.map((s) => s.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('gives the same decisions on the table turned half round and a quarter round', () => {
    const s = load(name);
    const base = decisions(ruleset.evaluate(s));
    expect(decisions(ruleset.evaluate(turned(s)))).toEqual(base);
    expect(decisions(ruleset.evaluate(turned(s, true)))).toEqual(base);
  });

  it('gives the same decisions whatever the order of the units', () => {
    const s = load(name);
    const reversed = { ...s, units: [...s.units].reverse(), stands: [...s.stands].reverse() };
    expect(decisions(ruleset.evaluate(reversed))).toEqual(decisions(ruleset.evaluate(s)));
  });
});
