/**
 * The service's log, on pino (levels, ISO timestamps, error serialisation) and pino-pretty (the terminal
 * form). One line per event on stderr, for a service that runs all day (journald, `docker logs`, a
 * terminal). Two forms:
 *
 *   json:  {"level":"warn","time":"2026-11-24T15:31:02.123Z","name":"muster","msg":"camera …"}
 *          (an error adds `err: { type, message, stack }`)
 *   text:  [2026-11-24T15:31:02.123Z] WARN (muster): camera /dev/video0 ended: no frames
 *          (coloured only when stderr is a terminal and NO_COLOR is unset)
 *
 * `auto`, the default, is json when stderr is not a terminal (a pipe, a file, journald, `docker logs`)
 * and text on a terminal. Messages keep the words they had as bare `console.error` lines.
 *
 * Lines go out synchronously through `settings.write` (by default `console.error`), so a line said just
 * before a crash is not lost, and tests can collect them. pino's worker-thread transports are not used.
 */
import { pino, type Logger as PinoLogger } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'text' | 'json';
export const LOG_FORMATS = ['text', 'json', 'auto'] as const;
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export interface Logger {
  debug(message: string, err?: unknown): void;
  info(message: string, err?: unknown): void;
  warn(message: string, err?: unknown): void;
  /** `err`, when given, is appended (an Error as `err: { type, message, stack }`, anything else as `detail`). */
  error(message: string, err?: unknown): void;
}

interface LogSettings {
  format: LogFormat;
  minLevel: LogLevel;
  /** Colour in the text form (ANSI); never in json. */
  colour: boolean;
  now: () => Date;
  write: (line: string) => void;
}

const settings: LogSettings = {
  format: resolveLogFormat('auto'),
  minLevel: 'info',
  colour: process.stderr.isTTY === true && !process.env.NO_COLOR,
  now: () => new Date(),
  write: (line) => console.error(line),
};

/** `auto` → json unless stderr is a terminal. */
export function resolveLogFormat(format: LogFormat | 'auto', stderrIsTty = process.stderr.isTTY === true): LogFormat {
  return format === 'auto' ? (stderrIsTty ? 'text' : 'json') : format;
}

/** Sets the form, lowest level and colour for every logger of the process (`muster start` does it once). */
export function configureLogging(options: {
  format?: LogFormat | 'auto';
  minLevel?: LogLevel;
  colour?: boolean;
  now?: () => Date;
  write?: (line: string) => void;
}): void {
  if (options.format !== undefined) settings.format = resolveLogFormat(options.format);
  if (options.minLevel !== undefined) settings.minLevel = options.minLevel;
  if (options.colour !== undefined) settings.colour = options.colour;
  if (options.now !== undefined) settings.now = options.now;
  if (options.write !== undefined) settings.write = options.write;
  root = null;
  children.clear();
}

/** The current settings (tests restore them). */
export function loggingSettings(): Readonly<LogSettings> {
  return { ...settings };
}

let root: PinoLogger | null = null;
const children = new Map<string, PinoLogger>();

/** The process's pino logger for the current settings, made on first use after each `configureLogging`. */
function rootLogger(): PinoLogger {
  if (root) return root;
  const pretty =
    settings.format === 'text'
      ? prettyFactory({ colorize: settings.colour, translateTime: "UTC:yyyy-mm-dd'T'HH:MM:ss.l'Z'", ignore: 'pid,hostname' })
      : null;
  const destination = {
    write(chunk: string): void {
      settings.write((pretty ? pretty(chunk) : chunk).trimEnd());
    },
  };
  root = pino(
    {
      level: settings.minLevel,
      base: null,
      timestamp: () => `,"time":"${settings.now().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return root;
}

function childLogger(name: string): PinoLogger {
  let child = children.get(name);
  if (!child) {
    child = rootLogger().child({ name });
    children.set(name, child);
  }
  return child;
}

/** What pino logs beside the message: an Error under `err` (pino's serialiser), anything else as `detail`. */
function extraFields(err: unknown): Record<string, unknown> {
  if (err === undefined) return {};
  if (err instanceof Error) return { err };
  return { detail: typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err)) };
}

/**
 * A logger whose lines carry `name` (`muster`, `muster server`, …). Settings are read at each line, so
 * loggers made at import time follow a later `configureLogging`.
 */
export function createLogger(name: string): Logger {
  const at = (level: LogLevel) => (message: string, err?: unknown): void => {
    childLogger(name)[level](extraFields(err), message);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The service's general log (`muster: …`). */
export const log = createLogger('muster');
/** Server bugs and REST failures (`muster server: …`). */
export const serverLog = createLogger('muster server');
