/**
 * Unit status and army morale (While the Devil Rules, Combat Effects and Rallying; Army Morale): a unit is
 * destroyed at half its starting bases; each army's break point is its bases (camp counted by the
 * scenario) times its quality factor, and points toward it are 1 per disordered unit, 2 per demoralized
 * unit, 3 per base destroyed (every base of a destroyed unit), 6 for a killed or captured army commander and 4
 * for a battle/wing commander (marked on the unit he fell with, `leader-lost`).
 */
import type { EvaluationWarning, MoraleReading } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import { ARMY_QUALITY_FIELD } from './declarations.ts';
import type { UnitInfo, WtdrContext } from './context.ts';
import { ARMY_MORALE_SOURCE, BREAK_POINTS, STATUS_SOURCE, basesLostToDestroy, breakPoint, type ArmyQuality } from './tables/moraleTables.ts';

export interface ArmyMorale {
  readonly side: string;
  readonly bases: number;
  readonly quality: ArmyQuality;
  readonly breakPoint: number;
  readonly points: number;
  readonly broken: boolean;
}

/** Points one unit adds toward its army's break point, with a leader who fell while attached to it. */
export function unitBreakPoints(info: UnitInfo): number {
  const leader = info.leaderLost === 'army' ? BREAK_POINTS.armyCommanderLost : info.leaderLost === 'wing' ? BREAK_POINTS.wingCommanderLost : 0;
  if (info.status === 'destroyed') return leader + info.startingBases * BREAK_POINTS.baseDestroyed;
  const status = info.status === 'disordered' ? BREAK_POINTS.disorderedUnit : info.status === 'demoralized' ? BREAK_POINTS.demoralizedUnit : 0;
  return leader + status + info.basesLost * BREAK_POINTS.baseDestroyed;
}

export function unitMorale(info: UnitInfo, army: ArmyMorale | undefined): MoraleReading {
  const at = basesLostToDestroy(info.startingBases);
  return {
    state: info.status,
    counted: { label: 'bases lost', value: info.basesLost },
    thresholds: [
      { label: `destroyed: half of ${info.startingBases} starting bases lost`, at, reached: info.basesLost >= at, source: STATUS_SOURCE },
      ...(army ? [{ label: `army break point (${army.side}: ${army.points} points of ${army.breakPoint})`, at: army.breakPoint, reached: army.broken, source: ARMY_MORALE_SOURCE }] : []),
    ],
  };
}

export interface ArmyResult {
  readonly armies: ReadonlyMap<string, ArmyMorale>;
  readonly shapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
}

export function evaluateArmies(ctx: WtdrContext): ArmyResult {
  const bySide = new Map<string, UnitInfo[]>();
  for (const info of ctx.units.values()) {
    const list = bySide.get(info.unit.side) ?? [];
    list.push(info);
    bySide.set(info.unit.side, list);
  }
  const armies = new Map<string, ArmyMorale>();
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  for (const [side, units] of bySide) {
    const qualities = [...new Set(units.map((u) => rulesetValue(ARMY_QUALITY_FIELD, u.unit.rulesetFields) as ArmyQuality))];
    const quality = qualities[0]!;
    if (qualities.length > 1) {
      warnings.push({ code: 'army/quality-disagrees', message: `units of ${side} give different army qualities (${qualities.join(', ')}); using ${quality} (${ARMY_MORALE_SOURCE})` });
    }
    const bases = units.reduce((n, u) => n + u.startingBases, 0);
    const bp = breakPoint(bases, quality);
    const points = units.reduce((n, u) => n + unitBreakPoints(u), 0);
    const army: ArmyMorale = { side, bases, quality, breakPoint: bp, points, broken: points >= bp };
    armies.set(side, army);
    if (army.broken) warnings.push({ code: 'army/broken', message: `${side} has ${points} points toward a break point of ${bp}: the army is broken (${ARMY_MORALE_SOURCE})` });
    const placed = units.filter((u) => u.stands.length > 0);
    if (placed.length > 0) {
      const x = placed.reduce((s, u) => s + u.centre.xIn, 0) / placed.length;
      const y = Math.min(...placed.map((u) => u.centre.yIn));
      shapes.push({ id: `wtdr/army/${side}`, kind: 'label', layer: 'labels', style: army.broken ? 'warning' : 'label', side, at: { xIn: x, yIn: y - 2 }, text: `${side}: ${points} / ${bp} toward break (${ARMY_MORALE_SOURCE})` });
    }
  }
  return { armies, shapes, warnings };
}
