/**
 * While the Devil Rules through the real CLI (`muster rules ... --ruleset while-the-devil-rules`, `--params`)
 * and its example army file through the real roster loader and the start-time rule-set check.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluate, getRuleset, parseTableState, type TableState } from '@muster/rules';
import { runRulesCli as runCli } from '../runRulesCli.ts';
import { parseRoster } from '../../../apps/server/src/roster/loadRoster.ts';
import { rosterRulesetProblems } from '../../../apps/server/src/roster/rosterRulesetProblems.ts';
import { armyOnTable, loadArmy, tableFromTags, withRulesetStatus } from '../rosterOnTable.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const scene = join(root, 'fixtures/rules/while-the-devil-rules/in/battle.json');
const example = join(root, 'fixtures/rosters/while-the-devil-rules-example.yaml');

afterEach(() => vi.restoreAllMocks());

describe('muster rules --ruleset while-the-devil-rules', () => {
  it('prints a row per unit with the formation read from the bases', async () => {
    const r = await runCli(scene, '--ruleset', 'while-the-devil-rules');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toContain('while-the-devil-rules');
    expect(lines.find((l) => l.startsWith('tercio '))).toMatch(/block \(1\.00\)\s+4"/);
    expect(lines.find((l) => l.startsWith('hakkapeliitta '))).toMatch(/march-column/);
  });

  it('--json gives the evaluation with this rule set\'s id and every unit', async () => {
    const r = await runCli(scene, '--json', '--ruleset', 'while-the-devil-rules');
    expect(r.code).toBe(0);
    const ev = JSON.parse(r.out) as { rulesetId: string; units: Record<string, unknown> };
    expect(ev.rulesetId).toBe('while-the-devil-rules');
    expect(Object.keys(ev.units)).toHaveLength(11);
  });

  it('--unit shows each modifier with its source', async () => {
    const r = await runCli(scene, '--ruleset', 'while-the-devil-rules', '--unit', 'cuirassiers');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Actor is Charging/);
    expect(r.out).toMatch(/\[Combat \(Charges and Melee\): Charges; value: modifier-melee-actor-charging \(from the app\)\]/);
  });

  it('--params lists the numbers the guide leaves to the app as not in the document', async () => {
    const r = await runCli('--params', 'while-the-devil-rules');
    expect(r.code).toBe(0);
    expect(r.out).toContain('advance-commanded-shot');
    expect(r.out).toContain('troop-type');
    expect(r.out.toLowerCase()).toContain('not in the document');
  });
});

describe('the While the Devil Rules example army file', () => {
  it('loads and fits the rule set\'s declarations', () => {
    const roster = parseRoster(readFileSync(example, 'utf8'), example);
    expect(roster.ruleset).toBe('while-the-devil-rules');
    expect(roster.units.map((u) => u.rulesetFields?.['troop-type'])).toEqual(['swedish-brigade', 'commanded-shot', 'forlorn-hope', 'veteran-tercio', 'cuirassier', 'medium-artillery']);
    expect(rosterRulesetProblems(roster, getRuleset('while-the-devil-rules'))).toEqual([]);
  });

  it('takes an army commander (brigade "army") who commands every unit of his side', () => {
    const text = readFileSync(example, 'utf8').replace(
      /^statusTokens:/m,
      `  - { id: wallenstein, name: Wallenstein, side: imperial, brigade: army, quality: capable, tag: 43, base: { widthIn: 1.9685, depthIn: 1.9685 } }\nstatusTokens:`,
    );
    const roster = parseRoster(text, example);
    expect(rosterRulesetProblems(roster, getRuleset('while-the-devil-rules'))).toEqual([]);
    // Each Imperial unit in a row of its own starting 4" from the general at (8, 20); the Swedes far off.
    const rowsOf = (side: string, fromYIn: number) =>
      roster.units.filter((u) => u.side === side).flatMap((u, k) => u.stands.map((st, j) => ({ markerId: st.tag!, pose: { xIn: 12 + 3.5 * j, yIn: fromYIn + 4 * k, headingDeg: 90 } })));
    const placed = [{ markerId: 43, pose: { xIn: 8, yIn: 20, headingDeg: 90 } }, ...rowsOf('imperial', 16), ...rowsOf('swedish', 40)];
    const state = parseTableState(tableFromTags(roster, placed));
    const ev = evaluate(state, getRuleset('while-the-devil-rules'));
    const commandedBy = Object.values(ev.units).filter((u) => u.command.commanderInRangeId === 'wallenstein').map((u) => u.unitId);
    expect(commandedBy.length).toBeGreaterThan(0);
    // Units of both Imperial brigades, centre and horse.
    const brigades = new Set(commandedBy.map((id) => state.units.find((u) => u.id === id)!.brigadeId));
    expect([...brigades].sort()).toEqual(['centre', 'horse']);
  });

  it('keeps a destroyed unit taken off the table in its army\'s break point (Army Morale: "every base ... counted as destroyed")', () => {
    const roster = loadArmy(example);
    const first = roster.units[0]!;
    const breakLabel = (state: TableState) => {
      const ev = evaluate(state, getRuleset('while-the-devil-rules'));
      const other = roster.units.find((u) => u.side === first.side && u.id !== first.id)!;
      return ev.units[other.id]!.morale!.thresholds[1]!.label;
    };
    // The Swedes: 6 + 2 + 1 bases, higher quality x1.5 = 14. The yellow brigade (6 bases) loses 3: destroyed,
    // 6 bases x 3 = 18 points.
    const onTable = withRulesetStatus(armyOnTable(roster), first.id, { 'bases-lost': 3 });
    expect(breakLabel(onTable)).toBe('army break point (swedish: 18 points of 14)');
    // Taken off the table, it is still in the state (no stands) and counts the same; before, it left the
    // state and the Swedes read 0 points of 5.
    const lifted = withRulesetStatus(armyOnTable(roster, [first.id]), first.id, { 'bases-lost': 3 });
    expect(lifted.units.find((u) => u.id === first.id)).toMatchObject({ standIds: [], startingStands: 6 });
    expect(breakLabel(lifted)).toBe('army break point (swedish: 18 points of 14)');
    // A unit not yet on the table counts toward the army's bases, and adds no points.
    expect(breakLabel(armyOnTable(roster, [first.id]))).toBe('army break point (swedish: 0 points of 14)');
  });

  it('a misspelt troop type or an unknown parameter is named with the allowed values', () => {
    const text = readFileSync(example, 'utf8').replace('troop-type: commanded-shot', 'troop-type: comanded-shot').replace('advance-tercio: 4', 'advance-terico: 4');
    const problems = rosterRulesetProblems(parseRoster(text, example), getRuleset('while-the-devil-rules'));
    expect(problems).toContainEqual(expect.stringMatching(/^units\[1\] \(commanded-shot\)\.rulesetFields\.troop-type: expected one of dutch-battalion, .*commanded-shot.* got "comanded-shot"/));
    expect(problems).toContainEqual(expect.stringMatching(/^rulesetParameters\.advance-terico: unknown to ruleset "while-the-devil-rules"/));
  });
});
