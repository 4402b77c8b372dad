/**
 * The army file: which ArUco tag sits on which stand of which unit, and where on the base. Read with
 * `loadRoster` (YAML or JSON), described by `apps/server/schema/roster.schema.json`. Field names match the
 * rules engine's `Unit`/`Commander` where they mean the same thing.
 */
import type { CommanderQuality, OptionalRule, RulesetValues, StandRole, Unit } from '@muster/rules';

export const ROSTER_VERSION = 1 as const;

/** Base size, inches. */
export interface BaseSize {
  /** Frontage (along the facing edge). */
  readonly widthIn: number;
  /** Front to back. */
  readonly depthIn: number;
}

/**
 * Where the tag sits on its base, in the base's own frame: `rightIn` towards the stand's right along the
 * front edge, `forwardIn` towards the front edge, both from the base centre; `rotationDeg` is the tag's
 * heading minus the stand's heading (CCW), e.g. 90 when the tag's top points to the stand's left.
 */
export interface TagOffset {
  readonly rightIn: number;
  readonly forwardIn: number;
  readonly rotationDeg: number;
}

export interface RosterStand {
  readonly id: string;
  /**
   * The tag on the base. Null only in the game session's roster, after the operator took the tag off this
   * stand at the table (`assign-tag`) and bound none in its place: the stand is then not on the table.
   */
  readonly tag: number | null;
  readonly role: StandRole;
  readonly base: BaseSize;
  readonly tagOffset: TagOffset;
}

/** A unit as the army file gives it: the rules' `Unit` fields it sets, with its stands and their tags. */
export interface RosterUnit
  extends Pick<Unit, 'id' | 'name' | 'side' | 'arm' | 'quality' | 'weapon' | 'brigadeId' | 'independent' | 'horseArtillery' | 'sharpshooters' | 'rulesetFields'> {
  /** Command stand first where there is one (the file order, with `role: command` moved to the front). */
  readonly stands: readonly RosterStand[];
}

export interface RosterCommander {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly brigadeId: string;
  readonly quality: CommanderQuality;
  readonly cavalry?: boolean;
  /** The commander's own stand, if it carries a tag. */
  readonly stand?: RosterStand;
}

export type StatusTokenKind = 'disordered' | 'hit' | 'prone' | 'commander';

/** A tagged chip that, placed next to a unit, sets its status. */
export interface StatusToken {
  readonly tag: number;
  readonly kind: StatusTokenKind;
  /** For `commander` tokens: the commander attached to the unit the chip is placed by. */
  readonly commanderId?: string;
}

export interface Roster {
  readonly version: typeof ROSTER_VERSION;
  readonly name: string;
  /** A status token counts for the nearest stand whose base edge is within this distance, inches. */
  readonly statusTokenRadiusIn: number;
  readonly units: readonly RosterUnit[];
  readonly commanders: readonly RosterCommander[];
  readonly statusTokens: readonly StatusToken[];
  /** Optional rules the game plays with, copied into every table state (`TableState.optionalRules`). */
  readonly optionalRules?: readonly OptionalRule[];
  /** The rule set the army is written for; `start --ruleset` wins when both are given. */
  readonly ruleset?: string;
  /** Per-game values of the rule set's parameters, copied into every table state (`muster rules --params <id>`). */
  readonly rulesetParameters?: RulesetValues;
}

/** What a tag id stands for. */
export type TagAssignment =
  | { readonly kind: 'stand'; readonly stand: RosterStand; readonly unitId: string }
  | { readonly kind: 'commander'; readonly stand: RosterStand; readonly commanderId: string }
  | { readonly kind: 'status'; readonly token: StatusToken };

/** Every tag id in the roster mapped to what it is. Ids are unique (the loader checks). */
export function tagAssignments(roster: Roster): Map<number, TagAssignment> {
  const map = new Map<number, TagAssignment>();
  for (const u of roster.units) for (const s of u.stands) if (s.tag !== null) map.set(s.tag, { kind: 'stand', stand: s, unitId: u.id });
  for (const c of roster.commanders) if (c.stand && c.stand.tag !== null) map.set(c.stand.tag, { kind: 'commander', stand: c.stand, commanderId: c.id });
  for (const t of roster.statusTokens) map.set(t.tag, { kind: 'status', token: t });
  return map;
}

/** All tag ids the roster knows, ascending: the tracker's `knownIds`. */
export function rosterTagIds(roster: Roster): number[] {
  return [...tagAssignments(roster).keys()].sort((a, b) => a - b);
}
