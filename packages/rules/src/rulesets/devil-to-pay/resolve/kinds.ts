/**
 * The actions The Devil to Pay resolves after the roll, as `ResolutionKindSpec`s: what each needs and the
 * choices it takes, with its section (../shared/rulebooks/devil-to-pay-2018.txt).
 */
import type { ResolutionKindSpec } from '../../../engine/resolve/resolution.ts';
import { SRC_FIRE_ROLL, SRC_SHOT_FROM_SADDLE } from './sources.ts';

export const FIRE_KIND: ResolutionKindSpec = { kind: 'fire', label: 'Fire', needs: ['unitId', 'targetUnitId'], source: SRC_FIRE_ROLL };

export const SHOT_FROM_SADDLE_KIND: ResolutionKindSpec = {
  kind: 'shot-from-the-saddle',
  label: 'Shot from the Saddle',
  needs: ['unitId', 'commanderId'],
  source: SRC_SHOT_FROM_SADDLE,
};

export const DTP_RESOLUTION_KINDS: readonly ResolutionKindSpec[] = [FIRE_KIND, SHOT_FROM_SADDLE_KIND];
