/**
 * The demo battle as data (`fixtures/demo/*.demo.json`): per unit and commander a list of keyframes (time
 * in seconds, the unit's centre and facing in table inches/degrees, the formation from then on), status
 * chips laid next to units for a while, the terrain and the table size. `scenePoses(script, roster, tS)`
 * interpolates every stand's pose (linear position, shortest-arc heading) and every chip's. A unit may fix
 * where each of its stands sits in its own frame (`standOffsets`, by tag): the blocks and wedges of
 * pike & shot, which no line or column gives.
 */
import { readFileSync } from 'node:fs';
import type { PoseIn, Terrain } from '@muster/rules';
import { validateTerrain } from '@muster/protocol';
import type { Roster, RosterStand } from '../roster/roster.ts';

export type DemoFormation = 'line' | 'column' | 'battery';

export interface Keyframe {
  readonly tS: number;
  readonly xIn: number;
  readonly yIn: number;
  readonly headingDeg: number;
  /** From this keyframe on; default: the previous keyframe's, or 'line'. */
  readonly formation?: DemoFormation;
}

/** Where a stand sits from its unit's keyframed centre, in the unit's own frame (inches). */
export interface StandOffset {
  /** To the unit's right (its facing turned 90° clockwise). */
  readonly rightIn: number;
  /** Along the unit's facing. */
  readonly forwardIn: number;
}

export interface DemoUnit {
  readonly keyframes: readonly Keyframe[];
  /** By stand tag (as a string): the stand's place in the unit's frame, whatever the keyframe's formation. */
  readonly standOffsets?: Readonly<Record<string, StandOffset>>;
}

export interface DemoChip {
  readonly tag: number;
  readonly unitId: string;
  readonly fromS: number;
  readonly toS: number;
  readonly note?: string;
}

export interface DemoScript {
  readonly version: 1;
  readonly name: string;
  readonly source?: string;
  /** Repository-relative path of the roster this script moves. */
  readonly roster: string;
  readonly table: { readonly widthIn: number; readonly depthIn: number };
  /** The battle replays every loopS seconds. */
  readonly loopS: number;
  /** Corner anchor tags, table inches (for rendered frames). */
  readonly anchors: readonly { readonly tag: number; readonly xIn: number; readonly yIn: number }[];
  readonly terrain: Terrain;
  readonly units: Readonly<Record<string, DemoUnit>>;
  readonly commanders: Readonly<Record<string, { readonly keyframes: readonly Keyframe[] }>>;
  readonly chips: readonly DemoChip[];
}

export class DemoScriptError extends Error {}

function fail(file: string, msg: string): never {
  throw new DemoScriptError(`${file}: ${msg}`);
}

function checkKeyframes(file: string, path: string, v: unknown): Keyframe[] {
  if (!Array.isArray(v) || v.length === 0) fail(file, `${path}: keyframes must be a non-empty list`);
  let lastT = -Infinity;
  return v.map((k, i) => {
    const r = k as Record<string, unknown>;
    for (const f of ['tS', 'xIn', 'yIn', 'headingDeg'] as const) {
      if (typeof r[f] !== 'number' || !Number.isFinite(r[f])) fail(file, `${path}[${i}].${f} must be a number`);
    }
    if ((r.tS as number) <= lastT) fail(file, `${path}[${i}].tS must increase`);
    lastT = r.tS as number;
    if (r.formation !== undefined && !['line', 'column', 'battery'].includes(r.formation as string)) {
      fail(file, `${path}[${i}].formation must be line, column or battery`);
    }
    return r as unknown as Keyframe;
  });
}

function checkStandOffsets(file: string, path: string, v: unknown, stands: readonly RosterStand[]): void {
  if (v === undefined) return;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(file, `${path} must be an object of stand tag → { rightIn, forwardIn }`);
  for (const [tag, off] of Object.entries(v as Record<string, unknown>)) {
    if (!stands.some((st) => st.tag !== null && String(st.tag) === tag)) fail(file, `${path}.${tag}: no stand of this unit has tag ${tag}`);
    const o = off as Record<string, unknown> | null;
    for (const f of ['rightIn', 'forwardIn'] as const) {
      if (typeof o?.[f] !== 'number' || !Number.isFinite(o[f])) fail(file, `${path}.${tag}.${f} must be a number`);
    }
  }
}

/** Checks a parsed script against its roster (every unit id known, keyframes ordered, terrain valid). */
export function checkDemoScript(value: unknown, roster: Roster, file = 'demo script'): DemoScript {
  if (typeof value !== 'object' || value === null) fail(file, 'must be a JSON object');
  const s = value as Record<string, unknown>;
  if (s.version !== 1) fail(file, 'version must be 1');
  if (typeof s.loopS !== 'number' || s.loopS <= 0) fail(file, 'loopS must be a positive number');
  const terrain = validateTerrain(s.terrain);
  if (!terrain.ok) fail(file, terrain.message);
  const units = (s.units ?? {}) as Record<string, { keyframes: unknown; standOffsets?: unknown }>;
  const commanders = (s.commanders ?? {}) as Record<string, { keyframes: unknown }>;
  for (const [id, u] of Object.entries(units)) {
    if (!roster.units.some((r) => r.id === id)) fail(file, `units.${id}: no such unit in roster "${roster.name}"`);
    checkKeyframes(file, `units.${id}.keyframes`, u.keyframes);
    checkStandOffsets(file, `units.${id}.standOffsets`, u.standOffsets, roster.units.find((r) => r.id === id)!.stands);
  }
  for (const [id, c] of Object.entries(commanders)) {
    if (!roster.commanders.some((r) => r.id === id)) fail(file, `commanders.${id}: no such commander in roster`);
    checkKeyframes(file, `commanders.${id}.keyframes`, c.keyframes);
  }
  for (const [i, chip] of ((s.chips ?? []) as DemoChip[]).entries()) {
    if (!roster.statusTokens.some((t) => t.tag === chip.tag)) fail(file, `chips[${i}].tag ${chip.tag} is not a status chip in the roster`);
    if (!(chip.unitId in units)) fail(file, `chips[${i}].unitId "${chip.unitId}" has no keyframes`);
  }
  return { ...(s as unknown as DemoScript), terrain: terrain.value, chips: (s.chips ?? []) as DemoChip[] };
}

