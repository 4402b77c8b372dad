/**
 * Colour only where a person reads it: on a terminal, never in a pipe or a file, and never when
 * `NO_COLOR` is set (https://no-color.org); `FORCE_COLOR` (not 0) turns it on anywhere.
 */
export interface ColourTarget {
  readonly isTTY?: boolean;
  hasColors?(): boolean;
}

export function colourEnabled(stream: ColourTarget, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  if (stream.isTTY !== true || env.TERM === 'dumb') return false;
  return stream.hasColors ? stream.hasColors() : true;
}

export interface Paint {
  red(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string): string => text;

/** Colour functions for `stream`: ANSI codes when it takes colour, the text unchanged otherwise. */
export function paintFor(stream: ColourTarget, env: NodeJS.ProcessEnv = process.env): Paint {
  if (!colourEnabled(stream, env)) return { red: plain, yellow: plain, bold: plain, dim: plain };
  return { red: sgr(31, 39), yellow: sgr(33, 39), bold: sgr(1, 22), dim: sgr(2, 22) };
}

/** The line `warning: text` for stderr, its label yellow on a terminal. */
export function warningText(text: string): string {
  return `${paintFor(process.stderr).yellow('warning:')} ${text}`;
}

/** `warning: text` on stderr. */
export function warn(text: string): void {
  process.stderr.write(`${warningText(text)}\n`);
}
