/**
 * What the operator sets at the table and what the service remembers across restarts: the turn, unit
 * status set by hand, terrain, marker → stand bindings made at the table, the action deck and the dice
 * roller's state. Every change is saved atomically and logged; poses are logged when a stand moved.
 */
import {
  DEFAULT_RULESET_ID,
  drawActionCard,
  getRuleset,
  listRulesets,
  rulesetValuesProblems,
  shuffleActionDeck,
  type ActionDeckCard,
  type ActionDeckDefinition,
  type ActionDeckState,
  type PoseIn,
  type RulesetValues,
  type Stand,
  type Terrain,
  type UnitStatus,
} from '@muster/rules';
import {
  LIMITS,
  validateClientMessage,
  validateTerrain,
  type ActionCard,
  type ActionCardKind,
  type CardDraw,
  type DiceRoll,
  type GameLogEntry,
  type OperatorMessage,
  type RulesetSummary,
  type UnitStatusPatch,
} from '@muster/protocol';
import { PersistError, type DataStore, type DocumentName } from '../persist/dataStore.ts';
import type { GameLog } from '../persist/gameLog.ts';
import { refuseMissingRecordedDocuments } from './recordedDocuments.ts';
import { ActionError, type ActionResult } from '../http/backend.ts';
import type { Roster, RosterStand } from '../roster/roster.ts';
import { createRng, restoreRng, rollDice, seedFromString, type Rng, type RngState } from '@muster/rules';

/**
 * 3: the rule set the game runs with (`rulesetId`, chosen live or at start). 2 (still read): the deck is the
 * rule set's (`Ruleset.actionDecks`), saved as card ids. 1 (still read): DTP cards by kind.
 */
const GAME_VERSION = 3;

/** game.json */
interface SavedGame {
  readonly version: typeof GAME_VERSION;
  readonly turn: number;
  readonly statusByUnit: Record<string, UnitStatus>;
  /** Null when the rule set has no action deck. */
  readonly deck: ActionDeckState | null;
  readonly rng: RngState;
  /** The installed rule set the game runs with; null when it runs without rules. */
  readonly rulesetId: string | null;
  /**
   * Lines in the game log when this was saved (absent in files from before it was added): a log found
   * shorter at start lost entries (truncated, emptied, replaced), which health then reports.
   */
  readonly logLines?: number;
}

/** game.json as version 2 wrote it: no rule set saved (the start's --ruleset or the roster's decided). */
type SavedGameV2 = Omit<SavedGame, 'version' | 'rulesetId'> & { readonly version: 2 };

/** game.json as version 1 wrote it: the Devil to Pay deck as cards by kind (top first) and Whiskeys seen. */
interface SavedGameV1 {
  readonly version: 1;
  readonly turn: number;
  readonly statusByUnit: Record<string, UnitStatus>;
  readonly deck: { readonly remaining: readonly { readonly kind: string; readonly first?: string }[]; readonly whiskeysDrawn: number };
  readonly rng: RngState;
}

/** tag-bindings.json: applied in order. */
interface SavedBindings {
  readonly version: 1;
  readonly bindings: { readonly markerId: number; readonly standId: string | null }[];
}

export const EMPTY_TERRAIN: Terrain = { areas: [], linear: [], roads: [], elevations: [] };

/** Log a stand's pose when it moved at least this far or turned this much since it was last logged. */
export const POSE_LOG_MIN_MOVE_IN = 0.25;
export const POSE_LOG_MIN_TURN_DEG = 5;

function asObject(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${what} must be an object`);
  return v as Record<string, unknown>;
}

/** Saved files are checked as strictly as the wire: a field this version does not write is an error. */
function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], what: string): void {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k));
  if (extra.length > 0) throw new Error(`${what} has unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')} (allowed: ${allowed.join(', ')})`);
}

