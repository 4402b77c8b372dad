import { describe, expect, it } from 'vitest';
import { createRng } from '../../dice/rng.ts';
import { DTP_ACTION_DECKS, deckCards, drawAction, drawCard, newTurnDeck, type DeckState } from './cards.ts';
import { actionDeckProblems, drawActionCard, shuffleActionDeck } from '../../engine/actionDeck.ts';
import { devilToPay } from './index.ts';

function playTurn(deck: DeckState, seed: number) {
  const rng = createRng(seed);
  const phases = [];
  let d = deck;
  while (!d.turnOver) {
    const p = drawAction(d, rng);
    phases.push(p);
    d = p.deck;
  }
  return { phases, deck: d };
}

describe('action deck', () => {
  it('has the 14 standard cards and the 10 alternate cards', () => {
    const std = deckCards('standard');
    expect(std).toHaveLength(14);
    const count = (k: string) => std.filter((c) => c.kind === k).length;
    expect([count('move'), count('fire'), count('charge'), count('rally'), count('carpe-diem'), count('whiskey')]).toEqual([2, 2, 2, 2, 4, 2]);
    for (const k of ['move', 'fire', 'charge', 'rally']) {
      expect(std.filter((c) => c.kind === k).map((c) => ('first' in c ? c.first : '')).sort()).toEqual(['confederate', 'union']);
    }
    const alt = deckCards('alternate');
    expect(alt).toHaveLength(10);
    expect(alt.some((c) => c.kind === 'whiskey')).toBe(false);
    expect(alt.filter((c) => c.kind === 'carpe-diem')).toHaveLength(2);
  });

  it('draws without mutating, as plain JSON data', () => {
    const deck = newTurnDeck();
    const copy = JSON.parse(JSON.stringify(deck));
    const { card, deck: next } = drawCard(deck, createRng(1));
    expect(deck).toEqual(copy);
    expect(next.remaining).toHaveLength(13);
    expect(next.drawn).toEqual([card]);
    expect(JSON.parse(JSON.stringify(next))).toEqual(next);
  });

  it('a first Whiskey draws again; the second ends the turn', () => {
    for (let seed = 0; seed < 60; seed++) {
      const { phases, deck } = playTurn(newTurnDeck(), seed);
      const last = phases[phases.length - 1]!;
      expect(last.action).toBeUndefined();
      expect(last.revealed[last.revealed.length - 1]!.kind).toBe('whiskey');
      expect(deck.whiskeysDrawn).toBe(2);
      // Every phase but the last conducts an action; no phase ends on the first Whiskey.
      for (const p of phases.slice(0, -1)) expect(p.action).toBeDefined();
      expect(() => drawCard(deck, createRng(seed))).toThrow(/newTurnDeck/);
    }
  });

  it('the alternate deck ends the turn with its last card, after all ten actions', () => {
    const { phases } = playTurn(newTurnDeck('alternate'), 3);
    expect(phases).toHaveLength(10);
    expect(phases.every((p) => p.action !== undefined)).toBe(true);
  });

  it('draws every card first about equally often over 14,000 turns', () => {
    const rng = createRng(1414);
    const firsts = new Map<string, number>();
    for (let i = 0; i < 14_000; i++) {
      const { card } = drawCard(newTurnDeck(), rng);
      firsts.set(card.id, (firsts.get(card.id) ?? 0) + 1);
    }
    expect(firsts.size).toBe(14);
    // Expected 1,000 each; chi-square with 13 degrees of freedom, 34.5 is the 0.1% critical value.
    const chi = [...firsts.values()].reduce((s, c) => s + (c - 1000) ** 2 / 1000, 0);
    expect(chi).toBeLessThan(34.5);
  });
});

describe('action decks behind the Ruleset interface', () => {
  it('publishes the standard deck (default) and the alternate one, with the cards of deckCards', () => {
    const decks = devilToPay.actionDecks!;
    expect(decks.map((d) => d.id)).toEqual(['standard', 'alternate']);
    expect(decks[0]!.cards).toEqual(deckCards('standard'));
    expect(decks[1]!.cards).toEqual(deckCards('alternate'));
    for (const d of decks) expect(actionDeckProblems(d)).toEqual([]);
  });

  it('ends a standard turn on the second Whiskey (Turn Sequence), an alternate one on the last card', () => {
    for (const def of DTP_ACTION_DECKS) {
      for (let seed = 1; seed <= 10; seed++) {
        const rng = createRng(seed);
        let state = shuffleActionDeck(def, rng);
        const drawn: string[] = [];
        for (;;) {
          const d = drawActionCard(def, state, rng);
          drawn.push(d.card.kind);
          state = d.deck;
          if (d.turnEnded) break;
        }
        if (def.id === 'standard') {
          expect(drawn.filter((k) => k === 'whiskey')).toHaveLength(2);
          expect(drawn.at(-1)).toBe('whiskey');
        } else {
          expect(drawn).toHaveLength(10);
        }
      }
    }
  });
});
