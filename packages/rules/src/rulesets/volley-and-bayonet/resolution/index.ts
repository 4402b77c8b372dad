/**
 * Volley & Bayonet: At War in the Americas after the roll (`Ruleset.resolution`, engine/resolve/): the rolls
 * the supplement calls for, each read on a one-shot context of the state (`buildContext`) through the same
 * queries the evaluation asks, so the dice asked for are the dice the evaluation shows.
 *
 * Kinds, in the order of a turn (Sequence of Play, p. 1): `fence-check` (mounted chargers at a fence),
 * `melee-morale` (both sides about to melee), `native-forming` (a band forming to melee), `danger-zone-check`
 * (a unit down a gun's barrel), `fire`, `melee`, `melee-roll-off` (equal hits), `collapse` (an exhausted
 * brigade's roll), `rally` (no roll), `marsh` (a stand entering marsh).
 */
import type { Evaluation, Refusal } from '../../../engine/evaluation.ts';
import { readRolls } from '../../../engine/resolve/readDice.ts';
import type { DiceFaces, DiceRequest, Outcome, PendingAction, ResolutionKindSpec, RulesetResolution } from '../../../engine/resolve/resolution.ts';
import type { TableState } from '../../../model/tableState.ts';
import { buildContext, type VbContext } from '../context.ts';
import { brigadeExhausted } from '../queries.ts';
import { unitDangerZones } from '../morale.ts';
import { ATTACK_DICE_SOURCE, DANGER_ZONE_SOURCE, FENCE_CHECK_SOURCE, MARSH_SOURCE, MELEE_RESULTS_SOURCE, SAVES_SOURCE } from '../tables/combat.ts';
import { COLLAPSE_SOURCE, MORALE_SOURCE, RALLY_SOURCE } from '../tables/morale.ts';
import { cite, VB } from '../tables/source.ts';
import { collapseDice, resolveCollapse } from './brigades.ts';
import { dangerCheckDice, formingDice, marshDice, resolveDangerCheck, resolveForming, resolveMarsh, resolveRally } from './checks.ts';
import { fireAt, fireDice, resolveFire } from './fire.ts';
import { fenceDice, meleeAt, meleeDice, meleeMoraleDice, resolveFence, resolveMelee, resolveMeleeMorale, resolveRollOff, rollOffDice } from './melee.ts';

export const VB_RESOLUTION_KINDS: readonly ResolutionKindSpec[] = [
  { kind: 'fire', label: 'Fire', needs: ['unitId', 'targetUnitId'], choices: { 'mounted-retire': [true, false] }, source: `${ATTACK_DICE_SOURCE}; ${SAVES_SOURCE}` },
  { kind: 'fence-check', label: 'Fence check (mounted stands charging across a fence)', needs: ['unitId', 'targetUnitId'], source: FENCE_CHECK_SOURCE },
  { kind: 'melee-morale', label: 'Morale checks before a melee (both sides)', needs: ['unitId', 'targetUnitId'], source: MORALE_SOURCE },
  { kind: 'melee', label: 'Melee', needs: ['unitId', 'targetUnitId'], source: `${ATTACK_DICE_SOURCE}; ${MELEE_RESULTS_SOURCE}` },
  { kind: 'melee-roll-off', label: 'Melee roll-off (equal hits)', needs: ['unitId', 'targetUnitId'], source: MELEE_RESULTS_SOURCE },
  { kind: 'danger-zone-check', label: "Morale check in an enemy gun's danger zone", needs: ['unitId', 'targetUnitId'], source: DANGER_ZONE_SOURCE },
  { kind: 'native-forming', label: 'Native Americans forming from skirmish order to melee', needs: ['unitId'], source: cite('Movement: Native Americans', 2) },
  { kind: 'collapse', label: "Exhausted brigade's morale collapse roll", needs: ['unitId'], source: COLLAPSE_SOURCE },
  { kind: 'rally', label: 'Rally (no roll)', needs: ['unitId'], source: RALLY_SOURCE },
  { kind: 'marsh', label: 'Marsh roll (stands entering a marsh)', needs: ['unitId'], choices: { 'crossed-before': [true, false] }, source: MARSH_SOURCE },
];

const NEEDS_TWO_SIDES = new Set(['fire', 'fence-check', 'melee-morale', 'melee', 'melee-roll-off', 'danger-zone-check']);

