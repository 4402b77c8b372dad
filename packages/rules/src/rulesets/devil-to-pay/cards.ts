/**
 * The Devil to Pay action deck (Actions and Orders: Actions Cards / Chits; Turn Sequence). Deck state is
 * plain JSON data; drawing is `(deck, rng) → { card, deck }` and never mutates its input.
 */
import type { Rng } from '../../dice/rng.ts';
import type { ActionDeckDefinition } from '../../engine/actionDeck.ts';

export type ActionKind = 'move' | 'fire' | 'charge' | 'rally';
/** Which side acts first on a Move/Fire/Charge/Rally card. */
export type FirstSide = 'union' | 'confederate';

export type ActionCard =
  | { readonly id: string; readonly kind: ActionKind; readonly first: FirstSide }
  | { readonly id: string; readonly kind: 'carpe-diem' }
  | { readonly id: string; readonly kind: 'whiskey' };

/**
 * 'standard': the 14 cards (2 Move, 2 Fire, 2 Charge, 2 Rally, one Union-first and one Confederate-first
 * each; 4 Carpe Diem; 2 Whiskey); the turn ends on the second Whiskey.
 * 'alternate': Optional Rules, Alternate Card / Chit System: no Whiskey, 2 Carpe Diem, 10 cards; the turn
 * ends when the last card is drawn.
 */
export type DeckVariant = 'standard' | 'alternate';

export interface DeckState {
  readonly variant: DeckVariant;
  /** Cards not yet drawn this turn (order is irrelevant: each draw picks one at random). */
  readonly remaining: readonly ActionCard[];
  /** Cards drawn this turn, in order. */
  readonly drawn: readonly ActionCard[];
  readonly whiskeysDrawn: number;
  /** True once the turn has ended: second Whiskey (standard) or last card (alternate). */
  readonly turnOver: boolean;
}

const ACTIONS: readonly ActionKind[] = ['move', 'fire', 'charge', 'rally'];

/** The cards of a variant, in a fixed order. */
export function deckCards(variant: DeckVariant = 'standard'): ActionCard[] {
  const cards: ActionCard[] = [];
  // 2 of each action card: 1 Union First / 1 Confederate First (Action Card / Chit Distribution).
  for (const kind of ACTIONS) {
    cards.push({ id: `${kind}-union-first`, kind, first: 'union' }, { id: `${kind}-confederate-first`, kind, first: 'confederate' });
  }
  // 4 Carpe Diem in the standard deck, 2 in the alternate system.
  const carpe = variant === 'standard' ? 4 : 2;
  for (let i = 1; i <= carpe; i++) cards.push({ id: `carpe-diem-${i}`, kind: 'carpe-diem' });
  // 2 Whiskey, standard deck only.
  if (variant === 'standard') cards.push({ id: 'whiskey-1', kind: 'whiskey' }, { id: 'whiskey-2', kind: 'whiskey' });
  return cards;
}

/**
 * The two decks as rule-set-neutral data for `Ruleset.actionDecks` (the standard deck first, the default).
 * Same cards, ids and order as `deckCards`; the turn ends on the second Whiskey ("When both have been
 * revealed the turn ends", Turn Sequence) or, in the alternate system, "when the last card / chit is drawn"
 * (Optional Rules, Alternate Card / Chit System).
 */
export const DTP_ACTION_DECKS: readonly ActionDeckDefinition[] = [
  {
    id: 'standard',
    name: 'Action cards',
    source: 'Actions and Orders: Action Card / Chit Distribution; Turn Sequence',
    cards: deckCards('standard'),
    turnEnds: { kind: 'nth-of-kind', cardKind: 'whiskey', count: 2 },
  },
  {
    id: 'alternate',
    name: 'Alternate cards (no Whiskey)',
    source: 'Optional Rules, Alternate Card / Chit System',
    cards: deckCards('alternate'),
    turnEnds: { kind: 'last-card' },
  },
];

/** Reload (Turn Sequence 1b): all cards back in the deck for a new turn. */
export function newTurnDeck(variant: DeckVariant = 'standard'): DeckState {
  return { variant, remaining: deckCards(variant), drawn: [], whiskeysDrawn: 0, turnOver: false };
}

/**
 * Reveals one card at random from those remaining.
 * @throws when the turn is over (start the next turn with `newTurnDeck`)
 */
export function drawCard(deck: DeckState, rng: Rng): { card: ActionCard; deck: DeckState } {
  if (deck.turnOver || deck.remaining.length === 0) {
    throw new Error('drawCard: the turn is over; start the next turn with newTurnDeck() (Turn Sequence 1, Reload)');
  }
  const i = rng.nextInt(deck.remaining.length);
  const card = deck.remaining[i]!;
  const remaining = deck.remaining.filter((_, k) => k !== i);
  const whiskeysDrawn = deck.whiskeysDrawn + (card.kind === 'whiskey' ? 1 : 0);
  // Standard: "When both have been revealed the turn ends". Alternate: "when the last card is drawn".
  const turnOver = deck.variant === 'standard' ? whiskeysDrawn >= 2 : remaining.length === 0;
  return { card, deck: { variant: deck.variant, remaining, drawn: [...deck.drawn, card], whiskeysDrawn, turnOver } };
}

export interface ActionPhaseDraw {
  /** Cards revealed in this phase: a first Whiskey is followed at once by another card. */
  readonly revealed: readonly ActionCard[];
  /** The card whose action is conducted; undefined when the phase drew the second Whiskey. */
  readonly action?: Exclude<ActionCard, { kind: 'whiskey' }>;
  readonly deck: DeckState;
}

/**
 * One Action Phase draw (Turn Sequence 2b): "When the first WHISKEY card is drawn, no actions are
 * conducted, and a new card/chit is immediately drawn. When the second WHISKEY card is drawn the turn ends."
 */
export function drawAction(deck: DeckState, rng: Rng): ActionPhaseDraw {
  const revealed: ActionCard[] = [];
  let d = deck;
  for (;;) {
    const r = drawCard(d, rng);
    d = r.deck;
    revealed.push(r.card);
    if (r.card.kind !== 'whiskey') return { revealed, action: r.card, deck: d };
    if (d.turnOver) return { revealed, deck: d };
  }
}
