/**
 * The service's log: one line per event on stderr, with the time and the level, for a service that runs
 * all day (journald, `docker logs`, a terminal). Two formats:
 *
 *   text (default):  2026-11-24T15:31:02.123Z WARN  muster: camera /dev/video0 ended: no frames
 *   json (`--log-format json`, `MUSTER_LOG_FORMAT=json`): one JSON object a line,
 *                    {"time":"2026-11-24T15:31:02.123Z","level":"warn","name":"muster","msg":"camera …"}
 *
 * `auto` is json when stderr is not a terminal (a pipe, a file, journald) and text on a terminal.
 * Messages keep the words they had as bare `console.error` lines (`muster: …`, `muster server: …`), so a
 * text line still contains them. Lines go out through `console.error`, which writes stderr synchronously
 * (a line said just before a crash is not lost) and lets tests that spy on it see them.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'text' | 'json';
export const LOG_FORMATS = ['text', 'json', 'auto'] as const;
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export interface Logger {
  debug(message: string, err?: unknown): void;
  info(message: string, err?: unknown): void;
  warn(message: string, err?: unknown): void;
  /** `err`, when given, is appended (its stack in text, `{ name, message, stack }` in json). */
  error(message: string, err?: unknown): void;
}

interface LogSettings {
  format: LogFormat;
  minLevel: LogLevel;
  now: () => Date;
  write: (line: string) => void;
}

const settings: LogSettings = {
  format: 'text',
  minLevel: 'info',
  now: () => new Date(),
  write: (line) => console.error(line),
};

/** `auto` → json unless stderr is a terminal. */
export function resolveLogFormat(format: LogFormat | 'auto', stderrIsTty = process.stderr.isTTY === true): LogFormat {
  return format === 'auto' ? (stderrIsTty ? 'text' : 'json') : format;
}

/** Sets the format and lowest level for every logger of the process (`muster start` does it once). */
export function configureLogging(options: { format?: LogFormat | 'auto'; minLevel?: LogLevel; now?: () => Date; write?: (line: string) => void }): void {
  if (options.format !== undefined) settings.format = resolveLogFormat(options.format);
  if (options.minLevel !== undefined) settings.minLevel = options.minLevel;
  if (options.now !== undefined) settings.now = options.now;
  if (options.write !== undefined) settings.write = options.write;
}

/** The current settings (tests restore them). */
export function loggingSettings(): Readonly<LogSettings> {
  return { ...settings };
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return typeof err === 'string' ? err : JSON.stringify(err) ?? String(err);
}

function errorJson(err: unknown): unknown {
  if (err instanceof Error) return { name: err.name, message: err.message, ...(err.stack ? { stack: err.stack } : {}) };
  return typeof err === 'string' ? err : String(err);
}

/** One log line, without the newline. */
export function formatLogLine(format: LogFormat, time: Date, level: LogLevel, name: string, message: string, err?: unknown): string {
  if (format === 'json') {
    return JSON.stringify({ time: time.toISOString(), level, name, msg: message, ...(err !== undefined ? { err: errorJson(err) } : {}) });
  }
  const text = err === undefined ? message : `${message} ${errorText(err)}`;
  return `${time.toISOString()} ${level.toUpperCase().padEnd(5)} ${name}: ${text}`;
}

/**
 * A logger whose lines carry `name` (`muster`, `muster server`, …). Settings are read at each line, so
 * loggers made at import time follow a later `configureLogging`.
 */
export function createLogger(name: string): Logger {
  const at = (level: LogLevel) => (message: string, err?: unknown): void => {
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(settings.minLevel)) return;
    settings.write(formatLogLine(settings.format, settings.now(), level, name, message, err));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The service's general log (`muster: …`). */
export const log = createLogger('muster');
/** Server bugs and REST failures (`muster server: …`). */
export const serverLog = createLogger('muster server');
