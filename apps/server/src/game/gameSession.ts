/**
 * What the operator sets at the table and what the service remembers across restarts: the turn, unit
 * status set by hand, terrain, marker → stand bindings made at the table, the action deck and the dice
 * roller's state. Every change is saved atomically and logged; poses are logged when a stand moved.
 */
import {
  drawActionCard,
  getRuleset,
  shuffleActionDeck,
  type ActionDeckCard,
  type ActionDeckDefinition,
  type ActionDeckState,
  type PoseIn,
  type Stand,
  type Terrain,
  type UnitStatus,
} from '@muster/rules';
import {
  validateTerrain,
  type ActionCard,
  type ActionCardKind,
  type CardDraw,
  type DiceRoll,
  type GameLogEntry,
  type OperatorMessage,
  type UnitStatusPatch,
} from '@muster/protocol';
import type { DataStore } from '../persist/dataStore.ts';
import type { GameLog } from '../persist/gameLog.ts';
import { ActionError, type ActionResult } from '../http/backend.ts';
import type { Roster } from '../roster/roster.ts';
import { createRng, restoreRng, rollDice, seedFromString, type Rng, type RngState } from '@muster/rules';

/** 2: the deck is the rule set's (`Ruleset.actionDecks`), saved as card ids. 1 (still read): DTP cards by kind. */
const GAME_VERSION = 2;

/** game.json */
interface SavedGame {
  readonly version: typeof GAME_VERSION;
  readonly turn: number;
  readonly statusByUnit: Record<string, UnitStatus>;
  /** Null when the rule set has no action deck. */
  readonly deck: ActionDeckState | null;
  readonly rng: RngState;
}

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

function checkGame(v: unknown): SavedGame | SavedGameV1 {
  const o = asObject(v, 'game');
  if (o.version !== GAME_VERSION && o.version !== 1) throw new Error(`unsupported game file version ${String(o.version)}`);
  if (typeof o.turn !== 'number' || !Number.isInteger(o.turn) || o.turn < 1) throw new Error('turn must be an integer ≥ 1');
  asObject(o.statusByUnit, 'statusByUnit');
  if (o.version === 1) {
    const deck = asObject(o.deck, 'deck');
    if (!Array.isArray(deck.remaining) || typeof deck.whiskeysDrawn !== 'number') throw new Error('deck is malformed');
    for (const c of deck.remaining) if (typeof asObject(c, 'deck card').kind !== 'string') throw new Error('deck is malformed');
  } else if (o.deck !== null) {
    const deck = asObject(o.deck, 'deck');
    if (typeof deck.deckId !== 'string' || !Array.isArray(deck.remaining) || !deck.remaining.every((c) => typeof c === 'string') || typeof deck.endCardsDrawn !== 'number') {
      throw new Error('deck is malformed');
    }
  }
  const rng = asObject(o.rng, 'rng');
  if (rng.algorithm !== 'mulberry32' || typeof rng.state !== 'number') throw new Error('rng is malformed');
  return v as SavedGame | SavedGameV1;
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
  if (!Array.isArray(o.bindings)) throw new Error('bindings must be a list');
  for (const b of o.bindings) {
    const r = asObject(b, 'binding');
    if (typeof r.markerId !== 'number' || (r.standId !== null && typeof r.standId !== 'string')) throw new Error('binding is malformed');
  }
  return v as SavedBindings;
}

