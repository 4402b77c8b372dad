/**
 * The Fallen Leader Table (QRS II, Figure 4, "FALLEN LEADER TABLE"): one d10, no modifiers printed.
 *   10 Shot dead in the saddle / 9 Mortally wounded / 8 Grievously wounded: "Remove leader from game."
 *   7 Mere flesh wound: "Remove leader for one turn."
 *   6 Horse shot out from under: "Leader dismounted for one turn."
 *   5 Coat pierced but unscathed / 4 Staff officer struck / 1, 2, 3 Coolly ignores the fire: "No effect."
 * Reading: the sheet prints each effect once, against the last line of its group (8 for the three that
 * remove the leader, 1-3 for the three with no effect), so 9 and 10 remove him too and 4 and 5 do nothing.
 */
import { qrs } from './source.ts';

export type FallenLeaderEffect = 'removed' | 'removed-one-turn' | 'dismounted-one-turn' | 'no-effect';

export interface FallenLeaderRow {
  readonly faces: readonly number[];
  readonly result: string;
  readonly effect: FallenLeaderEffect;
  readonly text: string;
}

export const FALLEN_LEADER_TABLE: readonly FallenLeaderRow[] = [
  { faces: [10], result: 'Shot dead in the saddle', effect: 'removed', text: 'Remove leader from game.' },
  { faces: [9], result: 'Mortally wounded', effect: 'removed', text: 'Remove leader from game.' },
  { faces: [8], result: 'Grievously wounded', effect: 'removed', text: 'Remove leader from game.' },
  { faces: [7], result: 'Mere flesh wound', effect: 'removed-one-turn', text: 'Remove leader for one turn.' },
  { faces: [6], result: 'Horse shot out from under', effect: 'dismounted-one-turn', text: 'Leader dismounted for one turn.' },
  { faces: [5], result: 'Coat pierced but unscathed', effect: 'no-effect', text: 'No effect.' },
  { faces: [4], result: 'Staff officer struck', effect: 'no-effect', text: 'No effect.' },
  { faces: [1, 2, 3], result: 'Coolly ignores the fire', effect: 'no-effect', text: 'No effect.' },
];

export const FALLEN_LEADER_SOURCE = qrs('Figure 4, Fallen Leader Table');
export const FALLEN_LEADER_DIE_SIDES = 10;
