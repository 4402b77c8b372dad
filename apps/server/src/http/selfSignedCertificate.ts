/**
 * A self-signed X.509 certificate for `muster start --https`, made with `node:crypto` (an ECDSA P-256
 * key, signed with SHA-256) and the DER writer in `der.ts`. Browsers warn about it once (it is signed by
 * no authority they know), and once accepted the page is a secure context: a phone's browser then lets
 * `/phone.html` open the camera. The certificate names localhost, this machine's host name (and
 * `<name>.local`) and every address it has, so the warning is about the signer only, whichever of them
 * a phone uses.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import { isIP } from 'node:net';
import {
  derBitString,
  derBoolean,
  derExplicit,
  derImplicit,
  derOctetString,
  derOid,
  derSequence,
  derSet,
  derSmallInteger,
  derTime,
  derUnsignedInteger,
  derUtf8String,
} from './der.ts';

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

/** 825 days: the longest validity Apple's devices accept for a TLS server certificate. */
export const SELF_SIGNED_VALIDITY_DAYS = 825;

export interface SelfSignedCertificate {
  /** PEM of the certificate. */
  readonly certPem: string;
  /** PEM (PKCS#8) of its private key. */
  readonly keyPem: string;
}

export interface SelfSignedOptions {
  /** DNS names in the certificate (default: `defaultCertificateNames()`'s). */
  readonly dnsNames?: readonly string[];
  /** IP addresses in the certificate (default: `defaultCertificateNames()`'s). */
  readonly ipAddresses?: readonly string[];
  readonly now?: Date;
  readonly validityDays?: number;
}

/** localhost, this machine's name and `<name>.local`, and its addresses (loopback included, link-local left out). */
export function defaultCertificateNames(): { dnsNames: string[]; ipAddresses: string[] } {
  const dnsNames = new Set(['localhost']);
  const name = hostname().toLowerCase();
  if (/^[a-z0-9.-]+$/.test(name) && name !== 'localhost') {
    dnsNames.add(name);
    if (!name.includes('.')) dnsNames.add(`${name}.local`);
  }
  const ipAddresses = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv6' && a.address.toLowerCase().startsWith('fe80')) continue;
      ipAddresses.add(a.address);
    }
  }
  return { dnsNames: [...dnsNames], ipAddresses: [...ipAddresses] };
}

function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  if (isIP(address) !== 6) throw new Error(`not an IP address: ${address}`);
  // Expand "::" and an embedded IPv4 tail to 8 groups of 16 bits.
  let text = address.split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const b = v4[1]!.split('.').map(Number);
    text = text.slice(0, -v4[1]!.length) + `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill('0');
  const groups = [...headGroups, ...fill, ...tailGroups];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

function extension(oid: string, critical: boolean, value: Uint8Array): Buffer {
  return derSequence(derOid(oid), ...(critical ? [derBoolean(true)] : []), derOctetString(value));
}

/** A new key and a certificate for it, signed by itself. */
export function createSelfSignedCertificate(options: SelfSignedOptions = {}): SelfSignedCertificate {
  const names = options.dnsNames && options.ipAddresses ? { dnsNames: options.dnsNames, ipAddresses: options.ipAddresses } : defaultCertificateNames();
  const dnsNames = options.dnsNames ?? names.dnsNames;
  const ipAddresses = options.ipAddresses ?? names.ipAddresses;
  const now = options.now ?? new Date();
  const days = options.validityDays ?? SELF_SIGNED_VALIDITY_DAYS;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });

  const algorithm = derSequence(derOid(OID.ecdsaWithSha256));
  const name = derSequence(
    derSet(derSequence(derOid(OID.organization), derUtf8String('Muster'))),
    derSet(derSequence(derOid(OID.commonName), derUtf8String(dnsNames[0] ?? 'localhost'))),
  );
  // Valid from an hour ago: a phone whose clock is a little behind must not see "not yet valid".
  const notBefore = new Date(now.getTime() - 3_600_000);
  const notAfter = new Date(now.getTime() + days * 86_400_000);
  const altNames = derSequence(...dnsNames.map((n) => derImplicit(2, Buffer.from(n, 'ascii'))), ...ipAddresses.map((a) => derImplicit(7, ipBytes(a))));
  const keyId = createHash('sha1').update(spki).digest();
  const extensions = derSequence(
    extension(OID.basicConstraints, true, derSequence()),
    extension(OID.extKeyUsage, false, derSequence(derOid(OID.serverAuth))),
    extension(OID.subjectAltName, false, altNames),
    extension(OID.subjectKeyIdentifier, false, derOctetString(keyId)),
  );
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f; // positive, at most 20 bytes (RFC 5280 §4.1.2.2)
  const tbs = derSequence(
    derExplicit(0, derSmallInteger(2)), // v3
    derUnsignedInteger(serial),
    algorithm,
    name,
    derSequence(derTime(notBefore), derTime(notAfter)),
    name,
    spki,
    derExplicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey); // DER-encoded ECDSA signature
  const der = derSequence(tbs, algorithm, derBitString(signature));
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Parse it back: a certificate this module cannot read is a bug here, not something to serve.
  const parsed = new X509Certificate(certPem);
  if (!parsed.verify(publicKey) || !parsed.checkPrivateKey(privateKey)) throw new Error('self-signed certificate: the certificate does not verify with its own key');
  return { certPem, keyPem };
}
