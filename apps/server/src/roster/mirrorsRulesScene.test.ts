/**
 * Camera → rules agreement: tags placed where the rules' golden opening-battle scene has its stands, read
 * through `fixtures/rosters/opening-battle-rules.yaml`, must give back that scene's table state (stands,
 * units, commanders), valid for `@muster/rules`. Tag offsets on the bases are exercised by re-reading the
 * same roster with every tag off-centre and turned.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateTableState, type TableState } from '@muster/rules';
import type { TagTrack } from '@muster/vision';
import { buildTableState } from './buildTableState.ts';
import { parseRoster } from './loadRoster.ts';
import { tagAssignments, type Roster, type TagOffset } from './roster.ts';
import { tagPoseFromStand } from './standPoseFromTag.ts';

const read = (rel: string): string => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8');
const scene = JSON.parse(read('../../../../fixtures/rules/in/opening-battle.json')) as TableState;
const rosterText = read('../../../../fixtures/rosters/opening-battle-rules.yaml');

function withOffset(roster: Roster, offset: TagOffset): Roster {
  return {
    ...roster,
    units: roster.units.map((u) => ({ ...u, stands: u.stands.map((s) => ({ ...s, tagOffset: offset })) })),
    commanders: roster.commanders.map((c) => (c.stand ? { ...c, stand: { ...c.stand, tagOffset: offset } } : c)),
  };
}

/** Tracks for tags sitting on the scene's stands (and any extra tags given). */
function tracksFor(roster: Roster, extra: Array<{ tag: number; xIn: number; yIn: number }> = []): TagTrack[] {
  const px = { uPx: 0, vPx: 0 };
  const tracks: TagTrack[] = [];
  for (const [tag, a] of tagAssignments(roster)) {
    if (a.kind === 'status') continue;
    const stand = scene.stands.find((s) => s.id === a.stand.id);
    if (!stand) throw new Error(`roster stand ${a.stand.id} is not in the rules scene`);
    const pose = tagPoseFromStand(stand.pose, a.stand.tagOffset);
    tracks.push({ trackId: tag, markerId: tag, pose, rawPose: pose, stale: false, known: true, firstSeenMs: 0, lastSeenMs: 0, cornersPx: [px, px, px, px] });
  }
  for (const e of extra) {
    const pose = { xIn: e.xIn, yIn: e.yIn, headingDeg: 0 };
    tracks.push({ trackId: e.tag, markerId: e.tag, pose, rawPose: pose, stale: false, known: true, firstSeenMs: 0, lastSeenMs: 0, cornersPx: [px, px, px, px] });
  }
  return tracks;
}

describe('opening-battle-rules.yaml', () => {
  it.each<[string, TagOffset]>([
    ['centred tags', { rightIn: 0, forwardIn: 0, rotationDeg: 0 }],
    ['tags off-centre and turned', { rightIn: 0.3, forwardIn: -0.45, rotationDeg: 90 }],
  ])('gives back the rules scene from %s', (_name, offset) => {
    const roster = withOffset(parseRoster(rosterText, 'opening-battle-rules.yaml'), offset);
    const { state, unassignedTags, strayTokens } = buildTableState(roster, tracksFor(roster), { table: scene.table, terrain: scene.terrain });
    expect(unassignedTags).toEqual([]);
    expect(strayTokens).toEqual([]);

    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    const got = [...state.stands].sort(byId);
    const want = [...scene.stands].sort(byId);
    expect(got.map((s) => [s.id, s.unitId, s.role, s.widthIn, s.depthIn])).toEqual(want.map((s) => [s.id, s.unitId, s.role, s.widthIn, s.depthIn]));
    got.forEach((s, i) => {
      const w = want[i]!.pose;
      expect(s.pose.xIn).toBeCloseTo(w.xIn, 9);
      expect(s.pose.yIn).toBeCloseTo(w.yIn, 9);
      expect(Math.abs(((s.pose.headingDeg - w.headingDeg + 540) % 360) - 180)).toBeLessThan(1e-9);
    });
    // Status (formation overrides) is the operator's, not the camera's: compare everything else.
    // The army file also gives each unit its starting stands (all of them are on the table here).
    expect(state.units).toEqual(scene.units.map(({ status: _s, ...u }) => ({ ...u, startingStands: u.standIds.length })));
    expect(state.commanders).toEqual(scene.commanders);
    const v = validateTableState(state);
    expect(v.ok, JSON.stringify(v)).toBe(true);
  });

  it('sets status from chips next to a unit, and the result is still a valid table state', () => {
    const roster = parseRoster(rosterText, 'opening-battle-rules.yaml');
    const target = scene.stands.find((s) => s.id === 'al-19-1')!.pose;
    // Chips 0.3" beyond the front edge of the 19th's command stand (the stand faces +y, 1.5" deep).
    const chipAt = (dx: number) => ({ xIn: target.xIn + dx, yIn: target.yIn + 0.75 + 0.3 });
    const chips = [69, 70, 71, 72].map((tag, i) => ({ tag, ...chipAt((i - 1.5) * 0.4) }));
    const { state, strayTokens } = buildTableState(roster, tracksFor(roster, chips), { table: scene.table, terrain: scene.terrain });
    expect(strayTokens).toEqual([]);
    expect(state.units.find((u) => u.id === 'al-19')!.status).toEqual({
      disordered: true,
      prone: true,
      hitsByStand: { 'al-19-1': 1 },
      attachedCommanderId: 'cmd-alabama',
    });
    expect(state.commanders.find((c) => c.id === 'cmd-alabama')!.attachedToUnitId).toBe('al-19');
    const v = validateTableState(state);
    expect(v.ok, JSON.stringify(v)).toBe(true);
  });
});
