/**
 * What Volley & Bayonet: At War in the Americas reads beyond the generic table state: per-game parameters
 * (numbers and conventions the supplement leaves to the base Volley & Bayonet rules, and options for
 * ambiguous text), unit fields (troop type, morale, strength points, special abilities) and unit status
 * (markers the game tracks). Declared once here; the CLI lists them (`muster rules --params volley-and-bayonet`).
 */
import type { RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import type { SaveCondition } from './tables/combat.ts';
import { SAVE_LABELS } from './tables/combat.ts';
import { cite } from './tables/source.ts';

const BASE_RULES = 'Volley & Bayonet base rules (the supplement keeps "All Volley & Bayonet rules not modified below", Introduction)';

export const FIRE_ARC_PARAM: RulesetFieldSpec = {
  id: 'fire-arc-corner-deg',
  label: 'Fire arc: angle it opens out from each front corner (0 = straight ahead only)',
  type: 'number',
  unit: 'degrees',
  min: 0,
  max: 90,
  source: `${BASE_RULES}, fire arcs; this supplement says only that artillery fights "only to their front (short side)" (Stand Types, p. 1)`,
  notInDocument: true,
  usedFor: 'which enemy stands each stand may fire at; the arcs drawn',
};

export const RANGE_FROM_PARAM: RulesetFieldSpec = {
  id: 'range-measured-from',
  label: 'Range measured from the firing stand\'s front edge (nearest point) or its front-edge centre, to the nearest point of the target',
  type: 'choice',
  choices: [
    { id: 'front-edge', label: 'nearest point of the front edge' },
    { id: 'front-centre', label: 'centre of the front edge' },
  ],
  source: `${BASE_RULES}, measuring ranges`,
  notInDocument: true,
  usedFor: 'fire ranges and the range band (hit number)',
};

export const MOUNTED_MELEE_HIT_PARAM: RulesetFieldSpec = {
  id: 'mounted-melee-hit-number',
  label: 'Hit number of mounted stands in melee (d6 roll needed; the Hit Numbers table has no mounted row)',
  type: 'integer',
  min: 2,
  max: 6,
  source: `${BASE_RULES}, melee hit numbers of cavalry`,
  notInDocument: true,
  usedFor: 'the hit number of mounted stands in charges',
};

export const DISMOUNTED_MOVE_PARAM: RulesetFieldSpec = {
  id: 'dismounted-cavalry-move-in',
  label: 'Movement of dismounted cavalry serving on foot as detachments',
  type: 'number',
  unit: 'in',
  min: 0,
  max: 48,
  source: `${BASE_RULES}; the Movement table (p. 2) gives mounted rates only`,
  notInDocument: true,
  usedFor: 'movement reach of dismounted cavalry stands',
};

export const ARTILLERY_SUPPORT_PARAM: RulesetFieldSpec = {
  id: 'artillery-support-in',
  label: 'Distance within which a friendly infantry or mounted stand supports an artillery stand (Morale table: "Unsupported artillery being meleed", -1)',
  type: 'number',
  unit: 'in',
  min: 0,
  max: 12,
  source: `${BASE_RULES}, supported artillery (the supplement lists the modifier but does not say what supports a gun)`,
  notInDocument: true,
  usedFor: "the defender's \"unsupported artillery\" morale modifier when guns are charged",
};

export const PT_STATIONARY_PARAM: RulesetFieldSpec = {
  id: 'poorly-trained-stationary',
  label: 'Stationary poorly trained infantry: no stationary bonus (the Attack Dice table prints none) or as regular infantry',
  type: 'choice',
  choices: [
    { id: 'no-bonus', label: 'no bonus: 2 fire / 2 melee dice stationary or not' },
    { id: 'regular', label: 'stationary dice of regular infantry (5 / 5)' },
  ],
  default: 'no-bonus',
  source: cite('Combat: Attack Dice', 5),
  usedFor: 'dice of stationary poorly trained infantry',
};

export const EXHAUSTION_ROUNDING_PARAM: RulesetFieldSpec = {
  id: 'exhaustion-rounding',
  label: 'Rounding of a brigade\'s exhaustion level (the supplement does not say)',
  type: 'choice',
  choices: [
    { id: 'none', label: 'no rounding: exhausted once losses reach the exact total' },
    { id: 'down', label: 'round the total down' },
    { id: 'up', label: 'round the total up' },
  ],
  default: 'none',
  source: cite('Exhaustion', 7),
  usedFor: 'the brigade exhaustion threshold',
};

export const ROUTED_GUNS_MOVE_PARAM: RulesetFieldSpec = {
  id: 'routed-guns-move-as',
  label: 'Routed artillery "abandon their weapons and move as infantry": at the rate of slow or fast infantry (the supplement does not say which)',
  type: 'choice',
  choices: [
    { id: 'slow-infantry', label: 'slow infantry, 12"' },
    { id: 'fast-infantry', label: 'fast infantry, 16"' },
  ],
  default: 'slow-infantry',
  source: `${cite('Melee Results', 5)}; ${cite('Morale', 4)}`,
  usedFor: 'the rout move of artillery stands',
};

/** One parameter per Saves condition: the supplement lists when a stand saves, the base rules on what roll. */
export const SAVE_PARAMS: Readonly<Record<SaveCondition, RulesetFieldSpec>> = Object.fromEntries(
  (Object.keys(SAVE_LABELS) as SaveCondition[]).map((c) => [
    c,
    {
      id: `save-${c}`,
      label: `Save roll (d6, this or higher saves a hit): ${SAVE_LABELS[c]}`,
      type: 'integer',
      min: 1,
      max: 6,
      source: `${BASE_RULES}, saving throws; the condition is ${cite('Saves', 5)}`,
      notInDocument: true,
      usedFor: 'the save roll named on fire and melee dice',
    } satisfies RulesetFieldSpec,
  ]),
) as Record<SaveCondition, RulesetFieldSpec>;

export const VB_PARAMETERS: readonly RulesetFieldSpec[] = [
  FIRE_ARC_PARAM,
  RANGE_FROM_PARAM,
  MOUNTED_MELEE_HIT_PARAM,
  DISMOUNTED_MOVE_PARAM,
  ARTILLERY_SUPPORT_PARAM,
  PT_STATIONARY_PARAM,
  EXHAUSTION_ROUNDING_PARAM,
  ROUTED_GUNS_MOVE_PARAM,
  ...Object.values(SAVE_PARAMS),
];

export type TroopType =
  | 'slow-infantry'
  | 'fast-infantry'
  | 'light-cavalry'
  | 'light-artillery'
  | 'field-artillery'
  | 'field-howitzer'
  | 'heavy-artillery'
  | 'pack-transport'
  | 'wheeled-transport';

export const TROOP_TYPE_FIELD: RulesetFieldSpec = {
  id: 'troop-type',
  label: 'Troop type (stand label: SI, FI, LC, Lt, Fd, Hv...)',
  type: 'choice',
  required: true,
  choices: [
    { id: 'slow-infantry', label: 'Slow Infantry (SI)' },
    { id: 'fast-infantry', label: 'Fast Infantry (FI)' },
    { id: 'light-cavalry', label: 'Light Cavalry / Light Dragoons (LC); add MC for medium cavalry' },
    { id: 'light-artillery', label: 'Light Artillery (Lt, 3-4lb guns)' },
    { id: 'field-artillery', label: 'Field Artillery (Fd, 6-9lb guns)' },
    { id: 'field-howitzer', label: 'Field Howitzers (5.5-6")' },
    { id: 'heavy-artillery', label: 'Heavy Artillery (Hv, 12lb guns)' },
    { id: 'pack-transport', label: 'Pack Transport' },
    { id: 'wheeled-transport', label: 'Wheeled Transport (wagons)' },
  ],
  source: `${cite('Special Abilities', 1)} (abbreviations); ${cite('Movement', 2)}; ${cite('Combat: Hit Numbers', 5)}`,
  usedFor: 'movement rate, attack dice and hit numbers',
};

export type Ability = 'SS' | 'R' | 'SK' | 'Sh' | 'NE' | 'MC' | 'PT' | 'MIL' | 'MI' | 'NA';

export const ABILITIES_FIELD: RulesetFieldSpec = {
  id: 'abilities',
  label: 'Special abilities on the stand label',
  type: 'choices',
  choices: [
    { id: 'SS', label: 'Sharpshooters: -1 to the hit number in fire' },
    { id: 'R', label: 'Rifle armed: rifle range' },
    { id: 'SK', label: 'Skirmish: able to form detachments' },
    { id: 'Sh', label: 'Shock: -1 to the hit number in offensive melee' },
    { id: 'NE', label: 'No Elites: -1 in melee ties' },
    { id: 'MC', label: 'Medium Cavalry: melee morale' },
    { id: 'PT', label: 'Poorly Trained: no free facing change; 2 attack dice' },
    { id: 'MIL', label: 'Militia: poorly trained and permanently disordered' },
    { id: 'MI', label: 'Mounted Infantry: mounted stands move 24", 2 melee dice, always disordered' },
    { id: 'NA', label: 'Native Americans: their own hit-number row and morale rules' },
  ],
  default: [],
  source: `${cite('Special Abilities', 1)}; NA for the Native Americans rows (${cite('Combat: Hit Numbers', 5)}, ${cite('Native American Morale', 4)})`,
  usedFor: 'dice, hit numbers, facing, morale',
};

export const MORALE_FIELD: RulesetFieldSpec = {
  id: 'morale',
  label: 'Morale rating on the stand label',
  type: 'integer',
  required: true,
  min: 1,
  max: 7,
  source: `${cite('Morale', 4)}; typical ratings ${cite('Troop Organisation', 6)}`,
  usedFor: 'morale checks and the brigade exhaustion level',
};

export const STRENGTH_FIELD: RulesetFieldSpec = {
  id: 'strength-points',
  label: 'Strength points of the unit (all its stands) at the start',
  type: 'integer',
  unit: 'strength points',
  required: true,
  min: 1,
  max: 60,
  source: `${cite('Wing Scale', 1)} (50 men or 1 gun per strength point); ${cite('Unit Organisation', 7)}`,
  usedFor: 'the brigade exhaustion level',
};

/**
 * The wing a unit was assigned to at the start of the game (Command and Control, p. 1: "A wing commander can
 * command any stand assigned to its wing"). The table state's commanders carry a brigade only, so ranks are
 * a convention on that field: a commander whose `brigadeId` is `army` is his side's Army Commander, and one
 * whose `brigadeId` is `wing-<n>` is the Wing Commander of the units whose `wing` is n.
 */
export const WING_FIELD: RulesetFieldSpec = {
  id: 'wing',
  label: 'Wing the unit was assigned to at the start of the game (its Wing Commander has brigadeId "wing-<n>")',
  type: 'integer',
  min: 1,
  max: 99,
  source: cite('Command and Control', 1),
};

/** `brigadeId` of a side's Army Commander, and the prefix of a Wing Commander's (see `WING_FIELD`): the table state's ranks. */
export { ARMY_COMMANDER_BRIGADE, WING_COMMANDER_PREFIX } from '../../model/tableState.ts';

export const VB_UNIT_FIELDS: readonly RulesetFieldSpec[] = [TROOP_TYPE_FIELD, MORALE_FIELD, STRENGTH_FIELD, ABILITIES_FIELD, WING_FIELD];

const flag = (id: string, label: string, source: string): RulesetFieldSpec => ({ id, label, type: 'boolean', default: false, source });

export const STATIONARY_STATUS = flag('stationary', 'Marked stationary', cite('Movement: Stationary', 2));
export const ROAD_MARCH_STATUS = flag('road-march', 'In road march (or limbered artillery)', cite('Movement: Road March', 2));
export const SKIRMISH_STATUS = flag('skirmish-order', 'In skirmish order (on skirmisher sabot bases)', cite('Movement: Skirmishers', 2));
export const PERMANENT_DISORDER_STATUS = flag('permanently-disordered', 'Permanent disorder (red marker)', cite('Movement: Disorder', 2));
export const ROUTED_STATUS = flag('routed', 'Routed (red and yellow markers)', cite('Rally', 4));
export const SP_LOST_STATUS: RulesetFieldSpec = {
  id: 'strength-points-lost',
  label: 'Strength points the unit has lost',
  type: 'integer',
  unit: 'strength points',
  min: 0,
  default: 0,
  source: cite('Exhaustion', 7),
};
export const HITS_THIS_PHASE_STATUS: RulesetFieldSpec = {
  id: 'hits-this-phase',
  label: 'Hits the unit took this combat sub-phase (for morale collapse)',
  type: 'integer',
  min: 0,
  default: 0,
  source: cite('Morale Collapse', 5),
};

/** Bridges (p. 3): "Stands not in Road march pay half their movement or suffer disorder, at the owners option." */
export const BRIDGE_DISORDER_STATUS = flag('bridge-disorder', 'Crosses bridges disordered instead of paying half its move (the owner\'s option)', cite('Terrain Effects: Bridges', 3));

/** "Each time a Native American stand is lost, that band s morale number drops by one" (Native American Morale, p. 4). */
export const NATIVE_STANDS_LOST_STATUS: RulesetFieldSpec = {
  id: 'native-stands-lost',
  label: 'Native American band: stands lost (each drops the band\'s morale by one)',
  type: 'integer',
  min: 0,
  default: 0,
  source: cite('Native American Morale', 4),
};

export const VB_STATUS_FIELDS: readonly RulesetFieldSpec[] = [
  STATIONARY_STATUS,
  ROAD_MARCH_STATUS,
  SKIRMISH_STATUS,
  PERMANENT_DISORDER_STATUS,
  ROUTED_STATUS,
  SP_LOST_STATUS,
  HITS_THIS_PHASE_STATUS,
  NATIVE_STANDS_LOST_STATUS,
  BRIDGE_DISORDER_STATUS,
];
