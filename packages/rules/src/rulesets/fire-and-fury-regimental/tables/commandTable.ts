/** Command radius (QRS II, Maneuver Table, Command Radius). */
import { qrs } from './source.ts';

export const COMMAND_RADIUS = {
  /** 8" with a clear line of sight. */
  clearIn: 8,
  /** 4" through dense woods, twilight or fog, attached, or dismounted. */
  reducedIn: 4,
  source: qrs('Maneuver Table, Command Radius'),
} as const;
