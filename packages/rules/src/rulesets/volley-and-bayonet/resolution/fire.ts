/**
 * Fire after the roll (Combat: Attack Dice, Hit Numbers; Saves, p. 5): every option the evaluation gives the
 * firing unit at the target (one per range band) rolls its dice at its hit number; the target saves the hits
 * under each Saves condition in turn; each hit left costs it a strength point and counts toward its brigade's
 * hits this sub-phase (Morale Collapse, p. 5). Fire causes no morale check in this supplement (Morale, p. 4
 * lists melee, the artillery danger zone and Native Americans forming), but it may exhaust a brigade.
 */
import type { FireTargetOption, Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, PendingAction } from '../../../engine/resolve/resolution.ts';
import type { TableState } from '../../../model/tableState.ts';
import type { VbContext, VbUnit } from '../context.ts';
import { firePairAt } from '../queries.ts';
import { FIRE_ARC_PARAM, RANGE_FROM_PARAM } from '../declarations.ts';
import { ATTACK_DICE_SOURCE, HIT_NUMBERS_SOURCE, MOUNTED_RETIRE_IN_PER_HIT, SAVES_SOURCE, type SaveCondition } from '../tables/combat.ts';
import { pathAwayFrom } from '../../../engine/resolve/forcedMovePath.ts';
import { centreOf } from './losses.ts';
import { exhaustionAfterHits } from './brigades.ts';
import { OutcomeLedger } from './ledger.ts';
import { hitsAfterSaves, saveRequests } from './saves.ts';

export interface FireAt {
  readonly firer: VbUnit;
  readonly target: VbUnit;
  readonly options: readonly FireTargetOption[];
  readonly saves: readonly SaveCondition[];
  /** The target's mounted stands elect to retire 6" per hit. */
  readonly retire: boolean;
}

export function fireAt(ctx: VbContext, action: PendingAction): FireAt | Refusal {
  const firer = ctx.units.get(action.unitId!)!;
  const target = ctx.units.get(action.targetUnitId!)!;
  const pair = firePairAt(ctx, firer.unit.id, target.unit.id);
  if (!pair) {
    return { ok: false, reason: 'fire/none', detail: `${firer.unit.name} has no stand that may fire, or the fire parameters (${FIRE_ARC_PARAM.id}, ${RANGE_FROM_PARAM.id}) are not entered` };
  }
  const options = pair.entries.filter((e): e is FireTargetOption => e.ok);
  if (options.length === 0) {
    const r = pair.entries[0] as Refusal | undefined;
    return r ?? { ok: false, reason: 'fire/out-of-range', detail: `${target.unit.name} is out of range` };
  }
  const saves = new Set<SaveCondition>();
  for (const list of pair.optionSaves ?? []) for (const c of list) saves.add(c);
  // Mounted stands may elect to retire 6" per hit for a save (Saves, p. 5): the players' choice on the roll.
  const retire = action.choices?.['mounted-retire'] === true;
  if (retire) {
    if (!target.combatStands.some((s) => s.type === 'mounted' || s.type === 'mounted-skirmisher')) {
      return { ok: false, reason: 'fire/not-mounted', detail: `${target.unit.name} has no mounted stands: only mounted stands may elect to retire (${SAVES_SOURCE})` };
    }
    saves.add('mounted-retire');
  }
  return { firer, target, options, saves: [...saves], retire };
}

/** One group per range band ('fire-1', 'fire-2' ...), then the target's save groups. */
export function fireDice(state: TableState, f: FireAt): DiceRequest[] | Refusal {
  const groups: DiceRequest[] = f.options.map((o, i) => ({
    id: `fire-${i + 1}`,
    label: `${f.firer.unit.name} at ${f.target.unit.name}, ${o.band}: ${o.breakdown.dice} d6, hits on ${o.breakdown.hitOn}+ (stands ${o.eligibleStandIds.join(', ')})`,
    count: o.breakdown.dice,
    sides: 6,
    reading: 'hits',
    hitOn: o.breakdown.hitOn!,
    source: `${ATTACK_DICE_SOURCE}; ${HIT_NUMBERS_SOURCE}`,
  }));
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  const saves = saveRequests(state, '', `Target ${f.target.unit.name}`, f.saves, total);
  if (!Array.isArray(saves)) return saves;
  return [...groups, ...saves];
}

export function resolveFire(ctx: VbContext, state: TableState, f: FireAt, requests: readonly DiceRequest[], faces: DiceFaces): Omit<Outcome, 'rulesetId' | 'action' | 'rolls'> {
  const ledger = new OutcomeLedger();
  let scored = 0;
  for (const r of requests) {
    if (!r.id.startsWith('fire-')) continue;
    const hits = faces[r.id]!.filter((x) => x >= r.hitOn!).length;
    scored += hits;
    ledger.step(`${r.label}: ${faces[r.id]!.join(', ') || 'no dice'}, ${hits} hit${hits === 1 ? '' : 's'}`, r.source);
  }
  const left = hitsAfterSaves(requests, '', faces, scored, ledger.steps, f.target.unit.name);
  if (f.retire && scored > 0) {
    const d = MOUNTED_RETIRE_IN_PER_HIT * scored;
    const p = pathAwayFrom(state, f.target.unit.id, centreOf(f.firer.combatStands), d);
    if (p) ledger.move(f.target, { kind: 'fall-back', distanceIn: d, path: p.path, endHeadingDeg: p.headingDeg, ...(p.leavesTable ? { leavesTable: true } : {}), text: `retires ${MOUNTED_RETIRE_IN_PER_HIT}" per hit (${scored})`, source: SAVES_SOURCE });
    ledger.say(f.target, `elected to retire: ${d}" (${MOUNTED_RETIRE_IN_PER_HIT}" per hit from fire)`, SAVES_SOURCE);
  }
  const followUps: PendingAction[] = [];
  if (left > 0) {
    ledger.loseSp(f.target, left, true);
    ledger.say(f.target, `takes ${left} hit${left === 1 ? '' : 's'}: ${left} SP lost`, HIT_NUMBERS_SOURCE);
    if (f.target.strengthPoints !== undefined && ledger.spLost(f.target) >= f.target.strengthPoints) {
      ledger.remove(f.target);
      ledger.say(f.target, 'no strength points left: removed from play', HIT_NUMBERS_SOURCE);
    }
    followUps.push(...exhaustionAfterHits(ctx, ledger, [f.target]));
  }
  return {
    result: `${left} hit${left === 1 ? '' : 's'}`,
    summary: `${f.firer.unit.name} fires at ${f.target.unit.name}: ${scored} hit${scored === 1 ? '' : 's'}${scored !== left ? `, ${left} after saves` : ''}.`,
    steps: ledger.steps,
    effects: ledger.effects(),
    followUps,
  };
}
