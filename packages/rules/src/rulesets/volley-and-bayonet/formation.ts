/**
 * The unit's order read from its stands (Stand Types and Stand Size, p. 1; Movement: Road March,
 * Skirmishers, Mounting/Dismounting, p. 2). Wing-scale stands act one by one, so the "formation" is the
 * order the unit's stands are in: formed, road march (a spacer behind each stand), skirmish order, mounted
 * or dismounted, artillery unlimbered or limbered. Confidence is the share of bases of their printed size
 * (and, in road march, of stands with a spacer behind them).
 */
import type { FormationReading } from '../../engine/evaluation.ts';
import type { VbUnit } from './context.ts';
import { cite } from './tables/source.ts';

const SIZES = cite('Stand Types; Unit Type Stand Size', 1);
const ROAD = cite('Movement: Road March', 2);
const SKIRMISH = cite('Movement: Skirmishers', 2);
const MOUNTING = cite('Movement: Mounting/Dismounting', 2);
const ARTILLERY = cite('Movement: Artillery', 2);

/** A spacer stands behind a stand when its centre is within this of the spot one spacer-depth behind (not a rule). */
const SPACER_SLACK_IN = 0.75;

function spacerShare(info: VbUnit): number {
  const fighting = info.combatStands;
  if (fighting.length === 0) return 1;
  let withSpacer = 0;
  for (const s of fighting) {
    const h = (s.stand.pose.headingDeg * Math.PI) / 180;
    const fx = Math.cos(h), fy = Math.sin(h);
    const found = info.spacers.some((sp) => {
      const back = s.stand.depthIn / 2 + sp.stand.depthIn / 2;
      const ex = s.center.xIn - fx * back, ey = s.center.yIn - fy * back;
      return Math.hypot(sp.center.xIn - ex, sp.center.yIn - ey) <= SPACER_SLACK_IN;
    });
    if (found) withSpacer++;
  }
  return withSpacer / fighting.length;
}

export function readFormation(info: VbUnit): FormationReading {
  const explicit = info.unit.status?.formation;
  if (explicit !== undefined) return { formation: explicit, confidence: 1, source: 'status' };
  const stands = info.stands;
  const sizeShare = stands.length === 0 ? 0 : stands.filter((s) => s.footprintOk).length / stands.length;
  const round = (x: number): number => Math.round(x * 100) / 100;
  const fighting = info.combatStands;
  if (info.roadMarch) {
    const confidence = info.spacers.length > 0 ? round(sizeShare * spacerShare(info)) : round(sizeShare);
    if (info.category === 'artillery') return { formation: 'limbered', name: 'Limbered (road march)', section: ARTILLERY, confidence, source: 'geometry' };
    return { formation: 'march-column', name: 'Road march', section: ROAD, confidence, source: 'geometry' };
  }
  if (info.category === 'artillery') return { formation: 'unlimbered', name: 'Artillery in combat order', section: ARTILLERY, confidence: round(sizeShare), source: 'geometry' };
  if (info.skirmishOrder) return { formation: 'loose-order', name: 'Skirmish order', section: SKIRMISH, confidence: round(sizeShare), source: 'geometry' };
  if (fighting.length > 0 && fighting.every((s) => s.type === 'mounted')) return { formation: 'line', name: 'Mounted', section: MOUNTING, confidence: round(sizeShare), source: 'geometry' };
  if (fighting.length > 0 && fighting.every((s) => s.type === 'detachment')) {
    const name = info.category === 'cavalry' ? 'Dismounted (detachments)' : 'Detachments';
    return { formation: 'line', name, section: info.category === 'cavalry' ? MOUNTING : SIZES, confidence: round(sizeShare), source: 'geometry' };
  }
  if (fighting.length === 0) return { formation: 'unknown', confidence: 0, source: 'geometry' };
  return { formation: 'line', name: 'Formed (line of battle)', section: SIZES, confidence: round(sizeShare), source: 'geometry' };
}
