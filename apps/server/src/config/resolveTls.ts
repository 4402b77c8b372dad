/**
 * The certificate `muster start` serves https with: `--tls-cert` and `--tls-key` when given (checked:
 * both readable PEM, the key is the certificate's), else with `--https` the self-signed one kept in
 * `<data>/tls/` (`cert.pem`, and `key.pem` with mode 0600), made on first use and reused after, so a
 * phone that accepted it once is not asked again. One that does not parse, does not match its key or
 * expires within 30 days is replaced by a new one (and the start says so).
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from '../cli/cliError.ts';
import { createSelfSignedCertificate } from '../http/selfSignedCertificate.ts';
import type { ResolvedStartValues, StartValue } from './resolveStartValues.ts';
import { replaceSecretFile } from './writeSecretFile.ts';

export interface TlsChoice {
  readonly certPem: string;
  readonly keyPem: string;
  /** For the start banner: where it is from, and its SHA-256 fingerprint to compare on a phone. */
  readonly from: string;
  readonly fingerprint: string;
  readonly validTo: string;
}

const RENEW_BEFORE_MS = 30 * 86_400_000;

export function tlsDir(dataDir: string): string {
  return join(dataDir, 'tls');
}

function readPem(path: string, label: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`${label} ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Parses and matches a certificate and key; the problem, or the parsed certificate. */
function check(certPem: string, keyPem: string): X509Certificate | string {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch (err) {
    return `not a PEM certificate (${(err as Error).message})`;
  }
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch (err) {
    return `not a PEM private key (${(err as Error).message})`;
  }
  if (!cert.checkPrivateKey(key)) return 'the key is not the certificate\'s';
  return cert;
}

function describe(cert: X509Certificate, from: string, certPem: string, keyPem: string): TlsChoice {
  return { certPem, keyPem, from, fingerprint: cert.fingerprint256, validTo: new Date(cert.validTo).toISOString().slice(0, 10) };
}

/** The data directory's self-signed certificate, made when missing or no longer usable. */
export function storedSelfSignedCertificate(dataDir: string, now = new Date()): TlsChoice {
  const dir = tlsDir(dataDir);
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  let why = 'made now';
  try {
    const certPem = readFileSync(certPath, 'utf8');
    const keyPem = readFileSync(keyPath, 'utf8');
    const cert = check(certPem, keyPem);
    if (typeof cert === 'string') why = `made now: the one in ${dir} was unusable (${cert})`;
    else if (new Date(cert.validTo).getTime() - now.getTime() < RENEW_BEFORE_MS) why = `made now: the one in ${dir} expires ${cert.validTo}`;
    else return describe(cert, `self-signed, kept in ${dir}`, certPem, keyPem);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') why = `made now: ${(err as Error).message}`;
  }
  const made = createSelfSignedCertificate({ now });
  try {
    // The key first: a crash between the two leaves a pair that does not match, replaced next time.
    replaceSecretFile(keyPath, made.keyPem);
    replaceSecretFile(certPath, made.certPem);
  } catch (err) {
    throw new CliError(`${dir}: cannot save the certificate (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return describe(new X509Certificate(made.certPem), `self-signed, ${why}, kept in ${dir}`, made.certPem, made.keyPem);
}

/** null: plain http. Throws `CliError` naming the option or file that is wrong. */
export function resolveTls(resolved: ResolvedStartValues<Record<string, StartValue | undefined>>, dataDir: string): TlsChoice | null {
  const { values } = resolved;
  const certFile = values['tls-cert'] as string | undefined;
  const keyFile = values['tls-key'] as string | undefined;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    const given = certFile !== undefined ? 'tls-cert' : 'tls-key';
    throw new CliError(`${resolved.labelOf(given)} goes with --${given === 'tls-cert' ? 'tls-key' : 'tls-cert'}: give both (certificate and its key), or neither for a self-signed one`);
  }
  if (certFile !== undefined && keyFile !== undefined) {
    const certPath = resolve(certFile);
    const keyPath = resolve(keyFile);
    const certPem = readPem(certPath, resolved.labelOf('tls-cert'));
    const keyPem = readPem(keyPath, resolved.labelOf('tls-key'));
    const cert = check(certPem, keyPem);
    if (typeof cert === 'string') throw new CliError(`${certPath} and ${keyPath}: ${cert}`);
    return describe(cert, certPath, certPem, keyPem);
  }
  if (values['https'] !== true) return null;
  return storedSelfSignedCertificate(dataDir);
}

