/**
 * The rolls outside fire and melee: the morale check of a unit in an enemy gun's danger zone (Morale,
 * condition 2, p. 4), a Native American band forming from skirmish order to melee (Morale, condition 3;
 * Movement: Native Americans, p. 2), the rally of a routed unit (Rally, p. 4: no roll), and a stand's marsh
 * roll (Terrain Effects: Marsh, p. 3).
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, PendingAction } from '../../../engine/resolve/resolution.ts';
import type { TableState } from '../../../model/tableState.ts';
import type { VbContext, VbStand, VbUnit } from '../context.ts';
import { PERMANENT_DISORDER_STATUS, ROUTED_STATUS, SKIRMISH_STATUS } from '../declarations.ts';
import { evaluateRally, standingMorale, unitDangerZones } from '../morale.ts';
import { superiorAttached } from '../charge.ts';
import { DANGER_ZONE_SOURCE, MARSH_ARTILLERY_MOD, MARSH_BANDS, MARSH_CROSSED_BEFORE_MOD, MARSH_SOURCE } from '../tables/combat.ts';
import { MORALE_SOURCE, RALLY_SOURCE } from '../tables/morale.ts';
import { cite } from '../tables/source.ts';
import { OutcomeLedger } from './ledger.ts';
import { centreOf, suffer } from './losses.ts';

type Resolved = Omit<Outcome, 'rulesetId' | 'action' | 'rolls'>;

const NATIVE_FORMING_SOURCE = `${cite('Movement: Native Americans', 2)}; ${cite('Morale', 4)}, condition 3`;

/** The unit's check number: its morale, -1 disordered, +1 a superior commander attached (the standing modifiers). */
function checkOn(ctx: VbContext, info: VbUnit): number | undefined {
  return standingMorale(info, superiorAttached(ctx, info))?.value;
}

/** Whether `info` has a stand in the danger zone of a gun of `gunUnit`. */
export function inDangerZoneOf(ctx: VbContext, info: VbUnit, gunUnit: VbUnit): boolean {
  return unitDangerZones(ctx, gunUnit).warnings.some((w) => w.unitId === info.unit.id);
}

/** The danger-zone check: one d6, passing on the unit's modified morale or less. */
export function dangerCheckDice(ctx: VbContext, action: PendingAction): DiceRequest[] | Refusal {
  const info = ctx.units.get(action.unitId!)!;
  const gun = ctx.units.get(action.targetUnitId!)!;
  if (!inDangerZoneOf(ctx, info, gun)) return { ok: false, reason: 'morale/not-in-danger-zone', detail: `${info.unit.name} is not in the danger zone of ${gun.unit.name}'s guns (${DANGER_ZONE_SOURCE})` };
  const on = checkOn(ctx, info);
  if (on === undefined) return { ok: false, reason: 'unit/no-morale', detail: `${info.unit.name} has no morale rating` };
  return [{ id: 'morale', label: `${info.unit.name}: morale check in the danger zone of ${gun.unit.name}, passes on ${on} or less`, count: 1, sides: 6, reading: 'under', target: on, source: DANGER_ZONE_SOURCE }];
}

export function resolveDangerCheck(ctx: VbContext, state: TableState, action: PendingAction, requests: readonly DiceRequest[], faces: DiceFaces): Resolved {
  const info = ctx.units.get(action.unitId!)!;
  const gun = ctx.units.get(action.targetUnitId!)!;
  const face = faces.morale![0]!;
  const pass = face <= requests[0]!.target!;
  const ledger = new OutcomeLedger();
  ledger.step(`${info.unit.name} rolls ${face} against ${requests[0]!.target}: ${pass ? 'passes' : 'fails'}`, MORALE_SOURCE);
  const result = pass ? 'pass' : suffer(ctx, state, ledger, info, 'morale', centreOf(gun.combatStands));
  const words = { pass: 'Pass', disordered: 'Disordered', routed: 'Routs', removed: 'Removed from play' } as const;
  return { result: words[result], summary: `${info.unit.name}: ${words[result].toLowerCase()} (rolled ${face}).`, steps: ledger.steps, effects: ledger.effects(), followUps: [] };
}

/** A band forming from skirmish order to enter melee checks morale (Movement: Native Americans, p. 2). */
export function formingDice(ctx: VbContext, action: PendingAction): DiceRequest[] | Refusal {
  const info = ctx.units.get(action.unitId!)!;
  if (!info.abilities.has('NA')) return { ok: false, reason: 'native/not-native', detail: `${info.unit.name} is not a Native American band (ability NA)` };
  if (!info.skirmishOrder) return { ok: false, reason: 'native/not-skirmishing', detail: `${info.unit.name} is not in skirmish order` };
  const on = checkOn(ctx, info);
  if (on === undefined) return { ok: false, reason: 'unit/no-morale', detail: `${info.unit.name} has no morale rating` };
  return [{ id: 'morale', label: `${info.unit.name}: morale check to form from skirmish order and enter melee, passes on ${on} or less`, count: 1, sides: 6, reading: 'under', target: on, source: NATIVE_FORMING_SOURCE }];
}

