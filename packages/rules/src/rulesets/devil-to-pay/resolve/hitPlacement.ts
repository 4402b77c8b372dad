/**
 * Placing hits on a unit's stands (The Devil to Pay (2018), Fire: Fire, p. 23, in
 * ../shared/rulebooks/devil-to-pay-2018.txt): "When a stand takes a hit, it loses its fire and melee value.
 * When a stand receives a second hit it is removed from the game." "No stand may receive a second hit until
 * all other stands in the unit have taken one." "Any infantry or cavalry regiment reduced to a single stand
 * is removed from the game. Artillery is exempt", a battery becoming "an independent section of one stand"
 * (Armies, Artillery). The same placement serves fire, melee and the skedaddle's straggler hit.
 *
 * Which stands take the hits is the owning player's choice (Quick Reference, Hit Effects: "Owning player
 * chooses which stands to place hits on"); the rule fixes only how many stands are hit and how many are
 * removed. The placement here is a default the owner may change by hand: rear-rank stands first ("Hits may
 * be applied to the second rank before the first", Double Line), then the front rank from its end, the
 * colour (command) stand last, so the unit keeps its colours and its firing line as long as it can.
 */
import type { DtpContext, StandInfo, UnitInfo } from '../context.ts';

export interface HitPlacement {
  readonly unitId: string;
  /** Hits the unit was given. */
  readonly hitsTaken: number;
  /** Hits that found a stand (the rest fell on a unit with every stand removed). */
  readonly hitsPlaced: number;
  /** Stands that now carry one hit (they may not fire or melee). */
  readonly standsHit: readonly string[];
  /** Stands that took their second hit: removed from the game. */
  readonly standsRemoved: readonly string[];
  /** Stands left on the table after the removals. */
  readonly standsLeft: number;
  /** New hits per stand id: 1 for a stand hit, 2 for a stand to remove. */
  readonly hitsByStand: Readonly<Record<string, number>>;
  /** Infantry or cavalry reduced to a single stand (or none): the regiment is removed from the game. */
  readonly unitRemoved: boolean;
  /** An artillery battery reduced to one stand: it becomes an independent section. */
  readonly becomesSection: boolean;
}

/**
 * The default order the owner places hits in: stands outside the front rank, then the front rank from its
 * last stand, the command stand last.
 */
export function hitOrder(ctx: DtpContext, info: UnitInfo): StandInfo[] {
  const front = new Set(ctx.formationOf(info.unit.id).frontRankStandIds);
  const command = info.command;
  const rank = (s: StandInfo): number => (s === command ? 2 : front.has(s.stand.id) ? 1 : 0);
  // Later stands in `standIds` first within a rank: the colour stand leads the list, the line's ends trail it.
  const indexed = info.stands.map((s, i) => ({ s, i }));
  indexed.sort((a, b) => rank(a.s) - rank(b.s) || b.i - a.i);
  return indexed.map((x) => x.s);
}

/**
 * `hits` new hits on the unit's stands on the table, the first hit on every unhit stand before any second.
 *
 * @param hits whole number of hits, >= 0
 * @param opts.ignoreIfRemoves the skedaddle's straggler hit: "If a hit causes a stand to be removed, it is
 *   ignored" (Skedaddle, Process 4): a hit that would be a stand's second is not placed
 * @throws when the unit is not on the table state or `hits` is not a whole number >= 0
 */
export function placeHits(ctx: DtpContext, unitId: string, hits: number, opts: { readonly ignoreIfRemoves?: boolean } = {}): HitPlacement {
  if (!Number.isInteger(hits) || hits < 0) throw new Error(`placeHits: hits must be a whole number >= 0, got ${hits}`);
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`placeHits: no unit '${unitId}' in the table state`);
  const order = hitOrder(ctx, info);
  const now = new Map(order.map((s) => [s.stand.id, s.hits]));
  let left = hits;
  // "No stand may receive a second hit until all other stands in the unit have taken one."
  for (const pass of [0, 1]) {
    if (pass === 1 && opts.ignoreIfRemoves) break;
    for (const s of order) {
      if (left === 0) break;
      if (now.get(s.stand.id)! === pass) {
        now.set(s.stand.id, pass + 1);
        left--;
      }
    }
  }
  const hitsByStand: Record<string, number> = {};
  const standsHit: string[] = [];
  const standsRemoved: string[] = [];
  for (const s of order) {
    const after = now.get(s.stand.id)!;
    if (after === s.hits) continue;
    hitsByStand[s.stand.id] = after;
    if (after >= 2) standsRemoved.push(s.stand.id);
    else standsHit.push(s.stand.id);
  }
  const standsLeft = info.stands.length - info.stands.filter((s) => (now.get(s.stand.id) ?? 0) >= 2).length;
  const reduced = standsRemoved.length > 0 && standsLeft <= 1;
  const artillery = info.unit.arm === 'artillery';
  return {
    unitId,
    hitsTaken: hits,
    hitsPlaced: hits - left,
    standsHit,
    standsRemoved,
    standsLeft,
    hitsByStand,
    // Fire (p. 23): "Any infantry or cavalry regiment reduced to a single stand is removed ... Artillery is exempt".
    unitRemoved: reduced && (!artillery || standsLeft === 0),
    becomesSection: reduced && artillery && standsLeft === 1,
  };
}
