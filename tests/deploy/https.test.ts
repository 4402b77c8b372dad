/**
 * `muster start --https` (issue 13: phones need a secure origin to send their camera): a self-signed
 * certificate made on first use and kept in the data directory, or the one given by --tls-cert and
 * --tls-key; REST over https and the live ws over wss, checked with real TLS clients (node's https and
 * the ws library) that trust only that certificate, on loopback.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import WebSocket from 'ws';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { derOid, derTime, derUnsignedInteger } from '../../apps/server/src/http/der.ts';
import { createSelfSignedCertificate } from '../../apps/server/src/http/selfSignedCertificate.ts';
import { refusedStart, startCli, tempDir, type TempDir } from './startCli.ts';

const dirs: TempDir[] = [];
afterAll(() => dirs.forEach((d) => d.remove()));
function dir(): string {
  const d = tempDir('muster-https-');
  dirs.push(d);
  return d.path;
}

/** GET over https trusting only `ca`; the status, body and the certificate the server showed. */
function httpsGet(url: string, ca: string | undefined, servername?: string): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ...(ca ? { ca } : {}), ...(servername ? { servername } : {}) }, (res) => {
      const fingerprint = (res.socket as TLSSocket).getPeerX509Certificate()?.fingerprint256 ?? '';
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, fingerprint }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The first two messages of the live ws over wss (welcome, snapshot). */
function wssFirstMessages(url: string, ca: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^https/, 'wss')}/ws`, { ca });
    const types: string[] = [];
    const timer = setTimeout(() => reject(new Error('no ws messages in 10 s')), 10_000);
    ws.on('message', (data) => {
      types.push((JSON.parse(data.toString()) as { type: string }).type);
      if (types.length === 2) {
        clearTimeout(timer);
        ws.close();
        resolve(types);
      }
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

describe('the DER writer', () => {
  it('encodes the known values of the certificate', () => {
    expect(derOid('1.2.840.10045.4.3.2').toString('hex')).toBe('06082a8648ce3d040302'); // ecdsa-with-SHA256
    expect(derOid('2.5.29.17').toString('hex')).toBe('0603551d11');
    expect(derUnsignedInteger(Buffer.from([0x80])).toString('hex')).toBe('02020080'); // stays positive
    expect(derUnsignedInteger(Buffer.from([0, 0, 5])).toString('hex')).toBe('020105');
    expect(derTime(new Date(Date.UTC(2026, 10, 24, 15, 31, 2))).toString('ascii', 2)).toBe('261124153102Z');
    expect(derTime(new Date(Date.UTC(2051, 0, 1))).toString('ascii', 2)).toBe('20510101000000Z');
  });

  it('makes a certificate node and OpenSSL read back, naming the hosts asked for', () => {
    const now = new Date(Date.UTC(2026, 10, 24));
    const made = createSelfSignedCertificate({ dnsNames: ['localhost', 'table1.local'], ipAddresses: ['127.0.0.1', '::1', '192.168.1.20'], now });
    const cert = new X509Certificate(made.certPem);
    expect(cert.subjectAltName).toBe('DNS:localhost, DNS:table1.local, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:192.168.1.20');
    expect(cert.checkHost('table1.local')).toBe('table1.local');
    expect(cert.checkIP('192.168.1.20')).toBe('192.168.1.20');
    expect(cert.checkHost('other.example')).toBeUndefined();
    expect(new Date(cert.validTo).getTime() - now.getTime()).toBe(825 * 86_400_000);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.ca).toBe(false);
  });
});

describe('muster start --https', () => {
  it('serves https and wss with a self-signed certificate kept in the data directory and reused', async () => {
    const data = dir();
    const first = await startCli(['--data', data, '--https']);
    let fingerprint: string;
    let ca: string;
    try {
      expect(first.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(first.stdout).toMatch(/ws:\s+wss:\/\/127\.0\.0\.1:\d+\/ws/);
      expect(first.stdout).toMatch(/operator:\s+https:\/\/127\.0\.0\.1:\d+\/operator\.html\?token=/);
      ca = readFileSync(join(data, 'tls/cert.pem'), 'utf8');
      expect(statSync(join(data, 'tls/key.pem')).mode & 0o777).toBe(0o600);
      fingerprint = new X509Certificate(ca).fingerprint256;
      expect(first.stdout).toContain(`https:      self-signed, made now, kept in ${join(data, 'tls')}; certificate SHA-256 ${fingerprint}`);

      const health = await httpsGet(`${first.url}/api/health`, ca);
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toHaveProperty('status');
      expect(health.fingerprint).toBe(fingerprint);
      // By name too: the certificate names localhost.
      expect((await httpsGet(`${first.url.replace('127.0.0.1', 'localhost')}/api/health`, ca)).status).toBe(200);
      // A client that does not trust it is refused by TLS itself.
      await expect(httpsGet(`${first.url}/api/health`, undefined)).rejects.toThrow(/self[- ]signed/i);
      // The pages' own origin may open the ws: https origin, same host.
      expect(await wssFirstMessages(first.url, ca)).toEqual(['welcome', 'snapshot']);
      const operator = await new Promise<number>((resolve, reject) => {
        const req = request(`${first.url}/api/actions`, { method: 'POST', ca, headers: { authorization: `Bearer ${first.token}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(JSON.stringify({ type: 'set-turn', turn: 2 }));
      });
      expect(operator).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    // A restart (from the environment this time) shows the same certificate: a phone that accepted it once is not asked again.
    const second = await startCli(['--data', data], { env: { MUSTER_HTTPS: '1' } });
    try {
      expect(second.stdout).toContain(`https:      self-signed, kept in ${join(data, 'tls')}; certificate SHA-256 ${fingerprint}`);
      expect((await httpsGet(`${second.url}/api/health`, ca)).fingerprint).toBe(fingerprint);
      expect(await wssFirstMessages(second.url, ca)).toEqual(['welcome', 'snapshot']);
    } finally {
      await second.stop();
    }
  });

  it('--tls-cert and --tls-key serve the given certificate; a mismatch or half a pair is refused', async () => {
    const d = dir();
    const given = createSelfSignedCertificate({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    const other = createSelfSignedCertificate({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    writeFileSync(join(d, 'cert.pem'), given.certPem);
    writeFileSync(join(d, 'key.pem'), given.keyPem, { mode: 0o600 });
    writeFileSync(join(d, 'other-key.pem'), other.keyPem, { mode: 0o600 });
    const data = dir();
    const s = await startCli(['--data', data, '--tls-cert', join(d, 'cert.pem'), '--tls-key', join(d, 'key.pem')]);
    try {
      const got = await httpsGet(`${s.url}/api/health`, given.certPem);
      expect(got.status).toBe(200);
      expect(got.fingerprint).toBe(new X509Certificate(given.certPem).fingerprint256);
      expect(await wssFirstMessages(s.url, given.certPem)).toEqual(['welcome', 'snapshot']);
    } finally {
      await s.stop();
    }

    const mismatch = await refusedStart(['--data', data, '--tls-cert', join(d, 'cert.pem'), '--tls-key', join(d, 'other-key.pem')]);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr.trim()).toBe(`muster start: ${join(d, 'cert.pem')} and ${join(d, 'other-key.pem')}: the key is not the certificate's`);
    const half = await refusedStart(['--data', data, '--tls-cert', join(d, 'cert.pem')]);
    expect(half.code).toBe(2);
    expect(half.stderr.trim()).toMatch(/^muster start: --tls-cert goes with --tls-key: give both/);
    const notPem = await refusedStart(['--data', data, '--tls-cert', join(d, 'key.pem'), '--tls-key', join(d, 'key.pem')]);
    expect(notPem.code).toBe(2);
    expect(notPem.stderr).toMatch(/not a PEM certificate/);
  });

  it('a phone sends its camera over wss: /camera takes JPEG frames with the token and refuses them without', async () => {
    const data = dir();
    const s = await startCli([
      '--data', data, '--https', '--camera', 'phone',
      '--table', join(REPO_ROOT, 'fixtures/demo/demo-table.json'),
      '--roster', join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml'),
    ], { quickDemo: false, env: { MUSTER_PORT: '0', MUSTER_NO_BUILD: '1' } });
    try {
      const ca = readFileSync(join(data, 'tls/cert.pem'), 'utf8');
      const camera = (token: string) => new WebSocket(`${s.url.replace(/^https/, 'wss')}/camera?token=${encodeURIComponent(token)}`, { ca });
      const refused = await new Promise<number>((resolve) => {
        const ws = camera('not-the-token');
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => undefined);
      });
      expect(refused).toBe(401);
      const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 90, g: 120, b: 60 } } }).jpeg().toBuffer();
      const ws = camera(s.token);
      const reply = await new Promise<{ type: string; seq?: number }>((resolve, reject) => {
        ws.on('open', () => ws.send(jpeg));
        ws.on('message', (m) => resolve(JSON.parse(String(m)) as { type: string; seq?: number }));
        ws.on('error', reject);
      });
      ws.close();
      expect(reply).toEqual({ type: 'ack', seq: 0 });
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });
});
