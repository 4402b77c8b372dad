/**
 * Stand types and their bases (Stand Types; Unit Type Stand Size (Width x Depth), p. 1). Width is along
 * the stand's front edge, depth front to back, inches. Artillery is 1.5 wide and 3 deep: "their combat power
 * is only to their front (short side)".
 */
import { cite } from './source.ts';

export type StandType =
  | 'command'
  | 'infantry'
  | 'detachment'
  | 'artillery'
  | 'mounted'
  | 'infantry-skirmisher'
  | 'mounted-skirmisher'
  | 'road-march-spacer';

export interface StandSize {
  readonly widthIn: number;
  readonly depthIn: number;
  readonly label: string;
  readonly source: string;
}

const SIZE = cite('Unit Type Stand Size (Width x Depth)', 1);

/** The printed stand sizes, one row each (Stand Size table, p. 1). */
export const STAND_SIZES: Readonly<Record<StandType, StandSize>> = {
  command: { widthIn: 1.5, depthIn: 1.5, label: 'Command', source: SIZE },
  infantry: { widthIn: 3, depthIn: 1.5, label: 'Infantry', source: SIZE },
  detachment: { widthIn: 1.5, depthIn: 1.5, label: 'Detachment', source: SIZE },
  artillery: { widthIn: 1.5, depthIn: 3, label: 'Artillery', source: SIZE },
  mounted: { widthIn: 3, depthIn: 1.5, label: 'Mounted', source: SIZE },
  'infantry-skirmisher': { widthIn: 3, depthIn: 1.5, label: 'Infantry Skirmisher', source: SIZE },
  'mounted-skirmisher': { widthIn: 3, depthIn: 3, label: 'Mounted Skirmisher', source: SIZE },
  'road-march-spacer': { widthIn: 1.5, depthIn: 3, label: 'Road March Spacer', source: SIZE },
};

/**
 * How far a measured base may be from the printed size and still count as that size, inches. Not a rule:
 * a tolerance for tracked stands (a tag pose is good to a few hundredths; bases are cut by hand).
 */
export const FOOTPRINT_TOLERANCE_IN = 0.2;
