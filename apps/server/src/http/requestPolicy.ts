/**
 * Which requests the service answers at all, by their `Host` and `Origin` headers (REST, pages and ws
 * upgrades alike), and the headers every response carries.
 *
 * Host (against DNS rebinding: a page of attacker.example whose name later resolves to 127.0.0.1 sends
 * `Host: attacker.example`): when the service is bound to a loopback address (the default 127.0.0.1)
 * only `localhost`, loopback addresses and the `allowHosts` names are answered; anything else gets 421.
 * Bound to another address (`--host 0.0.0.0`, a LAN address) every Host is answered, because the names
 * the LAN uses for this machine are not known here, unless `allowHosts` is given: then only localhost,
 * IP addresses (a browser sends an address as Host only when the page's own URL is that address, so no
 * rebinding) and those names. `*` in `allowHosts` turns the check off.
 *
 * Origin (ws upgrades only, against cross-site WebSocket hijacking: browsers let any page open a ws to
 * any server and only tell it the page's origin): allowed when absent (non-browser clients: the `ws`
 * library, tests, the bench), when its host equals the request's Host (the service's own pages), or when
 * it is listed in `allowOrigins` (`*` allows every origin). Anything else, `null` included, gets 403.
 */
import { isIP } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { sendError } from './sendError.ts';

export interface RequestPolicyOptions {
  /** The address the server is bound to. */
  readonly bindHost: string;
  /** Host names (or addresses) answered besides localhost and loopback addresses; `*`: any. */
  readonly allowHosts?: readonly string[];
  /** Origins (`http://host:port`) whose pages may open the ws besides the service's own; `*`: any. */
  readonly allowOrigins?: readonly string[];
}

export interface RequestPolicy {
  /** Whether a request with this Host header (undefined: none) is answered. */
  hostAllowed(host: string | undefined): boolean;
  /** Whether a ws upgrade with this Origin header (undefined: none) and Host header is accepted. */
  originAllowed(origin: string | undefined, host: string | undefined): boolean;
}

/** The host name of a Host header value, lower case, without port, brackets or trailing dot; null if malformed. */
export function hostNameOf(host: string): string | null {
  try {
    const name = new URL(`http://${host}`).hostname.toLowerCase();
    const bare = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
    return bare.endsWith('.') ? bare.slice(0, -1) : bare;
  } catch {
    return null;
  }
}

/** localhost, 127.0.0.0/8, ::1 (and IPv4-mapped loopback). */
export function isLoopbackName(name: string): boolean {
  if (name === 'localhost') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) === 6) return name === '::1' || /^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(name);
  return false;
}

function isWildcard(address: string): boolean {
  return address === '' || address === '0.0.0.0' || address === '::' || address === '[::]';
}

function normalOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export function createRequestPolicy(options: RequestPolicyOptions): RequestPolicy {
  const bind = hostNameOf(options.bindHost) ?? options.bindHost.toLowerCase();
  const allowHosts = options.allowHosts ?? [];
  const anyHost = allowHosts.includes('*');
  const names = new Set(allowHosts.filter((h) => h !== '*').map((h) => hostNameOf(h) ?? h.toLowerCase()));
  if (!isWildcard(bind)) names.add(bind);
  const loopbackBound = !isWildcard(bind) && isLoopbackName(bind);
  // Bound beyond loopback without an allow-list: every Host (see the header comment).
  const checkHost = !anyHost && (loopbackBound || allowHosts.length > 0);
  const allowOrigins = options.allowOrigins ?? [];
  const anyOrigin = allowOrigins.includes('*');
  const origins = new Set(allowOrigins.filter((o) => o !== '*').map((o) => normalOrigin(o) ?? o));

  return {
    hostAllowed(host) {
      if (!checkHost || host === undefined) return true; // HTTP/1.0 without Host: no browser
      const name = hostNameOf(host);
      if (name === null) return false;
      if (isLoopbackName(name) || names.has(name)) return true;
      return !loopbackBound && isIP(name) !== 0;
    },
    originAllowed(origin, host) {
      if (origin === undefined || anyOrigin) return true;
      const normal = normalOrigin(origin);
      if (normal === null) return false;
      if (origins.has(normal)) return true;
      if (host === undefined) return false;
      try {
        // Same origin: the page's host:port is the one this request was sent to (default ports folded).
        const url = new URL(normal);
        return url.host === new URL(`${url.protocol}//${host}`).host;
      } catch {
        return false;
      }
    },
  };
}

/** Middleware: 421 for a Host the policy refuses (before anything else runs). */
export function checkHost(policy: RequestPolicy) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (policy.hostAllowed(req.headers.host)) {
      next();
      return;
    }
    sendError(res, 'forbidden', 'this service does not answer to that Host name (start it with --allow-host <name> to allow one)', 421);
  };
}

/** Pages that carry the operator token in their URL (or stream the camera): never framed by anyone. */
const UNFRAMEABLE_PAGES = new Set(['/operator.html', '/phone.html']);

/**
 * Middleware: headers on every response. `Referrer-Policy: no-referrer`, so the operator token in
 * `/operator.html?token=…` never leaves in a Referer; `X-Content-Type-Options: nosniff`; and no framing
 * of the operator and phone pages or the API (clickjacking). The read-only views (map, overlay,
 * projector) may be framed: OBS browser sources are not frames, but a dashboard page may embed the map.
 */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (UNFRAMEABLE_PAGES.has(req.path) || req.path === '/api' || req.path.startsWith('/api/')) {
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  }
  next();
}
