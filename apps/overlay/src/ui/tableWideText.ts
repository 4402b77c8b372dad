/**
 * The evaluation's table-wide readings in players' words: each commander's orders per turn (by quality,
 * with the rulebook section), and targets two or more units may charge together, with the one pool.
 * Plain strings, tested in node; the panel puts them in text nodes.
 */
import type { CombinedChargeReading, CommanderReading } from '@muster/rules';
import { breakdownAmount } from './breakdownWords.ts';

type NameOf = (id: string) => string;

/** "Brig. Gen. Law (capable): 2 orders per turn." */
export function commanderSentence(c: CommanderReading, nameOf: NameOf): string {
  return `${nameOf(c.commanderId)}${c.quality ? ` (${c.quality})` : ''}: ${c.ordersPerTurn} order${c.ordersPerTurn === 1 ? '' : 's'} per turn.`;
}

/**
 * "19th Alabama and 22nd Alabama may charge 3rd Union together: 9 dice against 5 dice (7 dice with
 * 4th Union reinforcing)."
 */
export function combinedChargeSentence(c: CombinedChargeReading, nameOf: NameOf): string {
  const who = listWords(c.attackerUnitIds.map(nameOf));
  const reinforced =
    c.reinforcedDefender && c.reinforcerIds.length > 0 ? ` (${breakdownAmount(c.reinforcedDefender)} with ${listWords(c.reinforcerIds.map(nameOf))} reinforcing)` : '';
  return `${who} may charge ${nameOf(c.targetUnitId)} together: ${breakdownAmount(c.attacker)} against ${breakdownAmount(c.defender)}${reinforced}.`;
}

/** The combined charges a unit takes part in, as attacker or as target. */
export function combinedChargesOf(all: readonly CombinedChargeReading[] | undefined, unitId: string): CombinedChargeReading[] {
  return (all ?? []).filter((c) => c.targetUnitId === unitId || c.attackerUnitIds.includes(unitId));
}

/** "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
