/**
 * Published `LiveState`s → TUIO 1.1 `/tuio/2Dobj` bundles (pure: no sockets, no clocks; the time is each
 * state's frame capture time).
 *
 * One TUIO frame per published state that changed something a TUIO client sees, as reacTIVision's TUIO
 * server does: one OSC bundle holding, in order,
 *
 *   /tuio/2Dobj source muster@<host>      (TUIO 1.1; left out when `source` is null)
 *   /tuio/2Dobj alive s_id...             (every object on the table, every bundle)
 *   /tuio/2Dobj set s i x y a X Y A m r   (objects that are new or whose arguments changed)
 *   /tuio/2Dobj fseq f                    (frame sequence number, +1 per frame)
 *
 * When the bundle would exceed `maxPacketBytes` the set messages are spread over several bundles, each
 * complete (source, the whole alive list, some sets, the same fseq), exactly as the TUIO reference
 * server (TUIO C++ `TuioServer::commitFrame`) splits a frame: many receivers read datagrams into a
 * 1536-byte buffer (JavaOSC, behind the TUIO Java and Processing clients) or 4 KiB (oscpack, behind the
 * C++ clients) and drop or truncate anything larger. The reference clients accept a repeated fseq.
 *
 * - s (session id): from Muster's track id (`LiveState.tracks[].trackId`), not the marker id. The
 *   tracker gives a tag that left (hold time ran out) and came back a new track id, so it is a new TUIO
 *   session. Session id = track id while track ids only grow (they do within a tracker); a track id seen
 *   again after its session ended, or reused for another marker (a restarted tracker), gets the next id
 *   above every id issued so far, so a session id is never reused while this output runs.
 * - i (class id): the ArUco marker id. Every track is sent: stands, status chips and unknown tags.
 * - x y a: `tuioMapping.ts` (normalised, y down, angle clockwise in radians).
 * - X Y (velocity, normalised units per second), A (rotation speed, turns per second, positive
 *   clockwise), m (motion acceleration: change of speed |(X, Y)| per second), r (rotation acceleration,
 *   turns per second²): from the object's previous pose and the frame capture times, as the TUIO
 *   reference library computes them (`TuioContainer::update`, `TuioObject::update`). 0 for a new
 *   session. A state published again for the same frame (a rules result) keeps the last values.
 *   Occluded (held) tracks are alive with their held pose, so their velocity drops to 0.
 *
 * Nothing is sent for a state where the alive list and every object's set arguments (as float32) are the
 * same as last sent: `next` returns []. The caller sends `refresh()` (alive and a set for every object,
 * a new fseq) as the keep-alive, which also tells a client that started late where the still objects
 * are, and heals a lost datagram.
 */
import type { LiveState, Track } from '@muster/protocol';
import { BUNDLE_HEADER_BYTES, bundleElementSize, encodeBundle, encodeMessage, float, int, str, type OscArg } from './osc.ts';
import { clamp01, toTuioPose, type TableSizeIn, type TuioPose } from './tuioMapping.ts';

export const TUIO_OBJECT_ADDRESS = '/tuio/2Dobj';

/** 1500-byte Ethernet MTU less the IPv4 and UDP headers: no IP fragmentation, fits a 1536-byte buffer. */
export const DEFAULT_MAX_PACKET_BYTES = 1472;

export interface TuioFrameOptions {
  /** Table size, inches; default: each state's `tableState.table`. */
  readonly table?: TableSizeIn;
  /** The TUIO 1.1 source string (`muster@<host>`); null leaves the source message out. */
  readonly source: string | null;
  /** Largest datagram to build (default 1472); a frame above it is split as described above. */
  readonly maxPacketBytes?: number;
  /** Told once per kind of problem with the states (e.g. no usable table size). */
  readonly warn?: (message: string) => void;
}

export interface TuioFrames {
  /** The bundles for a published state: [] when nothing a TUIO client sees changed. */
  next(state: LiveState): Buffer[];
  /** Alive and a set for every object, as a new frame: the keep-alive (and first contact). */
  refresh(): Buffer[];
  /** An empty alive list, as a new frame (every object gone): sent when the output closes. */
  clear(): Buffer[];
  /** The fseq of the last frame built (0 before the first). */
  fseq(): number;
}

/** set arguments after s and i: x y a X Y A m r, as float32. */
type SetArgs = readonly [number, number, number, number, number, number, number, number];

interface Session {
  readonly id: number;
  readonly markerId: number;
  /** Unclamped pose of the last state, null until one was usable. */
  pose: TuioPose | null;
  /** Capture time of that pose, ms. */
  tMs: number;
  vx: number;
  vy: number;
  /** Turns per second, clockwise positive. */
  va: number;
  speed: number;
  accel: number;
  rotAccel: number;
  args: SetArgs | null;
  sent: SetArgs | null;
}

const TWO_PI = 2 * Math.PI;

function finite(v: number): number {
  return Number.isFinite(v) ? v : 0;
}

function sameArgs(a: SetArgs, b: SetArgs | null): boolean {
  if (!b) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, k) => v === b[k]);
}

function usableTable(t: TableSizeIn | undefined): t is TableSizeIn {
  return !!t && Number.isFinite(t.widthIn) && Number.isFinite(t.depthIn) && t.widthIn > 0 && t.depthIn > 0;
}

