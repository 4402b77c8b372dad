/**
 * `muster track <folder-of-frames|video> --table <profile.json> [--roster army.yaml] [--fps N] [--json]`:
 * the live pipeline (detector with the tracker's ROI predictions, then the tracker) over a recording.
 * With --json: one JSON line per frame, `{"frame":0,"ms":12.3,"markers":[{"id":17,"x":..,"y":..,
 * "heading":..,"corners":[[u,v],...],"track":1,"stale":false}]}`, then a summary line with the median ms per
 * frame. That line format is a contract (scripts and the bench read it): add fields, never rename.
 */
import { CliError } from '../cliError.ts';
import { loadRoster, rosterTagIds, RosterError } from '../../roster/index.ts';
import { frameSourceKind, openFrameSource } from '@muster/vision';
import type { FrameSource } from '@muster/vision';
import { createTracker } from '@muster/vision';
import { median, trackFrames, trackJsonLine } from '@muster/vision';
import { createFrameDetector } from '@muster/vision';
import { loadTableProfile, TableProfileError, type TableProfile } from '@muster/vision';

export const summary = 'track tags through a recording (folder of frames or video) and print poses per frame';

const USAGE = `usage: muster track <folder-of-frames|video> --table <profile.json> [--roster army.yaml] [--fps N] [--json]

  <folder|video>     frames in name order (png/jpg/...) or a video file ffmpeg reads
  --table <file>     table profile: size, dictionary, anchors (see calibration/tables/)
  --roster <file>    army file: only its tags count at once, others must persist first
  --fps <n>          replay rate of a folder of frames (default 30)
  --json             one JSON line per frame and a summary line (else a short text line per frame)`;

export interface TrackOptions {
  input?: string;
  table?: string;
  roster?: string;
  fps?: number;
  json: boolean;
  help: boolean;
}

export function parseTrackArgs(args: readonly string[]): TrackOptions {
  const o: TrackOptions = { json: false, help: false };
  const value = (name: string, i: number, a: string): [string, number] => {
    if (a.includes('=')) return [a.slice(a.indexOf('=') + 1), i];
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) throw new CliError(`${name} needs a value (${USAGE.split('\n')[0]})`);
    return [v, i + 1];
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = a.split('=')[0]!;
    if (a === '--json') o.json = true;
    else if (a === '--help' || a === '-h') o.help = true;
    else if (name === '--table') [o.table, i] = value(name, i, a);
    else if (name === '--roster') [o.roster, i] = value(name, i, a);
    else if (name === '--fps') {
      let v: string;
      [v, i] = value(name, i, a);
      const fps = Number(v);
      if (!(Number.isFinite(fps) && fps > 0)) throw new CliError(`--fps must be a number > 0 (got "${v}")`);
      o.fps = fps;
    } else if (a.startsWith('-')) throw new CliError(`unknown option ${a} (options: --table <file>, --roster <file>, --fps <n>, --json)`);
    else if (o.input !== undefined) throw new CliError(`one recording at a time (got "${o.input}" and "${a}")`);
    else o.input = a;
  }
  return o;
}

export async function run(args: string[]): Promise<number> {
  const o = parseTrackArgs(args);
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  if (o.input === undefined) throw new CliError('give a folder of frames or a video file to track');
  if (o.table === undefined) throw new CliError('--table <profile.json> is required (the table profile for this camera)');

  let kind;
  try {
    kind = await frameSourceKind(o.input);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (kind !== 'folder' && kind !== 'video') throw new CliError(`${o.input}: track reads a recording (a folder of frames or a video file), not a ${kind}`);

  let profile: TableProfile;
  try {
    profile = loadTableProfile(o.table);
  } catch (err) {
    if (err instanceof TableProfileError) throw new CliError(err.message);
    throw err;
  }

  let knownIds: number[] | undefined;
  if (o.roster !== undefined) {
    try {
      knownIds = rosterTagIds(await loadRoster(o.roster));
    } catch (err) {
      if (err instanceof RosterError) throw new CliError(err.message);
      throw err;
    }
  }
  if (knownIds !== undefined) {
    // A roster tag the table's dictionary cannot hold would never be seen: say so now, not after a silent run.
    const standIds = new Set(profile.standIds);
    const unseeable = knownIds.filter((id) => !standIds.has(id));
    if (unseeable.length > 0) {
      throw new CliError(
        `${o.roster}: tag${unseeable.length > 1 ? 's' : ''} ${unseeable.slice(0, 8).join(', ')}${unseeable.length > 8 ? ', ...' : ''} cannot be stands on ${o.table} ` +
          `(${profile.dictionary}, anchors ${profile.anchors.map((a) => a.id).join(', ')}); use a profile with a larger dictionary`,
      );
    }
  }
  const detector = await createFrameDetector(profile);
  const tracker = createTracker(knownIds === undefined ? {} : { knownIds });
  const source: FrameSource = await openFrameSource(o.input, o.fps !== undefined ? { fps: o.fps } : {});

  const sourceErrors = new Set<unknown>();
  source.on('error', (err) => sourceErrors.add(err));
  const msPerFrame: number[] = [];
  // Over the whole run, not just the last frame: a stray id early on is worth knowing about.
  const unknownSeen = new Set<number>();
  const duplicatesSeen = new Set<number>();
  const out = process.stdout;
  let last;
  try {
    for await (const t of trackFrames(source, detector, tracker)) {
      msPerFrame.push(t.processingMs);
      last = t.snapshot;
      for (const u of t.snapshot.unknownIds) unknownSeen.add(u.id);
      for (const id of t.snapshot.duplicateIds) duplicatesSeen.add(id);
      if (o.json) out.write(`${JSON.stringify(trackJsonLine(t))}\n`);
      else {
        const stale = t.snapshot.tracks.filter((k) => k.stale).length;
        out.write(`frame ${t.frame.seq}: ${t.processingMs.toFixed(1)} ms, ${t.snapshot.tracks.length} tags${stale ? ` (${stale} held)` : ''}${t.snapshot.warnings.length ? `; ${t.snapshot.warnings.join('; ')}` : ''}\n`);
      }
    }
  } catch (err) {
    // A recording that cannot be decoded is the user's input, not a bug; anything else is a bug.
    if (sourceErrors.has(err)) throw new CliError((err as Error).message);
    throw err;
  } finally {
    await source.close();
    detector.dispose();
  }
  if (msPerFrame.length === 0) throw new CliError(`${o.input}: no frames`);
  const summaryLine = {
    summary: true,
    frames: msPerFrame.length,
    medianMs: Number(median(msPerFrame).toFixed(2)),
    tracks: last?.tracks.length ?? 0,
    duplicateIds: [...duplicatesSeen].sort((a, b) => a - b),
    unknownIds: [...unknownSeen].sort((a, b) => a - b),
  };
  if (o.json) out.write(`${JSON.stringify(summaryLine)}\n`);
  else out.write(`${summaryLine.frames} frames, median ${summaryLine.medianMs} ms per frame, ${summaryLine.tracks} tags tracked\n`);
  return 0;
}
