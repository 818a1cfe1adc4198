// The certificate the console is served with over HTTPS (issue 23 §3): read
// it, and install the organisation's own certificate and private key. The
// key goes to the device and never comes back: no reply carries it.
import type { CallSpec, Fields } from './fields.ts';
import { CERT_EXPIRED, CERT_KEY_MISMATCH } from './codes.ts';

/** Largest certificate (with its chain) or key file GetCertificate takes (10101 above it). */
export const CERT_MAX_BYTES = 64 * 1024;

/** What a device answers about its certificate; never the key. */
export const CERTIFICATE_FIELDS = {
  Subject: { kind: 'string', doc: 'Who the certificate names, as "CN=..., O=..." (a comma, a backslash or <>+;" in a value escaped with a backslash, as RFC 4514 writes names). The certificate the device made itself names its serial number: "CN=<Serial>".' },
  Issuer: { kind: 'string', doc: 'Who signed it, in the same form (the same as Subject for a self-signed certificate).' },
  SANs: { kind: 'strings', doc: 'Subject alternative names: the names and addresses a browser accepts it for, each as "DNS:<name>" or "IP:<address>" (other kinds as OpenSSL prints them).' },
  NotBefore: { kind: 'string', doc: 'Valid from, "YYYY-MM-DD HH:MM:SS" in UTC (as the certificate states it).' },
  NotAfter: { kind: 'string', doc: 'Valid until, "YYYY-MM-DD HH:MM:SS" in UTC.' },
  Sha256: { kind: 'string', doc: 'SHA-256 fingerprint of the certificate (DER), as hexadecimal byte pairs separated by colons: what a browser shows, to compare.' },
  SelfSigned: { kind: 'flag', doc: '1: the certificate is signed by its own key (as the one the device makes itself at first boot is); browsers warn about it until it is replaced or trusted.' },
} as const satisfies Fields;

const pem = (what: string) =>
  ({ kind: 'file', doc: `${what} At most ${CERT_MAX_BYTES} bytes (10101 above it, naming the field).` }) as const;

export const CERTIFICATE_CALLS = {
  SetCertificate: {
    method: 'GET',
    path: 'SetCertificate',
    area: 'Network',
    purpose:
      'Read the certificate the console and REST API are served with over HTTPS (SetRestParam Protocol 1). Until the administrator installs one, it is the self-signed certificate the device made at first boot: ECDSA P-256, its serial number in the subject, its IP address and the names RestParam HostNames held then as SANs (docs/EMBEDDING.md gives the openssl command). Initialization removes an installed certificate and its key; the device then makes a new one. The reply never carries the private key.',
    encoding: 'query',
    auth: true,
    request: {},
    response: CERTIFICATE_FIELDS,
  },
  GetCertificate: {
    method: 'POST',
    path: 'GetCertificate',
    area: 'Network',
    purpose: `Install the organisation's certificate and private key. The device checks, in this order, before anything changes: a file over ${CERT_MAX_BYTES} bytes: 10101 naming it; \`Cert\` holding no PEM certificate, one that does not parse, or a chain in which a certificate is not signed by the next one: 10102 naming Cert; \`Key\` not an unencrypted PEM private key: 10102 naming Key; a key that is neither EC on P-256 or P-384 nor RSA of 2048 bits or more: 10102 naming Key (what every browser accepts and what is not breakable today: browsers refuse Ed25519 certificates, and RSA under 2048 bits can be factored); a key that does not belong to the first certificate: ${CERT_KEY_MISMATCH} naming Key; a certificate of the file that has expired or is not valid yet by the device's clock: ${CERT_EXPIRED} naming Cert. On success the device stores both (the key readable only by the web server), answers the new certificate's fields and reloads its web server, which serves HTTPS with them from then on (connections already open finish with the old certificate). The key is never answered or logged.`,
    encoding: 'multipart',
    auth: true,
    request: {
      Cert: pem('The certificate, PEM ("-----BEGIN CERTIFICATE-----"), optionally followed by its chain: each certificate signed by the next one, the root last or left out.'),
      Key: pem('Its private key, PEM and unencrypted ("-----BEGIN PRIVATE KEY-----", or the EC or RSA forms).'),
    },
    response: CERTIFICATE_FIELDS,
  },
} as const satisfies Record<string, CallSpec>;