function wholeNumber(v: unknown, what: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new Error(`${what} must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
  return v;
}

function checkGameVersion(version: unknown): 1 | 2 | typeof GAME_VERSION {
  if (typeof version !== 'number') {
    throw new Error(`version must be the number ${GAME_VERSION} (got ${JSON.stringify(version)}${typeof version === 'string' ? ', a string' : ''})`);
  }
  if (version !== GAME_VERSION && version !== 1 && version !== 2) {
    throw new Error(`unsupported game file version ${version} (this Muster reads versions 1 to ${GAME_VERSION}; was it written by a newer Muster?)`);
  }
  return version;
}

/** Operator status per unit, each checked by the wire's own validator for `set-unit-status`. */
function checkStatusByUnit(v: unknown): Record<string, UnitStatus> {
  const o = asObject(v, 'statusByUnit');
  for (const [unitId, status] of Object.entries(o)) {
    const parsed = validateClientMessage({ type: 'set-unit-status', unitId, status });
    if (!parsed.ok) throw new Error(`statusByUnit.${unitId}: ${parsed.message}`);
    const nulls = Object.entries(asObject(status, `statusByUnit.${unitId}`)).filter(([, x]) => x === null);
    if (nulls.length > 0) throw new Error(`statusByUnit.${unitId}.${nulls[0]![0]}: null is not a saved status (leave the field out)`);
  }
  return o as Record<string, UnitStatus>;
}

function checkDeckV1(v: unknown): SavedGameV1['deck'] {
  const deck = asObject(v, 'deck');
  onlyKeys(deck, ['remaining', 'whiskeysDrawn'], 'deck');
  if (!Array.isArray(deck.remaining)) throw new Error('deck.remaining must be a list');
  deck.remaining.forEach((c, i) => {
    const card = asObject(c, `deck.remaining[${i}]`);
    onlyKeys(card, ['kind', 'first'], `deck.remaining[${i}]`);
    if (typeof card.kind !== 'string' || (card.first !== undefined && typeof card.first !== 'string')) throw new Error(`deck.remaining[${i}] must have a kind (and optionally first) as text`);
  });
  wholeNumber(deck.whiskeysDrawn, 'deck.whiskeysDrawn', 0, 1000);
  return deck as unknown as SavedGameV1['deck'];
}

function checkDeck(v: unknown): ActionDeckState | null {
  if (v === null) return null;
  const deck = asObject(v, 'deck');
  onlyKeys(deck, ['deckId', 'remaining', 'endCardsDrawn'], 'deck');
  if (typeof deck.deckId !== 'string' || deck.deckId === '') throw new Error('deck.deckId must be a deck id');
  if (!Array.isArray(deck.remaining) || !deck.remaining.every((c) => typeof c === 'string')) throw new Error('deck.remaining must be a list of card ids');
  if (new Set(deck.remaining).size !== deck.remaining.length) throw new Error('deck.remaining lists a card twice');
  wholeNumber(deck.endCardsDrawn, 'deck.endCardsDrawn', 0, 1000);
  return deck as unknown as ActionDeckState;
}

function checkGame(v: unknown): SavedGame | SavedGameV2 | SavedGameV1 {
  const o = asObject(v, 'game');
  const version = checkGameVersion(o.version);
  onlyKeys(o, version === GAME_VERSION ? ['version', 'turn', 'statusByUnit', 'deck', 'rng', 'rulesetId', 'logLines'] : ['version', 'turn', 'statusByUnit', 'deck', 'rng'], 'game');
  if (version === GAME_VERSION) checkSavedRulesetId(o.rulesetId);
  if (o.logLines !== undefined) wholeNumber(o.logLines, 'logLines', 0, Number.MAX_SAFE_INTEGER);
  wholeNumber(o.turn, 'turn', 1, 10_000);
  checkStatusByUnit(o.statusByUnit);
  if (version === 1) checkDeckV1(o.deck);
  else checkDeck(o.deck);
  const rng = asObject(o.rng, 'rng');
  onlyKeys(rng, ['algorithm', 'state'], 'rng');
  if (rng.algorithm !== 'mulberry32') throw new Error(`rng.algorithm must be "mulberry32" (got ${JSON.stringify(rng.algorithm)})`);
  wholeNumber(rng.state, 'rng.state', 0, 0xffffffff);
  return v as SavedGame | SavedGameV2 | SavedGameV1;
}

/**
 * A saved rule-set id: null, or the id of an installed rule set (a game saved by a build with more rule
 * sets is an error to fix, not a game silently run with other rules).
 */
function checkSavedRulesetId(v: unknown): string | null {
  if (v === null) return null;
  if (typeof v !== 'string' || v === '') throw new Error(`rulesetId must be a rule-set id or null (got ${JSON.stringify(v)})`);
  if (!listRulesets().some((r) => r.id === v)) {
    throw new Error(`rulesetId "${v}" is not an installed rule set (installed: ${listRulesets().map((r) => r.id).join(', ')})`);
  }
  return v;
}

/**
 * The rule set saved with the game in `store` (game.json `rulesetId`): null when none was saved (no game
 * yet, a game from before version 3, or one that ran without rules).
 * @throws PersistError when game.json is unreadable or invalid (the same error opening the session gives)
 */
export function savedRulesetId(store: DataStore): string | null {
  const saved = store.read('game', checkGame);
  return saved?.version === GAME_VERSION ? saved.rulesetId : null;
}

/** The installed rule set `id` as the views name it, or null when it is not installed. */
export function rulesetSummary(id: string | null | undefined): RulesetSummary | null {
  if (id === null || id === undefined) return null;
  return listRulesets().find((r) => r.id === id) ?? null;
}

/** A saved deck state against its definition: every card id must be one of the deck's, so a draw cannot fail later. */
function checkDeckCards(deck: ActionDeckState, def: ActionDeckDefinition): ActionDeckState {
  const known = new Set(def.cards.map((c) => c.id));
  const unknown = deck.remaining.find((id) => !known.has(id));
  if (unknown !== undefined) throw new Error(`deck.remaining: "${unknown}" is not a card of deck "${def.id}"`);
  return deck;
}

/**
 * A version 1 deck as a deck state of `deck`: each saved card is matched by kind and first side to an unused
 * card of the deck; Whiskeys seen become the end cards drawn.
 * @throws when a saved card is not in the deck
 */
export function deckStateFromV1(saved: SavedGameV1['deck'], deck: ActionDeckDefinition): ActionDeckState {
  const unused = [...deck.cards];
  const remaining = saved.remaining.map((c) => {
    const i = unused.findIndex((u) => u.kind === c.kind && u.first === c.first);
    if (i < 0) throw new Error(`saved deck card ${JSON.stringify(c)} is not in deck "${deck.id}"`);
    return unused.splice(i, 1)[0]!.id;
  });
  return { deckId: deck.id, remaining, endCardsDrawn: saved.whiskeysDrawn };
}

/** The rule set's action decks; none when it has none or cannot be found (the service then runs without). */
function actionDecksOf(rulesetId: string | undefined): readonly ActionDeckDefinition[] {
  try {
    return getRuleset(rulesetId).actionDecks ?? [];
  } catch {
    return [];
  }
}

/** A rule set's card as the wire protocol's `ActionCard`. */
function wireCard(card: ActionDeckCard): ActionCard {
  return { kind: card.kind as ActionCardKind, ...(card.first !== undefined ? { first: card.first as 'union' | 'confederate' } : {}) };
}

function checkBindings(v: unknown): SavedBindings {
  const o = asObject(v, 'tag bindings');
  onlyKeys(o, ['version', 'bindings'], 'tag bindings');
  if (o.version !== 1) throw new Error(`version must be the number 1 (got ${JSON.stringify(o.version)})`);
  if (!Array.isArray(o.bindings)) throw new Error('bindings must be a list');
  o.bindings.forEach((b, i) => {
    const r = asObject(b, `bindings[${i}]`);
    onlyKeys(r, ['markerId', 'standId'], `bindings[${i}]`);
    wholeNumber(r.markerId, `bindings[${i}].markerId`, 0, LIMITS.maxMarkerId);
    if (r.standId !== null && (typeof r.standId !== 'string' || r.standId === '')) throw new Error(`bindings[${i}].standId must be a stand id or null`);
  });
  return v as SavedBindings;
}

function checkTerrain(v: unknown): Terrain {
  const r = validateTerrain(v);
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

type NewEntry = GameLogEntry extends infer E ? (E extends GameLogEntry ? Omit<E, 'index' | 'timeMs' | 'turn'> : never) : never;

/** The after-the-roll log entries a resolution makes (`resolutionDesk.ts`), before the log numbers them. */
export type NewOutcomeEntry = Extract<NewEntry, { kind: 'outcome' | 'outcome-applied' | 'outcome-undone' | 'outcome-cleared' }>;

export interface GameSessionOptions {
  readonly store: DataStore;
  readonly baseRoster: Roster;
  /** Terrain to start with when none is saved. */
  readonly initialTerrain?: Terrain;
  /** Seed for a new game's roller (ignored when a saved game exists). Default: the roster name. */
  readonly seed?: string;
  /**
   * The rule set the game runs with: its action deck is what `draw-card` draws from (`Ruleset.actionDecks`),
   * and, when installed, it is saved in game.json (a restart without `--ruleset` keeps it). Default: the
   * registry's default. When it differs from the one saved, the change is logged (`ruleset` entry).
   */
  readonly rulesetId?: string;
  /** Which of its decks a new game uses. Default: its first. A saved game keeps the deck it was saved with. */
  readonly deckId?: string;
  /** Called after every non-pose log entry (the server broadcasts it). */
  readonly onLog?: (entry: GameLogEntry) => void;
  /** Called when something that changes the table state changed (status, terrain, bindings, turn). */
  readonly onChange?: () => void;
  readonly now?: () => number;
}

/**
 * The game session a start-up opens before its pipeline exists: log entries reach whatever `forwardLogTo`
 * sets later (the pipeline, which broadcasts them). When the session cannot open (a broken saved game) the
 * store is closed before the error goes on, so the data directory's lock is released.
 */
export function openGameSession(options: Omit<GameSessionOptions, 'onLog'>): { session: GameSession; forwardLogTo(sink: (entry: GameLogEntry) => void): void } {
  let sink: (entry: GameLogEntry) => void = () => {};
  try {
    const session = new GameSession({ ...options, onLog: (e) => sink(e) });
    return { session, forwardLogTo: (next) => void (sink = next) };
  } catch (err) {
    options.store.close();
    throw err;
  }
}

export class GameSession {
  readonly log: GameLog<GameLogEntry>;
  private readonly store: DataStore;
  private readonly baseRoster: Roster;
  private readonly now: () => number;
  private readonly onLog: (entry: GameLogEntry) => void;
  private readonly onChange: () => void;
  private turnValue: number;
  private statusByUnit: Record<string, UnitStatus>;
  /** The deck being drawn from and its state; null when the rule set has no action deck. */
  private deckDef: ActionDeckDefinition | null;
  private deck: ActionDeckState | null;
  private rng: Rng;
  private terrainValue: Terrain;
  /** The installed rule set the game runs with (null: none, the start asked for one not installed). */
  private rulesetIdValue: string | null;
  private bindings: { markerId: number; standId: string | null }[];
  private rosterCache: Roster | null = null;
  private readonly recent: GameLogEntry[] = [];
  private readonly loggedPoses = new Map<string, PoseIn>();
  /** What could not be saved, by file: the service reports it as a health warning until a save works. */
  private readonly storageProblems = new Map<string, string>();

  constructor(options: GameSessionOptions) {
    this.store = options.store;
    this.baseRoster = options.baseRoster;
    this.now = options.now ?? Date.now;
    this.onLog = options.onLog ?? (() => {});
    this.onChange = options.onChange ?? (() => {});
    this.log = this.store.openLog<GameLogEntry>();
    refuseMissingRecordedDocuments(this.store, this.log);
    const decks = actionDecksOf(options.rulesetId);
    const saved = this.store.read('game', checkGame);
    const savedRuleset = saved?.version === GAME_VERSION ? saved.rulesetId : null;
    // An id that is not installed runs without rules and leaves the saved choice as it was.
    this.rulesetIdValue = rulesetSummary(options.rulesetId ?? DEFAULT_RULESET_ID)?.id ?? savedRuleset;
    if (saved?.version === GAME_VERSION && saved.logLines !== undefined && saved.logLines > this.log.count()) {
      // Not cleared by any save: the entries are gone from the record until the log is restored.
      this.storageProblems.set(
        'game-log-lost',
        `${this.log.file} has ${this.log.count()} lines, but game.json was saved when it had ${saved.logLines}: the log lost entries (cut short, emptied or replaced) and replay and export will miss them; stop the service and restore the log from a backup`,
      );
    }
    if (saved) {
      this.turnValue = saved.turn;
      this.statusByUnit = { ...saved.statusByUnit };
      this.rng = restoreRng(saved.rng);
      if (saved.version === 1) {
        // Version 1 saved the Devil to Pay standard deck by card kind: the rule set's default deck.
        this.deckDef = decks[0] ?? null;
        this.deck = this.deckDef ? deckStateFromV1(saved.deck, this.deckDef) : null;
      } else {
        const savedDeck = saved.deck;
        this.deckDef = (savedDeck && decks.find((d) => d.id === savedDeck.deckId)) ?? pickDeck(decks, options.deckId);
        if (savedDeck && this.deckDef && savedDeck.deckId === this.deckDef.id) {
          try {
            checkDeckCards(savedDeck, this.deckDef);
          } catch (err) {
            throw new PersistError(`${this.store.path('game')}: ${(err as Error).message}; fix or remove it`);
          }
        }
        // A deck the rule set no longer has: start the turn's deck afresh.
        this.deck = this.deckDef && savedDeck?.deckId === this.deckDef.id ? savedDeck : this.deckDef ? shuffleActionDeck(this.deckDef, this.rng) : null;
      }
    } else {
      this.turnValue = 1;
      this.statusByUnit = {};
      this.rng = createRng(seedFromString(options.seed ?? this.baseRoster.name));
      this.deckDef = pickDeck(decks, options.deckId);
      this.deck = this.deckDef ? shuffleActionDeck(this.deckDef, this.rng) : null;
    }
    const savedTerrain = this.store.read('terrain', checkTerrain);
    this.terrainValue = savedTerrain ?? options.initialTerrain ?? EMPTY_TERRAIN;
    const loggedTerrain = this.log.lastOfKind('terrain');
    if (loggedTerrain?.kind === 'terrain') {
      // The log is the record (an edit is logged, then saved): one logged but not saved, by a crash
      // between the two or a terrain.json lost since, is saved again from the log.
      const terrain = checkTerrain(loggedTerrain.terrain);
      if (JSON.stringify(terrain) !== JSON.stringify(savedTerrain)) {
        this.persist('terrain', terrain);
        this.terrainValue = terrain;
      }
    }
    this.bindings = [...(this.store.read('tag-bindings', checkBindings)?.bindings ?? [])];
    this.bindings.forEach((b, i) => {
      const problem = this.bindingProblem(b.markerId, b.standId);
      if (problem) throw new PersistError(`${this.store.path('tag-bindings')}: bindings[${i}]: ${problem}; fix or remove it`);
    });
    this.recent.push(...this.log.newest(50, (e) => e.kind !== 'pose'));
    // A start whose --ruleset differs from the game's saved rule set changed the game's rules: say so.
    const rulesetChanged = saved?.version === GAME_VERSION && saved.rulesetId !== this.rulesetIdValue;
    // Poses logged before a restart: only log again what moved since.
    for (const e of this.log.newest(5000, (x) => x.kind === 'pose' || x.kind === 'stand-removed')) {
      if (e.kind === 'pose') this.loggedPoses.set(e.standId, e.pose);
      else if (e.kind === 'stand-removed') this.loggedPoses.delete(e.standId);
    }
    if (!saved || saved.version !== GAME_VERSION || rulesetChanged) this.saveGame();
    const current = rulesetSummary(this.rulesetIdValue);
    if (rulesetChanged && current) this.append({ kind: 'ruleset', by: 'operator', ruleset: current, previousId: savedRuleset });
  }

  /** The installed rule set the game runs with; null when it runs without rules. */
  get rulesetId(): string | null {
    return this.rulesetIdValue;
  }

  get turn(): number {
    return this.turnValue;
  }

  get terrain(): Terrain {
    return this.terrainValue;
  }

  /** Operator status per unit (merged over what status chips say). */
  statusOverride(unitId: string): UnitStatus | undefined {
    return this.statusByUnit[unitId];
  }

  recentLog(): readonly GameLogEntry[] {
    return this.recent;
  }

  /** The roster with the operator's marker bindings applied (a stand whose tag was taken off has tag null). */
  roster(): Roster {
    this.rosterCache ??= rosterWithBindings(this.baseRoster, this.bindings);
    return this.rosterCache;
  }

  /** Why a binding cannot apply (unknown stand, a status chip's tag), or null when it can. */
  private bindingProblem(markerId: number, standId: string | null): string | null {
    if (standId !== null && !this.standExists(standId)) return `no stand "${standId}" in the roster`;
    if (this.baseRoster.statusTokens.some((t) => t.tag === markerId)) return `marker ${markerId} is a status chip in the roster`;
    return null;
  }

  /**
   * Problems the operator should see: files that could not be saved, and corrupt lines the game log
   * skipped when it opened. Empty when all is well.
   */
  warnings(): string[] {
    return [...this.storageProblems.values(), ...this.log.problems];
  }

  private standExists(standId: string): boolean {
    return (
      this.baseRoster.units.some((u) => u.stands.some((s) => s.id === standId)) ||
      this.baseRoster.commanders.some((c) => c.stand?.id === standId)
    );
  }

  /**
   * Logs an entry. A log that cannot be written (disk full) does not undo what was already saved: it
   * becomes a warning until an append works again.
   */
  private append(entry: NewEntry): GameLogEntry {
    const full = { ...entry, index: this.log.count(), timeMs: this.now(), turn: this.turnValue } as GameLogEntry;
    try {
      this.log.append(full);
      this.storageProblems.delete('game-log');
    } catch (err) {
      this.storageProblems.set('game-log', `could not append to the game log (${(err as Error).message}); entries are missing from the record until it works again`);
    }
    if (full.kind !== 'pose' && full.kind !== 'stand-removed') {
      this.recent.push(full);
      if (this.recent.length > 50) this.recent.shift();
      this.onLog(full);
    }
    return full;
  }

  /**
   * Saves a document before anything else changes: when it cannot be written, the action fails with the
   * reason, memory and every view keep the old state, and health carries the warning until a save works.
   */
  private persist(name: DocumentName, value: unknown): void {
    try {
      this.store.write(name, value);
      this.storageProblems.delete(name);
    } catch (err) {
      const message = `could not save ${this.store.path(name)} (${(err as Error).message}); the change was not applied: check the data directory's permissions and free space`;
      this.storageProblems.set(name, message);
      throw new ActionError('internal', message);
    }
  }

  private gameDocument(turn: number, statusByUnit: Record<string, UnitStatus>, deck: ActionDeckState | null, rulesetId: string | null = this.rulesetIdValue): SavedGame {
    return { version: GAME_VERSION, turn, statusByUnit, deck, rng: this.rng.snapshot(), rulesetId, logLines: this.log.count() };
  }

  private saveGame(): void {
    this.persist('game', this.gameDocument(this.turnValue, this.statusByUnit, this.deck));
  }

  /** Runs a change that draws from the roller; when its save fails the roller is put back as it was. */
  private withRngRollback<T>(change: () => T): T {
    const before = this.rng.snapshot();
    try {
      return change();
    } catch (err) {
      this.rng = restoreRng(before);
      throw err;
    }
  }

  /**
   * Runs `use` with the game's seeded roller, then saves the roller's state. When `use` or the save throws,
   * the roller is put back as it was: a roll nobody saw is not spent.
   */
  rollWith<T>(use: (rng: Rng) => T): T {
    return this.withRngRollback(() => {
      const result = use(this.rng);
      this.saveGame();
      return result;
    });
  }

  /** Logs an outcome or its clearing (nothing on the table changes). */
  logOutcome(entry: Extract<NewOutcomeEntry, { kind: 'outcome' | 'outcome-cleared' }>): GameLogEntry {
    return this.append(entry);
  }

  /**
   * Sets several units' whole operator status in ONE saved, logged step (an outcome applied or undone): each
   * status is checked as `set-unit-status` would check it, and nothing is saved when one fails. `{}` clears.
   */
  setStatusesTogether(statusByUnit: Readonly<Record<string, UnitStatus>>, entry: Extract<NewOutcomeEntry, { kind: 'outcome-applied' | 'outcome-undone' }>): GameLogEntry {
    const all = { ...this.statusByUnit };
    for (const [unitId, status] of Object.entries(statusByUnit)) {
      if (!this.baseRoster.units.some((u) => u.id === unitId)) throw new ActionError('not-found', `no unit "${unitId}" in the roster`);
      const parsed = validateClientMessage({ type: 'set-unit-status', unitId, status });
      if (!parsed.ok) throw new ActionError('internal', `the rule set gave ${unitId} a status the service cannot save (${parsed.message})`);
      const problem = this.rulesetStatusProblem(status.rulesetStatus);
      if (problem) throw new ActionError('internal', `the rule set gave ${unitId} a status its own declaration refuses (${problem})`);
      if (Object.keys(status).length === 0) delete all[unitId];
      else all[unitId] = status;
    }
    this.persist('game', this.gameDocument(this.turnValue, all, this.deck));
    this.statusByUnit = all;
    const logged = this.append(entry);
    this.onChange();
    return logged;
  }

  /** Logs stands that moved or turned enough since last logged, and stands that left the table. */
  logPoses(stands: readonly Stand[], by: 'vision' | 'demo'): number {
    let logged = 0;
    const present = new Set<string>();
    for (const s of stands) {
      present.add(s.id);
      const last = this.loggedPoses.get(s.id);
      if (last) {
        const moved = Math.hypot(s.pose.xIn - last.xIn, s.pose.yIn - last.yIn);
        const turned = Math.abs(((s.pose.headingDeg - last.headingDeg + 540) % 360) - 180);
        if (moved < POSE_LOG_MIN_MOVE_IN && turned < POSE_LOG_MIN_TURN_DEG) continue;
      }
      const pose = { xIn: round(s.pose.xIn, 3), yIn: round(s.pose.yIn, 3), headingDeg: round(s.pose.headingDeg, 2) };
      this.append({ kind: 'pose', by, standId: s.id, pose });
      this.loggedPoses.set(s.id, pose);
      logged++;
    }
    for (const standId of [...this.loggedPoses.keys()]) {
      if (!present.has(standId)) {
        this.append({ kind: 'stand-removed', by, standId });
        this.loggedPoses.delete(standId);
        logged++;
      }
    }
    return logged;
  }

  /**
   * What is wrong with rule-set status values for the game's current rule set (an undeclared field, a value
   * out of its declared range or choices), or null. The wire checks only their shape; the operator page
   * checks the same declaration, so this refuses what a hand-made request sends.
   */
  private rulesetStatusProblem(values: RulesetValues | null | undefined): string | null {
    if (values === null || values === undefined || this.rulesetIdValue === null) return null;
    const ruleset = getRuleset(this.rulesetIdValue);
    const problem = rulesetValuesProblems(ruleset.statusFields ?? [], values, 'status.rulesetStatus', ruleset.id)[0];
    return problem ? `${problem.path}: ${problem.message}` : null;
  }

  /**
   * Performs a validated operator action; throws ActionError when it cannot apply. Every change is saved
   * first and only then applied and published, so a failed save changes nothing anyone can see.
   */
  perform(msg: OperatorMessage): ActionResult {
    switch (msg.type) {
      case 'set-unit-status': {
        if (!this.baseRoster.units.some((u) => u.id === msg.unitId)) {
          throw new ActionError('not-found', `no unit "${msg.unitId}" in the roster`);
        }
        const statusProblem = this.rulesetStatusProblem(msg.status.rulesetStatus);
        if (statusProblem) throw new ActionError('invalid-message', statusProblem);
        const next = applyStatusPatch(this.statusByUnit[msg.unitId] ?? {}, msg.status);
        const all = { ...this.statusByUnit };
        if (Object.keys(next).length === 0) delete all[msg.unitId];
        else all[msg.unitId] = next;
        this.persist('game', this.gameDocument(this.turnValue, all, this.deck));
        this.statusByUnit = all;
        this.append({ kind: 'unit-status', by: 'operator', unitId: msg.unitId, status: next });
        this.onChange();
        return undefined;
      }
      case 'set-terrain': {
        // Logged first, then saved: a crash between the two leaves an edit the log has (the start saves
        // it again from there), never one saved that replay and export cannot show.
        this.append({ kind: 'terrain', by: 'operator', terrain: msg.terrain });
        try {
          this.persist('terrain', msg.terrain);
        } catch (err) {
          // Not applied: the record says so with the terrain that stays in force.
          this.append({ kind: 'terrain', by: 'operator', terrain: this.terrainValue });
          throw err;
        }
        this.terrainValue = msg.terrain;
        this.onChange();
        return undefined;
      }
      case 'assign-tag': {
        const problem = this.bindingProblem(msg.markerId, msg.standId);
        if (problem) throw new ActionError(problem.startsWith('no stand') ? 'not-found' : 'conflict', problem);
        const bindings = [...this.bindings, { markerId: msg.markerId, standId: msg.standId }];
        rosterWithBindings(this.baseRoster, bindings); // throws (a bug) before anything is saved if the result is not a roster
        this.persist('tag-bindings', { version: 1, bindings } satisfies SavedBindings);
        this.bindings = bindings;
        this.rosterCache = null;
        this.append({ kind: 'assign-tag', by: 'operator', markerId: msg.markerId, standId: msg.standId });
        this.onChange();
        return undefined;
      }
      case 'draw-card': {
        const deckDef = this.deckDef;
        const deck = this.deck;
        if (!deckDef || !deck) throw new ActionError('not-found', 'the rule set has no action deck to draw from');
        const outcome = this.withRngRollback(() => {
          const drawn = drawActionCard(deckDef, deck, this.rng);
          this.persist('game', this.gameDocument(drawn.turnEnded ? this.turnValue + 1 : this.turnValue, this.statusByUnit, drawn.deck));
          return drawn;
        });
        const draw: CardDraw = { card: wireCard(outcome.card), remaining: outcome.remaining, turnEnded: outcome.turnEnded, turn: this.turnValue };
        this.deck = outcome.deck;
        if (outcome.turnEnded) this.turnValue++;
        this.append({ kind: 'card', by: 'operator', draw });
        if (outcome.turnEnded) {
          this.append({ kind: 'turn', by: 'operator' });
          this.onChange();
        }
        return { draw };
      }
      case 'roll-dice': {
        const hitOn = msg.hitOn ?? 4;
        const r = this.withRngRollback(() => {
          const rolled = rollDice(this.rng, msg.dice, hitOn);
          this.saveGame();
          return rolled;
        });
        const roll: DiceRoll = {
          faces: r.faces,
          hitOn,
          hits: r.hits,
          ...(msg.reason !== undefined ? { reason: msg.reason } : {}),
          ...(msg.unitId !== undefined ? { unitId: msg.unitId } : {}),
        };
        this.append({ kind: 'dice', by: 'operator', roll });
        return { roll };
      }
      case 'set-turn': {
        const deckDef = this.deckDef;
        const deck = this.withRngRollback(() => {
          const shuffled = deckDef ? shuffleActionDeck(deckDef, this.rng) : this.deck;
          this.persist('game', this.gameDocument(msg.turn, this.statusByUnit, shuffled));
          return shuffled;
        });
        this.turnValue = msg.turn;
        this.deck = deck;
        this.append({ kind: 'turn', by: 'operator' });
        this.onChange();
        return { turn: msg.turn };
      }
      case 'set-ruleset':
        return { ruleset: this.switchRuleset(msg.rulesetId) };
      case 'set-focus':
        // Shared focus is the live pipeline's (held in its state, never saved or logged).
        throw new ActionError('internal', 'set-focus is handled by the live pipeline, not the game session');
      case 'resolve-offer':
      case 'resolve-roll':
      case 'apply-outcome':
      case 'undo-outcome':
      case 'clear-outcome':
        // They read the live table and the rule set in use: the pipeline runs them (game/resolutionDesk.ts).
        throw new ActionError('internal', `${msg.type} is handled by the live pipeline (it needs the table), not the game session`);
    }
  }

  /**
   * Runs the game with another installed rule set: saved first (with that rule set's first action deck,
   * freshly shuffled, or none), then logged. Choosing the rule set already in use changes nothing.
   * @throws ActionError not-found for an id that is not installed
   */
  private switchRuleset(rulesetId: string): RulesetSummary {
    const summary = rulesetSummary(rulesetId);
    if (!summary) {
      throw new ActionError('not-found', `no rule set "${rulesetId}" is installed (installed: ${listRulesets().map((r) => r.id).join(', ')})`);
    }
    if (summary.id === this.rulesetIdValue) return summary;
    const deckDef = actionDecksOf(summary.id)[0] ?? null;
    const deck = this.withRngRollback(() => {
      const shuffled = deckDef ? shuffleActionDeck(deckDef, this.rng) : null;
      this.persist('game', this.gameDocument(this.turnValue, this.statusByUnit, shuffled, summary.id));
      return shuffled;
    });
    const previousId = this.rulesetIdValue;
    this.rulesetIdValue = summary.id;
    this.deckDef = deckDef;
    this.deck = deck;
    this.append({ kind: 'ruleset', by: 'operator', ruleset: summary, previousId });
    this.onChange();
    return summary;
  }

  close(): void {
    this.store.close();
  }
}

