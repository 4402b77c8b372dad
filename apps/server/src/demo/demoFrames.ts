/**
 * What the demo's camera sees: the scripted stands and chips as tags for the frame generator, and the
 * look of the frames (blur, noise). Shared by the live renderer (`framesSource.ts`, fast renderer) and
 * the frame cache (`renderCache.ts`, reference renderer), so both show the same battle.
 */
import type { Roster } from '../roster/roster.ts';
import type { DemoScript } from './demoScript.ts';
import { truthDetection } from './truthSource.ts';

/** A stand or chip tag on the table (the generator's `SceneTag`). */
export interface DemoTag {
  readonly id: number;
  readonly xIn: number;
  readonly yIn: number;
  readonly headingDeg: number;
}

/** Slight focus blur and sensor noise: the detector must cope with them, as with a real camera. */
export const DEMO_EFFECTS = { blurSigmaPx: 0.6, noiseSigma: 1.5 } as const;

/** The tags of every scripted stand and chip at battle time `tS` seconds. */
export function demoTags(script: DemoScript, roster: Roster, tS: number): DemoTag[] {
  return truthDetection(script, roster, tS, 0, 0).markers.map((m) => ({ id: m.id, xIn: m.xIn, yIn: m.yIn, headingDeg: m.headingDeg }));
}
