/**
 * Ghosts: where each stand stood before its last move (from `GET /api/ghosts`), as marks in table inches.
 * A ghost takes the stand's own base size (the log records poses, not bases), so measuring from it is
 * measuring from the stand as it stood.
 */
import type { PointIn, PoseIn, Stand } from '@muster/rules';
import { standFootprint } from './standFootprint.ts';

/** One ghost as the service reports it. */
export interface Ghost {
  readonly standId: string;
  readonly unitId: string;
  /** Where the stand stood before its last move. */
  readonly from: PoseIn;
}

export interface GhostMark {
  /** A stand at the earlier pose; its id is `ghost:<stand id>` so it never collides with a live one. */
  readonly stand: Stand;
  /** The live stand it is the ghost of. */
  readonly standId: string;
  /** The footprint at the earlier pose, corners in order (a closed ring). */
  readonly outline: readonly PointIn[];
  /** From the ghost's centre to the stand's centre now. */
  readonly link: readonly [PointIn, PointIn];
}

export const GHOST_ID_PREFIX = 'ghost:';

export function isGhostStand(stand: Pick<Stand, 'id'> | null | undefined): boolean {
  return stand !== null && stand !== undefined && stand.id.startsWith(GHOST_ID_PREFIX);
}

/**
 * Marks for the ghosts whose stand is on the table now (a ghost of a stand that has left is dropped: its
 * base size is unknown, and there is no "now" to link it to).
 * @example ghostMarks([{ standId: 's', unitId: 'u', from: { xIn: 0, yIn: 0, headingDeg: 0 } }], [stand s at (4, 0)])[0].link
 * // [{ xIn: 0, yIn: 0 }, { xIn: 4, yIn: 0 }]
 */
export function ghostMarks(ghosts: readonly Ghost[], stands: readonly Stand[]): GhostMark[] {
  const byId = new Map(stands.map((s) => [s.id, s]));
  const out: GhostMark[] = [];
  for (const g of ghosts) {
    const now = byId.get(g.standId);
    if (!now) continue;
    const stand: Stand = { ...now, id: `${GHOST_ID_PREFIX}${g.standId}`, pose: g.from };
    out.push({
      stand,
      standId: g.standId,
      outline: standFootprint(stand).corners,
      link: [{ xIn: g.from.xIn, yIn: g.from.yIn }, { xIn: now.pose.xIn, yIn: now.pose.yIn }],
    });
  }
  return out;
}

/** Checks one `GET /api/ghosts` answer's list, dropping malformed items (a view must not die on one). */
export function parseGhosts(body: unknown): Ghost[] {
  const list = (body as { ghosts?: unknown })?.ghosts;
  if (!Array.isArray(list)) return [];
  const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  return list.flatMap((g: unknown) => {
    const x = g as { standId?: unknown; unitId?: unknown; from?: { pose?: { xIn?: unknown; yIn?: unknown; headingDeg?: unknown } | null } | null };
    const p = x?.from?.pose;
    if (typeof x?.standId !== 'string' || typeof x.unitId !== 'string' || !p || !num(p.xIn) || !num(p.yIn) || !num(p.headingDeg)) return [];
    return [{ standId: x.standId, unitId: x.unitId, from: { xIn: p.xIn, yIn: p.yIn, headingDeg: p.headingDeg } }];
  });
}
