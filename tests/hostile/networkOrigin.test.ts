/**
 * Who may talk to the service, on a real demo service on loopback (issues: a page of another origin
 * could open the ws; the Host header was not checked, so a DNS-rebinding page could use the default
 * 127.0.0.1 service; the operator page keeps its token in the URL and no Referrer-Policy kept it from
 * leaking). Fixed in `apps/server/src/http/requestPolicy.ts` and `wsUpgrades.ts`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { createRequestPolicy } from '../../apps/server/src/http/requestPolicy.ts';
import { launchChromium } from '../e2e/helpers/browser.ts';
import { tempDir } from '../service/helpers.ts';
import { TOKEN, rawRequest, rawUpgrade, startHostileDemo } from './networkHelpers.ts';

const dirs: { remove(): void }[] = [];
let live: RunningLive;
let host: string; // 127.0.0.1:<port>
let port: string;
beforeAll(async () => {
  const dir = tempDir('muster-origin-');
  dirs.push(dir);
  live = await startHostileDemo(dir.path);
  host = new URL(live.url).host;
  port = new URL(live.url).port;
});
afterAll(async () => {
  await live.stop();
  dirs.forEach((d) => d.remove());
});

describe('Origin of ws upgrades', () => {
  it('accepts no Origin (non-browser clients) and the service’s own origin; refuses other origins with 403', async () => {
    expect((await rawUpgrade(live.url, '/ws', { host })).status).toBe(101);
    expect((await rawUpgrade(live.url, '/ws', { host, origin: `http://${host}` })).status).toBe(101);
    expect((await rawUpgrade(live.url, '/ws', { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(101);
    // Behind a TLS proxy the page is https and the request plain: the host decides, not the scheme.
    expect((await rawUpgrade(live.url, '/ws', { host, origin: `https://${host}` })).status).toBe(101);
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `http://localhost:${port}`, 'not a url', `http://${host}.evil.example`, `file://${host}`]) {
      const r = await rawUpgrade(live.url, '/ws', { host, origin });
      expect(r.status, origin).toBe(403);
      expect(r.body, origin).toMatch(/other origins/);
    }
    // Other ws paths get the same check before their own handler.
    expect((await rawUpgrade(live.url, '/camera', { host, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('accepts the origins of --allow-origin', async () => {
    const dir = tempDir('muster-origin-allow-');
    dirs.push(dir);
    const other = await startHostileDemo(dir.path, { allowOrigins: ['https://table.example:8443', 'http://obs.local'] });
    try {
      const h = new URL(other.url).host;
      expect((await rawUpgrade(other.url, '/ws', { host: h, origin: 'https://table.example:8443' })).status).toBe(101);
      expect((await rawUpgrade(other.url, '/ws', { host: h, origin: 'http://obs.local' })).status).toBe(101);
      expect((await rawUpgrade(other.url, '/ws', { host: h, origin: 'https://table.example' })).status).toBe(403);
    } finally {
      await other.stop();
    }
  });

  it('a page of another origin in Chromium cannot open the ws; the service’s own page can', async () => {
    // The "attacker" page: another server on loopback (another port is another origin).
    const wsUrl = `ws://${host}/ws`;
    const page = `<!doctype html><script>
      window.result = new Promise((resolve) => {
        const ws = new WebSocket(${JSON.stringify(wsUrl)});
        ws.onmessage = (e) => { resolve('message: ' + String(e.data).slice(0, 30)); ws.close(); };
        ws.onerror = () => resolve('error');
      });
    </script>`;
    const evil: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      expect(await tab.evaluate(() => (globalThis as unknown as { result: Promise<string> }).result)).toBe('error');
      await tab.goto(`${live.url}/api/health`);
      const own = await tab.evaluate(
        (u) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(u);
            ws.onmessage = (e) => {
              resolve(`message: ${String(e.data).slice(0, 30)}`);
              ws.close();
            };
            ws.onerror = () => resolve('error');
          }),
        wsUrl,
      );
      expect(own).toMatch(/^message: \{"type":"welcome"/);
    } finally {
      await browser.close();
      await new Promise<void>((r) => evil.close(() => r()));
    }
  });
});

describe('Host header (DNS rebinding)', () => {
  it('bound to 127.0.0.1: answers localhost and loopback addresses only; 421 for any other Host, on REST, pages and ws', async () => {
    for (const h of [host, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`, 'localhost']) {
      expect((await rawRequest(live.url, 'GET', '/api/health', { host: h })).status, h).toBe(200);
    }
    for (const h of ['evil.example', `evil.example:${port}`, `192.168.1.5:${port}`, `localhost.evil.example:${port}`, '', '[bad']) {
      const r = await rawRequest(live.url, 'GET', '/api/health', { host: h });
      expect(r.status, `Host: ${h}`).toBe(421);
      expect(JSON.parse(r.body)).toMatchObject({ type: 'error', code: 'forbidden' });
      expect((await rawRequest(live.url, 'GET', '/operator.html', { host: h })).status, `page, Host: ${h}`).toBe(421);
      expect((await rawRequest(live.url, 'PUT', '/api/terrain', { host: h, authorization: `Bearer ${TOKEN}` }, '{}')).status).toBe(421);
      expect((await rawUpgrade(live.url, '/ws', { host: h })).status, `ws, Host: ${h}`).toBe(421);
    }
  });

  it('answers the names of --allow-host', async () => {
    const dir = tempDir('muster-host-allow-');
    dirs.push(dir);
    const other = await startHostileDemo(dir.path, { allowHosts: ['muster.local', 'table.example:9000'] });
    try {
      const p = new URL(other.url).port;
      expect((await rawRequest(other.url, 'GET', '/api/health', { host: `muster.local:${p}` })).status).toBe(200);
      expect((await rawRequest(other.url, 'GET', '/api/health', { host: 'table.example' })).status).toBe(200);
      expect((await rawRequest(other.url, 'GET', '/api/health', { host: `evil.example:${p}` })).status).toBe(421);
      expect((await rawUpgrade(other.url, '/ws', { host: `muster.local:${p}`, origin: `http://muster.local:${p}` })).status).toBe(101);
    } finally {
      await other.stop();
    }
  });

  it('bound beyond loopback: any Host unless --allow-host names some (policy; no test binds 0.0.0.0)', () => {
    const lan = createRequestPolicy({ bindHost: '0.0.0.0' });
    expect(lan.hostAllowed('gamepc.lan:8080')).toBe(true);
    const named = createRequestPolicy({ bindHost: '0.0.0.0', allowHosts: ['gamepc.lan'] });
    expect(named.hostAllowed('gamepc.lan:8080')).toBe(true);
    expect(named.hostAllowed('192.168.1.5:8080')).toBe(true); // an address: no rebinding possible
    expect(named.hostAllowed('localhost:8080')).toBe(true);
    expect(named.hostAllowed('evil.example:8080')).toBe(false);
    const one = createRequestPolicy({ bindHost: '192.168.1.5' });
    expect(one.hostAllowed('anything:8080')).toBe(true);
    const loop = createRequestPolicy({ bindHost: '::1' });
    expect(loop.hostAllowed('[::1]:8080')).toBe(true);
    expect(loop.hostAllowed('evil.example')).toBe(false);
    expect(createRequestPolicy({ bindHost: '127.0.0.1', allowHosts: ['*'] }).hostAllowed('evil.example')).toBe(true);
  });
});

describe('response headers', () => {
  it('Referrer-Policy: no-referrer and nosniff on every response; the operator page, phone page and API may not be framed', async () => {
    const paths = ['/', '/map.html', '/overlay.html', '/projector.html', `/operator.html?token=${TOKEN}`, '/phone.html', '/api/health', '/api/nope', '/nope.html'];
    for (const path of paths) {
      const r = await rawRequest(live.url, 'GET', path, { host });
      if (path.startsWith('/api/')) expect(r.status, path).toBeLessThan(500); // pages: 503 when the views are not built
      expect(r.headers['referrer-policy'], path).toBe('no-referrer');
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
      const unframeable = /^\/(operator|phone)\.html|^\/api\//.test(path);
      expect(r.headers['x-frame-options'], path).toBe(unframeable ? 'DENY' : undefined);
      if (unframeable) expect(r.headers['content-security-policy'], path).toBe("frame-ancestors 'none'");
      else expect(r.headers['content-security-policy'] ?? '', path).not.toMatch(/frame-ancestors/);
    }
    // Refusals carry them too.
    const refused = await rawRequest(live.url, 'GET', '/api/health', { host: 'evil.example' });
    expect(refused.headers['referrer-policy']).toBe('no-referrer');
    const unauthorised = await rawRequest(live.url, 'PUT', '/api/terrain', { host }, '{}');
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers['referrer-policy']).toBe('no-referrer');
  });
});
