/**
 * What While the Devil Rules declares beyond `evaluate`: per-game parameters (base moves, charge reach and
 * die modifiers come from the companion app, not the guide, so they are entered, never guessed), the unit
 * fields (troop type and scenario traits) and the unit status it tracks.
 */
import type { RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import { TROOP_TYPES, type TroopTypeId } from './tables/troopTypes.ts';
import { FORCE_RATIO_LABELS, type ForceRatio } from './tables/fireTables.ts';

const APP = 'the While the Devil Rules game app (Using the Game App): the guide takes it from there';

/** `advance-<type>`: base inches of an Advance action. */
export function advanceSpec(type: TroopTypeId): RulesetFieldSpec {
  return SPEC_BY_ID.get(`advance-${type}`)!;
}
/** `march-<type>`: base inches of a March action. */
export function marchSpec(type: TroopTypeId): RulesetFieldSpec {
  return SPEC_BY_ID.get(`march-${type}`)!;
}
/** `charge-<type>`: charge reach, inches. */
export function chargeSpec(type: TroopTypeId): RulesetFieldSpec {
  return SPEC_BY_ID.get(`charge-${type}`)!;
}

function moveSpecs(): RulesetFieldSpec[] {
  const out: RulesetFieldSpec[] = [];
  for (const t of TROOP_TYPES) {
    if (t.family === 'camp') continue; // no move or charge in the guide
    const movable = t.movement !== 'heavy-artillery';
    if (movable) {
      out.push({ id: `advance-${t.id}`, label: `Advance, ${t.label} (base inches)`, type: 'number', unit: 'base inches', min: 0, max: 60, source: APP, notInDocument: true, usedFor: `movement reach of ${t.label}` });
      out.push({ id: `march-${t.id}`, label: `March, ${t.label} (base inches)`, type: 'number', unit: 'base inches', min: 0, max: 60, source: APP, notInDocument: true, usedFor: `march reach of ${t.label}` });
    }
    if (t.family !== 'artillery') {
      out.push({ id: `charge-${t.id}`, label: `Charge reach, ${t.label} (inches)`, type: 'number', unit: 'in', min: 0, max: 60, source: APP, notInDocument: true, usedFor: `charge reach of ${t.label}` });
    }
  }
  return out;
}

/** Die modifier ids of the app's fire and melee fields (Actions: the fields each action needs). */
export type ModifierId =
  | 'fire-short-range'
  | 'fire-actor-disordered'
  | 'fire-leader-with-actor'
  | 'fire-target-soft-cover'
  | 'fire-target-hard-cover'
  | `fire-${ForceRatio}`
  | 'melee-actor-charging'
  | 'melee-flank-or-rear'
  | 'melee-leader-with-actor'
  | 'melee-actor-disordered'
  | `melee-${ForceRatio}`;

function modifierSpec(id: ModifierId, label: string, usedFor: string): RulesetFieldSpec {
  return { id: `modifier-${id}`, label: `Die modifier: ${label}`, type: 'integer', unit: 'pips', min: -10, max: 10, source: `${APP} (the modifiers it shows with "Use dice for combat resolution")`, notInDocument: true, usedFor };
}

const RATIOS = Object.keys(FORCE_RATIO_LABELS) as ForceRatio[];

function modifierSpecs(): RulesetFieldSpec[] {
  return [
    modifierSpec('fire-short-range', 'firer, "Fire is at Short Range"', 'fire dice'),
    modifierSpec('fire-actor-disordered', 'firer, "Actor is Disordered/Demoralized"', 'fire dice'),
    modifierSpec('fire-leader-with-actor', 'firer, "Leader with Actor"', 'fire dice'),
    modifierSpec('fire-target-soft-cover', 'firer, target in soft cover (Cover/Ground)', 'fire dice'),
    modifierSpec('fire-target-hard-cover', 'firer, target in hard cover (Cover/Ground)', 'fire dice'),
    ...RATIOS.map((r) => modifierSpec(`fire-${r}`, `firer, "${FORCE_RATIO_LABELS[r]}"`, 'fire dice')),
    modifierSpec('melee-actor-charging', 'attacker, "Actor is Charging"', 'charge (melee) dice'),
    modifierSpec('melee-flank-or-rear', 'side taking the other in flank/rear', 'charge (melee) dice'),
    modifierSpec('melee-leader-with-actor', 'side with its Leader attached', 'charge (melee) dice'),
    modifierSpec('melee-actor-disordered', 'side Disordered/Demoralized', 'charge (melee) dice'),
    ...RATIOS.map((r) => modifierSpec(`melee-${r}`, `attacker, "${FORCE_RATIO_LABELS[r]}"`, 'charge (melee) dice')),
  ];
}

export function modifierParamSpec(id: ModifierId): RulesetFieldSpec {
  return SPEC_BY_ID.get(`modifier-${id}`)!;
}

/** Readings and options the guide gives (with defaults). */
export const BASE_SCALE: RulesetFieldSpec = {
  id: 'base-scale',
  label: 'Base sizes: full (25/28mm) or halved for smaller scales',
  type: 'choice',
  choices: [
    { id: 'full', label: 'as printed (25/28mm)' },
    { id: 'half', label: 'reduced by 50%' },
  ],
  default: 'full',
  source: 'Units, Troop Types, and Base Sizes (25/28mm Basing: "bases may be reduced by 50%")',
  usedFor: 'reading stand sizes as base types',
};

/** Leader bonus by the table state's commander quality; the guide rates leaders +2 .. -2 (Leaders and Command Control). */
export const LEADER_BONUS: Readonly<Record<'superb' | 'capable' | 'weak', RulesetFieldSpec>> = {
  superb: { id: 'leader-bonus-superb', label: 'Leader bonus of a "superb" commander (activations)', type: 'integer', min: -2, max: 2, default: 1, source: 'Leaders and Command Control ("Particularly good Leaders can be given a bonus rating, typically a +1")', usedFor: 'activations per Initiative' },
  capable: { id: 'leader-bonus-capable', label: 'Leader bonus of a "capable" commander (activations)', type: 'integer', min: -2, max: 2, default: 0, source: 'Leaders and Command Control', usedFor: 'activations per Initiative' },
  weak: { id: 'leader-bonus-weak', label: 'Leader bonus of a "weak" commander (activations)', type: 'integer', min: -2, max: 2, default: -1, source: 'Leaders and Command Control ("Poor leaders may be given negative modifiers, but this should never be more than a -2")', usedFor: 'activations per Initiative' },
};

/** "For a sacked camp/bagge train: 6 points (suggested)" (Army Morale): the guide's suggestion as the default. */
export const CAMP_SACKED_POINTS: RulesetFieldSpec = {
  id: 'camp-sacked-points',
  label: 'Points toward the break point for a sacked camp or baggage train',
  type: 'integer',
  min: 0,
  max: 20,
  default: 6,
  source: 'Army Morale ("For a sacked camp/bagge train: 6 points (suggested)")',
  usedFor: 'army break point',
};

/**
 * "The movement penalty for formation changes is applied to the movement for the order which requires that the
 * formation be changed" (Movement): the guide gives no figure; the app's.
 */
export const FORMATION_CHANGE_COST: RulesetFieldSpec = {
  id: 'formation-change-cost',
  label: 'Formation change into or out of march column (base inches)',
  type: 'number',
  unit: 'base inches',
  min: 0,
  max: 24,
  source: APP,
  notInDocument: true,
  usedFor: 'movement notes (a March from battle formation, any other move from column)',
};

export const WTDR_PARAMETERS: readonly RulesetFieldSpec[] = [BASE_SCALE, LEADER_BONUS.superb, LEADER_BONUS.capable, LEADER_BONUS.weak, CAMP_SACKED_POINTS, FORMATION_CHANGE_COST, ...moveSpecs(), ...modifierSpecs()];

const SPEC_BY_ID = new Map(WTDR_PARAMETERS.map((s) => [s.id, s]));

export const TROOP_TYPE_FIELD: RulesetFieldSpec = {
  id: 'troop-type',
  label: 'Troop type',
  type: 'choice',
  required: true,
  choices: TROOP_TYPES.map((t) => ({ id: t.id, label: t.label })),
  source: 'Units, Troop Types, and Base Sizes',
  usedFor: 'formation, movement, fire, charges',
};

export const ARMY_QUALITY_FIELD: RulesetFieldSpec = {
  id: 'army-quality',
  label: "Quality of the unit's army (break point multiplier)",
  type: 'choice',
  choices: [
    { id: 'typical', label: 'typical (x1)' },
    { id: 'higher', label: 'higher quality (x1.5, rounded up)' },
    { id: 'lower', label: 'lower quality (x0.75, rounded up)' },
  ],
  default: 'typical',
  source: 'Army Morale',
  usedFor: 'army break point (every unit of a side should agree)',
};

export const WTDR_UNIT_FIELDS: readonly RulesetFieldSpec[] = [
  TROOP_TYPE_FIELD,
  { id: 'impetuous', label: 'Impetuous (must charge the nearest formed enemy in reach)', type: 'boolean', default: false, source: 'Formations ("units may be designated as \'impetuous\'", by scenario)', usedFor: 'charge notes' },
  { id: 'missile-armed', label: 'Levy/militia equipped with missile weapons, or Eastern reiters with bows/firearms', type: 'boolean', default: false, source: 'Fire ("by scenario")', usedFor: 'whether levy and reiters fire' },
  { id: 'starting-bases', label: 'Bases at the start of play (default: bases on the table)', type: 'integer', min: 1, max: 12, source: 'Combat Effects and Rallying ("All units begin the game with their full strength known")', usedFor: 'destroyed at half the starting bases' },
  ARMY_QUALITY_FIELD,
];

export const STATUS_FIELD: RulesetFieldSpec = {
  id: 'status',
  label: 'Unit Status',
  type: 'choice',
  choices: [
    { id: 'ok', label: 'OK' },
    { id: 'disordered', label: 'Disordered' },
    { id: 'demoralized', label: 'Demoralized' },
  ],
  default: 'ok',
  source: 'Combat Effects and Rallying',
};

export const BASES_LOST_FIELD: RulesetFieldSpec = { id: 'bases-lost', label: 'Bases lost (marked with chits; bases stay on the table)', type: 'integer', min: 0, max: 12, default: 0, source: 'Formations; Combat Effects and Rallying' };

/**
 * A leader killed or captured while attached to this unit: "When attached to a unit, however, it is possible
 * for a Leader to be killed or captured in Melee. Leaders who have fallen are not replaced, and count heavily
 * against the army's morale" (Leaders and Command Control). Marked on the unit he fell with, since that is
 * the only way a leader falls; his points count toward its army's break point (Army Morale).
 */
export const LEADER_LOST_FIELD: RulesetFieldSpec = {
  id: 'leader-lost',
  label: 'Leader killed or captured while attached to this unit',
  type: 'choice',
  choices: [
    { id: 'none', label: 'none' },
    { id: 'wing', label: 'a battle/wing commander (4 points)' },
    { id: 'army', label: 'the army commander (6 points)' },
  ],
  default: 'none',
  source: 'Leaders and Command Control; Army Morale',
  usedFor: 'army break point',
};

/** A camp or baggage train the enemy has sacked (Combat Effects and Rallying; Army Morale). */
export const CAMP_SACKED_FIELD: RulesetFieldSpec = {
  id: 'camp-sacked',
  label: 'Camp or baggage train sacked by the enemy',
  type: 'boolean',
  default: false,
  source: 'Combat Effects and Rallying ("Enemy camps and baggage trains may be destroyed"); Army Morale',
  usedFor: 'army break point',
};

/**
 * The one arc a Swedish brigade has fired into this turn: "may only fire at targets in one arc in any given
 * turn" (Formations). Set by the operator after its first fire; its other faces may not fire until cleared.
 */
export const FIRE_ARC_FIELD: RulesetFieldSpec = {
  id: 'fire-arc',
  label: 'Arc a Swedish brigade has fired into this turn',
  type: 'choice',
  choices: [
    { id: 'none', label: 'none yet' },
    { id: 'front', label: 'front' },
    { id: 'rear', label: 'rear' },
    { id: 'left', label: 'left flank' },
    { id: 'right', label: 'right flank' },
  ],
  default: 'none',
  source: 'Formations (Swedish Brigade: "may only fire at targets in one arc in any given turn")',
  usedFor: 'fire of Swedish brigades',
};

export const WTDR_STATUS_FIELDS: readonly RulesetFieldSpec[] = [
  STATUS_FIELD,
  BASES_LOST_FIELD,
  LEADER_LOST_FIELD,
  CAMP_SACKED_FIELD,
  FIRE_ARC_FIELD,
  { id: 'acted', label: 'Has acted this turn', type: 'boolean', default: false, source: 'Turn Sequence', usedFor: 'fire and charge notes' },
];
