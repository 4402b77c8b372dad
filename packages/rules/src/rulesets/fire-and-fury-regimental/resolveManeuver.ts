/**
 * After the maneuver check (QRS II, Maneuver Table Procedure; Figure 5; Maneuver Effects; Tardy; Gun
 * Maneuvers): one d10 for the check, each participating unit adding its own modifiers, read down its column
 * (C1 troops in good order and guns, D1 disordered or broken troops). The outcome says what the effect
 * permits (the maneuvers of Figure 2, a gun's rally) and makes what it forces: retreats out of close range,
 * Panic's broken retreat and its stands lost, rallies and reforming.
 */
import type { DiceBreakdown, Refusal } from '../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, OutcomeEffect, OutcomeStep, PendingAction, ReadRoll, StatusPatch } from '../../engine/resolve/resolution.ts';
import { readRoll } from '../../engine/resolve/readDice.ts';
import type { RulesetValue, TableState, Unit } from '../../model/tableState.ts';
import type { FfrFireOption } from './fire.ts';
import { DISORDERED_BANDS, GOOD_ORDER_BANDS, MANEUVER_BANDS_SOURCE, MANEUVER_DIE_SIDES } from './tables/maneuverTable.ts';
import { GUN_MANEUVERS_SOURCE, GUN_TARDY, GUN_WELL_HANDLED, MANEUVER_EFFECTS_SOURCE, PANIC_SOURCE, TROOP_MANEUVERS_SOURCE, TROOP_TARDY, TROOP_WELL_HANDLED } from './tables/maneuverEffects.ts';
import { HEAVY_GUN_WEAPONS } from './tables/movementRates.ts';
import { qrs } from './tables/source.ts';
import { CASUALTIES_SOURCE, joinText, lossText, moveAwayFrom, standLoss, standsLostPatch, unitById, unitEffect } from './resolveCommon.ts';
import { evaluationOf, fullRetreatIn, paramOf } from './resolveEvaluation.ts';
import type { FfrUnitEvaluation } from './evaluate.ts';

/** The reading of who loses stands to Panic (see `PANIC_LOSSES_PARAM` in fields.ts). */
export const PANIC_LOSSES_PARAM_ID = 'panic-stand-losses';

interface Checked {
  readonly unit: Unit;
  readonly breakdown: DiceBreakdown;
  readonly column: 'good-order-and-guns' | 'disordered-or-broken';
  readonly broken: boolean;
}

/** The effects' names as Figure 5 prints them. */
const EFFECT_NAMES: Readonly<Record<string, string>> = {
  'double-quick': 'Double Quick',
  'well-handled': 'Well Handled',
  tardy: 'Tardy',
  'fall-back': 'Fall Back',
  panic: 'Panic',
  'rally-with-elan': 'Rally with Élan',
  rally: 'Rally',
  shaken: 'Shaken',
  wavering: 'Wavering',
};

function participants(state: TableState, action: PendingAction): Checked[] | Refusal {
  const ids = action.unitIds && action.unitIds.length > 0 ? action.unitIds : [action.unitId!];
  const ev = evaluationOf(state);
  const out: Checked[] = [];
  for (const id of ids) {
    const u = ev.units[id] as FfrUnitEvaluation | undefined;
    if (!u) return { ok: false, reason: 'unit/no-stands', detail: `${id} has no stands on the table` };
    if ('ok' in u.rally) return { ok: false, reason: u.rally.reason, ...(u.rally.detail ? { detail: u.rally.detail } : {}) };
    out.push({ unit: unitById(state, id), breakdown: u.rally as DiceBreakdown, column: u.maneuver.column, broken: u.formation.name === 'Broken' });
  }
  return out;
}

export function maneuverDice(state: TableState, action: PendingAction): DiceRequest[] | Refusal {
  const units = participants(state, action);
  if (!Array.isArray(units)) return units;
  const single = units.length === 1 ? units[0]! : undefined;
  const m = single?.breakdown.dice;
  return [
    {
      id: 'maneuver',
      label: single ? `Maneuver check for ${single.unit.id}: one d10 ${m! >= 0 ? '+' : ''}${m}` : `Maneuver check for ${units.map((u) => u.unit.id).join(', ')}: one d10, each unit adding its own modifiers`,
      count: 1,
      sides: MANEUVER_DIE_SIDES,
      reading: 'each',
      ...(single ? { modifier: m! } : {}),
      source: qrs('Maneuver Table Procedure'),
    },
  ];
}

