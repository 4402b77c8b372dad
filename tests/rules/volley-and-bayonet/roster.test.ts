/**
 * The example army file for Volley & Bayonet loads with the real roster loader and fits the rule set's
 * declarations; a typo in a troop type or a missing morale is a problem naming the unit.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate, getRuleset, type TableState } from '@muster/rules';
import { parseRoster, rosterRulesetProblems } from '../../../apps/server/src/roster/index.ts';
import { armyOnTable, loadArmy, withRulesetStatus } from '../rosterOnTable.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const file = join(root, 'fixtures/rosters/volley-and-bayonet-example.yaml');
const text = readFileSync(file, 'utf8');
const ruleset = getRuleset('volley-and-bayonet');

describe('fixtures/rosters/volley-and-bayonet-example.yaml', () => {
  it('keeps a unit taken off the table in its brigade\'s exhaustion (Exhaustion, p. 7)', () => {
    const roster = loadArmy(file);
    const exhaustion = (state: TableState) => {
      const ev = evaluate(state, ruleset);
      const m = ev.units['r33']!.morale!;
      return [m.counted!.value, m.thresholds.find((t) => t.label.startsWith('Brigade webster'))!.label];
    };
    // The 23rd Foot has lost 4 strength points of Webster's brigade's exhaustion level of 8.6.
    const onTable = withRulesetStatus(armyOnTable(roster), 'r23', { 'strength-points-lost': 4 });
    expect(exhaustion(onTable)).toEqual([4, 'Brigade webster exhausted at 8.6 strength points lost']);
    // Lifted off the table (eliminated, or not yet back), it still counts: before, the brigade read 0 of 6.6.
    const lifted = withRulesetStatus(armyOnTable(roster, ['r23']), 'r23', { 'strength-points-lost': 4 });
    expect(exhaustion(lifted)).toEqual([4, 'Brigade webster exhausted at 8.6 strength points lost']);
    expect(evaluate(lifted, ruleset).units['r23']!.movement).toMatchObject({ ok: false });
  });

  it('loads, names the rule set and fits its parameters and unit fields', () => {
    const roster = parseRoster(text, file);
    expect(roster.ruleset).toBe('volley-and-bayonet');
    expect(roster.units.map((u) => u.id)).toEqual(['r23', 'r33', 'lt', 'ra', 'ld17', 'md1', 'va', 'rifles', 'art']);
    expect(roster.units.find((u) => u.id === 'r23')!.stands.map((s) => [s.role, s.base.widthIn, s.base.depthIn])).toEqual([
      ['command', 1.5, 1.5],
      ['base', 3, 1.5],
      ['base', 3, 1.5],
    ]);
    expect(roster.units.find((u) => u.id === 'ra')!.stands[0]!.base).toEqual({ widthIn: 1.5, depthIn: 3 });
    expect(rosterRulesetProblems(roster, ruleset)).toEqual([]);
  });

  it('reports a wrong troop type and a missing morale against the unit', () => {
    const bad = text.replace('troop-type: light-cavalry, morale: 6,', 'troop-type: hussars,').replace('troop-type: slow-infantry, morale: 4,', 'troop-type: slow-infantry,');
    const problems = rosterRulesetProblems(parseRoster(bad, file), ruleset);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^units\[4\] \(ld17\)\.rulesetFields\.troop-type: expected one of slow-infantry, fast-infantry/);
    expect(problems[1]).toMatch(/^units\[4\] \(ld17\)\.rulesetFields\.morale: missing/);
    expect(problems[2]).toMatch(/^units\[6\] \(va\)\.rulesetFields\.morale: missing/);
  });
});
