/**
 * The Devil to Pay action cards/chits (p. 4): 2 Move, 2 Fire, 2 Charge, 2 Rally (one Union-first and one
 * Confederate-first of each), 4 Carpe Diem, 2 Whiskey. Shuffled with the game's seeded roller; the second
 * Whiskey ends the turn (p. 5) and the whole deck is reshuffled for the next one.
 */
import type { Rng } from './dice.ts';
import type { ActionCard } from '@muster/protocol';

export const FULL_DECK: readonly ActionCard[] = [
  { kind: 'move', first: 'union' },
  { kind: 'move', first: 'confederate' },
  { kind: 'fire', first: 'union' },
  { kind: 'fire', first: 'confederate' },
  { kind: 'charge', first: 'union' },
  { kind: 'charge', first: 'confederate' },
  { kind: 'rally', first: 'union' },
  { kind: 'rally', first: 'confederate' },
  { kind: 'carpe-diem' },
  { kind: 'carpe-diem' },
  { kind: 'carpe-diem' },
  { kind: 'carpe-diem' },
  { kind: 'whiskey' },
  { kind: 'whiskey' },
];

/** Saved deck state: the cards still to draw (top first) and whiskeys seen this turn. */
export interface DeckState {
  readonly remaining: readonly ActionCard[];
  readonly whiskeysDrawn: number;
}

/** Fisher–Yates with the injected roller. */
export function shuffledDeck(rng: Rng): DeckState {
  const cards = [...FULL_DECK];
  for (let i = cards.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const t = cards[i]!;
    cards[i] = cards[j]!;
    cards[j] = t;
  }
  return { remaining: cards, whiskeysDrawn: 0 };
}

export interface DrawOutcome {
  readonly card: ActionCard;
  readonly deck: DeckState;
  readonly remaining: number;
  readonly turnEnded: boolean;
}

/** Draws the top card; on the second Whiskey (or an empty deck) the turn ends and the deck is reshuffled. */
export function drawCard(deck: DeckState, rng: Rng): DrawOutcome {
  const source = deck.remaining.length > 0 ? deck : shuffledDeck(rng);
  const [card, ...rest] = source.remaining;
  if (card === undefined) throw new Error('drawCard: a fresh deck is never empty');
  const whiskeysDrawn = source.whiskeysDrawn + (card.kind === 'whiskey' ? 1 : 0);
  const turnEnded = whiskeysDrawn >= 2 || rest.length === 0;
  if (turnEnded) return { card, deck: shuffledDeck(rng), remaining: 0, turnEnded: true };
  return { card, deck: { remaining: rest, whiskeysDrawn }, remaining: rest.length, turnEnded: false };
}
