/**
 * A seeded random battlefield for session and benchmark tests: two sides of 30 units (infantry lines,
 * batteries, cavalry, about 300 stands), brigades with commanders, woods, a hill, fences and a road.
 * `moveRandomUnit` nudges one unit (or gives it a hit) the way a tracker update would.
 */
import type { Commander, Stand, TableState, Unit } from '../../model/tableState.ts';
import type { Rng } from '../../dice/rng.ts';
import { normalizeDeg } from '../../geometry/angles.ts';
import { sceneUnit } from './fireTestScene.ts';
import { rect } from './fireTestScene.ts';

export function randomTable(rng: Rng, unitsPerSide = 30): TableState {
  const stands: Stand[] = [];
  const units: Unit[] = [];
  const commanders: Commander[] = [];
  const jitter = (k: number) => (rng.nextFloat() * 2 - 1) * k;
  for (const [sideIndex, side] of (['union', 'confederate'] as const).entries()) {
    const facing = sideIndex === 0 ? 90 : 270;
    for (let i = 0; i < unitsPerSide; i++) {
      const row = Math.floor(i / 10);
      const col = i % 10;
      const kind = i % 10 === 4 ? 'artillery' : i % 10 === 9 ? 'cavalry' : 'infantry';
      const brigadeId = `${side}-b${Math.floor(i / 5)}`;
      const yIn = sideIndex === 0 ? 20 - row * 7 + jitter(1) : 40 + row * 7 + jitter(1);
      const built = sceneUnit({
        id: `${side}-${i}`,
        side,
        arm: kind,
        quality: (['crack', 'veteran', 'green'] as const)[rng.nextInt(3)]!,
        ...(kind === 'infantry' ? { weapon: (['rifled-musket', 'smoothbore-musket', 'poor-rifled-musket'] as const)[rng.nextInt(3)]! } : {}),
        xIn: 6 + col * 9.3 + jitter(1),
        yIn,
        headingDeg: normalizeDeg(facing + jitter(10)),
        stands: kind === 'artillery' ? 3 : 5,
        brigadeId,
        ...(rng.nextInt(4) === 0 ? { status: { hitsByStand: { [`${side}-${i}-s1`]: 1 } } } : {}),
      });
      stands.push(...built.stands);
      units.push(built.unit);
      if (i % 5 === 0) {
        const id = `${brigadeId}-cdr`;
        commanders.push({ id, name: id, side, brigadeId, quality: (['superb', 'capable', 'weak'] as const)[rng.nextInt(3)]!, standId: `${id}-stand` });
        stands.push({ id: `${id}-stand`, unitId: id, pose: { xIn: 6 + col * 9.3 + 4.6, yIn: yIn + (sideIndex === 0 ? -2.5 : 2.5), headingDeg: facing }, widthIn: 1.5, depthIn: 1.5, role: 'commander' });
      }
    }
  }
  return {
    version: 1,
    table: { widthIn: 96, depthIn: 60 },
    stands,
    units,
    commanders,
    terrain: {
      areas: [
        { id: 'woods-1', kind: 'open-woods', vertices: rect(10, 26, 22, 34) },
        { id: 'woods-2', kind: 'thick-woods', vertices: rect(60, 25, 70, 35) },
        { id: 'farm', kind: 'farm', vertices: rect(40, 28, 45, 32) },
      ],
      linear: [
        { id: 'fence-1', kind: 'fence', points: [{ xIn: 0, yIn: 23 }, { xIn: 50, yIn: 23.5 }] },
        { id: 'wall-1', kind: 'wall', points: [{ xIn: 50, yIn: 37 }, { xIn: 96, yIn: 37 }] },
      ],
      roads: [{ id: 'pike', points: [{ xIn: 30, yIn: 0 }, { xIn: 35, yIn: 60 }] }],
      elevations: [{ id: 'ridge', level: 1, vertices: rect(75, 44, 96, 60) }],
    },
  };
}

/** A new state with one unit nudged up to `maxIn` inches and 15°, or (1 time in 5) given a hit. */
export function moveRandomUnit(state: TableState, rng: Rng, maxIn = 3): { state: TableState; unitId: string } {
  const unit = state.units[rng.nextInt(state.units.length)]!;
  if (rng.nextInt(5) === 0) {
    const standId = unit.standIds[rng.nextInt(unit.standIds.length)]!;
    const units = state.units.map((u) =>
      u.id === unit.id ? { ...u, status: { ...u.status, hitsByStand: { ...u.status?.hitsByStand, [standId]: 1 } } } : u,
    );
    return { state: { ...state, units }, unitId: unit.id };
  }
  const dx = (rng.nextFloat() * 2 - 1) * maxIn;
  const dy = (rng.nextFloat() * 2 - 1) * maxIn;
  const dh = (rng.nextFloat() * 2 - 1) * 15;
  const ids = new Set(unit.standIds);
  const stands = state.stands.map((s) =>
    ids.has(s.id) ? { ...s, pose: { xIn: s.pose.xIn + dx, yIn: s.pose.yIn + dy, headingDeg: normalizeDeg(s.pose.headingDeg + dh) } } : s,
  );
  return { state: { ...state, stands }, unitId: unit.id };
}
