/**
 * The game service draws action cards from the rule set's deck (`Ruleset.actionDecks`, The Devil to Pay
 * Turn Sequence: the second Whiskey ends the turn), and still reads game files saved before that (version 1).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CardDraw } from '@muster/protocol';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { GameSession } from '../../apps/server/src/game/gameSession.ts';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { tempDir } from './helpers.ts';

const dir = tempDir('muster-deck-');
afterAll(() => dir.remove());
const roster = await loadRoster(join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml'));

function draw(session: GameSession): string {
  const r = session.perform({ type: 'draw-card' }) as { draw: CardDraw };
  const c = r.draw.card;
  return `${c.kind}${c.first ? `:${c.first}` : ''}${r.draw.turnEnded ? '|END' : ''}`;
}

describe('game deck from the rule set', () => {
  it('draws what the service drew before the deck moved behind the Ruleset interface (same seed, same cards)', () => {
    const session = new GameSession({ store: openDataStore(join(dir.path, 'same-seed')), baseRoster: roster, seed: 'deck-test' });
    try {
      const drawn = Array.from({ length: 20 }, () => draw(session));
      // Recorded with the service's former copy of the deck (apps/vision/src/app/actionDeck.ts, since removed).
      expect(drawn).toEqual([
        'rally:union', 'move:union', 'carpe-diem', 'whiskey', 'move:confederate', 'whiskey|END',
        'carpe-diem', 'carpe-diem', 'charge:union', 'charge:confederate', 'move:confederate', 'fire:union', 'move:union',
        'rally:confederate', 'rally:union', 'fire:confederate', 'whiskey', 'whiskey|END', 'rally:confederate', 'carpe-diem',
      ]);
      expect(session.turn).toBe(3);
    } finally {
      session.close();
    }
  });

  it('loads a version 1 game file: its deck continues where it was, and is saved again as the current version (3, with the rule set)', () => {
    const path = join(dir.path, 'v1');
    const store = openDataStore(path);
    store.write('game', {
      version: 1,
      turn: 4,
      statusByUnit: { us1: { disordered: true } },
      deck: { remaining: [{ kind: 'fire', first: 'union' }, { kind: 'carpe-diem' }, { kind: 'whiskey' }, { kind: 'move', first: 'confederate' }], whiskeysDrawn: 1 },
      rng: { algorithm: 'mulberry32', state: 12345 },
    });
    store.close();
    const session = new GameSession({ store: openDataStore(path), baseRoster: roster });
    try {
      expect(session.turn).toBe(4);
      expect(session.statusOverride('us1')).toEqual({ disordered: true });
      const saved = JSON.parse(readFileSync(join(path, 'game.json'), 'utf8'));
      expect(saved.version).toBe(3);
      expect(saved.rulesetId).toBe('devil-to-pay');
      expect(saved.deck).toEqual({ deckId: 'standard', remaining: ['fire-union-first', 'carpe-diem-1', 'whiskey-1', 'move-confederate-first'], endCardsDrawn: 1 });
      // One Whiskey was already drawn this turn: the next one ends it.
      expect([draw(session), draw(session), draw(session)]).toEqual(['fire:union', 'carpe-diem', 'whiskey|END']);
      expect(session.turn).toBe(5);
    } finally {
      session.close();
    }
  });

  it('refuses a version 1 game file whose deck holds a card the rule set does not have', () => {
    const path = join(dir.path, 'v1-bad');
    const store = openDataStore(path);
    store.write('game', {
      version: 1,
      turn: 1,
      statusByUnit: {},
      deck: { remaining: [{ kind: 'fire', first: 'union' }, { kind: 'fire', first: 'union' }], whiskeysDrawn: 0 },
      rng: { algorithm: 'mulberry32', state: 1 },
    });
    store.close();
    expect(() => new GameSession({ store: openDataStore(path), baseRoster: roster })).toThrow(/not in deck "standard"/);
  });

  it('uses the alternate deck when asked (Optional Rules, Alternate Card / Chit System): no Whiskey, 10 cards a turn', () => {
    const session = new GameSession({ store: openDataStore(join(dir.path, 'alt')), baseRoster: roster, deckId: 'alternate' });
    try {
      const drawn = Array.from({ length: 10 }, () => draw(session));
      expect(drawn.some((d) => d.startsWith('whiskey'))).toBe(false);
      expect(drawn.filter((d) => d.endsWith('|END'))).toEqual([drawn[9]]);
      expect(session.turn).toBe(2);
    } finally {
      session.close();
    }
    // A saved game keeps its deck.
    const again = new GameSession({ store: openDataStore(join(dir.path, 'alt')), baseRoster: roster });
    try {
      expect(JSON.parse(readFileSync(join(dir.path, 'alt', 'game.json'), 'utf8')).deck.deckId).toBe('alternate');
    } finally {
      again.close();
    }
  });
});
