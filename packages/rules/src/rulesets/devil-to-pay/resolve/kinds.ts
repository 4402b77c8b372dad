/**
 * The actions The Devil to Pay resolves after the roll, as `ResolutionKindSpec`s: what each needs and the
 * choices it takes, with its section (../shared/rulebooks/devil-to-pay-2018.txt).
 */
import type { ResolutionKindSpec } from '../../../engine/resolve/resolution.ts';
import { FIRE_HIT_TIMINGS } from './resolveFire.ts';
import { SHOT_FROM_SADDLE_PURPOSES } from './resolveShotFromSaddle.ts';
import { SRC_FIRE_ROLL, SRC_FIRE_SIMULTANEOUS, SRC_MELEE, SRC_PRONE, SRC_RALLY, SRC_REFORM, SRC_SHOT_FROM_SADDLE, SRC_SKEDADDLE } from './sources.ts';
import { SKEDADDLE_DIRECTIONS } from './skedaddleHeading.ts';

/** Fire at a target; `applyHits` says whether the hits wait until both sides have fired (default) or go on now. */
export const FIRE_KIND: ResolutionKindSpec = {
  kind: 'fire',
  label: 'Fire',
  needs: ['unitId', 'targetUnitId'],
  choices: { applyHits: FIRE_HIT_TIMINGS },
  source: SRC_FIRE_ROLL,
};

/** Fire: Process 3: the hits waiting beside a unit's stands go on them (no dice). */
export const APPLY_HITS_KIND: ResolutionKindSpec = { kind: 'apply-hits', label: 'Apply fire hits', needs: ['unitId'], source: SRC_FIRE_SIMULTANEOUS };

/** The attached commander's roll: after the unit takes hits, or before he leads its charge (`purpose`). */
export const SHOT_FROM_SADDLE_KIND: ResolutionKindSpec = {
  kind: 'shot-from-the-saddle',
  label: 'Shot from the Saddle',
  needs: ['unitId', 'commanderId'],
  choices: { purpose: SHOT_FROM_SADDLE_PURPOSES },
  source: SRC_SHOT_FROM_SADDLE,
};

/**
 * A charge and its melee: `unitId` charges `targetUnitId`; `unitIds` adds more units charging the same target
 * together (one attacking side, the charge order once); `targetUnitIds` the units reinforcing the defence.
 */
export const MELEE_KIND: ResolutionKindSpec = {
  kind: 'melee',
  label: 'Charge and melee',
  needs: ['unitId', 'targetUnitId'],
  source: SRC_MELEE,
};

/** Rally off hits: the unit's rally dice, each 4-6 removes a hit. */
export const RALLY_KIND: ResolutionKindSpec = { kind: 'rally', label: 'Rally', needs: ['unitId'], source: SRC_RALLY };

/** Reform a disordered unit into line (RALLY order, no dice). */
export const REFORM_KIND: ResolutionKindSpec = { kind: 'reform', label: 'Reform', needs: ['unitId'], source: SRC_REFORM };

/** A prone unit stands up (RALLY order, no dice). */
export const STAND_UP_KIND: ResolutionKindSpec = { kind: 'stand-up', label: 'Stand up', needs: ['unitId'], source: SRC_PRONE };

/**
 * A skedaddle: by choice before a card is drawn, or after a lost melee (then `targetUnitId` is the enemy it
 * flees). `direction` picks the line within 45° of the rear (skedaddleHeading.ts).
 */
export const SKEDADDLE_KIND: ResolutionKindSpec = {
  kind: 'skedaddle',
  label: 'Skedaddle',
  needs: ['unitId'],
  choices: { direction: SKEDADDLE_DIRECTIONS },
  source: SRC_SKEDADDLE,
};

export const DTP_RESOLUTION_KINDS: readonly ResolutionKindSpec[] = [FIRE_KIND, APPLY_HITS_KIND, MELEE_KIND, RALLY_KIND, REFORM_KIND, STAND_UP_KIND, SKEDADDLE_KIND, SHOT_FROM_SADDLE_KIND];
