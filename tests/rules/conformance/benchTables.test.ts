/**
 * The bench tables every rule set is timed on (issue 9, "Speed"): the seeded 300-stand table given to each
 * installed rule set through its adapter is valid for it and evaluates with answers for every unit, and the
 * 1,000-stand mega-game table has the size it claims, with no two stands overlapping.
 */
import { describe, expect, it } from 'vitest';
import { installedRulesets, parseTableState, parseTableStateFor, standToStandDistanceIn } from '@muster/rules';
import { largeScene } from '../../../fixtures/rules/largeScene.ts';
import { megaScene, MEGA_SCENE_SIZE, MEGA_SCENE_UNITS } from '../../../fixtures/rules/megaScene.ts';
import { benchTableFor } from '../../../fixtures/rules/rulesetAdapters.ts';

describe.each(installedRulesets.map((r) => [r.id, r] as const))('bench table for %s', (id, ruleset) => {
  it('is the same seeded table, valid for the rule set, with an answer for every unit', () => {
    const base = largeScene(1);
    const table = parseTableStateFor(benchTableFor(id, base), ruleset);
    expect(table.stands).toEqual(base.stands);
    expect(table.terrain).toEqual(base.terrain);
    expect(table.units.map((u) => [u.id, u.standIds])).toEqual(base.units.map((u) => [u.id, u.standIds]));
    const ev = ruleset.evaluate(table);
    expect(Object.keys(ev.units).sort()).toEqual(table.units.map((u) => u.id).sort());
    // A busy table: some unit has a fire target it may shoot at.
    expect(Object.values(ev.units).some((u) => u.fire.some((f) => f.ok))).toBe(true);
  });
});

describe('mega-game table', () => {
  it('has 1,000 stands and 200 units, the same for the same seed, on the table and clear of each other', () => {
    const s = parseTableState(megaScene(1));
    expect(s.stands).toHaveLength(MEGA_SCENE_SIZE.stands);
    expect(s.units).toHaveLength(MEGA_SCENE_UNITS);
    expect(JSON.stringify(megaScene(1))).toBe(JSON.stringify(s));
    for (const st of s.stands) {
      expect(st.pose.xIn).toBeGreaterThan(0);
      expect(st.pose.xIn).toBeLessThan(MEGA_SCENE_SIZE.widthIn);
      expect(st.pose.yIn).toBeGreaterThan(0);
      expect(st.pose.yIn).toBeLessThan(MEGA_SCENE_SIZE.depthIn);
    }
    const overlapping: string[] = [];
    for (let i = 0; i < s.stands.length; i++) {
      for (let j = i + 1; j < s.stands.length; j++) {
        const a = s.stands[i]!;
        const b = s.stands[j]!;
        if (Math.abs(a.pose.xIn - b.pose.xIn) > 6 || Math.abs(a.pose.yIn - b.pose.yIn) > 6) continue;
        if (a.unitId !== b.unitId && standToStandDistanceIn(a, b) <= 0) overlapping.push(`${a.id}/${b.id}`);
      }
    }
    expect(overlapping).toEqual([]);
  });
});
