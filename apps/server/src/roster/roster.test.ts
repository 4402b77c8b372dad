import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getRuleset, type Terrain } from '@muster/rules';
import type { TagTrack } from '@muster/vision';
import { buildTableState } from './buildTableState.ts';
import { loadRoster, parseRoster, RosterError } from './loadRoster.ts';
import { rosterTagIds } from './roster.ts';
import { rosterRulesetProblems } from './rosterRulesetProblems.ts';
import { standPoseFromTag, tagPoseFromStand } from './standPoseFromTag.ts';

const examplePath = fileURLToPath(new URL('../../../../fixtures/rosters/opening-battle.yaml', import.meta.url));
const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schema/roster.schema.json', import.meta.url)), 'utf8')) as {
  $defs: Record<string, { properties: Record<string, { enum?: string[] }> }>;
};
const noTerrain: Terrain = { areas: [], linear: [], roads: [], elevations: [] };

const minimal = (unitExtra = '', standExtra = '') => `
version: 1
commanders:
  - { id: cmd, name: Col. A, side: blue, brigade: b1, quality: capable }
units:
  - id: u1
    name: First
    side: blue
    arm: infantry
    quality: green
    weapon: rifled-musket
    brigade: b1${unitExtra}
    stands:
      - { tag: 10${standExtra} }
      - { tag: 11, role: command }
`;

function track(markerId: number, xIn: number, yIn: number, headingDeg: number, stale = false): TagTrack {
  const px = { uPx: 0, vPx: 0 };
  return { trackId: markerId + 1000, markerId, pose: { xIn, yIn, headingDeg }, rawPose: { xIn, yIn, headingDeg }, stale, known: true, firstSeenMs: 0, lastSeenMs: 0, cornersPx: [px, px, px, px] };
}

