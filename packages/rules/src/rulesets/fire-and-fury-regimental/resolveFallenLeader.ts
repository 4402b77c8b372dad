/**
 * The Fallen Leader check (QRS II, Figure 4, Fallen Leader Table; called by Figure 3 on a base fire die of
 * 10 and by the Charge Table's "Check for Fallen Leader if attached"): one d10, read on the table.
 */
import type { Refusal } from '../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, OutcomeEffect, PendingAction } from '../../engine/resolve/resolution.ts';
import { readRoll } from '../../engine/resolve/readDice.ts';
import type { TableState } from '../../model/tableState.ts';
import { FALLEN_LEADER_DIE_SIDES, FALLEN_LEADER_SOURCE, FALLEN_LEADER_TABLE } from './tables/fallenLeaderTable.ts';

export function fallenLeaderDice(state: TableState, action: PendingAction): DiceRequest[] | Refusal {
  const leader = state.commanders.find((c) => c.id === action.commanderId);
  if (!leader) return { ok: false, reason: 'fallen-leader/no-leader', detail: `no leader "${action.commanderId}" on this table` };
  return [{ id: 'fallen-leader', label: `Fallen Leader check for ${leader.name}: one d10`, count: 1, sides: FALLEN_LEADER_DIE_SIDES, reading: 'each', source: FALLEN_LEADER_SOURCE }];
}

export function resolveFallenLeader(state: TableState, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = fallenLeaderDice(state, action);
  if (!Array.isArray(requests)) return requests;
  const leader = state.commanders.find((c) => c.id === action.commanderId)!;
  const roll = readRoll(requests[0]!, faces['fallen-leader']!);
  const face = roll.faces[0]!;
  const row = FALLEN_LEADER_TABLE.find((r) => r.faces.includes(face))!;
  const effect: OutcomeEffect = {
    commanderId: leader.id,
    text: `${leader.name}: ${row.result}. ${row.text}`,
    source: FALLEN_LEADER_SOURCE,
    ...(row.effect === 'removed' ? { removed: true } : {}),
  };
  return {
    rulesetId: 'fire-and-fury-regimental',
    action,
    rolls: [roll],
    result: row.result,
    summary: effect.text,
    steps: [{ text: `${face}: ${row.result}. ${row.text}`, source: FALLEN_LEADER_SOURCE }],
    effects: [effect],
    followUps: [],
  };
}
