// The army file: tags → stands, units, commanders, status chips; tracks + roster → TableState.
export { loadRoster, parseRoster, RosterError } from './loadRoster.ts';
export { rosterTagIds, tagAssignments, ROSTER_VERSION, type Roster, type RosterCommander, type RosterStand, type RosterUnit, type StatusToken, type TagAssignment, type TagOffset } from './roster.ts';
export { buildTableState, type BuildTableStateOptions, type BuiltTableState } from './buildTableState.ts';
export { standPoseFromTag, tagPoseFromStand } from './standPoseFromTag.ts';
export { rosterRulesetProblems } from './rosterRulesetProblems.ts';
