/**
 * The keys of one `movementOptions` call: what the unit's move can meet (a terrain feature, a friendly or
 * an enemy unit), each with its group of pieces in the context's buffer (`obstacleBuffer.ts`), and for each
 * direction which keys can matter. Written by `collectObstacles`, read by the reach walk (`reachWalk.ts`)
 * and the fudge move (`fudgeWalk.ts`), which copy the arrays into locals on entry (see `reachWalk.ts`).
 *
 * Per-call scratch, reused between calls: movementOptions is synchronous and never re-entered, and nothing
 * here escapes a call. Keys are what can be met, each met once per direction. The arrays that grow are
 * module variables written only here; other modules read them through their imports (live bindings).
 */
import type { AreaTerrain, LinearTerrain } from '../../../model/tableState.ts';
import type { UnitInfo } from '../context.ts';
import type { Group } from './obstacleBuffer.ts';
import { REACH_BINS } from './openReach.ts';

/** What a key is. */
export const KEY_LINEAR = 0;
export const KEY_AREA = 1;
export const KEY_FRIEND = 2;
export const KEY_ENEMY = 3;
export const keyGroup: Group[] = [];
export const keyPenaltyIn: number[] = [];
export const keyStop: boolean[] = [];
/** Outline points (bits 0..7) already inside an area: met at once when moving from them. */
export const keyInsideMask: number[] = [];
export const keyKind: number[] = [];
/** The feature or unit behind a key; its label is only built when a walk reports stopping at it. */
export const keySource: (LinearTerrain | AreaTerrain | UnitInfo)[] = [];
/** Areas the reference point starts in: their penalty is met at once in every direction. */
export const startPenaltyIn: number[] = [];
export const startArea: AreaTerrain[] = [];
/** Groups per direction bin (indices into the keys): bin b's list is binGroups[b * binCapacity ...] with binCount[b] entries. */
export let binCapacity = 64;
export let binGroups = new Int32Array(REACH_BINS * binCapacity);
export const binCount = new Int32Array(REACH_BINS);

/*
 * How many keys and start areas this call has. The arrays are written by index and never shrunk (setting
 * length = 0 frees their storage, so every call re-grew them); entries past the counts are stale.
 */
export let keyCount = 0;
export let startCount = 0;

/**
 * The keys' groups as parallel typed arrays for the ray loops (disc, spread, reach, where the pieces are,
 * how many, whether segments), and the context's piece buffer they point into.
 */
export let keyCX = new Float64Array(64);
export let keyCY = new Float64Array(64);
export let keyR = new Float64Array(64);
export let keySpread = new Float64Array(64);
export let keyReach = new Float64Array(64);
export let keyOff = new Int32Array(64);
export let keyN = new Int32Array(64);
export let keySeg = new Uint8Array(64);
export let pieceBuf: Float64Array = new Float64Array(0);

function growKeyArrays(): void {
  const n = keyCX.length * 2;
  const more = <T extends Float64Array | Int32Array | Uint8Array>(a: T, next: T): T => {
    next.set(a);
    return next;
  };
  keyCX = more(keyCX, new Float64Array(n));
  keyCY = more(keyCY, new Float64Array(n));
  keyR = more(keyR, new Float64Array(n));
  keySpread = more(keySpread, new Float64Array(n));
  keyReach = more(keyReach, new Float64Array(n));
  keyOff = more(keyOff, new Int32Array(n));
  keyN = more(keyN, new Int32Array(n));
  keySeg = more(keySeg, new Uint8Array(n));
}

/** Adds a key for a group of pieces met as `kind` (KEY_*), with what meeting it costs or whether it stops the move. */
export function pushKey(group: Group, penaltyIn: number, stop: boolean, insideMask: number, kind: number, source: LinearTerrain | AreaTerrain | UnitInfo): void {
  const i = keyCount++;
  if (i >= keyCX.length) growKeyArrays();
  keyCX[i] = group.cx;
  keyCY[i] = group.cy;
  keyR[i] = group.r;
  keySpread[i] = group.spread;
  keyReach[i] = group.reach;
  keyOff[i] = group.off;
  keyN[i] = group.n;
  keySeg[i] = group.seg ? 1 : 0;
  keyGroup[i] = group;
  keyPenaltyIn[i] = penaltyIn;
  keyStop[i] = stop;
  keyInsideMask[i] = insideMask;
  keyKind[i] = kind;
  keySource[i] = source;
}

/** Starts a call: no keys, no start areas. */
export function resetKeys(): void {
  keyCount = 0;
  startCount = 0;
}

/** An area the reference point starts in: its penalty is met at once in every direction. */
export function pushStartArea(penaltyIn: number, area: AreaTerrain): void {
  startPenaltyIn[startCount] = penaltyIn;
  startArea[startCount++] = area;
}

/** The context's piece buffer the keys' offsets point into (set once every group of the call is built). */
export function usePieces(buf: Float64Array): void {
  pieceBuf = buf;
}

/** Empties every direction's list of keys, with room for `nKeys` keys in each. */
export function resetBins(nKeys: number): void {
  binCount.fill(0);
  if (nKeys > binCapacity) {
    binCapacity = nKeys * 2;
    binGroups = new Int32Array(REACH_BINS * binCapacity);
  }
}

/** How a walk names the key it stopped at. */
export function keyLabel(key: number): string {
  const kind = keyKind[key];
  if (kind === KEY_LINEAR) {
    const line = keySource[key] as LinearTerrain;
    return `${line.kind} '${line.id}'`;
  }
  if (kind === KEY_AREA) {
    const area = keySource[key] as AreaTerrain;
    return `${area.kind} '${area.id}'`;
  }
  const u = keySource[key] as UnitInfo;
  return kind === KEY_FRIEND ? `passage of lines through '${u.unit.id}'` : `1" from enemy '${u.unit.id}'`;
}
