/**
 * A table with The Devil to Pay's optional rules switched on (`split-fire`, `hasty-works`) and a
 * sharpshooter unit drawn up in line inside open woods, facing two enemy regiments in range: the real rules
 * evaluate it, so the operator panel shows split fire pairs, hasty works (3 move actions, in woods), orders
 * per turn and the `sharpshooters/not-loose-order` warning as the engine reports them.
 */
import type { LiveState } from '@muster/protocol';
import { evaluate, getRuleset, type Stand, type TableState, type Unit } from '@muster/rules';
import { fixtureLiveState } from './fixtureScene.ts';

export const SHARPSHOOTERS = 'u-berdan';
export const TEXAS = 'c-1tx';
export const VIRGINIA = 'c-28va';

function line(unitId: string, centresX: readonly number[], yIn: number, headingDeg: number): Stand[] {
  return centresX.map((xIn, i) => ({ id: `${unitId}-s${i + 1}`, unitId, pose: { xIn, yIn, headingDeg }, widthIn: 2, depthIn: 1, role: i === 0 ? 'command' : 'base' }));
}

export function optionalRulesTable(): TableState {
  const stands: Stand[] = [
    ...line(SHARPSHOOTERS, [31, 33, 35, 37], 12, 90),
    ...line(TEXAS, [24, 26, 28, 30], 27, 270),
    ...line(VIRGINIA, [38, 40, 42, 44], 28, 270),
  ];
  const ids = (u: string) => stands.filter((s) => s.unitId === u).map((s) => s.id);
  const units: Unit[] = [
    { id: SHARPSHOOTERS, name: '1st U.S. Sharpshooters', side: 'union', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', sharpshooters: true, independent: true, standIds: ids(SHARPSHOOTERS) },
    { id: TEXAS, name: '1st Texas', side: 'confederate', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ids(TEXAS) },
    { id: VIRGINIA, name: '28th Virginia', side: 'confederate', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ids(VIRGINIA) },
  ];
  return {
    version: 1,
    table: { widthIn: 72, depthIn: 48 },
    stands,
    units,
    commanders: [],
    terrain: {
      areas: [{ id: 'woods-1', kind: 'open-woods', vertices: [{ xIn: 27, yIn: 8 }, { xIn: 41, yIn: 8 }, { xIn: 41, yIn: 15 }, { xIn: 27, yIn: 15 }] }],
      linear: [],
      roads: [],
      elevations: [],
    },
    optionalRules: ['split-fire', 'hasty-works'],
  };
}

/**
 * The fixture's live state with `tableState` in it, The Devil to Pay's real evaluation of it, every stand
 * bound to a tag, and nothing else tracked.
 */
export function liveStateForTable(tableState: TableState, rosterName: string): LiveState {
  const base = fixtureLiveState();
  return {
    ...base,
    tableState,
    evaluation: evaluate(tableState, getRuleset('devil-to-pay')),
    tracks: [],
    liveTrackIds: [],
    roster: { name: rosterName, bindings: tableState.stands.map((s, i) => ({ markerId: 10 + i, standId: s.id })), unknownMarkerIds: [] },
    health: { ...base.health, trackedStands: tableState.stands.length, unknownTags: 0 },
  };
}

/** The fixture's live state with this table and the real rules' evaluation of it. */
export function optionalRulesLiveState(): LiveState {
  return liveStateForTable(optionalRulesTable(), 'e2e optional rules');
}