/**
 * The enemy units within close range and the arc of fire of this unit (their fire option at it in their close
 * or canister band), with how far the unit must go to stand just beyond that range.
 */
function closeRangeThreat(state: TableState, unit: Unit): { enemies: string[]; retreatIn: number } {
  const ev = evaluationOf(state);
  let retreatIn = 0;
  const enemies: string[] = [];
  for (const [id, u] of Object.entries(ev.units)) {
    const f = u.fire.find((x) => x.targetUnitId === unit.id && x.ok) as FfrFireOption | undefined;
    if (!f) continue;
    const m = /^(close|canister) ([\d.]+)"$/.exec(f.band);
    if (!m) continue;
    enemies.push(id);
    retreatIn = Math.max(retreatIn, Number(m[2]) - f.rangeIn);
  }
  return { enemies: enemies.sort(), retreatIn };
}

function list(items: readonly string[]): string {
  return items.join('; ');
}

function oneUnit(state: TableState, c: Checked, base: number, choices: PendingAction['choices']): { effect: OutcomeEffect; step: OutcomeStep; result: string } {
  const { unit } = c;
  const modified = base + c.breakdown.dice;
  const bands = c.column === 'disordered-or-broken' ? DISORDERED_BANDS : GOOD_ORDER_BANDS;
  const band = bands.find((b) => modified >= b.min)!;
  const step = { text: `${unit.name}: ${base} ${c.breakdown.dice >= 0 ? '+' : ''}${c.breakdown.dice} = ${modified}, ${c.column === 'disordered-or-broken' ? 'column D1' : 'column C1'}: ${band.text}`, source: MANEUVER_BANDS_SOURCE };
  const guns = unit.arm === 'artillery';
  const heavy = guns && HEAVY_GUN_WEAPONS.includes(unit.weapon);
  const silenced = unit.status?.rulesetStatus?.['silenced'] === true;
  const rs: Record<string, RulesetValue | null> = {};
  const status: { -readonly [K in keyof StatusPatch]?: StatusPatch[K] } = {};
  const done = (text: string, source: string, more: Parameters<typeof unitEffect>[3] = {}) => {
    if (Object.keys(rs).length > 0) status.rulesetStatus = rs;
    return { effect: unitEffect(unit.id, text, source, { ...more, status: more.removed ? {} : { ...status, ...(more.status ?? {}) } }), step, result: EFFECT_NAMES[band.effect] ?? band.effect };
  };
  const threat = () => closeRangeThreat(state, unit);
  const fortified = unit.status?.rulesetStatus?.['fortified'] === true || unit.status?.rulesetStatus?.['formation'] === 'garrison';
  const broken = c.broken;
  const fullMoveDisordered = choices?.['fullMoveDisordered'] === true;
  const wantsRally = choices?.['gunRally'] === true;

  switch (band.effect) {
    case 'double-quick':
    case 'well-handled': {
      const dq = band.effect === 'double-quick';
      if (guns) {
        if (wantsRally && silenced) {
          rs['silenced'] = null;
          rs['silencedGunStands'] = null;
        }
        const options = GUN_WELL_HANDLED.filter((o) => !(heavy && (o.startsWith('Hand haul') || o.startsWith('Prolong'))));
        return done(
          joinText([
            `${dq ? 'Double Quick' : 'Well Handled'}: ${unit.name} may ${list(options)}`,
            dq && (heavy ? `no double quick for ${unit.weapon} guns` : 'limbered moves at the double quick rate'),
            wantsRally && silenced && 'rallies: the silenced marker is removed',
          ]) + '.',
          GUN_MANEUVERS_SOURCE,
        );
      }
      return done(`${dq ? 'Double Quick: a Well Handled maneuver at the double quick rate' : 'Well Handled'}: ${unit.name} may ${list(TROOP_WELL_HANDLED)}.`, TROOP_MANEUVERS_SOURCE);
    }
    case 'tardy': {
      if (guns) {
        return done(`Tardy: ${unit.name} may ${list(GUN_TARDY)}${silenced ? '; a silenced gun cannot rally with a Tardy maneuver (Gun Maneuver Changes 12)' : ''}.`, GUN_MANEUVERS_SOURCE);
      }
      if (fullMoveDisordered) status.disordered = true;
      return done(
        fullMoveDisordered
          ? `Tardy: ${unit.name} moves up to its full move rate and is marked disordered (advance or withdraw in its formation, wheel or oblique up to 45°).`
          : `Tardy: ${unit.name} may ${list(TROOP_TARDY)}; movement is at half the full move rate in good order, or at the full move rate disordered.`,
        qrs('Tardy; Full Move Disordered'),
      );
    }
    case 'fall-back': {
      const t = threat();
      if (guns) {
        if (t.enemies.length === 0 || fortified) return done(`Fall Back: ${unit.name} is out of close range${fortified ? ' or fortified' : ''}: holds position and may fire only.`, MANEUVER_EFFECTS_SOURCE);
        const full = fullRetreatIn(unit);
        status.limbered = true;
        rs['silenced'] = true;
        const move = moveAwayFrom(state, unit.id, t.enemies[0]!, 'fall-back', full.inches, `Limber and full retreat silenced: ${full.inches}"`, MANEUVER_EFFECTS_SOURCE);
        return done(`Fall Back: ${unit.name} is in close range of ${t.enemies.join(', ')}: guns limber and full retreat ${full.inches}" silenced.`, MANEUVER_EFFECTS_SOURCE, { move });
      }
      // "Troops retreat out of close range disordered ... Hold position and fire only if out of close range, or
      // fortified": the disorder goes with the retreat (reading, see the README).
      if (t.enemies.length === 0 || fortified) return done(`Fall Back: ${unit.name} is out of close range${fortified ? ' or fortified' : ''}: holds position and may fire only.`, MANEUVER_EFFECTS_SOURCE);
      status.disordered = true;
      const move = moveAwayFrom(state, unit.id, t.enemies[0]!, 'fall-back', t.retreatIn, 'Retreat out of close range', MANEUVER_EFFECTS_SOURCE);
      return done(`Fall Back: ${unit.name} retreats out of close range of ${t.enemies.join(', ')} (about ${t.retreatIn.toFixed(1)}") disordered.`, MANEUVER_EFFECTS_SOURCE, { move });
    }
    case 'panic': {
      const nearest = threat().enemies[0] ?? nearestEnemy(state, unit);
      const full = fullRetreatIn(unit);
      if (guns) {
        status.limbered = true;
        rs['silenced'] = true;
        const move = nearest ? moveAwayFrom(state, unit.id, nearest, 'rout', full.inches, `Limber and full retreat silenced: ${full.inches}"`, MANEUVER_EFFECTS_SOURCE) : undefined;
        return done(`Panic: ${unit.name} limbers and full retreats ${full.inches}" silenced; lose all fixed guns.`, MANEUVER_EFFECTS_SOURCE, { move });
      }
      // "One troop stand is removed equal to the die result difference less than zero." (Panic, D column)
      const losesStands = c.column === 'disordered-or-broken' || paramOf(state, PANIC_LOSSES_PARAM_ID) === 'both-columns';
      const loss = standLoss(state, unit, losesStands ? Math.max(0, -modified) : 0);
      status.disordered = true;
      rs['formation'] = 'broken';
      Object.assign(rs, standsLostPatch(unit, loss.lost));
      const dismounted = unit.arm === 'cavalry' && unit.status?.dismounted === true;
      if (dismounted) status.dismounted = false;
      const move = nearest && !loss.removed ? moveAwayFrom(state, unit.id, nearest, 'rout', full.inches, `Retreat broken, the full move rate for broken: ${full.inches}" on open ground`, PANIC_SOURCE) : undefined;
      return done(
        joinText([
          `Panic: ${unit.name} loses formation and retreats ${full.inches}" broken (the full move rate for broken, open ground), away from the enemy and toward the friendly table edge`,
          dismounted && 'dismounted cavalry must mount',
          losesStands && (loss.lost > 0 ? lossText(unit.name, loss) + ` (${modified} is ${-modified} below 0)` : `no stand lost (${modified} is not below 0)`),
        ]) + '.',
        loss.lost > 0 ? `${PANIC_SOURCE}; ${CASUALTIES_SOURCE}` : PANIC_SOURCE,
        { standsLost: loss.lost, removed: loss.removed, move },
      );
    }
    case 'rally-with-elan':
    case 'rally': {
      const elan = band.effect === 'rally-with-elan';
      const stay = !elan && fullMoveDisordered;
      if (broken) rs['formation'] = 'line';
      status.disordered = stay ? true : null;
      const then = elan ? `may perform one Well Handled maneuver (${list(TROOP_WELL_HANDLED)}) or hold position and may refuse a flank` : `may perform one Tardy maneuver (${list(TROOP_TARDY)}) or hold position and may refuse a flank`;
      return done(
        stay
          ? `Rally: ${unit.name} ${broken ? 'reforms into line facing toward the enemy, ' : ''}remains disordered and moves up to its full move rate.`
          : `${elan ? 'Rally with Élan' : 'Rally'}: ${unit.name} returns to good order${broken ? ', reforming into line facing toward the enemy' : ''}, and ${then}.`,
        qrs(elan ? 'Maneuver Effects, Rally with Élan' : 'Maneuver Effects, Rally; Full Move Disordered'),
      );
    }
    case 'shaken':
    case 'wavering': {
      const shaken = band.effect === 'shaken';
      const t = threat();
      if (broken) rs['formation'] = 'line';
      status.disordered = shaken ? null : true;
      const section = qrs(shaken ? 'Maneuver Effects, Shaken' : 'Figure 5, Wavering');
      const after = shaken ? `returns to good order${broken ? ', reforming in line facing toward the enemy' : ''}; no other maneuver, but may still fire` : `remains disordered${broken ? '; broken troops reform' : ''}`;
      if (t.enemies.length === 0 || fortified) return done(`${shaken ? 'Shaken' : 'Wavering'}: ${unit.name} is out of close range${fortified ? ' or fortified' : ''} and holds position; ${after}.`, section);
      const move = moveAwayFrom(state, unit.id, t.enemies[0]!, 'retreat', t.retreatIn, 'Retreat to just beyond close range', section);
      return done(`${shaken ? 'Shaken' : 'Wavering'}: ${unit.name} retreats to just beyond close range of ${t.enemies.join(', ')} (about ${t.retreatIn.toFixed(1)}", further than its full move if need be); ${after}.`, section, { move });
    }
    default:
      return done(band.text, MANEUVER_BANDS_SOURCE);
  }
}

