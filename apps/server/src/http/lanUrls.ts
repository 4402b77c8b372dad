/**
 * The URLs other machines (phones, the projector's laptop) use to reach a service bound to every address
 * (`--host 0.0.0.0` or `::`): the printed `http://0.0.0.0:8080` is no address a phone can open. One URL
 * per non-internal IPv4 address of this machine (IPv6 too when bound to `::`), link-local left out.
 */
import { networkInterfaces } from 'node:os';

export function lanUrls(serviceUrl: string, interfaces = networkInterfaces()): string[] {
  const url = new URL(serviceUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host !== '0.0.0.0' && host !== '::') return [];
  const out: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv6' && (host !== '::' || a.address.toLowerCase().startsWith('fe80'))) continue;
      out.push(`${url.protocol}//${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${url.port}`);
    }
  }
  return out;
}
