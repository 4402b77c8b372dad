/**
 * Tracked tags + roster → the rules engine's TableState. Stands take their pose from their tag through the
 * tag's offset on the base; status chips set the status of the unit they lie next to; terrain is passed in
 * (it comes from its own source, not from the camera).
 */
import {
  TABLE_STATE_VERSION,
  type Commander,
  type PoseIn,
  type Stand,
  type TableState,
  type Terrain,
  type Unit,
  type UnitStatus,
} from '@muster/rules';
import type { TagTrack } from '@muster/vision';
import { tagAssignments, type Roster } from './roster.ts';
import { standPoseFromTag } from './standPoseFromTag.ts';

export interface BuildTableStateOptions {
  readonly table: { readonly widthIn: number; readonly depthIn: number };
  readonly terrain: Terrain;
  /** Use held (stale) poses of occluded tags. Default true: a hand over a stand does not remove it. */
  readonly includeStale?: boolean;
}

export interface BuiltTableState {
  readonly state: TableState;
  /** Tags tracked but not in the roster (the tracker already made them persist). */
  readonly unassignedTags: readonly number[];
  /** Status chips lying near no stand. */
  readonly strayTokens: readonly number[];
  readonly warnings: readonly string[];
}

/** Distance from a point to a stand's base rectangle, inches (0 inside). */
function distanceToBase(xIn: number, yIn: number, s: Stand): number {
  const h = (s.pose.headingDeg * Math.PI) / 180;
  const dx = xIn - s.pose.xIn;
  const dy = yIn - s.pose.yIn;
  const forward = dx * Math.cos(h) + dy * Math.sin(h);
  const right = dx * Math.sin(h) - dy * Math.cos(h);
  const outF = Math.max(Math.abs(forward) - s.depthIn / 2, 0);
  const outR = Math.max(Math.abs(right) - s.widthIn / 2, 0);
  return Math.hypot(outF, outR);
}

export function buildTableState(roster: Roster, tracks: readonly TagTrack[], options: BuildTableStateOptions): BuiltTableState {
  const includeStale = options.includeStale ?? true;
  const assignments = tagAssignments(roster);
  const poseByTag = new Map<number, PoseIn>();
  const unassignedTags: number[] = [];
  for (const t of tracks) {
    if (t.stale && !includeStale) continue;
    if (!assignments.has(t.markerId)) unassignedTags.push(t.markerId);
    else poseByTag.set(t.markerId, t.pose);
  }

  const stands: Stand[] = [];
  const unitIdByStand = new Map<string, string>();
  const units: Unit[] = [];
  for (const u of roster.units) {
    const placed: Stand[] = [];
    for (const s of u.stands) {
      const tagPose = s.tag === null ? undefined : poseByTag.get(s.tag);
      if (!tagPose) continue;
      placed.push({ id: s.id, unitId: u.id, pose: standPoseFromTag(tagPose, s.tagOffset), widthIn: s.base.widthIn, depthIn: s.base.depthIn, role: s.role });
      unitIdByStand.set(s.id, u.id);
    }
    // Every unit of the army is in the state, on the table or not: an army's break point and a brigade's
    // exhaustion count the units taken off as well (a unit with no stand here has empty standIds).
    stands.push(...placed);
    units.push({
      id: u.id,
      name: u.name,
      side: u.side,
      arm: u.arm,
      quality: u.quality,
      weapon: u.weapon,
      ...(u.brigadeId !== undefined ? { brigadeId: u.brigadeId } : {}),
      ...(u.independent !== undefined ? { independent: u.independent } : {}),
      ...(u.horseArtillery !== undefined ? { horseArtillery: u.horseArtillery } : {}),
      ...(u.sharpshooters !== undefined ? { sharpshooters: u.sharpshooters } : {}),
      ...(u.rulesetFields !== undefined ? { rulesetFields: u.rulesetFields } : {}),
      standIds: placed.map((s) => s.id),
      ...(u.stands.length > 0 ? { startingStands: u.stands.length } : {}),
    });
  }
  const unitStands = [...stands];

  const commanders: Commander[] = roster.commanders.map((c) => {
    const tagPose = c.stand && c.stand.tag !== null ? poseByTag.get(c.stand.tag) : undefined;
    if (c.stand && tagPose) {
      stands.push({ id: c.stand.id, unitId: c.id, pose: standPoseFromTag(tagPose, c.stand.tagOffset), widthIn: c.stand.base.widthIn, depthIn: c.stand.base.depthIn, role: 'commander' });
    }
    return {
      id: c.id,
      name: c.name,
      side: c.side,
      brigadeId: c.brigadeId,
      quality: c.quality,
      ...(c.cavalry !== undefined ? { cavalry: c.cavalry } : {}),
      ...(c.stand && tagPose ? { standId: c.stand.id } : {}),
    };
  });

  // Status chips: each counts for the nearest unit stand whose base edge lies within the radius.
  const status = new Map<string, { disordered?: boolean; prone?: boolean; hits: Record<string, number>; commanderId?: string }>();
  const strayTokens: number[] = [];
  const warnings: string[] = [];
  for (const token of roster.statusTokens) {
    const p = poseByTag.get(token.tag);
    if (!p) continue;
    let best: { stand: Stand; d: number } | null = null;
    for (const s of unitStands) {
      const d = distanceToBase(p.xIn, p.yIn, s);
      if (d <= roster.statusTokenRadiusIn && (best === null || d < best.d)) best = { stand: s, d };
    }
    if (!best) {
      strayTokens.push(token.tag);
      continue;
    }
    const unitId = best.stand.unitId;
    const st = status.get(unitId) ?? { hits: {} };
    if (token.kind === 'disordered') st.disordered = true;
    else if (token.kind === 'prone') st.prone = true;
    else if (token.kind === 'hit') st.hits[best.stand.id] = (st.hits[best.stand.id] ?? 0) + 1;
    else if (token.commanderId !== undefined) {
      if (st.commanderId !== undefined && st.commanderId !== token.commanderId) {
        warnings.push(`unit ${unitId} has two commander chips (${st.commanderId}, ${token.commanderId}); kept ${st.commanderId}`);
      } else st.commanderId = token.commanderId;
    }
    status.set(unitId, st);
  }

  const unitsWithStatus = units.map((u) => {
    const st = status.get(u.id);
    if (!st) return u;
    const s: UnitStatus = {
      ...(Object.keys(st.hits).length > 0 ? { hitsByStand: st.hits } : {}),
      ...(st.disordered ? { disordered: true } : {}),
      ...(st.prone ? { prone: true } : {}),
      ...(st.commanderId !== undefined ? { attachedCommanderId: st.commanderId } : {}),
    };
    return { ...u, status: s };
  });
  const attachedTo = new Map<string, string>();
  for (const [unitId, st] of status) if (st.commanderId !== undefined) attachedTo.set(st.commanderId, unitId);
  const commandersWithAttachment = commanders.map((c) => {
    const unitId = attachedTo.get(c.id);
    return unitId === undefined ? c : { ...c, attachedToUnitId: unitId };
  });

  return {
    state: {
      version: TABLE_STATE_VERSION,
      table: { widthIn: options.table.widthIn, depthIn: options.table.depthIn },
      stands,
      units: unitsWithStatus,
      commanders: commandersWithAttachment,
      terrain: options.terrain,
      ...(roster.optionalRules !== undefined ? { optionalRules: roster.optionalRules } : {}),
      ...(roster.rulesetParameters !== undefined ? { rulesetParameters: roster.rulesetParameters } : {}),
    },
    unassignedTags: unassignedTags.sort((a, b) => a - b),
    strayTokens,
    warnings,
  };
}