/** The dice of `action` on the context of its state, or why it cannot be rolled for. */
function diceOn(ctx: VbContext, state: TableState, action: PendingAction): DiceRequest[] | Refusal {
  if (NEEDS_TWO_SIDES.has(action.kind)) {
    const a = ctx.units.get(action.unitId!)!;
    const t = ctx.units.get(action.targetUnitId!)!;
    if (a.unit.side === t.unit.side) return { ok: false, reason: 'action/same-side', detail: `${a.unit.name} and ${t.unit.name} are on the same side` };
  }
  switch (action.kind) {
    case 'fire': {
      const f = fireAt(ctx, action);
      return 'ok' in f ? f : fireDice(state, f);
    }
    case 'fence-check':
    case 'melee-morale':
    case 'melee':
    case 'melee-roll-off': {
      const m = meleeAt(ctx, action, action.kind === 'melee-roll-off');
      if ('ok' in m) return m;
      if (action.kind === 'fence-check') return fenceDice(m);
      if (action.kind === 'melee-morale') return meleeMoraleDice(m);
      if (action.kind === 'melee') return meleeDice(state, m);
      return rollOffDice(m);
    }
    case 'danger-zone-check':
      return dangerCheckDice(ctx, action);
    case 'native-forming':
      return formingDice(ctx, action);
    case 'collapse':
      return collapseDice(ctx, ctx.units.get(action.unitId!)!);
    case 'rally':
      return [];
    case 'marsh':
      return marshDice(ctx, action);
    default:
      return { ok: false, reason: 'action/unknown', detail: `unknown action kind ${action.kind}` };
  }
}

function resolveOn(ctx: VbContext, state: TableState, action: PendingAction, requests: readonly DiceRequest[], faces: DiceFaces): Omit<Outcome, 'rulesetId' | 'action' | 'rolls'> | Refusal {
  switch (action.kind) {
    case 'fire':
      return resolveFire(ctx, state, fireAt(ctx, action) as Exclude<ReturnType<typeof fireAt>, Refusal>, requests, faces);
    case 'fence-check':
    case 'melee-morale':
    case 'melee':
    case 'melee-roll-off': {
      const m = meleeAt(ctx, action, action.kind === 'melee-roll-off') as Exclude<ReturnType<typeof meleeAt>, Refusal>;
      if (action.kind === 'fence-check') return resolveFence(m, requests, faces);
      if (action.kind === 'melee-morale') return resolveMeleeMorale(ctx, state, m, faces);
      if (action.kind === 'melee') return resolveMelee(ctx, state, m, requests, faces);
      return resolveRollOff(ctx, state, m, faces);
    }
    case 'danger-zone-check':
      return resolveDangerCheck(ctx, state, action, requests, faces);
    case 'native-forming':
      return resolveForming(ctx, action, requests, faces);
    case 'collapse':
      return resolveCollapse(ctx, state, action, requests, faces);
    case 'rally':
      return resolveRally(ctx, action);
    default:
      return resolveMarsh(ctx, action, requests, faces);
  }
}

/**
 * What a unit may roll for now, from the evaluation: fire at each target it may fire at; for each enemy it may
 * charge, the fence check (if any), the morale checks and the melee; a rally; the danger-zone checks it faces;
 * its brigade's collapse roll once exhausted; forming, for a Native American band in skirmish order.
 */
function offered(state: TableState, evaluation: Evaluation, unitId: string): PendingAction[] {
  const ue = evaluation.units[unitId];
  if (!ue) return [];
  const ctx = buildContext(state);
  const info = ctx.units.get(unitId);
  if (!info) return [];
  const out: PendingAction[] = [];
  const fired = new Set<string>();
  for (const f of ue.fire) {
    if (f.ok && !fired.has(f.targetUnitId)) {
      fired.add(f.targetUnitId);
      out.push({ kind: 'fire', unitId, targetUnitId: f.targetUnitId });
    }
  }
  for (const c of ue.charge) {
    if (!c.ok) continue;
    const m = meleeAt(ctx, { kind: 'melee', unitId, targetUnitId: c.targetUnitId });
    if (!('ok' in m) && m.melee.fenceCheckStandIds.length > 0) out.push({ kind: 'fence-check', unitId, targetUnitId: c.targetUnitId });
    out.push({ kind: 'melee-morale', unitId, targetUnitId: c.targetUnitId });
    out.push({ kind: 'melee', unitId, targetUnitId: c.targetUnitId });
  }
  if (ue.rally && !('ok' in ue.rally && ue.rally.ok === false)) out.push({ kind: 'rally', unitId });
  for (const other of ctx.unitList) {
    if (other.unit.side === info.unit.side) continue;
    if (unitDangerZones(ctx, other).warnings.some((w) => w.unitId === unitId)) out.push({ kind: 'danger-zone-check', unitId, targetUnitId: other.unit.id });
  }
  if (info.abilities.has('NA') && info.skirmishOrder) out.push({ kind: 'native-forming', unitId });
  if (brigadeExhausted(ctx, unitId)) out.push({ kind: 'collapse', unitId });
  return out;
}

export const vbResolution: RulesetResolution = {
  dice: { sides: 6, styles: ['pool', 'roll-under'], source: `${VB}: Combat (p. 5), hits on the Hit Numbers; Morale (p. 4), "roll a D6 equal to or less than the stands modified morale level"` },
  kinds: VB_RESOLUTION_KINDS,
  offered,
  diceFor(state, action) {
    return diceOn(buildContext(state), state, action);
  },
  resolve(state, action, faces) {
    const ctx = buildContext(state);
    const requests = diceOn(ctx, state, action);
    if (!Array.isArray(requests)) return requests as Refusal;
    const r = resolveOn(ctx, state, action, requests, faces);
    if ('ok' in r) return r;
    return { rulesetId: 'volley-and-bayonet', action, rolls: readRolls(requests, faces), ...r };
  },
};
