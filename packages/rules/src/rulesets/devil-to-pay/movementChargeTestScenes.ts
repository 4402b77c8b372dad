/**
 * Scene builders for the formation, movement, charge and skedaddle tests: stands placed in a unit's own
 * frame (u to the unit's right, v forward, inches) and turned onto the table. Test-only; not exported by
 * the package.
 */
import { TABLE_STATE_VERSION } from '../../model/tableState.ts';
import type { Arm, Quality, Stand, StandRole, TableState, Unit, UnitStatus } from '../../model/tableState.ts';
import { headingToVector, normalizeDeg } from '../../geometry/angles.ts';

/** DTP basing (Armies, Basing): infantry 1.5" square, cavalry 2" square, artillery 1.5" x 3". */
export const INFANTRY_BASE = { widthIn: 1.5, depthIn: 1.5 } as const;
export const CAVALRY_BASE = { widthIn: 2, depthIn: 2 } as const;
export const ARTILLERY_BASE = { widthIn: 1.5, depthIn: 3 } as const;

export interface LocalStand {
  /** Offset to the unit's right, inches. */
  readonly u: number;
  /** Offset forward, inches. */
  readonly v: number;
  /** Facing relative to the unit, degrees (default 0). */
  readonly relDeg?: number;
  readonly role?: StandRole;
}

export interface Placement {
  readonly unitId: string;
  readonly xIn: number;
  readonly yIn: number;
  readonly headingDeg: number;
  readonly base?: { readonly widthIn: number; readonly depthIn: number };
}

/** Stands at local offsets from (xIn, yIn) in a frame facing headingDeg; ids are `${unitId}-s${i}`. */
export function placeStands(p: Placement, locals: readonly LocalStand[]): Stand[] {
  const f = headingToVector(p.headingDeg);
  const base = p.base ?? INFANTRY_BASE;
  return locals.map((l, i) => ({
    id: `${p.unitId}-s${i}`,
    unitId: p.unitId,
    pose: {
      xIn: p.xIn + l.u * f.y + l.v * f.x,
      yIn: p.yIn - l.u * f.x + l.v * f.y,
      headingDeg: normalizeDeg(p.headingDeg + (l.relDeg ?? 0)),
    },
    widthIn: base.widthIn,
    depthIn: base.depthIn,
    role: l.role ?? 'base',
  }));
}

/**
 * Offsets for `n` stands in ranks `perRank` wide, centred laterally on the command stand's rank, with
 * `gapIn` between stands side by side and `rankGapIn` between ranks. Stand 0 (the command stand) is in
 * the front rank, in the middle.
 */
export function grid(n: number, perRank: number, size: { widthIn: number; depthIn: number }, gapIn = 0, rankGapIn = 0): LocalStand[] {
  const out: LocalStand[] = [];
  for (let i = 0; i < n; i++) {
    const rank = Math.floor(i / perRank);
    const inRank = Math.min(perRank, n - rank * perRank);
    const col = i % perRank;
    const pitch = size.widthIn + gapIn;
    out.push({ u: (col - (inRank - 1) / 2) * pitch, v: -rank * (size.depthIn + rankGapIn), role: i === 0 ? 'command' : 'base' });
  }
  // Put the command stand in the middle of the front rank, as players do.
  const frontCount = Math.min(perRank, n);
  const mid = Math.floor((frontCount - 1) / 2);
  if (mid > 0) {
    const a = out[0]!;
    const b = out[mid]!;
    out[0] = { ...a, u: b.u };
    out[mid] = { ...b, u: a.u };
  }
  return out;
}

/** Single file: the command stand leads, the rest follow one depth behind each other. */
export function file(n: number, size: { depthIn: number }, gapIn = 0): LocalStand[] {
  return Array.from({ length: n }, (_, i) => ({ u: 0, v: -i * (size.depthIn + gapIn), role: i === 0 ? ('command' as const) : ('base' as const) }));
}

/** Staggered line: every other stand pushed back half a depth and half a width sideways overlap kept. */
export function staggered(n: number, size: { widthIn: number; depthIn: number }): LocalStand[] {
  return Array.from({ length: n }, (_, i) => ({
    u: (i - (n - 1) / 2) * size.widthIn,
    v: i % 2 === 0 ? 0 : -0.6 * size.depthIn,
    relDeg: i % 2 === 0 ? 5 : -8,
    role: i === 0 ? ('command' as const) : ('base' as const),
  }));
}

export interface UnitSpec {
  readonly id: string;
  readonly side?: string;
  readonly arm?: Arm;
  readonly quality?: Quality;
  readonly weapon?: string;
  readonly status?: UnitStatus;
  readonly horseArtillery?: boolean;
}

/** A unit owning the given stands (veteran infantry of side 'union' by default). */
export function unitOf(spec: UnitSpec, stands: readonly Stand[]): Unit {
  return {
    id: spec.id,
    name: spec.id,
    side: spec.side ?? 'union',
    arm: spec.arm ?? 'infantry',
    quality: spec.quality ?? 'veteran',
    weapon: spec.weapon ?? 'rifled-musket',
    standIds: stands.map((s) => s.id),
    ...(spec.status ? { status: spec.status } : {}),
    ...(spec.horseArtillery ? { horseArtillery: true } : {}),
  };
}

/** A table state from units with their stands and optional terrain (48" x 72" table). */
export function stateOf(
  parts: readonly { readonly unit: Unit; readonly stands: readonly Stand[] }[],
  terrain: Partial<TableState['terrain']> = {},
  commanders: TableState['commanders'] = [],
): TableState {
  return {
    version: TABLE_STATE_VERSION,
    table: { widthIn: 72, depthIn: 48 },
    stands: parts.flatMap((p) => p.stands),
    units: parts.map((p) => p.unit),
    commanders,
    terrain: { areas: terrain.areas ?? [], linear: terrain.linear ?? [], roads: terrain.roads ?? [], elevations: terrain.elevations ?? [] },
  };
}

/** Place stands and wrap them in a unit in one go. */
export function unitAt(spec: UnitSpec, p: Omit<Placement, 'unitId'>, locals: readonly LocalStand[]): { unit: Unit; stands: Stand[] } {
  const stands = placeStands({ ...p, unitId: spec.id }, locals);
  return { unit: unitOf(spec, stands), stands };
}