/** The deck with id `deckId`, else the first; null when there is none. */
function pickDeck(decks: readonly ActionDeckDefinition[], deckId: string | undefined): ActionDeckDefinition | null {
  if (deckId !== undefined) {
    const d = decks.find((x) => x.id === deckId);
    if (!d) throw new Error(`no action deck "${deckId}" (the rule set has: ${decks.map((x) => x.id).join(', ') || 'none'})`);
    return d;
  }
  return decks[0] ?? null;
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Fields present replace, `null` removes. */
export function applyStatusPatch(status: UnitStatus, patch: UnitStatusPatch): UnitStatus {
  const out: Record<string, unknown> = { ...status };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (v !== undefined) out[k] = v;
  }
  return out as UnitStatus;
}

/**
 * The roster with marker bindings applied in order: a marker bound to a stand leaves whatever stand wore
 * it before (which then has no tag, `null`: it is off the table until a tag is bound to it); binding to
 * null takes the marker off the table. Throws if the result would give one tag to two stands (a bug).
 */
export function rosterWithBindings(base: Roster, bindings: readonly { readonly markerId: number; readonly standId: string | null }[]): Roster {
  const tagOf = new Map<string, number | null>();
  for (const u of base.units) for (const st of u.stands) tagOf.set(st.id, st.tag);
  for (const c of base.commanders) if (c.stand) tagOf.set(c.stand.id, c.stand.tag);
  for (const b of bindings) {
    for (const [standId, tag] of tagOf) if (tag === b.markerId) tagOf.set(standId, null);
    if (b.standId !== null) tagOf.set(b.standId, b.markerId);
  }
  const seen = new Map<number, string>();
  for (const [standId, tag] of tagOf) {
    if (tag === null) continue;
    const other = seen.get(tag);
    if (other !== undefined) throw new Error(`tag bindings give marker ${tag} to both "${other}" and "${standId}"`);
    seen.set(tag, standId);
  }
  const retag = (st: RosterStand): RosterStand => ({ ...st, tag: tagOf.has(st.id) ? tagOf.get(st.id)! : st.tag });
  return {
    ...base,
    units: base.units.map((u) => ({ ...u, stands: u.stands.map(retag) })),
    commanders: base.commanders.map((c) => (c.stand ? { ...c, stand: retag(c.stand) } : c)),
  };
}