/** Passing: formed as detachments at no cost; failing: "they remain in skirmish order" (and are not disordered, Native American Morale, p. 4). */
export function resolveForming(ctx: VbContext, action: PendingAction, requests: readonly DiceRequest[], faces: DiceFaces): Resolved {
  const info = ctx.units.get(action.unitId!)!;
  const face = faces.morale![0]!;
  const pass = face <= requests[0]!.target!;
  const ledger = new OutcomeLedger();
  ledger.step(`${info.unit.name} rolls ${face} against ${requests[0]!.target}: ${pass ? 'passes' : 'fails'}`, NATIVE_FORMING_SOURCE);
  if (pass) {
    ledger.set(info, SKIRMISH_STATUS.id, false);
    ledger.say(info, 'forms from skirmish order into detachments at no cost, to enter melee', NATIVE_FORMING_SOURCE);
  } else ledger.say(info, 'remains in skirmish order', NATIVE_FORMING_SOURCE);
  return { result: pass ? 'Formed' : 'Remains in skirmish order', summary: `${info.unit.name} ${pass ? 'forms to enter melee' : 'remains in skirmish order'} (rolled ${face}).`, steps: ledger.steps, effects: ledger.effects(), followUps: [] };
}

/** Rally (p. 4): no roll; the routed unit touching a senior commander loses its yellow marker, keeps the red. */
export function resolveRally(ctx: VbContext, action: PendingAction): Resolved | Refusal {
  const info = ctx.units.get(action.unitId!)!;
  const r = evaluateRally(ctx, info);
  if ('ok' in r) return r;
  const text = 'rallied: the yellow marker is removed, the red (permanent) marker stays; a free change of facing, no other movement';
  return {
    result: 'Rallied',
    summary: `${info.unit.name} rallies: the yellow marker is removed, the red (permanent) one stays.`,
    steps: [{ text: r.modifiers[0]!.label, source: RALLY_SOURCE }],
    effects: [{ unitId: info.unit.id, text, source: RALLY_SOURCE, status: { disordered: false, rulesetStatus: { [ROUTED_STATUS.id]: null, [PERMANENT_DISORDER_STATUS.id]: true } } }],
    followUps: [],
  };
}

/** The stands that roll on entering a marsh: all but infantry skirmishers and command stands ("not effected by marsh"). */
function marshStands(info: VbUnit): VbStand[] {
  return info.combatStands.filter((s) => s.type !== 'infantry-skirmisher');
}

export function marshDice(ctx: VbContext, action: PendingAction): DiceRequest[] | Refusal {
  const info = ctx.units.get(action.unitId!)!;
  const stands = marshStands(info);
  if (stands.length === 0) return { ok: false, reason: 'marsh/not-affected', detail: `${info.unit.name}: infantry skirmisher and command stands are not affected by marsh (${MARSH_SOURCE})` };
  const crossed = action.choices?.['crossed-before'] === true;
  return stands.map((s) => {
    const mod = (s.type === 'artillery' ? MARSH_ARTILLERY_MOD : 0) + (crossed ? MARSH_CROSSED_BEFORE_MOD : 0);
    return { id: s.stand.id, label: `${s.stand.id} enters the marsh: a d6${mod ? ` +${mod}${s.type === 'artillery' ? ' (artillery' : ' ('}${crossed ? `${s.type === 'artillery' ? ', ' : ''}where another stand has crossed` : ''})` : ''}`, count: 1, sides: 6, reading: 'total', modifier: mod, source: MARSH_SOURCE };
  });
}

/** Each stand's band; the unit takes the disorder marker when any stand rolls 5 or more (markers are the unit's: a reading). */
export function resolveMarsh(ctx: VbContext, action: PendingAction, requests: readonly DiceRequest[], faces: DiceFaces): Resolved {
  const info = ctx.units.get(action.unitId!)!;
  const ledger = new OutcomeLedger();
  let disorders = false;
  let worst = 1;
  for (const r of requests) {
    const total = faces[r.id]![0]! + (r.modifier ?? 0);
    const band = [...MARSH_BANDS].reverse().find((b) => total >= b.from)!;
    ledger.step(`${r.id}: ${total}: ${band.label}`, MARSH_SOURCE);
    ledger.say(info, `${r.id}: ${band.label} until it has moved out of the marsh`, MARSH_SOURCE);
    if (band.disorders) disorders = true;
    worst = Math.max(worst, band.costPerIn);
  }
  if (disorders) ledger.disorder(info);
  return {
    result: disorders ? 'Disordered' : worst > 1 ? `${worst} per 1 moved` : 'No effect',
    summary: `${info.unit.name} in the marsh: ${ledger.steps.map((s) => s.text).join('; ')}.`,
    steps: ledger.steps,
    effects: ledger.effects(),
    followUps: [],
  };
}
