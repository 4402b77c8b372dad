/**
 * Binding the HTTP server: resolves with the port (the one picked when asked for 0) and the URL to print,
 * or rejects with the listen error (EADDRINUSE, EADDRNOTAVAIL, ...).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listen(http: Server, port: number, host: string, scheme: 'http' | 'https' = 'http'): Promise<{ readonly port: number; readonly url: string }> {
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    http.once('error', onError);
    http.listen(port, host, () => {
      http.off('error', onError);
      resolve();
    });
  });
  const bound = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { port: bound, url: `${scheme}://${shownHost}:${bound}` };
}
