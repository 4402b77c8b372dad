/**
 * The operator's tape with the selected unit in mind: its weapon's range bands drawn along the tape from
 * the end on that unit (or from where the tape starts), a label at each band's end, and the answers to
 * "can it fire at / charge what the tape is laid to?" in words (ui/tapeReading.ts). Bands and answers come
 * from the rules' evaluation only: a rule set that publishes no bands gets a plain tape.
 */
import type * as THREE from 'three';
import type { LiveState } from '@muster/protocol';
import type { PointIn } from '@muster/rules';
import { bandsAlongTape, tapeAnswers } from '../ui/tapeReading.ts';
import type { LabelSpec } from '../views/labelLayer.ts';
import { tapeWithBands } from './measureDrawing.ts';

export interface TapeEnds {
  readonly from: PointIn;
  readonly to: PointIn;
  /** The unit at each end (null for a free point, or a ghost: a unit's earlier place is no target). */
  readonly fromUnitId: string | null;
  readonly toUnitId: string | null;
}

export interface SelectedTape {
  readonly group: THREE.Group;
  /** Band labels, for the view's extra labels. */
  readonly labels: readonly LabelSpec[];
  /** Sentences for the reading under the tape; empty without a selection. */
  readonly answers: readonly string[];
  /** How many bands are drawn (0: none published, or no unit selected). */
  readonly bandCount: number;
}

/** @param widthIn the tape's line width, inches (wider on the projector's cloth) */
export function selectedTape(state: LiveState, selection: string | null, ends: TapeEnds, widthIn = 0.12): SelectedTape {
  const ev = selection ? state.evaluation?.units[selection] : undefined;
  // Bands run from the end on the selected unit: a tape laid from an enemy to it reads the same.
  const flip = selection !== null && ends.toUnitId === selection && ends.fromUnitId !== selection;
  const origin = flip ? ends.to : ends.from;
  const other = flip ? ends.from : ends.to;
  const targetUnitId = flip ? ends.fromUnitId : ends.toUnitId;
  const lengthIn = Math.hypot(other.xIn - origin.xIn, other.yIn - origin.yIn);
  const bands = bandsAlongTape(ev?.weaponRange, lengthIn);
  const { group, labels } = tapeWithBands(origin, other, bands, widthIn);
  const names = new Map(state.tableState.units.map((u) => [u.id, u.name]));
  const answers = tapeAnswers({ selected: ev, targetUnitId, distanceIn: lengthIn, nameOf: (id) => names.get(id) ?? id });
  return { group, labels, answers, bandCount: bands.length };
}
