/**
 * Regimental Fire and Fury after the roll (`Ruleset.resolution`; engine/resolve/resolution.ts): d10 rolls
 * read on the sheet's tables. Kinds: a fire at one target (Figure 3), a charge and its combat (Figure 4), a
 * maneuver check (Figure 5), the Fallen Leader check (Figure 4's Fallen Leader Table).
 */
import type { Evaluation } from '../../engine/evaluation.ts';
import type { PendingAction, RulesetResolution } from '../../engine/resolve/resolution.ts';
import type { TableState } from '../../model/tableState.ts';
import type { FfrFireOption } from './fire.ts';
import { qrs } from './tables/source.ts';
import { fireDice, resolveFire } from './resolveFire.ts';
import { chargeDice, resolveCharge } from './resolveCharge.ts';
import { maneuverDice, resolveManeuver } from './resolveManeuver.ts';
import { fallenLeaderDice, resolveFallenLeader } from './resolveFallenLeader.ts';

export const FFR_RESOLUTION: RulesetResolution = {
  dice: { sides: 10, styles: ['table', 'opposed'], source: qrs('Maneuver Table Procedure ("Roll one 10-sided die"); Figure 3; Figure 4') },
  kinds: [
    { kind: 'maneuver', label: 'Maneuver check', needs: ['unitId'], choices: { fullMoveDisordered: [true, false], gunRally: [true, false] }, source: qrs('Maneuver Table Procedure; Figure 5') },
    { kind: 'fire', label: 'Musketry & cannonade (one unit, or several together in unitIds)', needs: ['unitId', 'targetUnitId'], choices: { targetCharging: [true, false], inCharge: [true, false], plunging: ['none', 'full-cover', 'partial-cover'] }, source: qrs('Figure 3, Musketry & Cannonade Table') },
    { kind: 'charge', label: 'Charge combat', needs: ['unitId', 'targetUnitId'], choices: { combat: ['first', 'second'], desperateStruggle: [true, false] }, source: qrs('Figure 4, Charge Table') },
    { kind: 'fallen-leader', label: 'Fallen Leader check', needs: ['commanderId'], source: qrs('Figure 4, Fallen Leader Table') },
  ],
  offered(_state: TableState, evaluation: Evaluation, unitId: string): PendingAction[] {
    const u = evaluation.units[unitId];
    if (!u) return [];
    const out: PendingAction[] = [];
    if (!('ok' in u.rally)) out.push({ kind: 'maneuver', unitId });
    for (const f of u.fire) if (f.ok && (f as FfrFireOption).missingParameters.length === 0) out.push({ kind: 'fire', unitId, targetUnitId: f.targetUnitId });
    for (const c of u.charge) if (c.ok) out.push({ kind: 'charge', unitId, targetUnitId: c.targetUnitId });
    return out;
  },
  diceFor(state, action) {
    switch (action.kind) {
      case 'maneuver':
        return maneuverDice(state, action);
      case 'fire':
        return fireDice(state, action);
      case 'charge':
        return chargeDice(state, action);
      default:
        return fallenLeaderDice(state, action);
    }
  },
  resolve(state, action, faces) {
    switch (action.kind) {
      case 'maneuver':
        return resolveManeuver(state, action, faces);
      case 'fire':
        return resolveFire(state, action, faces);
      case 'charge':
        return resolveCharge(state, action, faces);
      default:
        return resolveFallenLeader(state, action, faces);
    }
  },
};
