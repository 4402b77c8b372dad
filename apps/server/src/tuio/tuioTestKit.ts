/**
 * Test helpers (not used by the service; osc-min is a root devDependency).
 *
 * `decodeTuioBundle` decodes a datagram with the osc-min decoder and checks it is a TUIO 1.1 `/tuio/2Dobj` bundle in the order the spec gives (source?,
 * alive, set..., fseq) with the argument types it gives (set: s i x y a X Y A m r as int32, int32 and
 * eight float32; alive: int32s; fseq: int32). Throws on anything else.
 */
import { fromBuffer, type OscArgOutputOrArray, type OscPacketOutput } from 'osc-min';
import type { LiveState, Track } from '@muster/protocol';

export interface TuioSet {
  readonly s: number;
  readonly i: number;
  readonly x: number;
  readonly y: number;
  readonly a: number;
  readonly X: number;
  readonly Y: number;
  readonly A: number;
  readonly m: number;
  readonly r: number;
}

export interface TuioBundle {
  readonly timetag: readonly [number, number];
  readonly source: string | null;
  readonly alive: readonly number[];
  readonly sets: readonly TuioSet[];
  readonly fseq: number;
  readonly bytes: number;
}

function ints(args: readonly OscArgOutputOrArray[], what: string): number[] {
  return args.map((a) => {
    if (a.type !== 'integer') throw new Error(`${what}: expected int32, got ${a.type}`);
    return a.value;
  });
}

function floats(args: readonly OscArgOutputOrArray[], what: string): number[] {
  return args.map((a) => {
    if (a.type !== 'float') throw new Error(`${what}: expected float32, got ${a.type}`);
    return a.value;
  });
}

export function decodeTuioBundle(datagram: Uint8Array): TuioBundle {
  const packet: OscPacketOutput = fromBuffer(datagram);
  if (packet.oscType !== 'bundle') throw new Error('expected an OSC bundle');
  let source: string | null = null;
  let alive: number[] | null = null;
  const sets: TuioSet[] = [];
  let fseq: number | null = null;
  for (const [k, el] of packet.elements.entries()) {
    if (el.oscType !== 'message') throw new Error('nested bundle');
    if (el.address !== '/tuio/2Dobj') throw new Error(`unexpected address ${el.address}`);
    if (fseq !== null) throw new Error('message after fseq');
    const [cmd, ...rest] = el.args;
    if (!cmd || cmd.type !== 'string') throw new Error('message without a command string');
    if (cmd.value === 'source') {
      if (k !== 0) throw new Error('source must come first');
      const [v] = rest;
      if (rest.length !== 1 || !v || v.type !== 'string') throw new Error('source takes one string');
      source = v.value;
    } else if (cmd.value === 'alive') {
      if (alive !== null || sets.length > 0) throw new Error('alive must come once, before the sets');
      alive = ints(rest, 'alive');
    } else if (cmd.value === 'set') {
      if (alive === null) throw new Error('set before alive');
      if (rest.length !== 10) throw new Error(`set takes 10 arguments, got ${rest.length}`);
      const [s, i] = ints(rest.slice(0, 2), 'set s/i') as [number, number];
      const [x, y, a, X, Y, A, m, r] = floats(rest.slice(2), 'set floats') as [number, number, number, number, number, number, number, number];
      sets.push({ s, i, x, y, a, X, Y, A, m, r });
    } else if (cmd.value === 'fseq') {
      const [f] = ints(rest, 'fseq');
      if (rest.length !== 1 || f === undefined) throw new Error('fseq takes one int32');
      fseq = f;
    } else {
      throw new Error(`unknown command ${cmd.value}`);
    }
  }
  if (alive === null) throw new Error('no alive message');
  if (fseq === null) throw new Error('no fseq message (it must be last)');
  return { timetag: packet.timetag, source, alive, sets, fseq, bytes: datagram.byteLength };
}

/** A scripted track: marker, table pose; the rest defaulted. */
export interface ScriptedTrack {
  readonly trackId: number;
  readonly markerId: number;
  readonly xIn: number;
  readonly yIn: number;
  readonly headingDeg: number;
  readonly occluded?: boolean;
}

/**
 * A `LiveState` with just what the TUIO output reads filled in (tracks, capture time, table size); the
 * rest is empty. Cast: the rules' table state and the views' parts do not matter here.
 */
export function scriptedState(seq: number, captureTimeMs: number, tracks: readonly ScriptedTrack[], table = { widthIn: 72, depthIn: 48 }): LiveState {
  const ts: Track[] = tracks.map((t) => ({
    trackId: t.trackId,
    markerId: t.markerId,
    standId: null,
    pose: { xIn: t.xIn, yIn: t.yIn, headingDeg: t.headingDeg },
    lastSeenMs: captureTimeMs,
    occluded: t.occluded ?? false,
  }));
  return {
    seq,
    frameSeq: seq,
    captureTimeMs,
    turn: 1,
    tableState: { version: 1, table, stands: [], units: [], commanders: [], terrain: { areas: [], linear: [], roads: [], elevations: [] } },
    evaluation: null,
    evaluatedState: null,
    tracks: ts,
    liveTrackIds: ts.map((t) => t.trackId),
    roster: { name: 'scripted', bindings: [], unknownMarkerIds: [] },
    profile: { name: 'scripted', widthIn: table.widthIn, depthIn: table.depthIn, source: 'demo-truth', frameWidthPx: null, frameHeightPx: null, homography: null, residualIn: null },
    health: { status: 'ok', frameRateHz: 0, trackedStands: ts.length, unknownTags: 0, processingMs: 0, clients: 0, uptimeS: 0, warnings: [] },
  } as unknown as LiveState;
}