/** The enemy unit whose centre is nearest this one's, for a retreat "away from the enemy" with none in close range. */
function nearestEnemy(state: TableState, unit: Unit): string | undefined {
  const centre = (u: Unit) => {
    const st = state.stands.filter((s) => u.standIds.includes(s.id));
    if (st.length === 0) return undefined;
    return { x: st.reduce((a, s) => a + s.pose.xIn, 0) / st.length, y: st.reduce((a, s) => a + s.pose.yIn, 0) / st.length };
  };
  const me = centre(unit);
  if (!me) return undefined;
  let best: { id: string; d: number } | undefined;
  for (const u of state.units) {
    if (u.side === unit.side) continue;
    const c = centre(u);
    if (!c) continue;
    const d = Math.hypot(c.x - me.x, c.y - me.y);
    if (!best || d < best.d || (d === best.d && u.id < best.id)) best = { id: u.id, d };
  }
  return best?.id;
}

export function resolveManeuver(state: TableState, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = maneuverDice(state, action);
  if (!Array.isArray(requests)) return requests;
  const units = participants(state, action) as Checked[];
  const roll: ReadRoll = readRoll(requests[0]!, faces['maneuver']!);
  const base = roll.faces[0]!;
  const results = units.map((c) => oneUnit(state, c, base, action.choices));
  const result = [...new Set(results.map((r) => r.result))].join(' / ');
  return {
    rulesetId: 'fire-and-fury-regimental',
    action,
    rolls: [roll],
    result,
    summary: results.map((r) => r.effect.text).join(' '),
    steps: [{ text: `Base die ${base}`, source: qrs('Maneuver Table Procedure') }, ...results.map((r) => r.step)],
    effects: results.map((r) => r.effect),
    followUps: [],
  };
}
