import { describe, expect, it } from 'vitest';
import { createRng } from '../dice/rng.ts';
import { actionDeckProblems, drawActionCard, shuffleActionDeck, type ActionDeckDefinition } from './actionDeck.ts';

const toy: ActionDeckDefinition = {
  id: 'toy',
  name: 'Toy',
  source: 'test',
  cards: [
    { id: 'a', kind: 'act' },
    { id: 'b', kind: 'act', first: 'red' },
    { id: 'x1', kind: 'end' },
    { id: 'x2', kind: 'end' },
    { id: 'c', kind: 'act' },
  ],
  turnEnds: { kind: 'nth-of-kind', cardKind: 'end', count: 2 },
};

describe('action decks (rule-set neutral)', () => {
  it('shuffles every card once, deterministically for a seed', () => {
    const a = shuffleActionDeck(toy, createRng(3));
    expect([...a.remaining].sort()).toEqual(['a', 'b', 'c', 'x1', 'x2']);
    expect(shuffleActionDeck(toy, createRng(3))).toEqual(a);
    expect(a).toMatchObject({ deckId: 'toy', endCardsDrawn: 0 });
  });

  it("ends the turn on the count-th card of the rule's kind and reshuffles", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rng = createRng(seed);
      let deck = shuffleActionDeck(toy, rng);
      const order = [...deck.remaining];
      const drawn: string[] = [];
      for (;;) {
        const d = drawActionCard(toy, deck, rng);
        drawn.push(d.card.id);
        deck = d.deck;
        if (d.turnEnded) {
          expect(d.remaining).toBe(0);
          expect(deck.remaining).toHaveLength(5);
          break;
        }
        expect(d.remaining).toBe(5 - drawn.length);
      }
      // The turn is the shuffled order up to and including the second 'end' card.
      const second = order.findIndex((id, i) => id.startsWith('x') && order.slice(0, i).some((p) => p.startsWith('x')));
      expect(drawn).toEqual(order.slice(0, second + 1));
    }
  });

  it("'last-card' ends the turn only when the deck runs out", () => {
    const deck: ActionDeckDefinition = { ...toy, turnEnds: { kind: 'last-card' } };
    const rng = createRng(9);
    let state = shuffleActionDeck(deck, rng);
    const ended = [];
    for (let i = 0; i < 5; i++) {
      const d = drawActionCard(deck, state, rng);
      ended.push(d.turnEnded);
      state = d.deck;
    }
    expect(ended).toEqual([false, false, false, false, true]);
  });

  it('refuses a state of another deck or with an unknown card, and reports unsound definitions', () => {
    const rng = createRng(1);
    expect(() => drawActionCard(toy, { deckId: 'other', remaining: ['a'], endCardsDrawn: 0 }, rng)).toThrow(/deck "other", not "toy"/);
    expect(() => drawActionCard(toy, { deckId: 'toy', remaining: ['zz'], endCardsDrawn: 0 }, rng)).toThrow(/no card "zz"/);
    expect(actionDeckProblems(toy)).toEqual([]);
    expect(actionDeckProblems({ ...toy, cards: [...toy.cards, { id: 'a', kind: 'act' }] })).toEqual(['deck "toy" has card id "a" twice']);
    expect(actionDeckProblems({ ...toy, turnEnds: { kind: 'nth-of-kind', cardKind: 'end', count: 3 } })).toEqual(['deck "toy" ends the turn on 3 "end" cards but has 2']);
  });
});
