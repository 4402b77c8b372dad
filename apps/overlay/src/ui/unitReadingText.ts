/**
 * One-line texts for the selected unit's readings that are not dice tables: command (with orders per turn
 * where an optional rule sets it) and the cost of building hasty works. Plain strings, tested in node; the
 * page puts them in text nodes.
 */
import type { CommandReading, HastyWorksReading, MoraleReading } from '@muster/rules';

/** "Hasty works: 3 move actions (in woods)": MOVE actions to build hasty works where the unit stands. */
export function hastyWorksText(h: HastyWorksReading): string {
  return `Hasty works: ${h.moveActions} move action${h.moveActions === 1 ? '' : 's'}${h.inWoods ? ' (in woods)' : ''}`;
}

/** The command line of the panel; orders per turn only when the rules report it. */
export function commandText(cmd: CommandReading, nameOf: (unitId: string) => string): string {
  return [
    `Brigade formation with: ${cmd.brigadeFormationUnitIds.map(nameOf).join(', ') || 'none'}.`,
    `Commander in range: ${cmd.commanderInRangeId === undefined ? 'none' : nameOf(cmd.commanderInRangeId)}${cmd.commanderDistanceIn !== undefined ? ` (${cmd.commanderDistanceIn.toFixed(1)}")` : ''}.`,
    cmd.inCommand !== undefined ? `${cmd.inCommand ? 'In command' : 'Out of command'}${cmd.commandRadiusIn !== undefined ? ` (radius ${cmd.commandRadiusIn}")` : ''}.` : '',
    cmd.attachedCommanderId ? `Attached: ${nameOf(cmd.attachedCommanderId)}.` : '',
    cmd.ordersLeft !== undefined ? `Orders left: ${cmd.ordersLeft}.` : '',
    cmd.ordersPerTurn !== undefined ? `Orders per turn: ${cmd.ordersPerTurn}.` : '',
  ].filter((s) => s !== '').join(' ');
}

/** "Morale: worn — stands lost 2; Worn at 2 (reached), Spent at 4" */
export function moraleText(m: MoraleReading): string {
  const thresholds = m.thresholds.map((t) => `${t.label} at ${t.at}${t.reached ? ' (reached)' : ''}`).join(', ');
  return `Morale: ${m.state} — ${m.counted.label} ${m.counted.value}${thresholds ? `; ${thresholds}` : ''}`;
}
