/**
 * The composition root: the one place that wires a source → (detector) → tracker → roster → rules →
 * publisher → server, for the demo (`startDemo.ts`) or a camera (`startCamera.ts`). `startLive` returns
 * once the server listens; `stop()` undoes everything. Options and defaults: `liveOptions.ts`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_VIEWS_DIR, type LiveOptions, type RunningLive } from './liveOptions.ts';
import { startDemo } from './startDemo.ts';

// What `muster start` (cli/commands/start.ts) imports from here.
export { REPO_ROOT, type RunningLive } from './liveOptions.ts';

export async function startLive(options: LiveOptions): Promise<RunningLive> {
  const src = options.source;
  // Camera modules (frame sources, the phone's WebSocket) load only when a camera is used.
  if (src.mode === 'camera') return (await import('./startCamera.ts')).startCamera(src, options);
  return startDemo(src, options);
}

export function viewsBuilt(viewsDir = DEFAULT_VIEWS_DIR): boolean {
  return existsSync(join(viewsDir, 'index.html'));
}