export function createTuioFrames(options: TuioFrameOptions): TuioFrames {
  const maxPacketBytes = options.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES;
  const warned = new Set<string>();
  const warnOnce = (key: string, message: string): void => {
    if (warned.has(key)) return;
    warned.add(key);
    options.warn?.(message);
  };
  /** Live sessions by Muster track id. */
  let sessions = new Map<number, Session>();
  /** Highest session id issued so far. */
  let maxIssued = 0;
  let lastAlive: number[] | null = null;
  let fseq = 0;

  const sourceMessage = options.source === null ? null : encodeMessage(TUIO_OBJECT_ADDRESS, [str('source'), str(options.source)]);

  function newSession(t: Track): Session {
    const id = t.trackId > maxIssued && t.trackId <= 0x7fffffff ? t.trackId : maxIssued + 1;
    maxIssued = id;
    return { id, markerId: t.markerId, pose: null, tMs: 0, vx: 0, vy: 0, va: 0, speed: 0, accel: 0, rotAccel: 0, args: null, sent: null };
  }

  function observe(s: Session, t: Track, timeMs: number, table: TableSizeIn | undefined): void {
    const { xIn, yIn, headingDeg } = t.pose;
    if (!usableTable(table) || !Number.isFinite(xIn) || !Number.isFinite(yIn) || !Number.isFinite(headingDeg)) return;
    const p = toTuioPose(t.pose, table);
    const prev = s.pose;
    if (!prev || timeMs < s.tMs) {
      // New session, or the frame clock went back: nothing to difference against.
      s.vx = s.vy = s.va = s.speed = s.accel = s.rotAccel = 0;
      s.tMs = timeMs;
    } else if (timeMs > s.tMs) {
      const dt = (timeMs - s.tMs) / 1000;
      let da = (p.a - prev.a) / TWO_PI;
      if (da >= 0.5) da -= 1;
      else if (da < -0.5) da += 1;
      const vx = finite((p.x - prev.x) / dt);
      const vy = finite((p.y - prev.y) / dt);
      const va = finite(da / dt);
      const speed = Math.hypot(vx, vy);
      s.accel = finite((speed - s.speed) / dt);
      s.rotAccel = finite((va - s.va) / dt);
      s.vx = vx;
      s.vy = vy;
      s.va = va;
      s.speed = speed;
      s.tMs = timeMs;
    }
    // timeMs === s.tMs: the same frame published again; keep the velocities.
    s.pose = p;
    const f = Math.fround;
    s.args = [f(clamp01(p.x)), f(clamp01(p.y)), f(p.a), f(s.vx), f(s.vy), f(s.va), f(s.accel), f(s.rotAccel)];
  }

  function setMessage(s: Session, a: SetArgs): Buffer {
    const args: OscArg[] = [str('set'), int(s.id), int(s.markerId), ...a.map(float)];
    return encodeMessage(TUIO_OBJECT_ADDRESS, args);
  }

  /** One frame: bundles of source, alive, some of the sets, fseq; marks the sets sent. */
  function frame(alive: number[], sets: readonly Session[]): Buffer[] {
    fseq = fseq >= 0x7fffffff ? 1 : fseq + 1;
    const head: Buffer[] = [];
    if (sourceMessage) head.push(sourceMessage);
    head.push(encodeMessage(TUIO_OBJECT_ADDRESS, [str('alive'), ...alive.map(int)]));
    const tail = encodeMessage(TUIO_OBJECT_ADDRESS, [str('fseq'), int(fseq)]);
    const base = BUNDLE_HEADER_BYTES + head.reduce((n, m) => n + bundleElementSize(m), 0) + bundleElementSize(tail);
    const bundles: Buffer[] = [];
    let chunk: Buffer[] = [];
    let size = base;
    for (const s of sets) {
      if (!s.args) continue;
      const m = setMessage(s, s.args);
      if (chunk.length > 0 && size + bundleElementSize(m) > maxPacketBytes) {
        bundles.push(encodeBundle([...head, ...chunk, tail]));
        chunk = [];
        size = base;
      }
      chunk.push(m);
      size += bundleElementSize(m);
      s.sent = s.args;
    }
    bundles.push(encodeBundle([...head, ...chunk, tail]));
    lastAlive = alive;
    return bundles;
  }

  function current(): Session[] {
    return [...sessions.values()].sort((a, b) => a.id - b.id);
  }

  return {
    next(state) {
      const table = options.table ?? state.tableState?.table;
      if (!usableTable(table) && state.tracks.length > 0) {
        warnOnce('table', `TUIO: no usable table size (${JSON.stringify(table)}); objects are sent alive without positions`);
      }
      const next = new Map<number, Session>();
      // By track id (the tracker lists tracks by marker id), so new tracks keep their ids in order.
      for (const t of [...state.tracks].sort((a, b) => a.trackId - b.trackId)) {
        let s = sessions.get(t.trackId);
        if (!s || s.markerId !== t.markerId) s = next.get(t.trackId) ?? newSession(t);
        observe(s, t, state.captureTimeMs, table);
        next.set(t.trackId, s);
      }
      sessions = next;
      const live = current();
      const alive = live.map((s) => s.id);
      const changed = live.filter((s) => s.args && !sameArgs(s.args, s.sent));
      if (lastAlive && sameList(alive, lastAlive) && changed.length === 0) return [];
      return frame(alive, changed);
    },
    refresh() {
      const live = current();
      return frame(
        live.map((s) => s.id),
        live,
      );
    },
    clear() {
      sessions = new Map();
      return frame([], []);
    },
    fseq: () => fseq,
  };
}
