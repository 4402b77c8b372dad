/**
 * Allowed values of each enum of the table state, in one place for the validator, the schema test, the
 * wire protocol's validator and error messages. Plain data with no imports at run time, so the browser
 * views can use it (`@muster/rules/enums`) without bundling the engine.
 */
import type {
  AreaTerrainKind,
  Arm,
  CommanderQuality,
  Formation,
  LinearTerrainKind,
  OptionalRule,
  Quality,
  StandRole,
  UnitStatus,
} from './tableState.ts';

export const TABLE_STATE_ENUMS = {
  arm: ['infantry', 'cavalry', 'artillery'] satisfies Arm[],
  quality: ['crack', 'veteran', 'trained', 'green'] satisfies Quality[],
  commanderQuality: ['superb', 'capable', 'weak'] satisfies CommanderQuality[],
  standRole: ['base', 'command', 'gun', 'limber', 'mounted', 'dismounted', 'commander'] satisfies StandRole[],
  formation: [
    'line',
    'square',
    'block',
    'double-line',
    'attack-column',
    'march-column',
    'loose-order',
    'disordered',
    'unlimbered',
    'limbered',
    'commander',
    'unknown',
  ] satisfies Formation[],
  areaKind: ['rough', 'swamp', 'open-woods', 'thick-woods', 'thicket', 'farm', 'town', 'city'] satisfies AreaTerrainKind[],
  linearKind: [
    'fence',
    'wall',
    'brook',
    'stream',
    'river',
    'hasty-works',
    'entrenchment',
    'abatis',
    'chevaux-de-frise',
    'sunken-road',
  ] satisfies LinearTerrainKind[],
  optionalRule: ['trained-veteran', 'split-fire', 'hasty-works'] satisfies OptionalRule[],
} as const;

/** Every field of a unit's status, for the validators that accept no unknown field (rules and wire). */
export const UNIT_STATUS_FIELDS = [
  'hitsByStand',
  'disordered',
  'prone',
  'ordersLeft',
  'attachedCommanderId',
  'formation',
  'dismounted',
  'limbered',
  'rulesetStatus',
] as const satisfies readonly (keyof UnitStatus)[];

// Compile-time check that every list covers its union exactly (`satisfies` alone allows a missing value).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Listed<K extends keyof typeof TABLE_STATE_ENUMS> = (typeof TABLE_STATE_ENUMS)[K][number];
const listsCoverTheirUnions: [
  Same<Listed<'arm'>, Arm>,
  Same<Listed<'quality'>, Quality>,
  Same<Listed<'commanderQuality'>, CommanderQuality>,
  Same<Listed<'standRole'>, StandRole>,
  Same<Listed<'formation'>, Formation>,
  Same<Listed<'areaKind'>, AreaTerrainKind>,
  Same<Listed<'linearKind'>, LinearTerrainKind>,
  Same<Listed<'optionalRule'>, OptionalRule>,
  Same<(typeof UNIT_STATUS_FIELDS)[number], keyof UnitStatus>,
] = [true, true, true, true, true, true, true, true, true];
void listsCoverTheirUnions;