describe('loadRoster', () => {
  it('reads the opening-battle example', async () => {
    const roster = await loadRoster(examplePath);
    expect(roster.units.map((u) => u.name)).toEqual([
      '19th Alabama', '22nd Alabama', '25th Alabama', '26th Alabama',
      '1st Union Regiment', '2nd Union Regiment', '3rd Union Regiment', "Alley's Battery (3-inch rifles)",
    ]);
    const battery = roster.units.at(-1)!;
    expect(battery.stands.map((s) => [s.role, s.base.depthIn, s.tagOffset.forwardIn])).toEqual([
      ['command', 3, -0.75], ['gun', 3, -0.75], ['gun', 3, -0.75],
    ]);
    expect(roster.units[0]!.stands[0]).toMatchObject({ id: 'al19-1', tag: 10, role: 'command', base: { widthIn: 1.5, depthIn: 1.5 } });
    const ids = rosterTagIds(roster);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(4 * 5 + 3 * 5 + 3 + 2 + 9);
    expect(Math.min(...ids)).toBeGreaterThanOrEqual(4);
  });

  it('puts the command stand first and names stands by default', () => {
    const r = parseRoster(minimal(), 'army.yaml');
    expect(r.units[0]!.stands.map((s) => [s.id, s.tag, s.role])).toEqual([['u1-2', 11, 'command'], ['u1-1', 10, 'base']]);
  });

  it.each([
    ['a duplicate tag', minimal().replace('tag: 11', 'tag: 10'), /army\.yaml: units\[0\]\.stands\[1\]\.tag: tag 10 is already used by units\[0\]\.stands\[0\]/],
    ['an unknown brigade', minimal().replace('brigade: b1$', 'brigade: b2').replace('brigade: b1\n    stands', 'brigade: b2\n    stands'), /units\[0\]\.brigade: unknown brigade "b2"/],
    ['a bad arm', minimal().replace('arm: infantry', 'arm: navy'), /units\[0\]\.arm: must be one of infantry, cavalry, artillery \(got "navy"\)/],
    ['an unknown field', minimal('\n    colour: red'), /units\[0\]\.colour: unknown field/],
    ['a fractional tag', minimal('', ', role: base, base: { widthIn: 1 }').replace('tag: 10,', 'tag: 10.5,'), /units\[0\]\.stands\[0\]\.tag: must be an ArUco tag id/],
    ['a missing base depth', minimal('', ', base: { widthIn: 1 }'), /units\[0\]\.stands\[0\]\.base\.depthIn: must be a number/],
    ['a token for an unknown commander', `${minimal()}statusTokens:\n  - { tag: 50, kind: commander, commander: nobody }\n`, /statusTokens\[0\]\.commander: unknown commander "nobody" \(known: cmd\)/],
    ['a token reusing a stand tag', `${minimal()}statusTokens:\n  - { tag: 11, kind: hit }\n`, /statusTokens\[0\]\.tag: tag 11 is already used by units\[0\]\.stands\[1\]/],
    ['two command stands', minimal().replace('{ tag: 10 }', '{ tag: 10, role: command }'), /units\[0\]\.stands: a unit has at most one command stand/],
    ['a wrong version', minimal().replace('version: 1', 'version: 2'), /army\.yaml: version: must be 1/],
    ['broken YAML', 'units: [ {', /army\.yaml: not valid YAML\/JSON/],
  ])('rejects %s with the path', (_name, text, message) => {
    expect(() => parseRoster(text, 'army.yaml')).toThrow(RosterError);
    expect(() => parseRoster(text, 'army.yaml')).toThrow(message);
  });

  it('reads JSON as well as YAML', () => {
    const json = JSON.stringify({ version: 1, units: [{ id: 'g', name: 'Guns', side: 'red', arm: 'artillery', quality: 'crack', weapon: 'napoleon', independent: true, stands: [{ tag: 3 }] }] });
    const r = parseRoster(json, 'army.json');
    expect(r.units[0]!.stands[0]).toMatchObject({ role: 'gun', base: { widthIn: 1.5, depthIn: 3 } });
  });

  it('names a missing file', async () => {
    await expect(loadRoster('/nonexistent/army.yaml')).rejects.toThrow('/nonexistent/army.yaml: cannot read the roster (ENOENT)');
  });

  it('accepts every enum value the JSON Schema lists, and the schema lists every field the loader takes', () => {
    const unit = schema.$defs.unit!.properties;
    for (const arm of unit.arm!.enum!) expect(() => parseRoster(minimal().replace('arm: infantry', `arm: ${arm}`))).not.toThrow();
    for (const q of unit.quality!.enum!) expect(() => parseRoster(minimal().replace('quality: green', `quality: ${q}`))).not.toThrow();
    for (const role of schema.$defs.stand!.properties.role!.enum!) {
      expect(() => parseRoster(minimal().replace('tag: 11, role: command', 'tag: 11').replace('{ tag: 10 }', `{ tag: 10, role: ${role} }`))).not.toThrow();
    }
    for (const key of Object.keys(unit)) {
      // Every schema field is known to the loader: an unknown one would fail with "unknown field".
      expect(() => parseRoster(minimal(`\n    ${key}: 1`))).not.toThrow(/unknown field/);
    }
  });
});

