/**
 * Recorded stills: one image file, or a folder of frames played in name order at a given rate
 * (reacTIVision's FileCamera / FolderCamera). Frames are decoded one at a time as the consumer asks, so a
 * long recording never sits in memory.
 */
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { decodeImage } from './decodeImage.ts';
import { QueuedFrameSource } from './frameSource.ts';

export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff', '.bmp', '.gif', '.avif'];

export interface FolderSourceOptions {
  /** Replay rate: frame n gets `captureTimeMs = n * 1000 / fps`. Default 30. */
  readonly fps?: number;
}

/** Name order with numbers compared as numbers: frame2.png before frame10.png. */
const byName = new Intl.Collator('en', { numeric: true }).compare;

/** The image files of a folder, in replay order. Throws a clear error for a missing or empty folder. */
export async function listFrameFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    throw new Error(`${dir}: cannot read the folder of frames (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const files = names.filter((n) => IMAGE_EXTENSIONS.includes(extname(n).toLowerCase())).sort(byName);
  if (files.length === 0) throw new Error(`${dir}: no image files (${IMAGE_EXTENSIONS.join(' ')}) in the folder`);
  return files.map((n) => join(dir, n));
}

class PulledFrameSource extends QueuedFrameSource {
  private pulling = false;

  constructor(description: string, private readonly files: () => Promise<string[]>, private readonly frameMs: number) {
    super(description, { maxQueued: 2, overflow: 'pause' });
    // Decode ahead until the queue is full (the base class then pauses us), and resume when it drains.
    this.onResume = () => void this.pull();
    void this.pull();
  }

  private index = 0;
  private list: string[] | null = null;

  /** Decodes ahead up to the queue limit, then waits for the consumer (the base class calls onResume). */
  private async pull(): Promise<void> {
    if (this.pulling) return;
    this.pulling = true;
    try {
      this.list ??= await this.files();
      while (!this.isEnded && !this.isPaused && this.index < this.list.length) {
        const seq = this.index++;
        const path = this.list[seq]!;
        const frame = await decodeImage(path, path, seq, seq * this.frameMs);
        this.push(frame);
      }
      if (this.list && this.index >= this.list.length) this.finish();
    } catch (err) {
      this.fail(err as Error);
    } finally {
      this.pulling = false;
    }
  }
}

/** A single image file as a one-frame source. */
export function createImageFileSource(path: string): QueuedFrameSource {
  return new PulledFrameSource(path, async () => {
    try {
      const s = await stat(path);
      if (!s.isFile()) throw new Error('not a file');
    } catch (err) {
      throw new Error(`${path}: cannot read the image (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    return [path];
  }, 0);
}

/** A folder of frames, played in name order. */
export function createFolderSource(dir: string, options: FolderSourceOptions = {}): QueuedFrameSource {
  const fps = options.fps ?? 30;
  if (!(Number.isFinite(fps) && fps > 0)) throw new Error(`folder source: fps must be a number > 0 (got ${fps})`);
  return new PulledFrameSource(dir, () => listFrameFiles(dir), 1000 / fps);
}
