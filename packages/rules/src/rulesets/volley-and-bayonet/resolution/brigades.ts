/**
 * Brigades after the roll (Morale Collapse, p. 5; Exhaustion, p. 7): once hits bring a brigade's strength
 * points lost to its exhaustion level it is exhausted ("any stationary stand loses its stationary status")
 * and rolls each sub-phase against a morale collapse; the collapse roll and what it does to every unit.
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, PendingAction } from '../../../engine/resolve/resolution.ts';
import type { TableState } from '../../../model/tableState.ts';
import type { VbContext, VbUnit } from '../context.ts';
import { HITS_THIS_PHASE_STATUS, STATIONARY_STATUS } from '../declarations.ts';
import { brigadeMorale } from '../morale.ts';
import { COLLAPSE_SOURCE } from '../tables/morale.ts';
import { OutcomeLedger } from './ledger.ts';
import { centreOf, suffer } from './losses.ts';

/** The units of a brigade, in the state's order. */
function brigadeUnits(ctx: VbContext, brigadeId: string): VbUnit[] {
  return ctx.unitList.filter((u) => u.unit.brigadeId === brigadeId);
}

/**
 * After hits in `ledger`: each brigade they exhaust loses its stationary markers; each brigade exhausted after
 * them rolls for collapse (a follow-up, one per brigade, named by one of its units).
 */
export function exhaustionAfterHits(ctx: VbContext, ledger: OutcomeLedger, hitUnits: readonly VbUnit[]): PendingAction[] {
  const { brigades } = brigadeMorale(ctx);
  const out: PendingAction[] = [];
  const seen = new Set<string>();
  for (const u of hitUnits) {
    const id = u.unit.brigadeId;
    if (id === undefined || seen.has(id)) continue;
    seen.add(id);
    const b = brigades.get(id);
    if (b?.levelSp === undefined || b.levelSp <= 0) continue;
    const members = brigadeUnits(ctx, id);
    const lostAfter = members.reduce((sum, m) => sum + ledger.spLost(m), 0);
    if (lostAfter < b.levelSp) continue;
    if (!b.exhausted) {
      ledger.step(`Brigade ${id} is exhausted: ${lostAfter} SP lost of an exhaustion level of ${b.levelSp}; its stands may no longer go stationary or move into contact`, COLLAPSE_SOURCE);
      for (const m of members) {
        if (m.stationary && !ledger.removed(m.unit.id)) {
          ledger.set(m, STATIONARY_STATUS.id, false);
          ledger.say(m, 'loses its stationary status (brigade exhausted)', COLLAPSE_SOURCE);
        }
      }
    }
    out.push({ kind: 'collapse', unitId: u.unit.id });
  }
  return out;
}

/** The collapse roll of the unit's brigade: one d6, a collapse on the hits taken this sub-phase or less. */
export function collapseDice(ctx: VbContext, info: VbUnit): DiceRequest[] | Refusal {
  const id = info.unit.brigadeId;
  if (id === undefined) return { ok: false, reason: 'collapse/no-brigade', detail: `${info.unit.name} belongs to no brigade` };
  const b = brigadeMorale(ctx).brigades.get(id)!;
  if (!b.exhausted) {
    return { ok: false, reason: 'collapse/not-exhausted', detail: `Brigade ${id} is not exhausted (${b.lostSp} SP lost${b.levelSp !== undefined ? ` of ${b.levelSp}` : ', level not computed'}; ${COLLAPSE_SOURCE})` };
  }
  return [{ id: 'collapse', label: `Brigade ${id}: a d6 must be BETTER than the ${b.hitsThisPhase} hits taken this sub-phase; ${b.hitsThisPhase} or less is a morale collapse`, count: 1, sides: 6, reading: 'under', target: b.hitsThisPhase, source: COLLAPSE_SOURCE }];
}

/**
 * The collapse roll's outcome. Held: nothing but a fresh count of hits for the next sub-phase. Collapsed: the
 * brigade commander takes a red marker; units in good order a permanent (red) disorder marker; those already
 * disordered rout (red and yellow, 1 SP per stand, moving away from the nearest enemy: a reading); routed
 * ones are removed. Each unit's hits of the sub-phase are cleared once the roll is made (a reading).
 */
export function resolveCollapse(ctx: VbContext, state: TableState, action: PendingAction, requests: readonly DiceRequest[], faces: DiceFaces): Omit<Outcome, 'rulesetId' | 'action'> {
  const info = ctx.units.get(action.unitId!)!;
  const id = info.unit.brigadeId!;
  const hits = requests[0]!.target!;
  const face = faces.collapse![0]!;
  const ledger = new OutcomeLedger();
  const members = brigadeUnits(ctx, id);
  const collapsed = face <= hits;
  ledger.step(`Collapse roll ${face} against ${hits} hits this sub-phase: ${collapsed ? 'equal or less, a morale collapse' : 'better, the brigade holds'}`, COLLAPSE_SOURCE);
  const commanders = ctx.commanders.filter((c) => c.commander.brigadeId === id && c.commander.side === info.unit.side);
  if (collapsed) {
    for (const m of members) {
      // "All stands already disordered will rout ... with all movement effects": away from the nearest enemy stand (reading).
      const enemies = ctx.enemyStandsNear(m.unit.side, m.combatBox, 200).filter((s) => s.unitId !== undefined);
      const c = centreOf(m.combatStands);
      const nearest = enemies.reduce<typeof enemies[number] | undefined>((best, s) => (!best || Math.hypot(s.center.xIn - c.xIn, s.center.yIn - c.yIn) < Math.hypot(best.center.xIn - c.xIn, best.center.yIn - c.yIn) ? s : best), undefined);
      suffer(ctx, state, ledger, m, 'collapse', nearest ? nearest.center : { xIn: c.xIn, yIn: c.yIn + 1 });
    }
  }
  for (const m of members) if (m.hitsThisPhase > 0 && !ledger.removed(m.unit.id)) ledger.set(m, HITS_THIS_PHASE_STATUS.id, null);
  const effects = ledger.effects();
  if (collapsed) for (const c of commanders) effects.push({ commanderId: c.commander.id, text: 'marked with a red marker: his brigade has collapsed', source: COLLAPSE_SOURCE });
  return {
    rolls: [],
    result: collapsed ? 'Morale collapse' : 'Holds',
    summary: collapsed ? `Brigade ${id} collapses (rolled ${face}, ${hits} hits this sub-phase).` : `Brigade ${id} holds (rolled ${face}, better than ${hits} hits).`,
    steps: ledger.steps,
    effects,
    followUps: [],
  };
}
