/**
 * The `--tuio <host:port>` value: where TUIO 1.1 clients listen (reacTIVision's default is
 * localhost:3333). Accepts `host:port`, `[ipv6]:port`, or a bare `port` (meaning 127.0.0.1).
 */
import { isIP } from 'node:net';
import { CliError } from '../cli/cliError.ts';

export interface TuioTarget {
  readonly host: string;
  readonly port: number;
}

const EXAMPLE = 'e.g. localhost:3333, 192.168.1.20:3333 or [::1]:3333';

/** Throws a `CliError` naming the option (`--tuio` unless told otherwise) on anything else. */
export function parseTuioTarget(value: string, option = '--tuio'): TuioTarget {
  const v = value.trim();
  let host: string;
  let portText: string;
  const bracketed = /^\[([^\]]*)\]:(.*)$/.exec(v);
  if (bracketed) {
    host = bracketed[1] ?? '';
    portText = bracketed[2] ?? '';
    if (isIP(host) !== 6) throw new CliError(`${option}: "[${host}]" is not an IPv6 address (${EXAMPLE}), got "${value}"`);
  } else if (/^\d+$/.test(v)) {
    host = '127.0.0.1';
    portText = v;
  } else {
    const colons = v.split(':').length - 1;
    if (colons === 0) throw new CliError(`${option} needs host:port (${EXAMPLE}), got "${value}"`);
    if (colons > 1) {
      throw new CliError(`${option}: put an IPv6 address in brackets, [address]:port (${EXAMPLE}), got "${value}"`);
    }
    const at = v.indexOf(':');
    host = v.slice(0, at);
    portText = v.slice(at + 1);
    if (host === '' || /[\s/@]/.test(host)) throw new CliError(`${option} needs host:port (${EXAMPLE}), got "${value}"`);
  }
  if (!/^\d+$/.test(portText)) {
    throw new CliError(`${option}: the port must be a whole number from 1 to 65535, got "${portText}" in "${value}"`);
  }
  const port = Number(portText);
  if (port < 1 || port > 65535) {
    throw new CliError(`${option}: the port must be from 1 to 65535, got ${portText} in "${value}"`);
  }
  return { host, port };
}

/** `host:port`, with brackets around an IPv6 address. */
export function formatTuioTarget(t: TuioTarget): string {
  return `${isIP(t.host) === 6 ? `[${t.host}]` : t.host}:${t.port}`;
}
