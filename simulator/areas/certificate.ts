// Simulated terminal: the HTTPS certificate (contract/certificate.ts). Until
// the administrator installs one, the terminal answers the certificate it made
// itself at first use, the way the firmware's first-boot step does
// (docs/EMBEDDING.md): ECDSA P-256, "CN=<serial>", its addresses and added
// host names as SANs. It is made here with Node alone: a few DER writers and
// crypto.sign. The simulator serves no TLS itself; it keeps both PEM files in
// its store and, given a folder (SimulatorOptions.certDir), writes them there
// as cert.pem and key.pem (0600), where a terminal's web server reads them.
// The key is read only to check it: it is never answered and never logged.
import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { join } from 'node:path';
import { CERT_MAX_BYTES } from '../../contract/certificate.ts';
import { CERT_EXPIRED, CERT_KEY_MISMATCH } from '../../contract/codes.ts';
import { writeFileAtomic } from '../store.ts';
import { refuse, type CallImpl, type Context, type DeviceState, type Upload } from '../types.ts';
import { seeds as networkSeeds } from './network.ts';

type Pem = NonNullable<DeviceState['certificate']>;

/** How long the first-boot certificate is valid: ten years from the terminal's clock then. */
export const FIRST_BOOT_DAYS = 3650;


// ---------------------------------------------------------------------------
// DER, just what one certificate needs (X.690 definite lengths).

const tlv = (tag: number, ...parts: Uint8Array[]): Buffer => {
  const body = Buffer.concat(parts);
  const n = body.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...len]), body]);
};
const seq = (...parts: Uint8Array[]) => tlv(0x30, ...parts);
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const n of rest) {
    const digits = [n & 0x7f];
    for (let v = n >>> 7; v; v >>>= 7) digits.unshift(0x80 | (v & 0x7f));
    out.push(...digits);
  }
  return tlv(0x06, Buffer.from(out));
}
/** Before 2050 a UTCTime, from then a GeneralizedTime (RFC 5280 4.1.2.5). */
function time(ms: number): Buffer {
  const t = new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return Number(t.slice(0, 4)) < 2050 ? tlv(0x17, Buffer.from(t.slice(2))) : tlv(0x18, Buffer.from(t));
}
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

/** The terminal's addresses and the names the administrator added (RestParam HostNames): what a browser may open it by. */
function ownNames(ctx: Context): string[] {
  const { settings } = ctx.store.get();
  const ip = String({ ...networkSeeds.EthernetParam, ...settings.EthernetParam }.Ip ?? '');
  const names = String({ ...networkSeeds.RestParam, ...settings.RestParam }.HostNames ?? '').split(' ').filter(Boolean);
  return [...(isIPv4(ip) ? [ip] : []), ...names];
}

/** The first-boot certificate: a new P-256 key, "CN=<serial>", self-signed, valid FIRST_BOOT_DAYS from now. */
export function firstBootCertificate(serial: string, names: readonly string[], now: number): Pem {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const name = seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(serial)))));
  const sans = names.map((n) => (isIPv4(n) ? tlv(0x87, Buffer.from(n.split('.').map(Number))) : tlv(0x82, Buffer.from(n))));
  // A positive serial number of 16 random bytes, with no leading zero byte.
  const number = randomBytes(16);
  number[0] = (number[0] & 0x7f) | 0x40;
  const from = Math.floor(now / 1000) * 1000;
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, number),
    ECDSA_SHA256,
    name,
    seq(time(from), time(from + FIRST_BOOT_DAYS * 86_400_000)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, seq(...(sans.length ? [seq(oid('2.5.29.17'), tlv(0x04, seq(...sans)))] : []), seq(oid('2.5.29.19'), tlv(0x04, seq())))),
  );
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), sign('sha256', tbs, privateKey)));
  const Cert = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  return { Cert, Key: String(privateKey.export({ type: 'pkcs8', format: 'pem' })) };
}

// ---------------------------------------------------------------------------
// Reading what arrives

const BLOCK = /-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM file, each signed by the next; null when there is none, one does not parse, or the order is broken. */
export function certificates(pem: string): X509Certificate[] | null {
  const blocks = pem.match(BLOCK);
  if (!blocks) return null;
  let chain: X509Certificate[];
  try {
    chain = blocks.map((b) => new X509Certificate(b));
  } catch {
    return null;
  }
  for (let i = 0; i + 1 < chain.length; i++) if (!chain[i].checkIssued(chain[i + 1]) || !chain[i].verify(chain[i + 1].publicKey)) return null;
  return chain;
}