function checkTerrain(v: unknown): Terrain {
  const r = validateTerrain(v);
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

type NewEntry = GameLogEntry extends infer E ? (E extends GameLogEntry ? Omit<E, 'index' | 'timeMs' | 'turn'> : never) : never;

export interface GameSessionOptions {
  readonly store: DataStore;
  readonly baseRoster: Roster;
  /** Terrain to start with when none is saved. */
  readonly initialTerrain?: Terrain;
  /** Seed for a new game's roller (ignored when a saved game exists). Default: the roster name. */
  readonly seed?: string;
  /** Rule set whose action deck `draw-card` draws from (`Ruleset.actionDecks`). Default: the registry's default. */
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
  private bindings: { markerId: number; standId: string | null }[];
  private rosterCache: Roster | null = null;
  private readonly recent: GameLogEntry[] = [];
  private readonly loggedPoses = new Map<string, PoseIn>();

  constructor(options: GameSessionOptions) {
    this.store = options.store;
    this.baseRoster = options.baseRoster;
    this.now = options.now ?? Date.now;
    this.onLog = options.onLog ?? (() => {});
    this.onChange = options.onChange ?? (() => {});
    this.log = this.store.openLog<GameLogEntry>();
    const decks = actionDecksOf(options.rulesetId);
    const saved = this.store.read('game', checkGame);
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
    this.terrainValue = this.store.read('terrain', checkTerrain) ?? options.initialTerrain ?? EMPTY_TERRAIN;
    this.bindings = [...(this.store.read('tag-bindings', checkBindings)?.bindings ?? [])];
    this.recent.push(...this.log.newest(50, (e) => e.kind !== 'pose'));
    // Poses logged before a restart: only log again what moved since.
    for (const e of this.log.newest(5000, (x) => x.kind === 'pose' || x.kind === 'stand-removed')) {
      if (e.kind === 'pose') this.loggedPoses.set(e.standId, e.pose);
      else if (e.kind === 'stand-removed') this.loggedPoses.delete(e.standId);
    }
    if (!saved || saved.version !== GAME_VERSION) this.saveGame();
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

  /** The roster with the operator's marker bindings applied (a stand losing its tag gets tag -1). */
  roster(): Roster {
    if (this.rosterCache) return this.rosterCache;
    const tagOf = new Map<string, number>();
    for (const u of this.baseRoster.units) for (const s of u.stands) tagOf.set(s.id, s.tag);
    for (const c of this.baseRoster.commanders) if (c.stand) tagOf.set(c.stand.id, c.stand.tag);
    for (const b of this.bindings) {
      for (const [standId, tag] of tagOf) if (tag === b.markerId) tagOf.set(standId, -1);
      if (b.standId !== null) tagOf.set(b.standId, b.markerId);
    }
    const retag = <S extends { readonly id: string; readonly tag: number }>(s: S): S => ({ ...s, tag: tagOf.get(s.id) ?? s.tag });
    this.rosterCache = {
      ...this.baseRoster,
      units: this.baseRoster.units.map((u) => ({ ...u, stands: u.stands.map(retag) })),
      commanders: this.baseRoster.commanders.map((c) => (c.stand ? { ...c, stand: retag(c.stand) } : c)),
    };
    return this.rosterCache;
  }

  private standExists(standId: string): boolean {
    return (
      this.baseRoster.units.some((u) => u.stands.some((s) => s.id === standId)) ||
      this.baseRoster.commanders.some((c) => c.stand?.id === standId)
    );
  }

  private append(entry: NewEntry): GameLogEntry {
    const full = { ...entry, index: this.log.count(), timeMs: this.now(), turn: this.turnValue } as GameLogEntry;
    this.log.append(full);
    if (full.kind !== 'pose' && full.kind !== 'stand-removed') {
      this.recent.push(full);
      if (this.recent.length > 50) this.recent.shift();
      this.onLog(full);
    }
    return full;
  }

  private saveGame(): void {
    const game: SavedGame = {
      version: GAME_VERSION,
      turn: this.turnValue,
      statusByUnit: this.statusByUnit,
      deck: this.deck,
      rng: this.rng.snapshot(),
    };
    this.store.write('game', game);
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

  /** Performs a validated operator action; throws ActionError when it cannot apply. */
  perform(msg: OperatorMessage): ActionResult {
    switch (msg.type) {
      case 'set-unit-status': {
        if (!this.baseRoster.units.some((u) => u.id === msg.unitId)) {
          throw new ActionError('not-found', `no unit "${msg.unitId}" in the roster`);
        }
        const next = applyStatusPatch(this.statusByUnit[msg.unitId] ?? {}, msg.status);
        const all = { ...this.statusByUnit };
        if (Object.keys(next).length === 0) delete all[msg.unitId];
        else all[msg.unitId] = next;
        this.statusByUnit = all;
        this.saveGame();
        this.append({ kind: 'unit-status', by: 'operator', unitId: msg.unitId, status: next });
        this.onChange();
        return undefined;
      }
      case 'set-terrain': {
        this.store.write('terrain', msg.terrain);
        this.terrainValue = msg.terrain;
        this.append({ kind: 'terrain', by: 'operator', terrain: msg.terrain });
        this.onChange();
        return undefined;
      }
      case 'assign-tag': {
        if (msg.standId !== null && !this.standExists(msg.standId)) {
          throw new ActionError('not-found', `no stand "${msg.standId}" in the roster`);
        }
        if (this.baseRoster.statusTokens.some((t) => t.tag === msg.markerId)) {
          throw new ActionError('conflict', `marker ${msg.markerId} is a status chip in the roster`);
        }
        const bindings = [...this.bindings, { markerId: msg.markerId, standId: msg.standId }];
        this.store.write('tag-bindings', { version: 1, bindings } satisfies SavedBindings);
        this.bindings = bindings;
        this.rosterCache = null;
        this.append({ kind: 'assign-tag', by: 'operator', markerId: msg.markerId, standId: msg.standId });
        this.onChange();
        return undefined;
      }
      case 'draw-card': {
        if (!this.deckDef || !this.deck) throw new ActionError('not-found', 'the rule set has no action deck to draw from');
        const outcome = drawActionCard(this.deckDef, this.deck, this.rng);
        const draw: CardDraw = { card: wireCard(outcome.card), remaining: outcome.remaining, turnEnded: outcome.turnEnded, turn: this.turnValue };
        this.deck = outcome.deck;
        if (outcome.turnEnded) this.turnValue++;
        this.saveGame();
        const entry = this.append({ kind: 'card', by: 'operator', draw });
        if (outcome.turnEnded) {
          this.append({ kind: 'turn', by: 'operator' });
          this.onChange();
        }
        void entry;
        return { draw };
      }
      case 'roll-dice': {
        const hitOn = msg.hitOn ?? 4;
        const r = rollDice(this.rng, msg.dice, hitOn);
        const roll: DiceRoll = {
          faces: r.faces,
          hitOn,
          hits: r.hits,
          ...(msg.reason !== undefined ? { reason: msg.reason } : {}),
          ...(msg.unitId !== undefined ? { unitId: msg.unitId } : {}),
        };
        this.saveGame();
        this.append({ kind: 'dice', by: 'operator', roll });
        return { roll };
      }
      case 'set-turn': {
        this.turnValue = msg.turn;
        if (this.deckDef) this.deck = shuffleActionDeck(this.deckDef, this.rng);
        this.saveGame();
        this.append({ kind: 'turn', by: 'operator' });
        this.onChange();
        return { turn: msg.turn };
      }
    }
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
