/**
 * A broker URL as `--publish` and `muster tables --mqtt` take it: `mqtt://host[:port]`, `mqtts://…`,
 * `ws://host[:port]/path`, `wss://…` (MQTT over websockets; the path is the broker's, often `/mqtt`), with
 * optional `user:password@`. Anything else is a `CliError` naming the option and saying what would do.
 */
import { CliError } from '../cli/cliError.ts';

export type BrokerProtocol = 'mqtt' | 'mqtts' | 'ws' | 'wss';

export interface BrokerUrl {
  readonly protocol: BrokerProtocol;
  /** The URL to connect to, without user or password. */
  readonly url: string;
  /** The same for logs and banners (no password ever). */
  readonly shown: string;
  readonly username?: string;
  readonly password?: string;
}

const EXAMPLE = 'e.g. mqtt://192.168.1.10:1883, mqtts://broker.example:8883, ws://hub.local:9001 or wss://broker.example/mqtt';
const DEFAULT_PORTS: Record<BrokerProtocol, string> = { mqtt: '1883', mqtts: '8883', ws: '80', wss: '443' };

export function parseBrokerUrl(value: string, option: string): BrokerUrl {
  const raw = value.trim();
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new CliError(`${option} takes a broker URL (${EXAMPLE}), got "${value}"`);
  }
  const protocol = u.protocol.replace(/:$/, '');
  if (!['mqtt', 'mqtts', 'ws', 'wss'].includes(protocol)) {
    throw new CliError(`${option}: the broker URL must start with mqtt://, mqtts://, ws:// or wss:// (${EXAMPLE}), got "${value}"`);
  }
  if (u.hostname === '') throw new CliError(`${option}: the broker URL has no host (${EXAMPLE}), got "${value}"`);
  if (u.search !== '' || u.hash !== '') throw new CliError(`${option}: the broker URL takes no query or fragment, got "${value}"`);
  const p = protocol as BrokerProtocol;
  if ((p === 'mqtt' || p === 'mqtts') && u.pathname !== '' && u.pathname !== '/') {
    throw new CliError(`${option}: an ${p}:// URL has no path (topics are muster/<table>/…); a path goes with ws:// or wss://, got "${value}"`);
  }
  const port = u.port || DEFAULT_PORTS[p];
  const host = u.hostname;
  const path = p === 'ws' || p === 'wss' ? (u.pathname === '/' || u.pathname === '' ? '/' : u.pathname) : '';
  const url = `${p}://${host}:${port}${path}`;
  const username = u.username === '' ? undefined : decodeURIComponent(u.username);
  const password = u.password === '' ? undefined : decodeURIComponent(u.password);
  const shown = `${p}://${username !== undefined ? `${username}${password !== undefined ? ':***' : ''}@` : ''}${host}:${port}${path}`;
  return { protocol: p, url, shown, ...(username !== undefined ? { username } : {}), ...(password !== undefined ? { password } : {}) };
}
