/**
 * How many frames a recording holds, for the progress line's percentage and time left: the image files of
 * a folder, or what ffprobe says of a video (its frame count, else duration × frame rate). Undefined when
 * it cannot tell (no ffprobe, a stream without a length): progress then shows the count and rate only.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { extname } from 'node:path';

// The extensions the folder source reads (@muster/vision, sources/stillImageSources.ts).
const FRAME_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff', '.bmp', '.gif', '.avif']);

export async function folderFrameCount(dir: string): Promise<number | undefined> {
  try {
    return (await readdir(dir)).filter((n) => FRAME_EXTENSIONS.has(extname(n).toLowerCase())).length;
  } catch {
    return undefined;
  }
}

/** Frames of the first video stream per ffprobe's JSON (`-show_entries stream=…:format=duration`). */
export function framesFromProbe(json: unknown): number | undefined {
  const probe = json as { streams?: { nb_frames?: string; avg_frame_rate?: string; duration?: string }[]; format?: { duration?: string } };
  const stream = probe.streams?.[0];
  const counted = Number(stream?.nb_frames);
  if (Number.isInteger(counted) && counted > 0) return counted;
  const [num, den] = (stream?.avg_frame_rate ?? '').split('/').map(Number);
  const fps = num !== undefined && den ? num / den : NaN;
  const seconds = Number(stream?.duration ?? probe.format?.duration);
  return fps > 0 && seconds > 0 ? Math.round(fps * seconds) : undefined;
}

export function videoFrameCount(path: string, ffprobePath = 'ffprobe'): Promise<number | undefined> {
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=nb_frames,avg_frame_rate,duration:format=duration', '-of', 'json', path];
  return new Promise((done) => {
    execFile(ffprobePath, args, { timeout: 10_000 }, (err, stdout) => {
      if (err) return done(undefined);
      try {
        done(framesFromProbe(JSON.parse(stdout)));
      } catch {
        done(undefined);
      }
    });
  });
}

export function recordingFrameCount(path: string, kind: 'folder' | 'video'): Promise<number | undefined> {
  return kind === 'folder' ? folderFrameCount(path) : videoFrameCount(path);
}