export function loadDemoScript(path: string, roster: Roster): DemoScript {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new DemoScriptError(`${path}: cannot read (${(err as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new DemoScriptError(`${path}: not valid JSON (${(err as Error).message})`);
  }
  return checkDemoScript(value, roster, path);
}

interface UnitPose extends PoseIn {
  readonly formation: DemoFormation;
}

function shortestArc(fromDeg: number, toDeg: number): number {
  return ((((toDeg - fromDeg) % 360) + 540) % 360) - 180;
}

/** Interpolated pose of a keyframed thing at tS (clamped to the first and last keyframe). */
export function interpolate(keyframes: readonly Keyframe[], tS: number): UnitPose {
  let formation: DemoFormation = 'line';
  let prev = keyframes[0]!;
  if (prev.formation) formation = prev.formation;
  for (let i = 1; i < keyframes.length; i++) {
    const next = keyframes[i]!;
    if (tS < next.tS) {
      const f = (tS - prev.tS) / (next.tS - prev.tS);
      if (f <= 0) break;
      const heading = prev.headingDeg + shortestArc(prev.headingDeg, next.headingDeg) * f;
      return {
        xIn: prev.xIn + (next.xIn - prev.xIn) * f,
        yIn: prev.yIn + (next.yIn - prev.yIn) * f,
        headingDeg: ((heading % 360) + 360) % 360,
        formation,
      };
    }
    prev = next;
    if (prev.formation) formation = prev.formation;
  }
  return { xIn: prev.xIn, yIn: prev.yIn, headingDeg: ((prev.headingDeg % 360) + 360) % 360, formation };
}

/**
 * Stand centres for a unit at `pose`: line = side by side, column = 2 wide, battery = guns 0.5" apart; a
 * stand with an offset of its own sits there instead.
 */
function layout(stands: readonly RosterStand[], pose: UnitPose, offsets: DemoUnit['standOffsets']): Map<string, PoseIn> {
  const h = (pose.headingDeg * Math.PI) / 180;
  const fx = Math.cos(h);
  const fy = Math.sin(h);
  // Right of the facing: facing turned 90° clockwise.
  const rx = fy;
  const ry = -fx;
  const out = new Map<string, PoseIn>();
  const at = (id: string, rightIn: number, forwardIn: number): void => {
    out.set(id, { xIn: pose.xIn + rightIn * rx + forwardIn * fx, yIn: pose.yIn + rightIn * ry + forwardIn * fy, headingDeg: pose.headingDeg });
  };
  // Command stand in the middle of the line: reorder so it lands at the centre slot.
  const ordered = [...stands];
  const command = ordered.findIndex((s) => s.role === 'command');
  if (command >= 0 && pose.formation !== 'column') {
    const [c] = ordered.splice(command, 1);
    ordered.splice(Math.floor(ordered.length / 2), 0, c!);
  }
  const n = ordered.length;
  ordered.forEach((s, i) => {
    const own = s.tag !== null ? offsets?.[String(s.tag)] : undefined;
    if (own) {
      at(s.id, own.rightIn, own.forwardIn);
      return;
    }
    const w = s.base.widthIn;
    const d = s.base.depthIn;
    if (pose.formation === 'column') {
      const col = i % 2;
      const row = Math.floor(i / 2);
      at(s.id, (col - 0.5) * w, -row * (d + 0.05));
    } else {
      const gap = pose.formation === 'battery' ? 0.5 : 0;
      at(s.id, (i - (n - 1) / 2) * (w + gap), 0);
    }
  });
  return out;
}

export interface ScenePoses {
  /** Every scripted stand's centre pose (roster stand id → pose). */
  readonly stands: ReadonlyMap<string, PoseIn>;
  /** Chips on the table now (tag → pose). */
  readonly chips: ReadonlyMap<number, PoseIn>;
}

/** The whole scene at `tS` seconds into the loop. */
export function scenePoses(script: DemoScript, roster: Roster, tS: number): ScenePoses {
  const stands = new Map<string, PoseIn>();
  for (const unit of roster.units) {
    const kf = script.units[unit.id];
    if (!kf) continue;
    for (const [id, pose] of layout(unit.stands, interpolate(kf.keyframes, tS), kf.standOffsets)) stands.set(id, pose);
  }
  for (const c of roster.commanders) {
    const kf = script.commanders[c.id];
    if (!kf || !c.stand) continue;
    const p = interpolate(kf.keyframes, tS);
    stands.set(c.stand.id, { xIn: p.xIn, yIn: p.yIn, headingDeg: p.headingDeg });
  }
  const chips = new Map<number, PoseIn>();
  for (const chip of script.chips) {
    if (tS < chip.fromS || tS >= chip.toS) continue;
    const kf = script.units[chip.unitId];
    if (!kf) continue;
    // 1.4" behind the unit's centre: next to the rear edge of the centre stand.
    const p = interpolate(kf.keyframes, tS);
    const h = (p.headingDeg * Math.PI) / 180;
    chips.set(chip.tag, { xIn: p.xIn - 1.4 * Math.cos(h), yIn: p.yIn - 1.4 * Math.sin(h), headingDeg: p.headingDeg });
  }
  return { stands, chips };
}
