/**
 * Unit status and army morale (While the Devil Rules, Combat Effects and Rallying; Army Morale): a unit is
 * destroyed at half its starting bases; each army's break point is its bases (camp counted by the
 * scenario) times its quality factor, and points toward it are 1 per disordered unit, 2 per demoralized
 * unit, 3 per base destroyed (every base of a destroyed unit), 6 for a killed or captured army commander and 4
 * for a battle/wing commander (marked on the unit he fell with, `leader-lost`), and for a sacked camp the
 * `camp-sacked-points` (6 suggested). The camp or baggage, a unit of troop type `camp`, counts its bases (one
 * unless `starting-bases` says otherwise) in the break point; while an enemy unit touches it and is itself in
 * contact with no other enemy, a warning says it may be sacked at the end of the turn.
 */
import type { EvaluationWarning, MoraleReading } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { ARMY_QUALITY_FIELD, CAMP_SACKED_FIELD, CAMP_SACKED_POINTS } from './declarations.ts';
import { CONTACT_IN, enemiesNear, gapLowerBoundIn, type UnitInfo, type WtdrContext } from './context.ts';
import { ARMY_MORALE_SOURCE, BREAK_POINTS, STATUS_SOURCE, basesLostToDestroy, breakPoint, type ArmyQuality } from './tables/moraleTables.ts';

export interface ArmyMorale {
  readonly side: string;
  readonly bases: number;
  readonly quality: ArmyQuality;
  readonly breakPoint: number;
  readonly points: number;
  readonly broken: boolean;
}

const SACK = 'Combat Effects and Rallying';

/** Whether the unit is its army's camp or baggage train, and whether the enemy has sacked it. */
export function isCamp(info: UnitInfo): boolean {
  return info.type?.family === 'camp';
}
export function campSacked(info: UnitInfo): boolean {
  return isCamp(info) && rulesetValue(CAMP_SACKED_FIELD, info.unit.status?.rulesetStatus) === true;
}

/**
 * Points one unit adds toward its army's break point, with a leader who fell while attached to it. A camp
 * adds only its sacking ("Base losses will never occur from such a contact", Combat Effects and Rallying).
 */
export function unitBreakPoints(info: UnitInfo, campSackedPoints: number = BREAK_POINTS.campSacked): number {
  if (isCamp(info)) return campSacked(info) ? campSackedPoints : 0;
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
    const campPoints = Number(rulesetValue(CAMP_SACKED_POINTS, ctx.parameters));
    const points = units.reduce((n, u) => n + unitBreakPoints(u, campPoints), 0);
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
  for (const camp of ctx.units.values()) {
    if (!isCamp(camp) || campSacked(camp) || camp.stands.length === 0) continue;
    const sackers = campSackers(ctx, camp);
    if (sackers.length === 0) continue;
    const names = sackers.map((u) => u.unit.name).join(', ');
    warnings.push({
      code: 'camp/may-be-sacked',
      message: `${camp.unit.name} is in contact with ${names}, itself in contact with no other enemy: at the end of the turn the camp may be destroyed (${SACK}); if it is, mark it sacked (${rulesetValue(CAMP_SACKED_POINTS, ctx.parameters)} points, Army Morale), and the sacking units become Disordered (Demoralized if already Disordered), with no base losses`,
      unitId: camp.unit.id,
    });
  }
  return { armies, shapes, warnings };
}

/** Units of other sides touching `other`'s outline (on the table, not destroyed, camps left out), in state order. */
function enemiesTouching(ctx: WtdrContext, other: UnitInfo): UnitInfo[] {
  return enemiesNear(ctx, other.unit.side, other.hull, CONTACT_IN).filter(
    (e) => e.stands.length > 0 && !isCamp(e) && gapLowerBoundIn(other, e) <= CONTACT_IN && polygonToPolygonDistanceIn(other.hull, e.hull) <= CONTACT_IN,
  );
}

/**
 * The enemy units that may sack `camp` at the end of the turn: "in contact with an enemy unit at the end of
 * the turn, but only if the unit destroying the camp or baggage train is not itself in contact with an enemy
 * unit" (Combat Effects and Rallying); the camp itself is not such an enemy.
 */
export function campSackers(ctx: WtdrContext, camp: UnitInfo): UnitInfo[] {
  return enemiesTouching(ctx, camp).filter((u) => enemiesTouching(ctx, u).length === 0);
}
