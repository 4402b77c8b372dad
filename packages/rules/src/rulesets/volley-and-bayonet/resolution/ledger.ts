/**
 * What one outcome does to each unit, gathered so a unit named by several steps (hits, then a rout, then
 * friends it passes) gets one effect with one status patch: `applyOutcome` applies patches in order and a
 * later absolute value (strength points lost) would otherwise overwrite an earlier one.
 */
import type { ForcedMove, OutcomeEffect, OutcomeStep } from '../../../engine/resolve/resolution.ts';
import type { RulesetValue } from '../../../model/tableState.ts';
import type { VbUnit } from '../context.ts';
import { HITS_THIS_PHASE_STATUS, NATIVE_STANDS_LOST_STATUS, SP_LOST_STATUS } from '../declarations.ts';

interface UnitChange {
  readonly unitId: string;
  readonly texts: string[];
  readonly sources: string[];
  disordered?: boolean;
  readonly rulesetStatus: Record<string, RulesetValue | null>;
  removed?: boolean;
  move?: ForcedMove;
  /** Strength points lost so far, this outcome's included. */
  spLost: number;
  hitsThisPhase: number;
  readonly spLostBefore: number;
  readonly hitsBefore: number;
  /** A Native American band: its stands are of 1 SP each (Unit Organisation, p. 7), so each SP lost is a stand lost. */
  readonly nativeStandsLost?: number;
}

/** The changes an outcome makes, unit by unit, in the order units are first named; and the trail of steps. */
export class OutcomeLedger {
  readonly #changes = new Map<string, UnitChange>();
  readonly steps: OutcomeStep[] = [];

  #of(info: VbUnit): UnitChange {
    let c = this.#changes.get(info.unit.id);
    if (!c) {
      const native = info.abilities.has('NA') ? { nativeStandsLost: (info.ratedMorale ?? 0) - (info.morale ?? 0) } : {};
      c = { unitId: info.unit.id, texts: [], sources: [], rulesetStatus: {}, spLost: info.spLost, hitsThisPhase: info.hitsThisPhase, spLostBefore: info.spLost, hitsBefore: info.hitsThisPhase, ...native };
      this.#changes.set(info.unit.id, c);
    }
    return c;
  }

  step(text: string, source: string): void {
    this.steps.push({ text, source });
  }

  /** A sentence about the unit for the table, with its section. */
  say(info: VbUnit, text: string, source: string): void {
    const c = this.#of(info);
    c.texts.push(text);
    if (!c.sources.includes(source)) c.sources.push(source);
  }

  disorder(info: VbUnit): void {
    this.#of(info).disordered = true;
  }

  set(info: VbUnit, field: string, value: RulesetValue | null): void {
    this.#of(info).rulesetStatus[field] = value;
  }

  /** Strength points lost (hits, or a rout's 1 per stand); `hits` also count toward this sub-phase's hits. */
  loseSp(info: VbUnit, sp: number, hits: boolean): void {
    const c = this.#of(info);
    c.spLost += sp;
    if (hits) c.hitsThisPhase += sp;
  }

  spLost(info: VbUnit): number {
    return this.#changes.get(info.unit.id)?.spLost ?? info.spLost;
  }

  remove(info: VbUnit): void {
    this.#of(info).removed = true;
  }

  removed(unitId: string): boolean {
    return this.#changes.get(unitId)?.removed === true;
  }

  move(info: VbUnit, move: ForcedMove): void {
    this.#of(info).move = move;
  }

  hasMove(unitId: string): boolean {
    return this.#changes.get(unitId)?.move !== undefined;
  }

  effects(): OutcomeEffect[] {
    const out: OutcomeEffect[] = [];
    for (const c of this.#changes.values()) {
      const rs: Record<string, RulesetValue | null> = { ...c.rulesetStatus };
      if (c.spLost !== c.spLostBefore) rs[SP_LOST_STATUS.id] = c.spLost;
      if (c.hitsThisPhase !== c.hitsBefore) rs[HITS_THIS_PHASE_STATUS.id] = c.hitsThisPhase;
      // "Each time a Native American stand is lost, that band s morale number drops by one" (Native American Morale, p. 4).
      if (c.nativeStandsLost !== undefined && c.spLost > c.spLostBefore) {
        rs[NATIVE_STANDS_LOST_STATUS.id] = c.nativeStandsLost + (c.spLost - c.spLostBefore);
        c.texts.push(`its morale drops by ${c.spLost - c.spLostBefore} (a Native American stand lost per SP)`);
      }
      const hasRs = Object.keys(rs).length > 0;
      const status = c.disordered !== undefined || hasRs ? { ...(c.disordered !== undefined ? { disordered: c.disordered } : {}), ...(hasRs ? { rulesetStatus: rs } : {}) } : undefined;
      out.push({
        unitId: c.unitId,
        text: c.texts.join('; '),
        source: c.sources.join('; '),
        ...(status ? { status } : {}),
        ...(c.removed ? { removed: true } : {}),
        ...(c.move ? { move: c.move } : {}),
      });
    }
    return out;
  }
}
