/**
 * Background renderer of the demo's frame cache (run as a child process by `framesSource.ts`):
 *   node --import tsx renderCache.ts <script.json> <roster.yaml> <table.json> <cacheDir> <width> <height> <fps>
 * Used for resolutions the live renderer cannot keep up with (see `framesSource.ts`).
 * Renders every frame of the loop that is not cached yet, in order, with the project's generator
 * (`fixtures/generator/renderTableFrame.ts`), and prints "frame <k>" after each.
 */
import { loadRoster } from '../roster/loadRoster.ts';
import { loadTableProfile } from '@muster/vision';
import { cameraLookingDown, renderTableFrame } from '../../../../fixtures/generator/renderTableFrame.ts';
import { loadDemoScript } from './demoScript.ts';
import { hasFrame, writeFrame, type FrameCacheSpec } from './frameCache.ts';
import { DEMO_EFFECTS, demoTags } from './demoFrames.ts';

const [scriptPath, rosterPath, tablePath, dir, w, h, f] = process.argv.slice(2);
if (!scriptPath || !rosterPath || !tablePath || !dir || !w || !h || !f) {
  console.error('usage: renderCache.ts <script> <roster> <table> <cacheDir> <width> <height> <fps>');
  process.exit(2);
}
const roster = await loadRoster(rosterPath);
const script = loadDemoScript(scriptPath, roster);
const profile = loadTableProfile(tablePath);
const fps = Number(f);
const spec: FrameCacheSpec = { dir, widthPx: Number(w), heightPx: Number(h), fps, frames: Math.round(script.loopS * fps) };
const camera = cameraLookingDown(profile, spec.widthPx, spec.heightPx);
for (let k = 0; k < spec.frames; k++) {
  if (hasFrame(spec, k)) continue;
  const tags = demoTags(script, roster, k / fps);
  const { frame } = await renderTableFrame({ profile, tags }, camera, { seed: 1000 + k, ...DEMO_EFFECTS }, k, 0);
  writeFrame(spec, k, frame.data);
  process.stdout.write(`frame ${k}\n`);
}
process.stdout.write('done\n');