/** An unencrypted PEM private key, or null (an encrypted one needs a passphrase the device does not have). */
function privateKey(pem: string): KeyObject | null {
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(pem)) return null;
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return null;
  }
}

/** EC on P-256 or P-384, or RSA of 2048 bits or more: what browsers take and no one forges. */
function strong(key: KeyObject): boolean {
  const d = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'ec') return d.namedCurve === 'prime256v1' || d.namedCurve === 'secp384r1';
  return key.asymmetricKeyType === 'rsa' && (d.modulusLength ?? 0) >= 2048;
}

const stamp = (at: string) => new Date(Date.parse(at)).toISOString().slice(0, 19).replace('T', ' ');

/** "DNS:a, IP Address:1.2.3.4" as Node prints it (a value with a comma quoted) to ["DNS:a", "IP:1.2.3.4"]. */
function sanList(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(/([^:,]+):("(?:[^"\\]|\\.)*"|[^,]*)(?:, |$)/g)].map(([, kind, value]) => {
    let v = value;
    if (v.startsWith('"')) {
      try {
        v = JSON.parse(v) as string;
      } catch {
        // Left as printed.
      }
    }
    return `${kind.trim() === 'IP Address' ? 'IP' : kind.trim()}:${v}`;
  });
}

/** What SetCertificate answers about a certificate: never anything of the key. */
export function describe(pem: string) {
  const c = new X509Certificate(pem);
  return {
    Subject: c.subject.split('\n').join(', '),
    Issuer: c.issuer.split('\n').join(', '),
    SANs: sanList(c.subjectAltName),
    NotBefore: stamp(c.validFrom),
    NotAfter: stamp(c.validTo),
    Sha256: c.fingerprint256,
    SelfSigned: c.checkIssued(c) && c.verify(c.publicKey) ? 1 : 0,
  };
}

// ---------------------------------------------------------------------------
// The calls

/** Where a terminal's web server reads them: the key for its owner only. */
function writeFiles(dir: string, pem: Pem): void {
  writeFileAtomic(join(dir, 'key.pem'), pem.Key);
  writeFileAtomic(join(dir, 'cert.pem'), pem.Cert);
  chmodSync(join(dir, 'cert.pem'), 0o644);
}

/** The certificate served now: the installed one, else the first-boot one, made at first use and kept. */
async function current(ctx: Context): Promise<Pem> {
  const have = ctx.store.get().certificate;
  if (have) return have;
  const made = firstBootCertificate(ctx.model.Serial, ownNames(ctx), ctx.now());
  await ctx.store.update((s) => {
    s.certificate ??= made;
  });
  const kept = ctx.store.get().certificate!;
  if (ctx.certDir) writeFiles(ctx.certDir, kept);
  return kept;
}

/** GetCertificate's checks, in the contract's order; nothing changes before all have passed. */
async function install(ctx: Context, cert: Upload, key: Upload) {
  if (cert.data.length > CERT_MAX_BYTES) refuse(10101, { field: 'Cert' });
  if (key.data.length > CERT_MAX_BYTES) refuse(10101, { field: 'Key' });
  const chain = certificates(cert.data.toString('latin1')) ?? refuse(10102, { field: 'Cert' });
  const k = privateKey(key.data.toString('latin1')) ?? refuse(10102, { field: 'Key' });
  if (!strong(k)) refuse(10102, { field: 'Key' });
  if (!chain[0].checkPrivateKey(k)) refuse(CERT_KEY_MISMATCH, { field: 'Key' });
  const now = ctx.now();
  if (chain.some((c) => now < Date.parse(c.validFrom) || now > Date.parse(c.validTo))) refuse(CERT_EXPIRED, { field: 'Cert' });
  // Kept as clean PEM: only the certificates, and the key as PKCS#8, whatever else the files held.
  const pem: Pem = { Cert: chain.map((c) => c.toString()).join(''), Key: String(k.export({ type: 'pkcs8', format: 'pem' })) };
  await ctx.store.update((s) => {
    s.certificate = pem;
  });
  if (ctx.certDir) writeFiles(ctx.certDir, pem);
  return describe(pem.Cert);
}

export const handlers: Record<string, CallImpl> = {
  SetCertificate: { handle: async (ctx) => describe((await current(ctx)).Cert) },
  GetCertificate: { handle: (ctx, p) => install(ctx, p.Cert as Upload, p.Key as Upload) },
};
