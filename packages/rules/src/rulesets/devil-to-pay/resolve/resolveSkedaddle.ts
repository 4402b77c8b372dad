/**
 * SKEDADDLE after the roll (The Devil to Pay (2018), Skedaddle, in ../shared/rulebooks/devil-to-pay-2018.txt;
 * Quick Reference: Skedaddle):
 *   1. "The player rolls three dice (3D6) and totals the result to determine the distance in inches"
 *      (+6" for mounted cavalry, Armies: Mounted Cavalry: the bonus "also applies to skedaddle").
 *   2. "The unit moves the full distance away from the enemy with no terrain penalties imposed", "within a
 *      45-degree arc of the rear of the unit" (Notes): `skedaddleHeading.ts`.
 *   3. "The unit is disordered facing the enemy."
 *   4. "Unit receives one hit (for stragglers). If a hit causes a stand to be removed, it is ignored."
 * Skedaddling through Units: a friend within 3" passed through is disordered; passing through an enemy unit
 * means surrender. Dismounted cavalry remounts; an unlimbered battery leaves its guns (Armies). The path and
 * who is passed through come from `skedaddleOutcome` (skedaddle.ts), the straight line from
 * `straightPath` (engine/resolve/forcedMovePath.ts): the text bends nothing.
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, ForcedMove, Outcome, OutcomeEffect, OutcomeStep, PendingAction, StatusPatch } from '../../../engine/resolve/resolution.ts';
import { readRoll } from '../../../engine/resolve/readDice.ts';
import { straightPath } from '../../../engine/resolve/forcedMovePath.ts';
import type { TableState } from '../../../model/tableState.ts';
import type { DtpContext } from '../context.ts';
import { SKEDADDLE_DICE } from '../dice.ts';
import { DTP_RULESET_ID } from '../evaluate.ts';
import { skedaddleOutcome, skedaddleZone } from '../skedaddle.ts';
import { placeHits } from './hitPlacement.ts';
import { hitWords, shotFromSaddleFollowUp } from './hitEffect.ts';
import { enemyToFlee, skedaddleHeadingDeg, type SkedaddleDirection } from './skedaddleHeading.ts';
import { SRC_HITS, SRC_SKEDADDLE, SRC_SKEDADDLE_THROUGH } from './sources.ts';

const SRC_MOUNTED = 'The Devil to Pay (2018), Armies: Mounted Cavalry';
const SRC_ARMIES_CAVALRY = 'The Devil to Pay (2018), Armies: Dismounted Cavalry';
const SRC_ARMIES_ARTILLERY = 'The Devil to Pay (2018), Armies: Artillery, Batteries and Sections';

/** One group, 'skedaddle': 3 d6 added, +6" when mounted. */
export function skedaddleDice(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal {
  const { zone } = skedaddleZone(ctx, action.unitId!);
  if (!zone.ok) return zone;
  const name = ctx.units.get(action.unitId!)!.unit.name;
  const bonus = zone.mountedBonusIn;
  return [{
    id: 'skedaddle',
    label: `${name} skedaddles: 3 d6 inches${bonus > 0 ? `, +${bonus}" mounted` : ''}`,
    count: SKEDADDLE_DICE,
    sides: 6,
    reading: 'total',
    ...(bonus > 0 ? { modifier: bonus } : {}),
    source: bonus > 0 ? `${SRC_SKEDADDLE}; ${SRC_MOUNTED}` : SRC_SKEDADDLE,
  }];
}

export function resolveSkedaddle(ctx: DtpContext, action: PendingAction, faces: DiceFaces, state: TableState): Outcome | Refusal {
  const requests = skedaddleDice(ctx, action);
  if (!Array.isArray(requests)) return requests;
  const roll = readRoll(requests[0]!, faces.skedaddle ?? []);
  const info = ctx.units.get(action.unitId!)!;
  const name = info.unit.name;
  const { zone } = skedaddleZone(ctx, info.unit.id);
  if (!zone.ok) return zone;
  const distanceIn = roll.value;
  const direction = (action.choices?.direction as SkedaddleDirection | undefined) ?? 'away-from-enemy';
  const facingDeg = ctx.formationOf(info.unit.id).headingDeg;
  const headingDeg = skedaddleHeadingDeg(direction, facingDeg, zone.from, enemyToFlee(ctx, info, zone.from, action.targetUnitId));
  const result = skedaddleOutcome(ctx, info.unit.id, distanceIn, headingDeg);
  if (!result.ok) return result;

  const steps: OutcomeStep[] = [
    { text: `${name} rolls 3 d6 (${roll.faces.join(', ')})${zone.mountedBonusIn > 0 ? ` +${zone.mountedBonusIn}" mounted` : ''}: skedaddles ${distanceIn}"`, source: requests[0]!.source },
  ];
  const effects: OutcomeEffect[] = [];
  const followUps: PendingAction[] = [];
  if (result.surrenders) {
    const by = ctx.units.get(result.surrenderedTo!)!.unit.name;
    const text = `${name} would skedaddle through ${by}: it surrenders and is removed`;
    steps.push({ text, source: SRC_SKEDADDLE_THROUGH });
    effects.push({ unitId: info.unit.id, text, source: SRC_SKEDADDLE_THROUGH, removed: true });
  } else {
    const path = straightPath(state, zone.from, headingDeg, distanceIn);
    const where = direction === 'away-from-enemy' ? 'away from the enemy' : direction.replace('-', ' ');
    const move: ForcedMove = {
      kind: 'retreat',
      distanceIn,
      path: path.path,
      endHeadingDeg: result.end.headingDeg,
      ...(path.leavesTable ? { leavesTable: true } : {}),
      text: `Skedaddles the full ${distanceIn}" ${where}, no terrain penalties, and ends disordered facing the enemy${path.leavesTable ? '; the line reaches the table edge (the rulebook does not say what happens there)' : ''}`,
      source: SRC_SKEDADDLE,
    };
    steps.push({ text: move.text, source: SRC_SKEDADDLE });
    // Process 4: one straggler hit, ignored when it would be a stand's second.
    const straggler = placeHits(ctx, info.unit.id, 1, { ignoreIfRemoves: true });
    const texts = [`${name} skedaddles ${distanceIn}" and is disordered facing the enemy`];
    const status: { -readonly [K in keyof StatusPatch]: StatusPatch[K] } = { disordered: true };
    if (straggler.hitsPlaced > 0) {
      status.hitsByStand = straggler.hitsByStand;
      texts.push(`straggler hit: ${hitWords(straggler).replace(/^1 hit; /, '')}`);
      steps.push({ text: `One straggler hit on ${straggler.standsHit.join(', ')}`, source: `${SRC_SKEDADDLE}; ${SRC_HITS}` });
      const saddle = shotFromSaddleFollowUp(info, straggler);
      if (saddle) followUps.push(saddle);
    } else {
      texts.push('straggler hit ignored (it would remove a stand)');
      steps.push({ text: 'The straggler hit is ignored: every stand already has a hit, so it would remove one', source: SRC_SKEDADDLE });
    }
    const sources = [SRC_SKEDADDLE];
    if (result.remounts) {
      status.dismounted = false;
      texts.push('remounts (swap the dismounted stands for mounted ones)');
      sources.push(SRC_ARMIES_CAVALRY);
    }
    if (result.abandonsGuns) {
      texts.push('leaves its guns behind (the crew can re-man them if the enemy is driven off; the enemy may not use them)');
      sources.push(SRC_ARMIES_ARTILLERY);
    }
    effects.push({ unitId: info.unit.id, text: texts.join('; '), source: sources.join('; '), status, move });
    for (const friendId of result.disorderedFriendIds) {
      const friend = ctx.units.get(friendId)!.unit.name;
      const text = `${friend} is passed through within 3" and is disordered`;
      steps.push({ text, source: SRC_SKEDADDLE_THROUGH });
      effects.push({ unitId: friendId, text, source: SRC_SKEDADDLE_THROUGH, status: { disordered: true } });
    }
  }
  const summary = result.surrenders ? `${effects[0]!.text}.` : `${effects.map((e) => e.text).join('. ')}.`;
  return {
    rulesetId: DTP_RULESET_ID,
    action,
    rolls: [roll],
    result: result.surrenders ? 'Surrenders' : `Skedaddle ${distanceIn}"`,
    summary,
    steps,
    effects,
    followUps,
  };
}
