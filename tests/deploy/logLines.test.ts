/**
 * The service's log lines (issue 13: bare `console.error` lines had no time or level), from pino: text
 * lines with an ISO time, a level and the logger's name, or one JSON object a line (the default when
 * stderr is not a terminal, or with `--log-format json` / MUSTER_LOG_FORMAT), from the real `muster start`
 * and from the logger the service's modules share.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { configureLogging, createLogger, loggingSettings, resolveLogFormat } from '../../apps/server/src/log/logger.ts';
import { openGameLog } from '../../apps/server/src/persist/gameLog.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCli, tempDir } from './startCli.ts';

const TEXT_LINE = /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] (DEBUG|INFO|WARN|ERROR) \(muster( server)?\): \S.*$/;

describe('log line format', () => {
  const saved = loggingSettings();
  afterEach(() => configureLogging(saved));
  const t = new Date(Date.UTC(2026, 10, 24, 15, 31, 2, 123));

  it('text: time, level, name, message; json: the same as fields, an error serialised', () => {
    const lines: string[] = [];
    configureLogging({ format: 'text', colour: false, minLevel: 'info', now: () => t, write: (l) => lines.push(l) });
    const logger = createLogger('muster');
    logger.warn('camera /dev/video0 ended: no frames');
    createLogger('muster server').error('request failed:', new Error('boom'));
    expect(lines[0]).toBe('[2026-11-24T15:31:02.123Z] WARN (muster): camera /dev/video0 ended: no frames');
    expect(lines[1]!.split('\n')[0]).toBe('[2026-11-24T15:31:02.123Z] ERROR (muster server): request failed:');
    expect(lines[1]).toContain('Error: boom');
    expect(lines[0]).not.toContain('\u001b[');

    configureLogging({ format: 'json', now: () => t });
    createLogger('muster server').error('request failed:', new TypeError('boom'));
    createLogger('muster').warn('odd value', { x: 1 });
    expect(JSON.parse(lines[2]!)).toMatchObject({
      time: '2026-11-24T15:31:02.123Z',
      level: 'error',
      name: 'muster server',
      msg: 'request failed:',
      err: { type: 'TypeError', message: 'boom' },
    });
    expect(JSON.parse(lines[3]!)).toMatchObject({ level: 'warn', msg: 'odd value', detail: '{"x":1}' });
    expect(lines).toHaveLength(4);
  });

  it('colour only when asked (a terminal), never in json', () => {
    const lines: string[] = [];
    configureLogging({ format: 'text', colour: true, now: () => t, write: (l) => lines.push(l) });
    createLogger('muster').warn('coloured');
    configureLogging({ format: 'json', colour: true });
    createLogger('muster').warn('plain');
    expect(lines[0]).toContain('\u001b[');
    expect(lines[1]).not.toContain('\u001b[');
  });

  it('levels below the chosen one are dropped; auto is json unless stderr is a terminal', () => {
    const lines: string[] = [];
    configureLogging({ format: 'json', minLevel: 'warn', write: (l) => lines.push(l) });
    const logger = createLogger('muster');
    logger.info('not shown');
    logger.warn('shown');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown']);
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('auto', true)).toBe('text');
  });

  it('a module of the service logs through it: the game log reports a corrupt line as a WARN line', () => {
    const d = tempDir('muster-log-');
    try {
      const file = join(d.path, 'game-log.jsonl');
      // One corrupt line in 300: reported and skipped (more than 1% would stop the start instead).
      const lines300 = Array.from({ length: 300 }, (_, i) => (i === 1 ? 'not json' : JSON.stringify({ index: i, type: 'turn', turn: 1 })));
      writeFileSync(file, `${lines300.join('\n')}\n`);
      const lines: string[] = [];
      configureLogging({ format: 'text', colour: false, minLevel: 'info', write: (l) => lines.push(l) });
      const log = openGameLog(file);
      log.close();
      expect(lines.length).toBe(1);
      expect(lines[0]).toMatch(TEXT_LINE);
      expect(lines[0]).toMatch(/ WARN \(muster\): .*game-log\.jsonl.*line 2/);
    } finally {
      d.remove();
    }
  });
});

describe('muster start', () => {
  it('logs JSON lines when stderr is not a terminal (the default), text with --log-format text, JSON with MUSTER_LOG_FORMAT=json', async () => {
    const d = tempDir('muster-log-start-');
    try {
      const text = await startCli(['--data', d.path, '--log-format', 'text']);
      await text.stop();
      const textLines = text.stderr().trim().split('\n');
      expect(textLines.at(-1)).toMatch(TEXT_LINE);
      expect(textLines.at(-1)).toMatch(/ INFO \(muster\): stopping$/);

      for (const [args, env] of [[[], {}], [['--log-format', 'json'], {}], [[], { MUSTER_LOG_FORMAT: 'json' }]] as const) {
        const s = await startCli(['--data', d.path, ...args], { env });
        await s.stop();
        const last = JSON.parse(s.stderr().trim().split('\n').at(-1)!) as Record<string, unknown>;
        expect(last).toMatchObject({ level: 'info', name: 'muster', msg: 'stopping' });
        expect(Date.parse(last.time as string)).toBeGreaterThan(Date.now() - 120_000);
      }
    } finally {
      d.remove();
    }
  });
});
