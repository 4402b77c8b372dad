/**
 * Test-only scene builder for fire, rally, command and assembly tests: units placed as formations on an
 * otherwise empty table, with optional terrain.
 */
import type { Commander, Stand, TableState, Terrain, Unit, UnitStatus, Arm, Quality } from '../../model/tableState.ts';
import { ARTILLERY_BASE, CAVALRY_BASE, INFANTRY_BASE, file, grid, placeStands, unitOf } from './movementChargeTestScenes.ts';
import type { FireRefusal, FireTargetOption } from '../../engine/evaluation.ts';
import { buildContext } from './context.ts';
import { buildFireScene, fireAtTarget } from './fire.ts';

export interface SceneUnit {
  readonly id: string;
  readonly side?: string;
  readonly arm?: Arm;
  readonly quality?: Quality;
  readonly weapon?: string;
  readonly status?: UnitStatus;
  readonly brigadeId?: string;
  readonly independent?: boolean;
  /** Centre of the front rank (line) or the lead stand (column), inches. */
  readonly xIn: number;
  readonly yIn: number;
  readonly headingDeg: number;
  readonly stands?: number;
  /** Stands per rank; default all in one rank. */
  readonly perRank?: number;
  readonly column?: boolean;
}

export function sceneUnit(spec: SceneUnit): { unit: Unit; stands: Stand[] } {
  const arm = spec.arm ?? 'infantry';
  const base = arm === 'artillery' ? ARTILLERY_BASE : arm === 'cavalry' ? CAVALRY_BASE : INFANTRY_BASE;
  const n = spec.stands ?? 5;
  const locals = spec.column ? file(n, base) : grid(n, spec.perRank ?? n, base);
  let stands = placeStands({ unitId: spec.id, xIn: spec.xIn, yIn: spec.yIn, headingDeg: spec.headingDeg, base }, locals);
  if (arm === 'cavalry') stands = stands.map((s) => ({ ...s, role: s.role === 'command' ? 'command' : 'mounted' }));
  if (arm === 'artillery') stands = stands.map((s, i) => ({ ...s, role: i === 0 ? 'command' : 'gun' }));
  const unit = unitOf(
    {
      id: spec.id,
      ...(spec.side ? { side: spec.side } : {}),
      arm,
      quality: spec.quality ?? 'veteran',
      weapon: spec.weapon ?? (arm === 'artillery' ? '12-pound-napoleon' : arm === 'cavalry' ? 'carbine' : 'rifled-musket'),
      ...(spec.status ? { status: spec.status } : {}),
    },
    stands,
  );
  return {
    unit: { ...unit, ...(spec.brigadeId ? { brigadeId: spec.brigadeId } : {}), ...(spec.independent ? { independent: true } : {}) },
    stands,
  };
}

export function scene(units: readonly SceneUnit[], terrain: Partial<Terrain> = {}, commanders: { commander: Commander; stand?: Stand }[] = []): TableState {
  const built = units.map(sceneUnit);
  return {
    version: 1,
    table: { widthIn: 96, depthIn: 72 },
    stands: [...built.flatMap((b) => b.stands), ...commanders.flatMap((c) => (c.stand ? [c.stand] : []))],
    units: built.map((b) => b.unit),
    commanders: commanders.map((c) => c.commander),
    terrain: { areas: terrain.areas ?? [], linear: terrain.linear ?? [], roads: terrain.roads ?? [], elevations: terrain.elevations ?? [] },
  };
}

/** A rectangle polygon, inches. */
export function rect(x0: number, y0: number, x1: number, y1: number) {
  return [
    { xIn: x0, yIn: y0 },
    { xIn: x1, yIn: y0 },
    { xIn: x1, yIn: y1 },
    { xIn: x0, yIn: y1 },
  ];
}

/** Fire of `firer` at `target` on a fresh context and fire scene. */
export function fireOn(state: TableState, firer: string, target: string): FireTargetOption | FireRefusal {
  const ctx = buildContext(state);
  return fireAtTarget(ctx, buildFireScene(ctx), firer, target);
}

/** A fire option, or an error naming the refusal. */
export function fireOption(r: FireTargetOption | FireRefusal): FireTargetOption {
  if (!r.ok) throw new Error(`expected a fire option, got ${r.reason}: ${r.detail}`);
  return r;
}

/** "label:dice" for every modifier of an option's breakdown. */
export const modifierLabels = (o: FireTargetOption): string[] => o.breakdown.modifiers.map((m) => `${m.label}:${m.dice}`);

/** Firer 'f' facing +y at y=10; target 't' facing -y with its front edge `gapIn` away. */
export function facingPair(gapIn: number, firer: Partial<SceneUnit> = {}, target: Partial<SceneUnit> = {}): SceneUnit[] {
  return [
    { id: 'f', xIn: 40, yIn: 10, headingDeg: 90, ...firer },
    { id: 't', side: 'confederate', xIn: 40, yIn: 10 + 0.75 + gapIn + 0.75, headingDeg: 270, ...target },
  ];
}
