/**
 * A recorded game served through the live server's port (`ServiceBackend`), so the same server, ws
 * protocol and views show it as it was: each published state is the game after some log entry, its
 * `frameSeq` that entry's index and its `captureTimeMs` that entry's time; the rules evaluate it as live.
 *
 * The rules follow the record's rule-set changes (`ruleset` entries): a moment before the first is
 * evaluated with `ruleset`, later ones with the rule set the newest entry chose (unless `fixedRuleset`).
 *
 * Read-only: every operator action but `set-focus` is refused (`forbidden`), nothing is ever written; the
 * operator's focus is shared with the views as live, in memory. `GET /api/log`
 * serves the whole record; the ws views receive the non-pose entries (`log` messages) as the replay
 * passes them, and each snapshot the newest 50 up to the replay's position.
 */
import type { GameLogEntry, Health, LiveState, OperatorMessage, SharedFocus } from '@muster/protocol';
import { getRuleset, listRulesets, type Evaluation, type Ruleset } from '@muster/rules';
import { rulesetChoiceState } from '../live/livePipeline.ts';
import { NO_FOCUS } from '../live/liveState.ts';
import { ActionError, type ActionResult, type BackendEvent, type ServiceBackend } from '../http/backend.ts';
import { createRulesStage } from '../live/rulesStage.ts';
import type { GameRecord } from './readRecord.ts';
import { applyEntry, type RecordedGame } from './recordedGame.ts';
import { createReplayTableBuilder } from './replayTableState.ts';
import type { ReplayTimeline } from './replayTimeline.ts';

export interface ReplayBackendOptions {
  readonly record: GameRecord;
  readonly timeline: ReplayTimeline;
  /** Null: no rules (evaluation stays null; `rulesNote` says why). */
  readonly ruleset: Ruleset | null;
  readonly rulesNote: string;
  /** Evaluate the whole record with `ruleset`, ignoring its `ruleset` entries (`muster replay --ruleset`). */
  readonly fixedRuleset?: boolean;
  /** Problems found reading the log (corrupt lines), shown in health. */
  readonly problems?: readonly string[];
  readonly now?: () => number;
}

export interface ReplayBackend extends ServiceBackend {
  /** Entries played: the published state is the game after the first `position()` entries. */
  position(): number;
  /** Moves to `position` and publishes (forward: the non-pose entries passed go out as `log` events). */
  moveTo(position: number): void;
  /** The log index the published state is as of (-1 before the first entry). */
  logCursor(): number;
  /** Says in health how the replay is going (e.g. `speed 4×`, `ended`); republishes. */
  setStatus(text: string): void;
  setClientCounter(count: () => number): void;
  /** Seek, pause and play for `POST /api/replay` (set by `startReplay`, which owns the player). */
  setControl(control: ReplayControl): void;
  replayControl(): ReplayControl | null;
  close(): void;
}

/** How the replay is driven (read-only for the record: it only chooses which moment is shown). */
export interface ReplayControl {
  /** Where it is and whether it is playing. */
  status(): { readonly position: number; readonly length: number; readonly playing: boolean; readonly speed: number };
  pause(): void;
  /** Plays on from the current position at `speed` (default: the last speed, else 1). */
  play(speed?: number): void;
  /** Shows the game after the first `position` entries (clamped); playing goes on from there. */
  seek(position: number): void;
}

const RECENT_LOG = 50;
/** Entries that change what the rules see; cards, dice and notes do not. */
const TABLE_KINDS: ReadonlySet<GameLogEntry['kind']> = new Set(['pose', 'stand-removed', 'unit-status', 'terrain', 'assign-tag', 'turn', 'ruleset']);

function isLogMessage(e: GameLogEntry): boolean {
  return e.kind !== 'pose' && e.kind !== 'stand-removed';
}

