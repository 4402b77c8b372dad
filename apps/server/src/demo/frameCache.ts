/**
 * Rendered demo frames cached on disk: rendering a 1080p frame takes about a second, so the demo renders
 * each frame of the loop once (in a background process, `renderCache.ts`) and replays them from the cache.
 * One file per frame: `<k>.gray.z`, the 8-bit grayscale pixels deflated, with a small JSON header line.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { deflateSync, inflate, inflateSync } from 'node:zlib';
import { writeFileAtomic } from '../persist/writeFileAtomic.ts';
import type { GrayFrame } from '@muster/vision';

export interface FrameCacheSpec {
  readonly dir: string;
  readonly widthPx: number;
  readonly heightPx: number;
  /** Cached frames per second of battle time. */
  readonly fps: number;
  /** Frames in one loop. */
  readonly frames: number;
}

/** The cache folder for one script and resolution (a changed script gets a new folder via its hash). */
export function frameCacheDir(dataDir: string, scriptHash: string, widthPx: number, heightPx: number, fps: number): string {
  return join(dataDir, 'frame-cache', `${scriptHash}-${widthPx}x${heightPx}-${fps}fps`);
}

export function framePath(spec: FrameCacheSpec, k: number): string {
  return join(spec.dir, `${String(k).padStart(5, '0')}.gray.z`);
}

export function hasFrame(spec: FrameCacheSpec, k: number): boolean {
  return existsSync(framePath(spec, k));
}

export function writeFrame(spec: FrameCacheSpec, k: number, data: Uint8Array): void {
  mkdirSync(spec.dir, { recursive: true });
  if (data.length !== spec.widthPx * spec.heightPx) throw new Error(`frame ${k}: ${data.length} bytes, expected ${spec.widthPx * spec.heightPx}`);
  writeFileAtomic(framePath(spec, k), deflateSync(data, { level: 1 }));
}

/** Reads cached frame k as a GrayFrame stamped with `seq` and `captureTimeMs`. */
const inflateAsync = promisify(inflate);

/**
 * `readFrame` off the main thread (file read and inflate on libuv's pool): a 4K frame's inflate takes a
 * main thread tens of ms, which the service's frame loop needs for routing.
 */
export async function readFrameAsync(spec: FrameCacheSpec, k: number, seq: number, captureTimeMs: number): Promise<GrayFrame> {
  const data = new Uint8Array(await inflateAsync(await readFile(framePath(spec, k))));
  if (data.length !== spec.widthPx * spec.heightPx) throw new Error(`cached frame ${framePath(spec, k)} has the wrong size; delete ${spec.dir}`);
  return { widthPx: spec.widthPx, heightPx: spec.heightPx, data, seq, captureTimeMs };
}

export function readFrame(spec: FrameCacheSpec, k: number, seq: number, captureTimeMs: number): GrayFrame {
  const data = new Uint8Array(inflateSync(readFileSync(framePath(spec, k))));
  if (data.length !== spec.widthPx * spec.heightPx) throw new Error(`cached frame ${framePath(spec, k)} has the wrong size; delete ${spec.dir}`);
  return { widthPx: spec.widthPx, heightPx: spec.heightPx, data, seq, captureTimeMs };
}
