/**
 * What this rule set declares (engine/rulesetFields.ts): per-game parameters for numbers the QRS does not
 * give and for readings players may argue about, unit fields (label values, ratings), and unit status.
 */
import type { RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import type { AreaTerrainKind } from '../../model/tableState.ts';
import { CHARGE_MODE_STATUS_FIELD } from './chargeMode.ts';
import { qrs } from './tables/source.ts';
import { FIRE_EFFECTS, FIRE_TARGET_COLUMNS, WEAPONS, type WeaponDef } from './tables/fireTables.ts';
import { DEFAULT_AREA_CLASS } from './tables/terrainClasses.ts';

const BASIC_WEAPONS = 'Regimental Fire and Fury rulebook, Weapons and the Musketry & Cannonade Table (not in the QRS)';
const BASIC_FIRE = 'Regimental Fire and Fury rulebook, Fire Combat Modifiers (p. 53; not in the QRS)';
const FIGURE_3 = 'the printed QRS II sheet, Figure 3 (Musketry & Cannonade Table): its die result columns do not survive in the text';

/** Parameter id of a weapon band's outer range or fire points per stand. */
export function weaponParamId(code: string, band: string, what: 'in' | 'points'): string {
  return `weapon-${code.toLowerCase()}-${band}-${what}`;
}

function weaponParams(w: WeaponDef): RulesetFieldSpec[] {
  if (w.sameAs) return [];
  const out: RulesetFieldSpec[] = [];
  for (const band of w.bands) {
    const kinds: ('in' | 'points')[] = w.rangesFrom ? ['points'] : ['in', 'points'];
    for (const what of kinds) {
      const given = w.given?.[`${band}-${what}`];
      out.push({
        id: weaponParamId(w.code, band, what),
        label: what === 'in' ? `${w.label}: ${band} range band, out to (in; 0 = no such band)` : `${w.label}: fire points per stand at ${band} range`,
        type: 'number',
        unit: what === 'in' ? 'in' : 'fire points',
        min: 0,
        ...(given ? { default: given.value, source: given.source } : { source: BASIC_WEAPONS, notInDocument: true }),
        usedFor: 'fire range bands and fire points',
      });
    }
  }
  return out;
}

export const FIRE_ARC_PARAM: RulesetFieldSpec = {
  id: 'fire-arc-half-deg',
  label: 'Arc of fire either side of straight ahead, from the front corners of each firing stand (degrees)',
  type: 'number',
  unit: 'deg',
  min: 0,
  max: 90,
  source: 'Regimental Fire and Fury rulebook, Arc of Fire (not in the QRS)',
  notInDocument: true,
  usedFor: 'which stands may fire at a target',
};

export const WOODS_SIGHT_PARAM: RulesetFieldSpec = {
  id: 'woods-sight-depth-in',
  label: 'Line of sight into or through woods (in)',
  type: 'number',
  unit: 'in',
  min: 0,
  source: 'Regimental Fire and Fury rulebook, Line of Sight (not in the QRS)',
  notInDocument: true,
  usedFor: 'line of sight of fire through woods',
};

/** Fire points 1..7 keep the basic rulebook's die modifiers (Changes 16: "remain the same for 7 fire points or less"). */
export function firePointsParamId(points: number): string {
  return `fire-points-modifier-${points}`;
}

const FIRE_POINT_PARAMS: RulesetFieldSpec[] = [
  ...[1, 2, 3, 4, 5, 6, 7].map((p): RulesetFieldSpec => ({
    id: firePointsParamId(p),
    label: `Die roll modifier for ${p} fire point${p === 1 ? '' : 's'}`,
    type: 'integer',
    unit: 'die modifier',
    min: -10,
    max: 10,
    source: 'Regimental Fire and Fury rulebook, Musketry & Cannonade Table (QRS II Changes 16 keeps these unchanged)',
    notInDocument: true,
    usedFor: 'fire die modifier from fire points',
  })),
  {
    id: firePointsParamId(8),
    label: 'Die roll modifier for 8 fire points (reading: the step below +1, which "now begins at 9")',
    type: 'integer',
    unit: 'die modifier',
    min: -10,
    max: 10,
    default: 0,
    source: qrs('Musketry and Cannonade Table Changes 16'),
    usedFor: 'fire die modifier from fire points',
  },
  {
    id: 'fire-points-plus3-at',
    label: 'Fewest fire points for a +3 die modifier (between 13 and 24)',
    type: 'integer',
    unit: 'fire points',
    min: 13,
    max: 24,
    source: 'Regimental Fire and Fury QRS II printed sheet, Figure 3 ("and so on" in Changes 16)',
    notInDocument: true,
    usedFor: 'fire die modifier from fire points',
  },
  {
    id: 'fire-points-plus4-at',
    label: 'Fewest fire points for a +4 die modifier (between 14 and 24)',
    type: 'integer',
    unit: 'fire points',
    min: 14,
    max: 24,
    source: 'Regimental Fire and Fury QRS II printed sheet, Figure 3 ("and so on" in Changes 16)',
    notInDocument: true,
    usedFor: 'fire die modifier from fire points',
  },
];

/** Basic-rulebook fire modifiers whose condition the table state shows; their values are parameters. */
export const BASIC_FIRE_MODIFIER_PARAMS = {
  firerDisordered: { id: 'fire-modifier-firer-disordered', label: 'Fire die modifier: firing unit disordered' },
  firerWorn: { id: 'fire-modifier-firer-worn', label: 'Fire die modifier: firing unit worn' },
  firerSpent: { id: 'fire-modifier-firer-spent', label: 'Fire die modifier: firing unit spent' },
  targetPartialCover: { id: 'fire-modifier-target-partial-cover', label: 'Fire die modifier: target in partial cover' },
  targetFullCover: { id: 'fire-modifier-target-full-cover', label: 'Fire die modifier: target in full cover' },
} as const;

const BASIC_FIRE_PARAMS: RulesetFieldSpec[] = Object.values(BASIC_FIRE_MODIFIER_PARAMS).map((p) => ({
  id: p.id,
  label: p.label,
  type: 'integer',
  unit: 'die modifier',
  min: -5,
  max: 5,
  source: BASIC_FIRE,
  notInDocument: true,
  usedFor: 'fire die modifiers',
}));

/** Lowest modified die result for an effect against a target rating (Figure 3, unreadable in the text). */
export function fireEffectParamId(column: string, effect: string): string {
  return `fire-effect-${column}-${effect}-at`;
}

const FIRE_EFFECT_PARAMS: RulesetFieldSpec[] = FIRE_TARGET_COLUMNS.flatMap((column) =>
  FIRE_EFFECTS.map((effect): RulesetFieldSpec => ({
    id: fireEffectParamId(column, effect),
    label: `Lowest modified fire die result for ${effect} fire on a ${column} target`,
    type: 'integer',
    unit: 'modified die result',
    min: -10,
    max: 30,
    source: FIGURE_3,
    notInDocument: true,
    usedFor: 'die needed for each fire effect',
  })),
);

export function terrainParamId(kind: AreaTerrainKind): string {
  return `terrain-${kind}`;
}

const TERRAIN_CHOICES = [
  { id: 'open', label: 'Open ground' },
  { id: 'broken', label: 'Broken ground' },
  { id: 'rough', label: 'Rough ground' },
  { id: 'impassable', label: 'Impassable' },
];

const TERRAIN_PARAMS: RulesetFieldSpec[] = (Object.keys(DEFAULT_AREA_CLASS) as AreaTerrainKind[]).map((kind) => ({
  id: terrainParamId(kind),
  label: `Ground class of ${kind} areas`,
  type: 'choice',
  choices: TERRAIN_CHOICES,
  default: DEFAULT_AREA_CLASS[kind],
  source:
    kind === 'open-woods'
      ? qrs('Road Movement, Figure 9 ("woods rated broken ground")')
      : "the scenario's terrain ratings (default: this rule set's README reading)",
  usedFor: 'movement rates, cavalry charge modifier',
}));

export const VISIBILITY_PARAM: RulesetFieldSpec = {
  id: 'visibility',
  label: 'Light and weather',
  type: 'choice',
  choices: [
    { id: 'clear', label: 'Clear' },
    { id: 'twilight-or-fog', label: 'Twilight or fog (command radius 4")' },
  ],
  default: 'clear',
  source: qrs('Maneuver Table, Command Radius'),
  usedFor: 'command radius',
};

export const COMMAND_MEASURE_PARAM: RulesetFieldSpec = {
  id: 'command-radius-to',
  label: 'Command radius measured from the leader to',
  type: 'choice',
  choices: [
    { id: 'any-stand', label: 'the nearest stand of the unit' },
    { id: 'command-stand', label: "the unit's command stand" },
  ],
  default: 'any-stand',
  source: 'reading of QRS II Maneuver Table Procedure ("units within his command radius"); see README',
  usedFor: 'who is in command',
};

export const ROAD_CONDITION_PARAM: RulesetFieldSpec = {
  id: 'road-condition',
  label: 'Condition of the roads on the table',
  type: 'choice',
  choices: [
    { id: 'good', label: 'Good (road bonus)' },
    { id: 'poor', label: 'Poor (open ground, no bonus)' },
  ],
  default: 'good',
  source: qrs('Road Movement ("All roads have a rating as being either in good or poor condition")'),
  usedFor: 'road movement',
};

export const ROAD_RATE_READING_PARAM: RulesetFieldSpec = {
  id: 'road-rate-reading',
  label: 'Rate on a good road',
  type: 'choice',
  choices: [
    { id: 'text', label: 'Open-ground rate x the road bonus (x1.5 troops and leaders, x2 limbered guns), as the text says' },
    { id: 'chart', label: "Figure 2's Road column" },
  ],
  default: 'text',
  source: qrs('Road Movement ("The road bonus multiplies the distance traveled"); Figure 9'),
  usedFor: 'road movement',
};

export const PANIC_LOSSES_PARAM: RulesetFieldSpec = {
  id: 'panic-stand-losses',
  label: 'Who loses stands to Panic ("one troop stand ... equal to the die result difference less than zero")',
  type: 'choice',
  choices: [
    { id: 'disordered-column', label: 'Disordered or broken troops only (the section replaces that column\'s effects)' },
    { id: 'both-columns', label: 'Troops in good order too (C1 Panic)' },
  ],
  default: 'disordered-column',
  source: qrs('Maneuver Effects, Panic; Figure 5'),
  usedFor: 'maneuver check results',
};

export const FFR_PARAMETERS: readonly RulesetFieldSpec[] = [
  FIRE_ARC_PARAM,
  WOODS_SIGHT_PARAM,
  ...WEAPONS.flatMap(weaponParams),
  ...FIRE_POINT_PARAMS,
  ...BASIC_FIRE_PARAMS,
  ...FIRE_EFFECT_PARAMS,
  ...TERRAIN_PARAMS,
  VISIBILITY_PARAM,
  COMMAND_MEASURE_PARAM,
  ROAD_CONDITION_PARAM,
  ROAD_RATE_READING_PARAM,
  PANIC_LOSSES_PARAM,
];

export const PARAM_BY_ID: ReadonlyMap<string, RulesetFieldSpec> = new Map(FFR_PARAMETERS.map((p) => [p.id, p]));

const LABEL = "the unit's label in the scenario order of battle (Regimental Fire and Fury rulebook; not in the QRS)";

export const FFR_UNIT_FIELDS: readonly RulesetFieldSpec[] = [
  { id: 'startingStands', label: 'Stands at the start of the game', type: 'integer', unit: 'stands', min: 1, source: LABEL, notInDocument: true, usedFor: 'stands lost (fresh / worn / spent)' },
  { id: 'wornAtStandsLost', label: 'Worn when this many stands are lost', type: 'integer', unit: 'stands', min: 1, source: LABEL, notInDocument: true, usedFor: 'fresh / worn / spent' },
  { id: 'spentAtStandsLost', label: 'Spent when this many stands are lost', type: 'integer', unit: 'stands', min: 1, source: LABEL, notInDocument: true, usedFor: 'fresh / worn / spent' },
  { id: 'militia', label: 'Rated militia (provisional command modifier)', type: 'boolean', default: false, source: qrs('Maneuver Die Roll Modifiers, Provisional Command'), usedFor: 'maneuver check' },
  { id: 'braveColonel', label: 'Brave colonel', type: 'boolean', default: false, source: qrs('Maneuver Table, Die Roll Modifiers'), usedFor: 'maneuver and charge modifiers' },
  { id: 'mountedInfantry', label: 'Mounted infantry (no cavalry charge bonus)', type: 'boolean', default: false, source: qrs('Figure 4, Charge Table'), usedFor: 'charge modifiers' },
  { id: 'skirmishers', label: 'A skirmisher detachment (of the nearest regiment of its brigade with the same ratings)', type: 'boolean', default: false, source: qrs('Skirmishers'), usedFor: 'skirmisher limits, placement and rejoining' },
  { id: 'extendedLineOnly', label: 'Forms only march column and extended line (skirmish troops, dismounted cavalry)', type: 'boolean', default: false, source: qrs('Deploy to the Front'), usedFor: 'formation reading' },
];

export const FORMATION_CHOICES = [
  { id: 'line', label: 'Line' },
  { id: 'extended-line', label: 'Extended line' },
  { id: 'field-column', label: 'Field column' },
  { id: 'march-column', label: 'March column' },
  { id: 'broken', label: 'Broken' },
  { id: 'garrison', label: 'Garrison' },
] as const;

export const FFR_STATUS_FIELDS: readonly RulesetFieldSpec[] = [
  { id: 'formation', label: 'Formation (overrides the one read from the stands)', type: 'choice', choices: FORMATION_CHOICES, source: qrs('Troop Maneuvers; Maneuver Table'), usedFor: 'formation' },
  { id: 'standsLost', label: 'Stands lost so far (overrides starting stands minus stands on the table)', type: 'integer', unit: 'stands', min: 0, source: qrs('Fire Combat Effects, Inflicting Troop Casualties'), usedFor: 'fresh / worn / spent' },
  { id: 'silenced', label: 'Guns silenced', type: 'boolean', default: false, source: qrs('Figure 3; Gun Maneuvers'), usedFor: 'charge modifiers' },
  { id: 'outflanked', label: 'Outflanked (enemy within 8" on a flank, as the rulebook defines it)', type: 'boolean', default: false, source: qrs('Maneuver Table, Die Roll Modifiers; Figure 4'), usedFor: 'maneuver and charge modifiers' },
  { id: 'keyPositionLost', label: 'Key position lost', type: 'boolean', default: false, source: qrs('Maneuver Table, Die Roll Modifiers'), usedFor: 'maneuver check' },
  {
    id: 'casualties',
    label: 'Casualty level',
    type: 'choice',
    choices: [
      { id: 'none', label: 'None' },
      { id: 'heavy', label: 'Heavy casualties' },
      { id: 'greater', label: 'Greater losses' },
    ],
    default: 'none',
    source: qrs('Maneuver Table, Die Roll Modifiers'),
    usedFor: 'maneuver check',
  },
  { id: 'linearCover', label: 'Behind linear cover', type: 'boolean', default: false, source: qrs('Maneuver Table, Die Roll Modifiers'), usedFor: 'maneuver check' },
  {
    id: 'cover',
    label: 'Cover the unit has against fire',
    type: 'choice',
    choices: [
      { id: 'none', label: 'None' },
      { id: 'partial', label: 'Partial cover' },
      { id: 'full', label: 'Full cover' },
    ],
    default: 'none',
    source: BASIC_FIRE,
    usedFor: 'fire modifiers',
  },
  {
    id: 'position',
    label: 'Ground held when charged',
    type: 'choice',
    choices: [
      { id: 'none', label: 'None' },
      { id: 'favorable', label: 'Favorable ground' },
      { id: 'strong', label: 'Strong position or fortified' },
    ],
    default: 'none',
    source: qrs('Figure 4, Charge Table'),
    usedFor: 'charge modifiers',
  },
  { id: 'supported', label: 'Guns supported (charge)', type: 'boolean', default: false, source: qrs('Figure 4, Charge Table'), usedFor: 'charge modifiers' },
  CHARGE_MODE_STATUS_FIELD,
  { id: 'fortified', label: 'Fortified (holds position on Fall Back, Shaken, Wavering and Hard Pressed)', type: 'boolean', default: false, source: qrs('Figure 4, Hard Pressed; Figure 5'), usedFor: 'charge and maneuver results' },
  { id: 'silencedGunStands', label: 'Gun stands silenced', type: 'integer', unit: 'stands', min: 0, source: qrs('Figure 3, Effects'), usedFor: 'fire and charge results' },
  { id: 'damagedGunStands', label: 'Gun stands damaged', type: 'integer', unit: 'stands', min: 0, source: qrs('Figure 3, Telling Fire; Figure 4, Hard Pressed'), usedFor: 'fire and charge results' },
  { id: 'lowOnAmmo', label: 'Low on ammunition (troops)', type: 'boolean', default: false, source: qrs('Figure 3, Additional Effects, Low on Ammo'), usedFor: 'fire results' },
  { id: 'lowOnAmmoGunStands', label: 'Gun stands low on ammunition', type: 'integer', unit: 'stands', min: 0, source: qrs('Figure 3, Additional Effects, Low on Ammo'), usedFor: 'fire results' },
];
