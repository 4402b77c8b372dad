/**
 * A hit placement (`hitPlacement.ts`) as an outcome effect in players' words, and the Shot from the Saddle
 * roll it calls for (The Devil to Pay (2018), Commanders: Shot from the Saddle, p. 6, in
 * ../shared/rulebooks/devil-to-pay-2018.txt: "In any phase that the unit takes hits, roll one die").
 */
import type { OutcomeEffect, PendingAction, StatusPatch } from '../../../engine/resolve/resolution.ts';
import type { UnitInfo } from '../context.ts';
import type { HitPlacement } from './hitPlacement.ts';
import { SRC_ARTILLERY_SECTION, SRC_HITS, SRC_REDUCED_TO_ONE } from './sources.ts';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** "2 hits: stand a hit (no fire or melee), stand b removed" for one unit. */
export function hitWords(placement: HitPlacement): string {
  if (placement.hitsTaken === 0) return 'no hits';
  const parts = [plural(placement.hitsTaken, 'hit')];
  if (placement.standsHit.length > 0) parts.push(`${placement.standsHit.join(', ')} hit (may not fire or charge)`);
  if (placement.standsRemoved.length > 0) parts.push(`${placement.standsRemoved.join(', ')} removed (second hit)`);
  if (placement.hitsPlaced < placement.hitsTaken) parts.push(`${placement.hitsTaken - placement.hitsPlaced} more than the unit can take`);
  return parts.join('; ');
}

/**
 * The effect of a placement on its unit: the hits per stand (1 hit, 2 = remove the stand), the stands lost,
 * and removal of a regiment reduced to one stand. `extra` adds status changes of the same step (disorder ...).
 */
export function hitEffect(info: UnitInfo, placement: HitPlacement, source: string, extra: { readonly status?: StatusPatch; readonly text?: string } = {}): OutcomeEffect {
  const texts = [`${info.unit.name}: ${hitWords(placement)}`];
  if (extra.text) texts.push(extra.text);
  const sources = [source];
  if (placement.standsRemoved.length > 0) sources.push(SRC_HITS);
  if (placement.unitRemoved) {
    texts.push(placement.standsLeft === 0 ? 'every stand is lost: removed from the game' : 'reduced to a single stand: removed from the game');
    sources.push(SRC_REDUCED_TO_ONE);
  }
  if (placement.becomesSection) {
    texts.push('reduced to one stand: becomes an independent section (never more than 2 dice, no 1-die floor)');
    sources.push(SRC_ARTILLERY_SECTION);
  }
  const hitsPatch = Object.keys(placement.hitsByStand).length > 0 ? { hitsByStand: placement.hitsByStand } : {};
  const status: StatusPatch = { ...(extra.status ?? {}), ...hitsPatch };
  return {
    unitId: info.unit.id,
    text: texts.join('; '),
    source: sources.join('; '),
    ...(placement.standsRemoved.length > 0 ? { standsLost: placement.standsRemoved.length, standIds: placement.standsRemoved } : {}),
    ...(Object.keys(status).length > 0 ? { status } : {}),
    ...(placement.unitRemoved ? { removed: true } : {}),
  };
}

/** The Shot from the Saddle roll for the commander attached to a unit that took hits, if any. */
export function shotFromSaddleFollowUp(info: UnitInfo, placement: HitPlacement): PendingAction | undefined {
  if (placement.hitsPlaced === 0 || info.attachedCommanderId === undefined) return undefined;
  return { kind: 'shot-from-the-saddle', unitId: info.unit.id, commanderId: info.attachedCommanderId };
}
