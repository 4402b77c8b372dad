/**
 * The game a start plays, opened on its data store: the game session (turn, unit status, terrain, deck,
 * tag bindings; saved and logged) and the rule set the rules run with. A rule set that does not load
 * leaves the game running without rules (`rules.note` says why).
 */
import { openGameSession, type GameSession, type GameSessionOptions } from '../game/gameSession.ts';
import type { DataStore } from '../persist/dataStore.ts';
import { loadRuleset, type LoadedRules } from '../rules/loadRuleset.ts';
import type { GameLogEntry } from '@muster/protocol';

export interface OpenGame {
  readonly store: DataStore;
  readonly session: GameSession;
  readonly rules: LoadedRules;
  readonly rulesetId: string | undefined;
  /** Where the session's log entries go from now on (the pipeline, which broadcasts them). */
  forwardLogTo(sink: (entry: GameLogEntry) => void): void;
}

/** `options.rulesetId` names the rule set for both: the action deck comes from the rule set the rules run with. */
export async function openGame(options: Omit<GameSessionOptions, 'onLog'>): Promise<OpenGame> {
  const { session, forwardLogTo } = openGameSession(options);
  const rules = await loadRuleset(options.rulesetId);
  return { store: options.store, session, rules, rulesetId: options.rulesetId, forwardLogTo };
}
