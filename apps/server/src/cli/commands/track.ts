/**
 * `muster track <folder-of-frames|video> --table <profile.json> [--roster army.yaml] [--fps N] [--json]`:
 * the live pipeline (detector with the tracker's ROI predictions, then the tracker) over a recording.
 * With --json: one JSON line per frame, `{"frame":0,"ms":12.3,"markers":[{"id":17,"x":..,"y":..,
 * "heading":..,"corners":[[u,v],...],"track":1,"stale":false}]}`, then a summary line with the median ms per
 * frame. That line format is a contract (scripts and the bench read it): add fields, never rename.
 */
import { CliError } from '../cliError.ts';
import { warningText } from '../colour.ts';
import { numberValue, parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { outputClosed } from '../outputClosed.ts';
import { createProgress, progressShown } from '../progress.ts';
import { recordingFrameCount } from '../recordingLength.ts';
import { rosterDoesNotFit, tagsNotStands } from '../tableForRoster.ts';
import { loadRoster, rosterTagIds, RosterError } from '../../roster/index.ts';
import { frameSourceKind, openFrameSource } from '@muster/vision';
import type { FrameSource } from '@muster/vision';
import { createTracker } from '@muster/vision';
import { median, trackFrames, trackJsonLine } from '@muster/vision';
import { createTrackingEngine } from '@muster/vision';
import { loadTableProfile, TableProfileError, type TableProfile } from '@muster/vision';
import { loadLensModel, type LensModel } from '@muster/vision';

const SPEC = {
  command: 'track',
  synopsis: ['<folder-of-frames|video> --table <profile.json> [--roster army.yaml] [--lens <calibration.json>] [--fps N] [--json]'],
  positionals: [{ name: '<folder|video>', help: 'frames in name order (png/jpg/...) or a video file ffmpeg reads' }],
  tooMany: (p: readonly string[]) => `one recording at a time (got "${p[0]}" and "${p[1]}")`,
  options: {
    table: { type: 'string', arg: '<file>', help: 'table profile: size, dictionary, anchors (see calibration/tables/)' },
    roster: { type: 'string', arg: '<file>', help: 'army file: only its tags count at once, others must persist first' },
    lens: {
      type: 'string',
      arg: '<file>',
      help: 'lens calibration (muster calibrate lens) for the camera that recorded: removes its distortion\nbefore mapping to the table, as start --camera --lens does (frames must be its resolution)',
    },
    fps: { type: 'string', arg: '<n>', help: 'replay rate of a folder of frames, or of a video that does not give its own (default 30)' },
    json: { type: 'boolean', help: 'one JSON line per frame and a summary line (else a short text line per frame)' },
    progress: { type: 'boolean', help: 'show progress with the time left on stderr even when it is not a terminal\n(on a terminal it is always shown; never on stdout)' },
  },
  notes: 'Warnings (unknown or duplicate tags, lost anchors) go to stderr, each once when it starts; the\nsummary line lists the unknown and duplicate ids.',
} as const satisfies CommandSpec;

export interface TrackOptions {
  input?: string;
  table?: string;
  roster?: string;
  lens?: string;
  fps?: number;
  json: boolean;
  progress: boolean;
}

export function parseTrackArgs(args: readonly string[]): TrackOptions {
  const { values: v, positionals } = parseCommandArgs(SPEC, args);
  return {
    ...(positionals[0] !== undefined ? { input: positionals[0] } : {}),
    ...(v.table !== undefined ? { table: v.table } : {}),
    ...(v.roster !== undefined ? { roster: v.roster } : {}),
    ...(v.lens !== undefined ? { lens: v.lens } : {}),
    ...(v.fps !== undefined ? { fps: numberValue(v.fps, '--fps', { above: 0, example: '25' }) } : {}),
    json: v.json,
    progress: v.progress,
  };
}

export async function run(args: string[]): Promise<number> {
  const o = parseTrackArgs(args);
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
  // A roster tag the table's dictionary cannot hold would never be seen: say so now, not after a silent run.
  if (knownIds !== undefined && tagsNotStands(profile, knownIds).length > 0) {
    throw new CliError(rosterDoesNotFit(o.roster ?? 'the roster', o.table, profile, knownIds));
  }
  let lens: LensModel | undefined;
  if (o.lens !== undefined) {
    try {
      lens = loadLensModel(o.lens);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  }
  // The service's tracking engine: ROI search around the tracks, paced full-frame scans on a worker.
  const fps = o.fps ?? 30;
  const detector = await createTrackingEngine(profile, { fps, onWarning: (m) => console.error(`muster: ${m}`), ...(lens ? { lens } : {}) });
  const tracker = createTracker(knownIds === undefined ? {} : { knownIds });
  let source: FrameSource;
  try {
    source = await openFrameSource(o.input, o.fps !== undefined ? { fps: o.fps } : {});
  } catch (err) {
    await detector.dispose();
    throw err;
  }

  const sourceErrors = new Set<unknown>();
  source.on('error', (err) => sourceErrors.add(err));
  const msPerFrame: number[] = [];
  // Over the whole run, not just the last frame: a stray id early on is worth knowing about.
  const unknownSeen = new Set<number>();
  const duplicatesSeen = new Set<number>();
  const out = process.stdout;
  // Counting a video's frames costs an ffprobe run: only when the count is shown.
  const total = progressShown(o.progress) ? await recordingFrameCount(o.input, kind) : undefined;
  const progress = createProgress({ label: 'track', unit: 'frames', ...(total !== undefined ? { total } : {}), force: o.progress });
  // Warnings go to stderr once each, when they start (not on every frame they last).
  let warningsShown = new Set<string>();
  let last;
  try {
    for await (const t of trackFrames(source, detector, tracker)) {
      // The reader went away (`| head`): stop reading the recording, end quietly.
      if (outputClosed()) break;
      msPerFrame.push(t.processingMs);
      last = t.snapshot;
      for (const u of t.snapshot.unknownIds) unknownSeen.add(u.id);
      for (const id of t.snapshot.duplicateIds) duplicatesSeen.add(id);
      for (const w of t.snapshot.warnings) if (!warningsShown.has(w)) progress.note(warningText(`frame ${t.frame.seq}: ${w}`));
      warningsShown = new Set(t.snapshot.warnings);
      if (o.json) out.write(`${JSON.stringify(trackJsonLine(t))}\n`);
      else {
        const stale = t.snapshot.tracks.filter((k) => k.stale).length;
        out.write(`frame ${t.frame.seq}: ${t.processingMs.toFixed(1)} ms, ${t.snapshot.tracks.length} tags${stale ? ` (${stale} held)` : ''}\n`);
      }
      progress.update(msPerFrame.length);
    }
    progress.finish(!outputClosed());
  } catch (err) {
    // A recording that cannot be decoded is the user's input, not a bug; anything else is a bug.
    if (sourceErrors.has(err)) throw new CliError((err as Error).message);
    // A recording of another resolution than the lens calibration is the user's input too.
    if (lens && /lens calibration is for/.test((err as Error).message)) throw new CliError(`${o.input}: ${(err as Error).message} (${o.lens})`);
    throw err;
  } finally {
    progress.finish(false);
    await source.close();
    await detector.dispose();
  }
  if (outputClosed()) return 0;
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
