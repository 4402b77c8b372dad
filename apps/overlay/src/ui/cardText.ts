/** An action card in words a player reads at a glance (The Devil to Pay deck, p. 4; the wire's card kinds). */
import type { ActionCard } from '@muster/protocol';

const WHAT: Record<ActionCard['kind'], string> = {
  move: 'Move',
  fire: 'Fire',
  charge: 'Charge',
  rally: 'Rally',
  'carpe-diem': 'Carpe Diem: roll off, the winner picks Move, Fire, Charge or Rally and goes first',
  whiskey: 'Whiskey: the second one ends the turn',
};

export function cardText(card: ActionCard): string {
  const side = card.first ? ` · ${card.first[0]!.toUpperCase()}${card.first.slice(1)} first` : '';
  return `${WHAT[card.kind] ?? card.kind}${side}`;
}
