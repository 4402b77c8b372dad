/**
 * The demo a start replays: its script and the roster the script names, and the demo options with their
 * defaults filled in (frame size, table profile, frame rate, speed). `demoTableSpec` is what the pipeline
 * is told about the demo's table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadDemoScript, type DemoScript } from '../demo/demoScript.ts';
import { loadRoster } from '../roster/loadRoster.ts';
import type { Roster } from '../roster/roster.ts';
import { DEFAULT_DEMO_SCRIPT, DEFAULT_DEMO_TABLE, REPO_ROOT, rulesetDemoScript, type DemoLiveOptions } from './liveOptions.ts';
import type { TableSpec } from './startPipeline.ts';

export interface Demo {
  readonly script: DemoScript;
  readonly scriptPath: string;
  readonly roster: Roster;
  readonly rosterPath: string;
  readonly source: DemoLiveOptions['demoSource'];
  /** Rendered frame size ('frames'). */
  readonly frameSize: { readonly widthPx: number; readonly heightPx: number };
  /** Table profile the frames are detected with ('frames'). */
  readonly tablePath: string;
  readonly fps: number;
  readonly speed: number;
  readonly cacheFps: number | undefined;
}

/**
 * The script a demo start plays: the one asked for (`--demo`); else, with a rule set named (`--ruleset`),
 * that rule set's own battle when it has one, so its example army (which carries what the rule set needs)
 * is on the table; else the opening battle.
 */
export function demoScriptPath(src: DemoLiveOptions, rulesetId: string | undefined): string {
  if (src.scriptPath !== undefined) return src.scriptPath;
  if (rulesetId !== undefined && existsSync(rulesetDemoScript(rulesetId))) return rulesetDemoScript(rulesetId);
  return DEFAULT_DEMO_SCRIPT;
}

export async function loadDemo(src: DemoLiveOptions, rulesetId?: string): Promise<Demo> {
  const scriptPath = demoScriptPath(src, rulesetId);
  // The script names its roster relative to the repository root.
  const rosterRef = (JSON.parse(readFileSync(scriptPath, 'utf8')) as { roster?: unknown }).roster;
  if (typeof rosterRef !== 'string') throw new Error(`${scriptPath}: "roster" must name the roster file`);
  const rosterPath = resolve(REPO_ROOT, rosterRef);
  const roster: Roster = await loadRoster(rosterPath);
  const script: DemoScript = loadDemoScript(scriptPath, roster);
  return {
    script,
    scriptPath,
    roster,
    rosterPath,
    source: src.demoSource,
    frameSize: src.frameSize ?? { widthPx: 1920, heightPx: 1080 },
    tablePath: src.tablePath ?? DEFAULT_DEMO_TABLE,
    fps: src.fps ?? (src.demoSource === 'frames' ? 5 : 10),
    speed: src.speed ?? 1,
    cacheFps: src.cacheFps,
  };
}

export function demoTableSpec(demo: Demo): TableSpec {
  const { script, frameSize } = demo;
  const frames = demo.source === 'frames';
  return {
    table: script.table,
    profile: {
      name: script.name,
      source: frames ? 'demo-frames' : 'demo-truth',
      frameWidthPx: frames ? frameSize.widthPx : null,
      frameHeightPx: frames ? frameSize.heightPx : null,
    },
    tableProfileDoc: { name: script.name, ...script.table, anchors: script.anchors },
    poseLogBy: 'demo',
  };
}
