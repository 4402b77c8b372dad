/**
 * While the Devil Rules answers must not depend on where the table sits or on unit order: the golden battle
 * shifted, turned half round, and with its units listed backwards gives the same decisions (formation,
 * movement allowance, fire and charge targets with ranges and modifiers, command, status).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getRuleset, parseTableState, type Evaluation, type TableState } from '@muster/rules';
import { transformTable as transform } from '../conformance/tableTransforms.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ruleset = getRuleset('while-the-devil-rules');
const load = (): TableState => parseTableState(JSON.parse(readFileSync(join(root, 'fixtures/rules/while-the-devil-rules/in/battle.json'), 'utf8')));


const r3 = (v: number) => Math.round(v * 1e3) / 1e3;

function decisions(ev: Evaluation): unknown {
  const out: Record<string, unknown> = {};
  for (const [id, u] of Object.entries(ev.units)) {
    out[id] = {
      formation: [u.formation.name, u.formation.confidence],
      movement: u.movement.ok ? u.movement.allowanceIn : u.movement.reason,
      // Lists follow the state's unit order; compare them by target.
      fire: [...u.fire].sort((a, b) => a.targetUnitId.localeCompare(b.targetUnitId)).map((f) => (f.ok ? [f.targetUnitId, r3(f.rangeIn), f.band, [...f.eligibleStandIds].sort(), f.priority, f.breakdown.modifiers.map((m) => m.label)] : [f.targetUnitId, f.reason])),
      charge: [...u.charge].sort((a, b) => a.targetUnitId.localeCompare(b.targetUnitId)).map((c) => (c.ok ? [c.targetUnitId, r3(c.distanceIn), c.enemyFlanked, c.attacker.dice, c.defender.dice] : [c.targetUnitId, c.reason])),
      command: [u.command.inCommand, u.command.commanderInRangeId, u.command.commanderDistanceIn === undefined ? undefined : r3(u.command.commanderDistanceIn)],
      morale: u.morale,
    };
  }
  return out;
}

describe('While the Devil Rules: same answers wherever the table sits and in any unit order', () => {
  const base = decisions(ruleset.evaluate(load()));

  it('after shifting the whole table', () => {
    const s = load();
    const moved = transform(s, (p) => ({ xIn: p.xIn + 7.25, yIn: p.yIn + 3.5 }), 0, { widthIn: s.table.widthIn + 7.25, depthIn: s.table.depthIn + 3.5 });
    expect(decisions(ruleset.evaluate(moved))).toEqual(base);
  });

  it('after turning the whole table half round', () => {
    const s = load();
    const { widthIn, depthIn } = s.table;
    const turned = transform(s, (p) => ({ xIn: widthIn - p.xIn, yIn: depthIn - p.yIn }), 180, s.table);
    expect(decisions(ruleset.evaluate(turned))).toEqual(base);
  });

  it('with the units and stands listed backwards', () => {
    const s = load();
    const reversed = { ...s, units: [...s.units].reverse(), stands: [...s.stands].reverse() };
    expect(decisions(ruleset.evaluate(reversed))).toEqual(base);
  });
});
