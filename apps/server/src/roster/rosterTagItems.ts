/** The roster's tags to print, at the table profile's marker size, labelled with the unit or commander. */
import { markerModules, type Cv, type TableProfile, type TagItem } from '@muster/vision';
import { tagAssignments, type Roster } from './roster.ts';

export function rosterTagItems(cv: Cv, roster: Roster, profile: TableProfile): TagItem[] {
  const unitNames = new Map(roster.units.map((u) => [u.id, u.name]));
  const commanderNames = new Map(roster.commanders.map((c) => [c.id, c.name]));
  const anchorIds = new Set(profile.anchors.map((a) => a.id));
  const items: TagItem[] = [];
  for (const [tagId, a] of [...tagAssignments(roster)].sort((x, y) => x[0] - y[0])) {
    if (tagId >= profile.dictionaryIds) {
      throw new Error(`roster tag ${tagId} is not in ${profile.dictionary} (ids 0-${profile.dictionaryIds - 1}); use a table profile with a larger dictionary`);
    }
    if (anchorIds.has(tagId)) throw new Error(`roster tag ${tagId} is also an anchor of the table profile ${profile.sourceName}`);
    let label: string;
    if (a.kind === 'stand') label = `${unitNames.get(a.unitId) ?? a.unitId}${a.stand.role === 'command' ? ' (command)' : ''}`;
    else if (a.kind === 'commander') label = commanderNames.get(a.commanderId) ?? a.commanderId;
    else label = a.token.kind === 'commander' ? `token: ${commanderNames.get(a.token.commanderId ?? '') ?? 'commander'}` : `token: ${a.token.kind}`;
    items.push({ tagId, label, sizeIn: profile.markerSizeIn, modules: markerModules(cv, profile.dictionary, tagId) });
  }
  return items;
}