describe('standPoseFromTag', () => {
  it('moves the centre by the offset in the base frame', () => {
    const p = standPoseFromTag({ xIn: 10, yIn: 10, headingDeg: 90 }, { rightIn: 0.25, forwardIn: -0.5, rotationDeg: 0 });
    // Facing +y, the stand's right is +x: the centre is 0.25" to the left (−x) and 0.5" ahead (+y) of the tag.
    expect(p.xIn).toBeCloseTo(9.75, 9);
    expect(p.yIn).toBeCloseTo(10.5, 9);
    expect(p.headingDeg).toBe(90);
    expect(standPoseFromTag({ xIn: 0, yIn: 0, headingDeg: 10 }, { rightIn: 0, forwardIn: 0, rotationDeg: 90 }).headingDeg).toBe(280);
  });

  it('inverts tagPoseFromStand', () => {
    fc.assert(
      fc.property(
        fc.record({ xIn: fc.double({ min: 0, max: 72, noNaN: true }), yIn: fc.double({ min: 0, max: 48, noNaN: true }), headingDeg: fc.double({ min: 0, max: 359.999, noNaN: true }) }),
        fc.record({ rightIn: fc.double({ min: -2, max: 2, noNaN: true }), forwardIn: fc.double({ min: -2, max: 2, noNaN: true }), rotationDeg: fc.double({ min: -360, max: 360, noNaN: true }) }),
        (stand, offset) => {
          const back = standPoseFromTag(tagPoseFromStand(stand, offset), offset);
          expect(back.xIn).toBeCloseTo(stand.xIn, 6);
          expect(back.yIn).toBeCloseTo(stand.yIn, 6);
          expect(Math.abs(((back.headingDeg - stand.headingDeg + 540) % 360) - 180)).toBeLessThan(1e-6);
        },
      ),
    );
  });
});

describe('optional rules in the roster (The Devil to Pay, Optional Rules)', () => {
  it('reads quality trained, sharpshooters and the optional rules, and hands them to the table state', () => {
    const text = `optionalRules: [trained-veteran, split-fire]\n${minimal('\n    sharpshooters: true').replace('quality: green', 'quality: trained')}`;
    const roster = parseRoster(text);
    expect(roster.optionalRules).toEqual(['trained-veteran', 'split-fire']);
    expect(roster.units[0]).toMatchObject({ quality: 'trained', sharpshooters: true });
    const { state } = buildTableState(roster, [track(10, 20, 10, 90), track(11, 21.5, 10, 90)], { table: { widthIn: 72, depthIn: 48 }, terrain: noTerrain });
    expect(state.optionalRules).toEqual(['trained-veteran', 'split-fire']);
    expect(state.units[0]).toMatchObject({ quality: 'trained', sharpshooters: true });
    // Without them, the table state has neither field.
    const plain = buildTableState(parseRoster(minimal()), [track(10, 20, 10, 90)], { table: { widthIn: 72, depthIn: 48 }, terrain: noTerrain }).state;
    expect('optionalRules' in plain).toBe(false);
    expect('sharpshooters' in plain.units[0]!).toBe(false);
  });

  it('reads the rule set, its parameters and unit fields, hands them on, and checks them against the rule set', () => {
    const text = `ruleset: devil-to-pay\nrulesetParameters: { baseMoveIn: 6 }\n${minimal('\n    rulesetFields: { troopType: pike, abilities: [shock] }')}`;
    const roster = parseRoster(text);
    expect(roster).toMatchObject({ ruleset: 'devil-to-pay', rulesetParameters: { baseMoveIn: 6 } });
    const state = buildTableState(roster, [track(10, 10, 10, 90), track(11, 11.5, 10, 90)], { table: { widthIn: 48, depthIn: 48 }, terrain: noTerrain }).state;
    expect(state.rulesetParameters).toEqual({ baseMoveIn: 6 });
    expect(state.units[0]!.rulesetFields).toEqual({ troopType: 'pike', abilities: ['shock'] });
    // The Devil to Pay declares no such values: each is named with its path and unit id.
    const problems = rosterRulesetProblems(roster, getRuleset('devil-to-pay'));
    expect(problems).toContain('rulesetParameters.baseMoveIn: unknown to ruleset "devil-to-pay" (allowed: none)');
    expect(problems).toContain('units[0] (u1).rulesetFields.troopType: unknown to ruleset "devil-to-pay" (allowed: none)');
    expect(() => parseRoster(minimal('\n    rulesetFields: { troopType: { a: 1 } }'))).toThrow(/units\[0\]\.rulesetFields\.troopType: must be a number, text/);
  });

  it('names the path of a bad optional rule or a rule listed twice', () => {
    expect(() => parseRoster(`optionalRules: [split-fire, whiskey]\n${minimal()}`, 'army.yaml')).toThrow(/army\.yaml: optionalRules\[1\]: must be one of trained-veteran, split-fire, hasty-works/);
    expect(() => parseRoster(`optionalRules: [split-fire, split-fire]\n${minimal()}`, 'army.yaml')).toThrow(/optionalRules\[1\]: "split-fire" is listed twice/);
    expect(() => parseRoster(minimal('\n    sharpshooters: 2'), 'army.yaml')).toThrow(/units\[0\]\.sharpshooters: must be true or false/);
  });
});

