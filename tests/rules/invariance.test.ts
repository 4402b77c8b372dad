/**
 * Rules results must not depend on where the table sits in the world: moving the whole table (every
 * stand and terrain piece, table grown to match) or turning it half round about its centre must leave
 * every decision and dice count unchanged. Drawn shapes move with the table, so only decisions are
 * compared: formation, movement allowance, fire and charge targets with ranges and dice, rally dice.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate, getRuleset, normalizeDeg, parseTableState, type Evaluation, type PointIn, type TableState } from '@muster/rules';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const inDir = join(root, 'fixtures/rules/in');
const names = readdirSync(inDir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();

type Move = { map: (p: PointIn) => PointIn; turnDeg: number; table: (t: TableState['table']) => TableState['table'] };

function transform(state: TableState, m: Move): TableState {
  const pts = (ps: readonly PointIn[]) => ps.map(m.map);
  return {
    ...state,
    table: m.table(state.table),
    stands: state.stands.map((s) => {
      const c = m.map(s.pose);
      return { ...s, pose: { xIn: c.xIn, yIn: c.yIn, headingDeg: normalizeDeg(s.pose.headingDeg + m.turnDeg) } };
    }),
    terrain: {
      areas: state.terrain.areas.map((a) => ({ ...a, vertices: pts(a.vertices) })),
      linear: state.terrain.linear.map((l) => ({ ...l, points: pts(l.points) })),
      roads: state.terrain.roads.map((r) => ({ ...r, points: pts(r.points) })),
      elevations: state.terrain.elevations.map((e) => ({ ...e, vertices: pts(e.vertices) })),
    },
  };
}

const r4 = (v: number) => Math.round(v * 1e3) / 1e3;

/** The decisions in an evaluation, without coordinates. */
function decisions(ev: Evaluation): unknown {
  const out: Record<string, unknown> = {};
  for (const [id, u] of Object.entries(ev.units)) {
    out[id] = {
      formation: u.formation.formation,
      movement: u.movement.ok ? r4(u.movement.allowanceIn) : u.movement.reason,
      fire: u.fire.map((f) => (f.ok ? { t: f.targetUnitId, r: r4(f.rangeIn), band: f.band, dice: f.breakdown.dice, p: f.priority } : { t: f.targetUnitId, no: f.reason })),
      charge: u.charge.map((c) => (c.ok ? { t: c.targetUnitId, d: r4(c.distanceIn), a: c.attacker.dice, def: c.defender.dice } : { t: c.targetUnitId, no: c.reason })),
      rally: 'reason' in u.rally ? u.rally.reason : u.rally.dice,
    };
  }
  return out;
}

const shift: Move = {
  map: (p) => ({ xIn: p.xIn + 5.25, yIn: p.yIn + 3.5 }),
  turnDeg: 0,
  table: (t) => ({ widthIn: t.widthIn + 5.25, depthIn: t.depthIn + 3.5 }),
};

function halfTurn(table: TableState['table']): Move {
  return {
    map: (p) => ({ xIn: table.widthIn - p.xIn, yIn: table.depthIn - p.yIn }),
    turnDeg: 180,
    table: (t) => t,
  };
}

/** A quarter turn counter-clockwise: the table's depth becomes its width. */
function quarterTurn(table: TableState['table']): Move {
  return {
    map: (p) => ({ xIn: table.depthIn - p.yIn, yIn: p.xIn }),
    turnDeg: 90,
    table: (t) => ({ widthIn: t.depthIn, depthIn: t.widthIn }),
  };
}

describe('rules invariance', () => {
  it.each(names)('%s: moving the whole table changes no decision', (name) => {
    const state = parseTableState(JSON.parse(readFileSync(join(inDir, `${name}.json`), 'utf8')));
    const ruleset = getRuleset('devil-to-pay');
    const before = decisions(evaluate(state, ruleset));
    const moved = parseTableState(transform(state, shift));
    expect(decisions(evaluate(moved, ruleset))).toEqual(before);
  });

  it.each(names)('%s: turning the table half round changes no decision', (name) => {
    const state = parseTableState(JSON.parse(readFileSync(join(inDir, `${name}.json`), 'utf8')));
    const ruleset = getRuleset('devil-to-pay');
    const before = decisions(evaluate(state, ruleset));
    const turned = parseTableState(transform(state, halfTurn(state.table)));
    expect(decisions(evaluate(turned, ruleset))).toEqual(before);
  });

  it.each(names)('%s: a quarter turn of the table changes no decision', (name) => {
    const state = parseTableState(JSON.parse(readFileSync(join(inDir, `${name}.json`), 'utf8')));
    const ruleset = getRuleset('devil-to-pay');
    const before = decisions(evaluate(state, ruleset));
    const turned = parseTableState(transform(state, quarterTurn(state.table)));
    expect(decisions(evaluate(turned, ruleset))).toEqual(before);
  });

  it('compares real decisions (the opening battle has fire targets and moves)', () => {
    const state = parseTableState(JSON.parse(readFileSync(join(inDir, 'opening-battle.json'), 'utf8')));
    const d = decisions(evaluate(state, getRuleset('devil-to-pay'))) as Record<string, { fire: unknown[]; movement: unknown }>;
    expect(Object.values(d).some((u) => u.fire.length > 0)).toBe(true);
    expect(Object.values(d).some((u) => typeof u.movement === 'number')).toBe(true);
  });
});
