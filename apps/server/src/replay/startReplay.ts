/**
 * The composition root of `muster replay`: a recorded game's data directory → its record (read, never
 * written) → timeline → replay backend → the live service's own server and views → the player.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATOR_TOKEN_FILE, operatorTokenProblem } from '../config/storedOperatorToken.ts';
import { startServer, type RunningServer } from '../http/createServer.ts';
import { DEFAULT_VIEWS_DIR } from '../compose/liveOptions.ts';
import { loadRuleset } from '../rules/loadRuleset.ts';
import { readRecord, type GameRecord } from './readRecord.ts';
import { loadLogEntries } from './readLogEntries.ts';
import { createReplayBackend, type ReplayBackend } from './replayBackend.ts';
import { startReplayPlayer, type ReplayPlayer } from './replayPlayer.ts';
import { parseReplayPosition } from './replayPosition.ts';
import { createReplayTimeline, type ReplayTimeline } from './replayTimeline.ts';

export interface ReplayOptions {
  readonly dataDir: string;
  /** Record time per wall time; 0 holds the replay at `from`. Default 1. */
  readonly speed?: number;
  /** Where to start (`replayPosition.ts`); default the first entry. */
  readonly from?: string;
  /** Pauses in the record longer than this are shortened to it, ms. Default 10 000. */
  readonly maxGapMs?: number;
  /**
   * Evaluate the whole record with this rule set. Default: follow the record (the rule set before its
   * first `ruleset` entry, else the roster's, else the default; then each change as the replay passes it).
   */
  readonly rulesetId?: string;
  readonly host?: string;
  /** Default 8080; 0 picks a free port. */
  readonly port?: number;
  /** When `port` is taken, try up to this many ports after it (default 0: fail with EADDRINUSE). */
  readonly nextPorts?: number;
  readonly viewsDir?: string;
  readonly maxClients?: number;
  readonly allowHosts?: readonly string[];
  readonly allowOrigins?: readonly string[];
  /**
   * The token for `POST /api/replay` (seek, pause, play; every game action is refused anyway). Default:
   * the data directory's `operator-token` when there is one, else a random one nobody is told.
   */
  readonly operatorToken?: string;
  /** Reading the log: bytes read of all. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
}

export interface RunningReplay {
  readonly url: string;
  readonly server: RunningServer;
  readonly backend: ReplayBackend;
  readonly timeline: ReplayTimeline;
  readonly record: GameRecord;
  readonly rulesNote: string;
  /** Corrupt lines skipped in the log. */
  readonly problems: readonly string[];
  /** Null when held (`speed` 0) or paused. */
  readonly player: ReplayPlayer | null;
  /** The token `POST /api/replay` takes. */
  readonly operatorToken: string;
  stop(): Promise<void>;
}

/** `<data>/operator-token`'s first line when it is there and a valid token; null otherwise. */
function storedTokenOf(dataDir: string): string | null {
  try {
    const token = readFileSync(join(dataDir, OPERATOR_TOKEN_FILE), 'utf8').split('\n')[0]!.trim();
    return operatorTokenProblem(token) === null ? token : null;
  } catch {
    return null;
  }
}

export async function startReplay(options: ReplayOptions): Promise<RunningReplay> {
  const record = readRecord(options.dataDir);
  const problems: string[] = [];
  const { entries } = await loadLogEntries(record.logPath, { onProblem: (p) => problems.push(p), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  const timeline = createReplayTimeline(entries);
  const from = options.from === undefined ? 0 : parseReplayPosition(options.from, timeline);
  // Without --ruleset the replay follows the record: the rule set before its first change, then each change.
  const firstChange = entries.find((e) => e.kind === 'ruleset');
  const startRulesetId = options.rulesetId ?? (firstChange?.kind === 'ruleset' ? firstChange.previousId ?? undefined : undefined) ?? record.roster.ruleset;
  const rules = await loadRuleset(startRulesetId);
  const backend = createReplayBackend({
    record,
    timeline,
    ruleset: rules.ruleset,
    rulesNote: rules.note,
    fixedRuleset: options.rulesetId !== undefined,
    problems: problems.slice(0, 5),
  });
  backend.moveTo(from);
  // Operator actions are refused anyway; the token only drives the replay (POST /api/replay: seek, pause,
  // play). The recorded service's own token when the data directory keeps one (read, never made), so
  // the operator's usual URL works; else a random one.
  const operatorToken = options.operatorToken ?? storedTokenOf(options.dataDir) ?? randomBytes(18).toString('base64url');
  const port = options.port ?? 8080;
  let server: RunningServer | null = null;
  for (let attempt = 0; server === null; attempt++) {
    try {
      server = await startServer({
        backend,
        operatorToken,
        host: options.host ?? '127.0.0.1',
        port: port === 0 ? 0 : port + attempt,
        viewsDir: options.viewsDir ?? DEFAULT_VIEWS_DIR,
        ...(options.maxClients !== undefined ? { maxClients: options.maxClients } : {}),
        ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
        ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}),
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && port !== 0 && attempt < (options.nextPorts ?? 0)) continue;
      backend.close();
      throw err;
    }
  }
  const running = server;
  backend.setClientCounter(() => running.hub.clientCount());
  let speed = options.speed ?? 1;
  const play = (): ReplayPlayer => startReplayPlayer({ backend, timeline, speed, ...(options.maxGapMs !== undefined ? { maxGapMs: options.maxGapMs } : {}) });
  let player: ReplayPlayer | null = speed > 0 ? play() : null;
  if (!player) backend.setStatus('held (speed 0)');
  let stopped = false;
  backend.setControl({
    status: () => ({ position: backend.position(), length: timeline.length, playing: player !== null && !player.ended(), speed }),
    pause(): void {
      player?.stop();
      player = null;
      backend.setStatus(`paused at ${speed}×`);
    },
    play(newSpeed?: number): void {
      if (stopped) return;
      if (newSpeed !== undefined) speed = newSpeed;
      if (speed <= 0) speed = 1;
      player?.stop();
      player = play();
    },
    seek(position: number): void {
      if (stopped) return;
      const wasPlaying = player !== null && !player.ended();
      player?.stop();
      player = null;
      backend.moveTo(Math.max(0, Math.min(timeline.length, Math.floor(position))));
      // The player keeps its own record clock: a new one starts from the new position.
      if (wasPlaying) player = play();
      else backend.setStatus(`held at ${speed > 0 ? `${speed}×` : 'speed 0'}`);
    },
  });
  return {
    url: running.url,
    server: running,
    backend,
    timeline,
    record,
    rulesNote: rules.note,
    problems,
    get player() {
      return player;
    },
    operatorToken,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      player?.stop();
      await running.close();
      backend.close();
    },
  };
}