export function createReplayBackend(options: ReplayBackendOptions): ReplayBackend {
  const { record, timeline } = options;
  const now = options.now ?? Date.now;
  const startedMs = now();
  const { entries } = timeline;
  const hasTerrainEdits = entries.some((e) => e.kind === 'terrain');
  const builder = createReplayTableBuilder({ roster: record.roster, table: record.table, initialTerrain: hasTerrainEdits ? null : record.savedTerrain });
  const rules = createRulesStage({ ruleset: options.ruleset, rulesUnavailableReason: options.rulesNote, now, onResult: () => {} });
  const listeners = new Set<(event: BackendEvent) => void>();
  let clientCount = (): number => 0;
  let control: ReplayControl | null = null;
  let status = '';
  let position = 0;
  let game: RecordedGame = timeline.gameAt(0);
  let seq = 0;
  let evaluation: Evaluation | null = null;
  let evaluatedState: LiveState['evaluatedState'] = null;
  let focus: SharedFocus = NO_FOCUS;
  let rulesetChoice = rulesetChoiceState(options.ruleset, record.roster);
  let state: LiveState = compute(true);

  /** Evaluates from now on with the rule set the record had chosen at the current moment. */
  function followRuleset(): void {
    if (options.fixedRuleset) return;
    const wanted = game.rulesetId ?? options.ruleset?.id ?? null;
    if (wanted === null || wanted === rules.ruleset()?.id || !listRulesets().some((r) => r.id === wanted)) return;
    const next = getRuleset(wanted);
    rules.switchTo(next);
    evaluation = null;
    rulesetChoice = rulesetChoiceState(next, record.roster);
  }

  function health(trackedStands: number, processingMs: number): Health {
    const at = game.index < 0 ? 'before the first entry' : `entry ${game.index} of ${entries.length === 0 ? 0 : entries[entries.length - 1]!.index}, ${new Date(game.timeMs).toISOString()}, turn ${game.turn}`;
    const warnings = [
      `replay of ${record.dir} (read-only): ${at}${status ? `; ${status}` : ''}`,
      ...rules.warnings(now()),
      ...(options.problems ?? []),
    ];
    return { status: 'ok', frameRateHz: 0, trackedStands, unknownTags: 0, processingMs, clients: clientCount(), uptimeS: Math.round((now() - startedMs) / 1000), warnings: warnings.slice(0, 20) };
  }

  function compute(tableChanged: boolean): LiveState {
    const t0 = performance.now();
    const table = builder.build(game);
    seq++;
    const frameSeq = game.index;
    const captureTimeMs = game.timeMs;
    if (tableChanged || seq === 1) {
      followRuleset();
      evaluation = rules.evaluate(table.tableState, evaluation);
      evaluatedState = evaluation ? { seq, frameSeq, captureTimeMs } : null;
    }
    const processingMs = performance.now() - t0;
    return {
      seq,
      frameSeq,
      captureTimeMs,
      turn: game.turn,
      tableState: table.tableState,
      evaluation,
      evaluatedState,
      tracks: table.tracks,
      liveTrackIds: table.tracks.map((t) => t.trackId),
      roster: table.roster,
      profile: {
        name: record.table.name,
        source: record.demo ? 'demo-truth' : 'camera',
        frameWidthPx: null,
        frameHeightPx: null,
        widthIn: record.table.widthIn,
        depthIn: record.table.depthIn,
        homography: null,
        residualIn: null,
      },
      health: health(table.tableState.stands.length, processingMs),
      ruleset: rulesetChoice,
      focus,
    };
  }

  function emit(event: BackendEvent): void {
    for (const l of [...listeners]) l(event);
  }

  function publish(tableChanged: boolean): void {
    state = compute(tableChanged);
    emit({ kind: 'state' });
  }

  return {
    state: () => state,
    recentLog(): readonly GameLogEntry[] {
      const out: GameLogEntry[] = [];
      for (let i = position - 1; i >= 0 && out.length < RECENT_LOG; i--) if (isLogMessage(entries[i]!)) out.push(entries[i]!);
      return out.reverse();
    },
    log(fromIndex: number, limit: number): readonly GameLogEntry[] {
      const start = timeline.positionAfterIndex(fromIndex - 1);
      return entries.slice(start, start + limit);
    },
    roster: () => record.roster,
    tableProfile: () => ({ name: record.table.name, widthIn: record.table.widthIn, depthIn: record.table.depthIn }),
    calibration: () => null,
    perform(action: OperatorMessage): ActionResult {
      if (action.type === 'set-focus') {
        focus = { unitId: action.unitId, measure: action.measure };
        seq++;
        state = { ...state, seq, focus };
        emit({ kind: 'state' });
        return undefined;
      }
      throw new ActionError('forbidden', `this is a replay of a recorded game (${record.dir}): it is read-only, so ${action.type} changes nothing; run muster start on the data directory to play on`);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    position: () => position,
    logCursor: () => game.index,
    moveTo(target: number): void {
      const p = Math.max(0, Math.min(entries.length, Math.floor(target)));
      if (p === position) return;
      let tableChanged = false;
      const passed: GameLogEntry[] = [];
      if (p > position) {
        for (let i = position; i < p; i++) {
          const e = entries[i]!;
          applyEntry(game, e);
          if (TABLE_KINDS.has(e.kind)) tableChanged = true;
          if (isLogMessage(e)) passed.push(e);
        }
      } else {
        game = timeline.gameAt(p);
        tableChanged = true;
      }
      position = p;
      publish(tableChanged);
      // A long jump forward sends only the newest entries passed: a view that wants more asks GET /api/log.
      for (const e of passed.slice(-RECENT_LOG)) emit({ kind: 'log', entry: e });
    },
    setStatus(text: string): void {
      status = text;
      publish(false);
    },
    setClientCounter(count) {
      clientCount = count;
    },
    setControl(c: ReplayControl): void {
      control = c;
    },
    replayControl: () => control,
    close(): void {
      listeners.clear();
      rules.close();
    },
  };
}
