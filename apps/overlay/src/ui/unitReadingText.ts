/**
 * One-line texts for the selected unit's readings that are not dice tables: command (with orders per turn
 * where an optional rule sets it) and the cost of building hasty works. Plain strings, tested in node; the
 * page puts them in text nodes.
 */
import type { CommandReading, HastyWorksReading } from '@muster/rules';

/** "Hasty works: 3 move actions (in woods)": MOVE actions to build hasty works where the unit stands. */
export function hastyWorksText(h: HastyWorksReading): string {
  return `Hasty works: ${h.moveActions} move action${h.moveActions === 1 ? '' : 's'}${h.inWoods ? ' (in woods)' : ''}`;
}

/** The command line of the panel; orders per turn only when the rules report it. */
export function commandText(cmd: CommandReading, nameOf: (unitId: string) => string): string {
  return [
    `Brigade formation with: ${cmd.brigadeFormationUnitIds.map(nameOf).join(', ') || 'none'}.`,
    `Commander in range: ${cmd.commanderInRangeId ?? 'none'}.`,
    cmd.attachedCommanderId ? `Attached: ${cmd.attachedCommanderId}.` : '',
    cmd.ordersLeft !== undefined ? `Orders left: ${cmd.ordersLeft}.` : '',
    cmd.ordersPerTurn !== undefined ? `Orders per turn: ${cmd.ordersPerTurn}.` : '',
  ].filter((s) => s !== '').join(' ');
}
