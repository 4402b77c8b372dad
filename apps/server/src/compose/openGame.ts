/**
 * The game a start plays, opened on its data store: the game session (turn, unit status, terrain, deck,
 * tag bindings; saved and logged) and the rule set the rules run with. A rule set that does not load
 * leaves the game running without rules (`rules.note` says why).
 */
import { openGameSession, savedRulesetId, type GameSession, type GameSessionOptions } from '../game/gameSession.ts';
import type { DataStore } from '../persist/dataStore.ts';
import { loadRuleset, type LoadedRules } from '../rules/loadRuleset.ts';
import type { GameLogEntry } from '@muster/protocol';
import { rosterRulesetProblems } from '../roster/index.ts';

export interface OpenGame {
  readonly store: DataStore;
  readonly session: GameSession;
  readonly rules: LoadedRules;
  readonly rulesetId: string | undefined;
  /** Where the session's log entries go from now on (the pipeline, which broadcasts them). */
  forwardLogTo(sink: (entry: GameLogEntry) => void): void;
}

/**
 * The rule set, first found: `options.rulesetId` (an explicit `--ruleset`), the one saved with the game
 * (chosen live by the operator, or by an earlier start), the roster's `ruleset`, the default. It names the
 * rule set for both: the action deck comes from the rule set the rules run with. Roster values an
 * explicitly named rule set rejects stop the start with every problem; with the saved choice they are
 * published as the choice's roster problems instead (the operator chose it knowing; the start must not fail).
 */
export async function openGame(options: Omit<GameSessionOptions, 'onLog'>): Promise<OpenGame> {
  const saved = options.rulesetId === undefined ? savedRulesetIdOrNull(options.store) : null;
  const rulesetId = options.rulesetId ?? saved ?? options.baseRoster.ruleset;
  const rules = await loadRuleset(rulesetId);
  if (rules.ruleset && saved === null) {
    const problems = rosterRulesetProblems(options.baseRoster, rules.ruleset);
    if (problems.length > 0) {
      const shown = problems.slice(0, 8).join('; ');
      const more = problems.length > 8 ? `; and ${problems.length - 8} more` : '';
      throw new Error(`roster "${options.baseRoster.name}" does not fit rule set ${rules.ruleset.id}: ${shown}${more} (see muster rules --params ${rules.ruleset.id})`);
    }
  }
  const sessionOptions = rulesetId !== undefined ? { ...options, rulesetId } : options;
  const { session, forwardLogTo } = openGameSession(sessionOptions);
  return { store: options.store, session, rules, rulesetId, forwardLogTo };
}

/** The saved rule set; a game file that does not read is left for the session to report (with the store closed). */
function savedRulesetIdOrNull(store: OpenGame['store']): string | null {
  try {
    return savedRulesetId(store);
  } catch {
    return null;
  }
}
