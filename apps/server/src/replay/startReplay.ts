/**
 * The composition root of `muster replay`: a recorded game's data directory → its record (read, never
 * written) → timeline → replay backend → the live service's own server and views → the player.
 */
import { randomBytes } from 'node:crypto';
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
  /** Default: the roster's, else the default rule set. */
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
  /** Default: a random one nobody is told (every operator action is refused anyway). */
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
  /** Null when held (`speed` 0). */
  readonly player: ReplayPlayer | null;
  stop(): Promise<void>;
}

export async function startReplay(options: ReplayOptions): Promise<RunningReplay> {
  const record = readRecord(options.dataDir);
  const problems: string[] = [];
  const { entries } = await loadLogEntries(record.logPath, { onProblem: (p) => problems.push(p), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  const timeline = createReplayTimeline(entries);
  const from = options.from === undefined ? 0 : parseReplayPosition(options.from, timeline);
  const rules = await loadRuleset(options.rulesetId ?? record.roster.ruleset);
  const backend = createReplayBackend({ record, timeline, ruleset: rules.ruleset, rulesNote: rules.note, problems: problems.slice(0, 5) });
  backend.moveTo(from);
  // Operator actions are refused anyway; nobody needs this token.
  const operatorToken = options.operatorToken ?? randomBytes(18).toString('base64url');
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
  const speed = options.speed ?? 1;
  const player = speed > 0 ? startReplayPlayer({ backend, timeline, speed, ...(options.maxGapMs !== undefined ? { maxGapMs: options.maxGapMs } : {}) }) : null;
  if (!player) backend.setStatus('held (speed 0)');
  let stopped = false;
  return {
    url: running.url,
    server: running,
    backend,
    timeline,
    record,
    rulesNote: rules.note,
    problems,
    player,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      player?.stop();
      await running.close();
      backend.close();
    },
  };
}
