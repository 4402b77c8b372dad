/**
 * Rule-set-neutral action decks: a rule set that sequences its turns with cards or chits publishes them as
 * plain data (`Ruleset.actionDecks`): the cards, and when the turn ends. Shuffling and drawing are pure
 * functions of a deck state and a seeded `Rng`, so a game service keeps the state in its saved game and
 * never needs to know which rule set it runs.
 */
import type { Rng } from '../dice/rng.ts';

export interface ActionDeckCard {
  /** Unique within its deck, e.g. 'fire-union-first', 'whiskey-2'. */
  readonly id: string;
  /** What the card calls for, e.g. 'move', 'carpe-diem', 'whiskey'. */
  readonly kind: string;
  /** Which side acts first, on cards that say so. */
  readonly first?: string;
}

/**
 * When a turn ends, besides running out of cards (which always ends it):
 * - 'nth-of-kind': on drawing the `count`-th card of `cardKind` this turn (The Devil to Pay: the second Whiskey);
 * - 'last-card': only when the last card is drawn.
 */
export type TurnEndRule =
  | { readonly kind: 'nth-of-kind'; readonly cardKind: string; readonly count: number }
  | { readonly kind: 'last-card' };

export interface ActionDeckDefinition {
  /** Stable id, kept in saved games, e.g. 'standard'. */
  readonly id: string;
  readonly name: string;
  /** Rulebook section the deck comes from. */
  readonly source: string;
  /** Every card, in a fixed order (the order shuffles start from). */
  readonly cards: readonly ActionDeckCard[];
  readonly turnEnds: TurnEndRule;
}

/** Saved deck state: plain JSON. */
export interface ActionDeckState {
  readonly deckId: string;
  /** Ids of the cards still to draw this turn, top first. */
  readonly remaining: readonly string[];
  /** Cards drawn this turn that count towards `turnEnds` ('nth-of-kind'); 0 for 'last-card'. */
  readonly endCardsDrawn: number;
}

export interface ActionDeckDraw {
  readonly card: ActionDeckCard;
  /** The state to keep: after the turn ended, the next turn's freshly shuffled deck. */
  readonly deck: ActionDeckState;
  /** Cards left this turn after this draw (0 when the turn ended). */
  readonly remaining: number;
  readonly turnEnded: boolean;
}

/** A new turn's deck (Fisher–Yates over `deck.cards` with the injected roller). */
export function shuffleActionDeck(deck: ActionDeckDefinition, rng: Rng): ActionDeckState {
  const ids = deck.cards.map((c) => c.id);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const t = ids[i]!;
    ids[i] = ids[j]!;
    ids[j] = t;
  }
  return { deckId: deck.id, remaining: ids, endCardsDrawn: 0 };
}

/**
 * Draws the top card. When it ends the turn (the deck's `turnEnds`, or no card left) the returned state is
 * the next turn's shuffled deck. An empty state (no cards left) is shuffled first.
 * @throws when the state belongs to another deck or names a card the deck does not have
 */
export function drawActionCard(deck: ActionDeckDefinition, state: ActionDeckState, rng: Rng): ActionDeckDraw {
  if (state.deckId !== deck.id) throw new Error(`drawActionCard: the deck state is of deck "${state.deckId}", not "${deck.id}"`);
  const source = state.remaining.length > 0 ? state : shuffleActionDeck(deck, rng);
  const [id, ...rest] = source.remaining;
  const card = deck.cards.find((c) => c.id === id);
  if (!card) throw new Error(`drawActionCard: deck "${deck.id}" has no card "${String(id)}"`);
  const ends = deck.turnEnds;
  const endCardsDrawn = source.endCardsDrawn + (ends.kind === 'nth-of-kind' && card.kind === ends.cardKind ? 1 : 0);
  const turnEnded = rest.length === 0 || (ends.kind === 'nth-of-kind' && endCardsDrawn >= ends.count);
  if (turnEnded) return { card, deck: shuffleActionDeck(deck, rng), remaining: 0, turnEnded: true };
  return { card, deck: { deckId: deck.id, remaining: rest, endCardsDrawn }, remaining: rest.length, turnEnded: false };
}

/**
 * Problems with a deck definition (empty list when sound): duplicate or empty card ids, no cards, an
 * 'nth-of-kind' rule the deck cannot reach.
 */
export function actionDeckProblems(deck: ActionDeckDefinition): string[] {
  const out: string[] = [];
  if (deck.cards.length === 0) out.push(`deck "${deck.id}" has no cards`);
  const seen = new Set<string>();
  for (const c of deck.cards) {
    if (c.id.length === 0) out.push(`deck "${deck.id}" has a card without an id`);
    else if (seen.has(c.id)) out.push(`deck "${deck.id}" has card id "${c.id}" twice`);
    seen.add(c.id);
  }
  const ends = deck.turnEnds;
  if (ends.kind === 'nth-of-kind') {
    const n = deck.cards.filter((c) => c.kind === ends.cardKind).length;
    if (!(Number.isInteger(ends.count) && ends.count >= 1 && ends.count <= n)) {
      out.push(`deck "${deck.id}" ends the turn on ${ends.count} "${ends.cardKind}" cards but has ${n}`);
    }
  }
  return out;
}
