/**
 * The roster's tags to print, at the table profile's marker size, labelled with the unit or commander and,
 * for a stand, the unit's type (so a stand picked up from the box can be told apart by its tag).
 */
import { markerModules, type Cv, type TableProfile, type TagItem } from '@muster/vision';
import { tagAssignments, type Roster, type RosterUnit } from './roster.ts';

/**
 * A unit's type in words: the rule set's troop type when its army file gives one (While the Devil Rules,
 * Volley & Bayonet: `rulesetFields.troop-type`), else the arm with the weapon ('infantry, rifled musket').
 */
export function unitTypeText(unit: Pick<RosterUnit, 'arm' | 'weapon' | 'rulesetFields'>): string {
  const troopType = unit.rulesetFields?.['troop-type'];
  if (typeof troopType === 'string' && troopType !== '') return troopType.replace(/-/g, ' ');
  return unit.weapon ? `${unit.arm}, ${unit.weapon.replace(/-/g, ' ')}` : unit.arm;
}

export function rosterTagItems(cv: Cv, roster: Roster, profile: TableProfile): TagItem[] {
  const unitNames = new Map(roster.units.map((u) => [u.id, u.name]));
  const unitTypes = new Map(roster.units.map((u) => [u.id, unitTypeText(u)]));
  const commanderNames = new Map(roster.commanders.map((c) => [c.id, c.name]));
  const anchorIds = new Set(profile.anchors.map((a) => a.id));
  const items: TagItem[] = [];
  for (const [tagId, a] of [...tagAssignments(roster)].sort((x, y) => x[0] - y[0])) {
    if (tagId >= profile.dictionaryIds) {
      throw new Error(`roster tag ${tagId} is not in ${profile.dictionary} (ids 0-${profile.dictionaryIds - 1}); use a table profile with a larger dictionary`);
    }
    if (anchorIds.has(tagId)) throw new Error(`roster tag ${tagId} is also an anchor of the table profile ${profile.sourceName}`);
    let label: string;
    let detail: string | undefined;
    if (a.kind === 'stand') {
      label = `${unitNames.get(a.unitId) ?? a.unitId}${a.stand.role === 'command' ? ' (command)' : ''}`;
      detail = unitTypes.get(a.unitId);
    }
    else if (a.kind === 'commander') label = commanderNames.get(a.commanderId) ?? a.commanderId;
    else label = a.token.kind === 'commander' ? `token: ${commanderNames.get(a.token.commanderId ?? '') ?? 'commander'}` : `token: ${a.token.kind}`;
    items.push({ tagId, label, ...(detail ? { detail } : {}), sizeIn: profile.markerSizeIn, modules: markerModules(cv, profile.dictionary, tagId) });
  }
  return items;
}
