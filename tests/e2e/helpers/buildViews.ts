/**
 * Builds apps/overlay into dist when the build is missing or older than its sources (its own and the
 * packages it bundles), so `npm test` on a fresh clone exercises the same bundle the service serves.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const OVERLAY_DIR = fileURLToPath(new URL('../../../apps/overlay/', import.meta.url));
export const VIEWS_DIST = join(OVERLAY_DIR, 'dist');
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function newestMtimeMs(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, name)));
  return newest;
}

export function ensureViewsBuilt(): void {
  const built = join(VIEWS_DIST, 'index.html');
  const bundled = ['rules', 'protocol', 'table-mapping'].map((p) => join(ROOT, 'packages', p, 'src'));
  const sources = [...bundled, join(OVERLAY_DIR, 'src'), join(OVERLAY_DIR, 'vite.config.ts'), ...['index', 'map', 'operator', 'projector', 'overlay', 'phone'].map((p) => join(OVERLAY_DIR, `${p}.html`))];
  const sourceTime = Math.max(...sources.map(newestMtimeMs));
  if (existsSync(built) && statSync(built).mtimeMs >= sourceTime) return;
  execFileSync(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: OVERLAY_DIR, stdio: 'inherit' });
}
