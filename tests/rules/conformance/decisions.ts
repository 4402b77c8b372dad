/**
 * What a rule set decided, without where things are: per unit the formation kind, movement allowance or
 * refusal, fire and charge targets (options vs refusal codes, dice, hit numbers, bands), command and morale.
 * Lists are keyed by target, so unit order cannot show through. Raw coordinates and ranges are left out:
 * a turned table moves them, and the conformance questions are about the answers.
 */
import type { DiceBreakdown, Evaluation } from '@muster/rules';

const dice = (b: DiceBreakdown): unknown => [b.kind ?? 'dice', b.dice, b.baseDice, b.hitOn];

/** Allowances are inches from the rulebook: compared to a thousandth so float noise of a turn cannot show. */
const r3 = (v: number): number => Math.round(v * 1e3) / 1e3;

export function decisions(ev: Evaluation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const id of Object.keys(ev.units).sort()) {
    const u = ev.units[id]!;
    const byTarget = <T extends { targetUnitId: string }>(xs: readonly T[]): T[] => [...xs].sort((a, b) => a.targetUnitId.localeCompare(b.targetUnitId));
    out[id] = {
      formation: [u.formation.formation, u.formation.name ?? null],
      movement: u.movement.ok ? ['ok', r3(u.movement.allowanceIn)] : ['refused', u.movement.reason],
      fire: byTarget(u.fire).map((f) =>
        f.ok ? [f.targetUnitId, 'ok', f.band, f.priority, [...f.eligibleStandIds].sort(), dice(f.breakdown)] : [f.targetUnitId, 'refused', f.reason],
      ),
      charge: byTarget(u.charge).map((c) =>
        c.ok ? [c.targetUnitId, 'ok', c.enemyFlanked, dice(c.attacker), dice(c.defender)] : [c.targetUnitId, 'refused', c.reason],
      ),
      rally: 'ok' in u.rally ? ['refused', u.rally.reason] : ['ok', dice(u.rally)],
      command: [
        u.command.inCommand ?? null,
        u.command.commanderInRangeId ?? null,
        u.command.attachedCommanderId ?? null,
        [...u.command.brigadeFormationUnitIds].sort(),
        u.command.ordersLeft ?? null,
      ],
      morale: u.morale ? [u.morale.state, u.morale.counted.value, u.morale.thresholds.map((t) => [t.label, t.at, t.reached])] : null,
    };
  }
  return out;
}

/** Warning codes per unit, sorted (messages may name distances, codes may not move with the table). */
export function warningCodes(ev: Evaluation): string[] {
  return ev.warnings.map((w) => `${w.code}|${w.unitId ?? ''}|${w.parameterId ?? ''}`).sort();
}