describe('buildTableState', () => {
  it('places stands through their tag offsets and applies status chips', async () => {
    const roster = await loadRoster(examplePath);
    const tracks = [
      track(10, 20, 10, 90), // 19th Alabama command stand
      track(11, 21.5, 10, 90),
      track(80, 30, 40, 270), // battery: tag 0.75" behind the gun centre
      track(90, 20, 7, 90), // Alabama brigade commander's stand
      track(100, 23, 10, 0), // disordered chip 0.75" right of stand 11's edge
      track(102, 20, 8.9, 0), // hit chip just behind the command stand
      track(107, 18.5, 10, 0), // commander chip by the 19th
      track(104, 50, 5, 0), // hit chip far from everything
      track(333, 1, 1, 0), // not in the roster
    ];
    const built = buildTableState(roster, tracks, { table: { widthIn: 72, depthIn: 48 }, terrain: noTerrain });
    const { state } = built;
    // Every unit of the army, placed or not; those with no stand on the table have none listed.
    expect(state.units.map((u) => u.id)).toEqual(roster.units.map((u) => u.id));
    const placed = state.units.filter((u) => u.standIds.length > 0);
    expect(placed.map((u) => u.id)).toEqual(['al19', 'alley-battery']);
    expect(placed[0]!.standIds).toEqual(['al19-1', 'al19-2']);
    // Each keeps the army file's count of its stands.
    expect(state.units.map((u) => u.startingStands)).toEqual(roster.units.map((u) => u.stands.length));
    const gun = state.stands.find((s) => s.id === 'alley-battery-1')!;
    expect(gun.pose.xIn).toBeCloseTo(30, 9);
    expect(gun.pose.yIn).toBeCloseTo(40 - 0.75, 9);
    expect(gun).toMatchObject({ widthIn: 1.5, depthIn: 3, role: 'command', unitId: 'alley-battery' });
    expect(state.stands.find((s) => s.id === 'alabama-stand')).toMatchObject({ role: 'commander', unitId: 'alabama' });
    expect(state.commanders.find((c) => c.id === 'alabama')).toMatchObject({ standId: 'alabama-stand', attachedToUnitId: 'al19' });
    expect(state.commanders.find((c) => c.id === 'alley')!.standId).toBeUndefined();
    expect(placed[0]!.status).toEqual({ disordered: true, hitsByStand: { 'al19-1': 1 }, attachedCommanderId: 'alabama' });
    expect(placed[1]!.status).toBeUndefined();
    expect(built.strayTokens).toEqual([104]);
    expect(built.unassignedTags).toEqual([333]);
    expect(state.terrain).toBe(noTerrain);
  });

  it('keeps held (stale) stands unless told not to', async () => {
    const roster = await loadRoster(examplePath);
    const tracks = [track(10, 20, 10, 90), track(11, 21.5, 10, 90, true)];
    const opts = { table: { widthIn: 72, depthIn: 48 }, terrain: noTerrain };
    expect(buildTableState(roster, tracks, opts).state.stands.map((s) => s.id)).toEqual(['al19-1', 'al19-2']);
    expect(buildTableState(roster, tracks, { ...opts, includeStale: false }).state.stands.map((s) => s.id)).toEqual(['al19-1']);
  });
});
