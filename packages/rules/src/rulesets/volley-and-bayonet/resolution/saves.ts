/**
 * Saves (p. 5): "After all die rolls for hits are made, saves are rolled for ... a stand may get more than one
 * attempt to save per hit if more than one condition applies." One group of dice per condition, in turn, each
 * rolled against the hits the conditions before it left. The roll that saves is the base rules' (a parameter
 * per condition); without it the hits cannot be settled and the roll is refused, naming the parameter.
 *
 * Dice are asked for before the hits are known (one request, one step): each condition's group has as many
 * dice as the other side rolled (the most hits it can score), and only the first as many dice as the hits
 * still unsaved are read, in the order given.
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, OutcomeStep } from '../../../engine/resolve/resolution.ts';
import { numberParameter } from '../../../engine/rulesetFields.ts';
import type { TableState } from '../../../model/tableState.ts';
import { SAVE_PARAMS } from '../declarations.ts';
import { SAVE_LABELS, SAVES_SOURCE, type SaveCondition } from '../tables/combat.ts';

/** The save groups of `who` (ids `<prefix>save-<condition>`), or a refusal naming a save roll not entered. */
export function saveRequests(state: TableState, prefix: string, who: string, conds: readonly SaveCondition[], maxHits: number): DiceRequest[] | Refusal {
  const out: DiceRequest[] = [];
  for (const c of conds) {
    const roll = numberParameter(state, SAVE_PARAMS[c]);
    if (roll === undefined) {
      return { ok: false, reason: 'parameter/missing', detail: `${who} saves hits (${SAVE_LABELS[c]}) but the save roll is not entered: set the parameter ${SAVE_PARAMS[c].id} (${SAVES_SOURCE})` };
    }
    out.push({
      id: `${prefix}save-${c}`,
      label: `${who} saves (${SAVE_LABELS[c]}): one die per hit still unsaved, in order, saves on ${roll}+; dice beyond the hits are not read`,
      count: maxHits,
      sides: 6,
      reading: 'hits',
      hitOn: roll,
      source: `${SAVES_SOURCE}; the roll: parameter ${SAVE_PARAMS[c].id}`,
    });
  }
  return out;
}

/** The hits left after each save group in turn, with a step per group. */
export function hitsAfterSaves(requests: readonly DiceRequest[], prefix: string, faces: DiceFaces, hits: number, steps: OutcomeStep[], who: string): number {
  let left = hits;
  for (const r of requests) {
    if (!r.id.startsWith(`${prefix}save-`)) continue;
    const read = (faces[r.id] ?? []).slice(0, left);
    const saved = read.filter((f) => f >= (r.hitOn ?? 7)).length;
    if (left > 0) steps.push({ text: `${who} saves ${saved} of ${left} hit${left === 1 ? '' : 's'} (${r.label.split(':')[0]}; dice read: ${read.join(', ') || 'none'})`, source: r.source });
    left -= saved;
  }
  return left;
}
