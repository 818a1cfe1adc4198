// The HTTPS certificate on the simulated terminal, over HTTP, as docs/API.md
// says (SetCertificate, GetCertificate): the first-boot certificate's shape,
// an installed certificate answered and kept, every refusal with its code and
// field and nothing changed, and the private key never in a reply or the log.
// Test certificates come from the openssl command line, not from the code
// under test.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { CERT_MAX_BYTES } from '../../contract/certificate.ts';
import { CERT_EXPIRED, CERT_KEY_MISMATCH } from '../../contract/codes.ts';
import type { CallName } from '../../contract/index.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { callSimulator } from '../support/helpers.ts';

type Rec = Record<string, unknown>;
const DAY = 86_400_000;
/** Every folder a test makes, removed at the end. */
const made: string[] = [];
const folder = (prefix: string) => (made.push(mkdtempSync(join(tmpdir(), prefix))), made[made.length - 1]);
const dir = folder('cert-');
const path = (name: string) => join(dir, name);
const read = (name: string) => readFileSync(path(name));
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

/** A key and a self-signed certificate for it, valid `days` from now. `alg`: openssl's -newkey. */
function selfSigned(name: string, cn: string, alg = 'ec', opts: string[] = ['-pkeyopt', 'ec_paramgen_curve:P-256'], days = 30): void {
  openssl('req', '-x509', '-newkey', alg, ...opts, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-subj', `/CN=${cn}/O=Example Org`, '-days', String(days), '-addext', `subjectAltName=DNS:${cn},IP:192.168.1.201`);
}

// The files every test uses, made once.
selfSigned('good', 'console.example.org');
selfSigned('other', 'other.example.org');
selfSigned('rsa1024', 'weak.example.org', 'rsa:1024', []);
selfSigned('rsa2048', 'rsa.example.org', 'rsa:2048', []);
selfSigned('ed', 'ed.example.org', 'ed25519', []);
// A CA and a certificate it signs: the chain is leaf then CA.
selfSigned('ca', 'Example Test CA');
openssl('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=terminal.example.org');
writeFileSync(path('leaf.ext'), 'subjectAltName=DNS:terminal.example.org\n');
openssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '20', '-extfile', 'leaf.ext', '-out', 'leaf.crt');
// A CA valid 5 days that signs a certificate valid 20: the chain expires with the CA.
selfSigned('shortca', 'Short CA', 'ec', ['-pkeyopt', 'ec_paramgen_curve:P-256'], 5);
openssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'shortca.crt', '-CAkey', 'shortca.key', '-CAcreateserial', '-days', '20', '-extfile', 'leaf.ext', '-out', 'leaf2.crt');
openssl('x509', '-in', 'good.crt', '-outform', 'DER', '-out', 'good.der');
openssl('pkcs8', '-topk8', '-in', 'good.key', '-v2', 'aes-256-cbc', '-passout', 'pass:secret', '-out', 'good-enc.key');

/** The base64 body of a PEM file: what must never appear in a reply or the log. */
const body = (pem: Buffer | string) => String(pem).replace(/-----[^-]+-----|\s/g, '');
const KEYS = ['good.key', 'other.key', 'rsa2048.key', 'leaf.key'].map((f) => body(read(f)));
/** PKCS#8 forms of the same keys, as the device keeps them. */
const KEYS8 = ['good.key', 'other.key', 'rsa2048.key', 'leaf.key'].map((f) => body(String(createPrivateKey(read(f)).export({ type: 'pkcs8', format: 'pem' }))));
const fingerprint = (name: string) => new X509Certificate(read(name)).fingerprint256;

interface Device {
  sim: Simulator;
  storeFile: string;
  certDir: string;
  replies: string[];
  call(name: CallName, params?: Rec): Promise<Rec>;
  install(cert: Buffer | string | null, key: Buffer | string | null): Promise<Rec>;
  /** A new session: moving the terminal's clock ends the old one (idle). */
  login(): Promise<void>;
  close(): Promise<void>;
}

let clock = Date.now();
const logged: string[] = [];

async function device(storeFile = join(folder('cert-store-'), 'store.json')): Promise<Device> {
  const certDir = folder('cert-dir-');
  const sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile, certDir, log: true, now: () => clock, model: loadModel('default', { seedUsers: 0, seedRecords: 0, restartMs: 50 }) });
  let token = '';
  const login = async () => {
    const r = await callSimulator(sim.url, 'chklogin', { ...TEST_ADMIN });
    assert.is(r.retvalue, 0, 'signed in');
    token = String(r.token);
  };
  await login();
  const replies: string[] = [];
  const keep = (r: Rec) => (replies.push(JSON.stringify(r)), r);
  return {
    sim,
    storeFile,
    certDir,
    replies,
    call: async (name, params = {}) => keep(await callSimulator(sim.url, name, params, token)),
    async install(cert, key) {
      const form = new FormData();
      const blob = (b: Buffer | string) => new Blob([typeof b === 'string' ? b : new Uint8Array(b)]);
      if (cert !== null) form.append('Cert', blob(cert), 'cert.pem');
      if (key !== null) form.append('Key', blob(key), 'key.pem');
      const res = await fetch(`${sim.url}/goform/GetCertificate?_t=1`, { method: 'POST', headers: { 'X-Token': token }, body: form });
      return keep((await res.json()) as Rec);
    },
    login,
    close: () => sim.close(),
  };
}

/** The terminal stopped and started again on the same store. */
async function reopen(d: Device): Promise<Device> {
  await d.close();
  return device(d.storeFile);
}

const realLog = console.log;
const realError = console.error;
const t = suite('HTTPS certificate (SetCertificate, GetCertificate)');
t.before(() => {
  console.log = (...a: unknown[]) => void logged.push(a.join(' '));
  console.error = (...a: unknown[]) => void logged.push(a.join(' '));
});
t.after(() => {
  console.log = realLog;
  console.error = realError;
  for (const d of made) rmSync(d, { recursive: true, force: true });
  // Nothing any test did put a private key in the log.
  for (const k of [...KEYS, ...KEYS8]) assert.not.ok(logged.some((l) => l.includes(k.slice(0, 40))), 'no key in the log');
});
t.before.each(() => {
  clock = Date.now();
});

t('the first-boot certificate: ECDSA P-256, "CN=<serial>", the address and added names as SANs, self-signed, kept', async () => {
  const d = await device();
  try {
    assert.is((await d.call('GetRestParam', { Protocol: 0, Port: 80, RestApi: 0, HostNames: 'terminal.example.org' })).retvalue, 0);
    const r = await d.call('SetCertificate');
    assert.is(r.retvalue, 0);
    assert.is(r.Subject, 'CN=SIM0000000001');
    assert.is(r.Issuer, 'CN=SIM0000000001');
    assert.equal(r.SANs, ['IP:192.168.1.201', 'DNS:terminal.example.org']);
    assert.is(r.SelfSigned, 1);
    assert.not.ok('Certificate' in d.sim.store.get().settings, 'no settings pair of files');
    assert.equal(Object.keys(r).sort(), ['Issuer', 'NotAfter', 'NotBefore', 'SANs', 'SelfSigned', 'Sha256', 'Subject', 'retvalue'], 'the contract\'s fields, no key');
    // What the web server would read: the same certificate, and openssl agrees on its shape.
    const pem = readFileSync(join(d.certDir, 'cert.pem'), 'utf8');
    const x = new X509Certificate(pem);
    assert.is(x.fingerprint256, r.Sha256);
    assert.equal(x.publicKey.asymmetricKeyDetails, { namedCurve: 'prime256v1' });
    assert.ok(x.checkPrivateKey(createPrivateKey(readFileSync(join(d.certDir, 'key.pem')))), 'key.pem is its key');
    assert.is(statSync(join(d.certDir, 'key.pem')).mode & 0o777, 0o600);
    const text = openssl('x509', '-in', join(d.certDir, 'cert.pem'), '-noout', '-text').toString();
    assert.match(text, /ASN1 OID: prime256v1/);
    assert.match(text, /IP Address:192\.168\.1\.201, DNS:terminal\.example\.org/);
    assert.match(openssl('verify', '-CAfile', join(d.certDir, 'cert.pem'), join(d.certDir, 'cert.pem')).toString(), /: OK/);
    assert.is(Date.parse(`${r.NotBefore}Z`), Math.floor(clock / 1000) * 1000, 'valid from the terminal clock');
    assert.ok(Date.parse(`${r.NotAfter}Z`) - clock > 9 * 365 * DAY, 'valid for years');
    // Kept: the same one when the terminal starts again.
    const again = await reopen(d);
    try {
      assert.is((await again.call('SetCertificate')).Sha256, r.Sha256);
    } finally {
      await again.close();
    }
  } finally {
    await d.close();
  }
});

t('a good certificate and key install: answered at once, by SetCertificate, after a restart, and written for the web server', async () => {
  const d = await device();
  try {
    const before = await d.call('SetCertificate');
    const r = await d.install(read('good.crt'), read('good.key'));
    assert.is(r.retvalue, 0, JSON.stringify(r));
    const expected = { Subject: 'CN=console.example.org, O=Example Org', Issuer: 'CN=console.example.org, O=Example Org', SANs: ['DNS:console.example.org', 'IP:192.168.1.201'], Sha256: fingerprint('good.crt'), SelfSigned: 1 };
    for (const [k, v] of Object.entries(expected)) assert.equal(r[k], v, k);
    assert.is.not(r.Sha256, before.Sha256);
    const x = new X509Certificate(read('good.crt'));
    assert.is(r.NotAfter, new Date(x.validTo).toISOString().slice(0, 19).replace('T', ' '));
    const { retvalue, ...fields } = r;
    assert.is(retvalue, 0);
    assert.equal(await d.call('SetCertificate'), { retvalue: 0, ...fields });
    assert.is(readFileSync(join(d.certDir, 'cert.pem'), 'utf8').trim(), String(read('good.crt')).trim());
    assert.ok(x.checkPrivateKey(createPrivateKey(readFileSync(join(d.certDir, 'key.pem')))), 'key.pem holds the installed key');
    assert.is(statSync(join(d.certDir, 'key.pem')).mode & 0o777, 0o600);
    const again = await reopen(d);
    try {
      assert.equal(await again.call('SetCertificate'), { retvalue: 0, ...fields });
      // Initialization removes it with its key: the terminal makes a certificate of its own again.
      assert.is((await again.call('InitMachine')).retvalue, 0);
      assert.is(again.sim.store.get().certificate, undefined);
    } finally {
      await again.close();
    }
  } finally {
    await d.close();
  }
});

t('a chain (leaf on P-384, then its CA) and an RSA 2048 key install', async () => {
  const d = await device();
  try {
    const chain = Buffer.concat([read('leaf.crt'), read('ca.crt')]);
    const r = await d.install(chain, read('leaf.key'));
    assert.is(r.retvalue, 0, JSON.stringify(r));
    assert.is(r.Subject, 'CN=terminal.example.org');
    assert.is(r.Issuer, 'CN=Example Test CA, O=Example Org');
    assert.is(r.SelfSigned, 0);
    assert.equal(r.SANs, ['DNS:terminal.example.org']);
    const served = readFileSync(join(d.certDir, 'cert.pem'), 'utf8');
    assert.is(served.match(/BEGIN CERTIFICATE/g)?.length, 2, 'the chain is kept');
    const rsa = await d.install(read('rsa2048.crt'), read('rsa2048.key'));
    assert.is(rsa.retvalue, 0, JSON.stringify(rsa));
    assert.is(rsa.Subject, 'CN=rsa.example.org, O=Example Org');
  } finally {
    await d.close();
  }
});

t('each refusal answers its code and field, and nothing changes', async () => {
  const d = await device();
  try {
    assert.is((await d.install(read('leaf.crt'), read('leaf.key'))).retvalue, 0);
    const before = await d.call('SetCertificate');
    const stored = structuredClone(d.sim.store.get().certificate);
    const servedBefore = readFileSync(join(d.certDir, 'cert.pem'), 'utf8');
    const cases: [string, Buffer | string | null, Buffer | string | null, number, string][] = [
      ['no key', read('good.crt'), null, 10003, 'Key'],
      ['no certificate', null, read('good.key'), 10003, 'Cert'],
      ['a certificate file over the limit', Buffer.alloc(CERT_MAX_BYTES + 1, 'A'), read('good.key'), 10101, 'Cert'],
      ['a DER certificate (not PEM)', read('good.der'), read('good.key'), 10102, 'Cert'],
      ['a text file as the certificate', 'hello, this is not a certificate\n', read('good.key'), 10102, 'Cert'],
      ['the key given as the certificate', read('good.key'), read('good.key'), 10102, 'Cert'],
      ['a PEM block that does not parse', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', read('good.key'), 10102, 'Cert'],
      ['a chain out of order (the CA first)', Buffer.concat([read('ca.crt'), read('leaf.crt')]), read('leaf.key'), 10102, 'Cert'],
      ['the certificate given as the key', read('good.crt'), read('good.crt'), 10102, 'Key'],
      ['an encrypted key', read('good.crt'), read('good-enc.key'), 10102, 'Key'],
      ['an RSA key of 1024 bits', read('rsa1024.crt'), read('rsa1024.key'), 10102, 'Key'],
      ['an Ed25519 key', read('ed.crt'), read('ed.key'), 10102, 'Key'],
      ['a key that belongs to another certificate', read('good.crt'), read('other.key'), CERT_KEY_MISMATCH, 'Key'],
      ['a chain whose leaf is not the key\'s', Buffer.concat([read('leaf.crt'), read('ca.crt')]), read('ca.key'), CERT_KEY_MISMATCH, 'Key'],
    ];
    for (const [what, cert, key, code, field] of cases) {
      const r = await d.install(cert, key);
      assert.is(r.retvalue, code, `${what}: ${JSON.stringify(r)}`);
      assert.is(r.field, field, what);
      assert.not.ok('Subject' in r, `${what}: no certificate fields with a refusal`);
    }
    // By the terminal's clock: a year on, the 30-day certificate has expired; a day back, it is not valid yet.
    for (const [what, at] of [['expired', Date.now() + 365 * DAY], ['not valid yet', Date.now() - DAY]] as const) {
      clock = at;
      await d.login();
      const r = await d.install(read('good.crt'), read('good.key'));
      assert.is(r.retvalue, CERT_EXPIRED, `${what}: ${JSON.stringify(r)}`);
      assert.is(r.field, 'Cert', what);
      assert.is(r.msg, 'msg.certExpired');
    }
    // Ten days on, the leaf (20 days) is valid but its CA (5 days) is not: every certificate of the file counts.
    clock = Date.now() + 10 * DAY;
    await d.login();
    assert.is((await d.install(Buffer.concat([read('leaf2.crt'), read('shortca.crt')]), read('leaf.key'))).retvalue, CERT_EXPIRED, 'a chain with an expired CA');
    clock = Date.now();
    await d.login();
    assert.equal(await d.call('SetCertificate'), before, 'the old certificate is still answered');
    assert.equal(d.sim.store.get().certificate, stored, 'the store is unchanged');
    assert.is(readFileSync(join(d.certDir, 'cert.pem'), 'utf8'), servedBefore, 'the served file is unchanged');
    // It was the CA: the same leaf alone installs on that day.
    clock = Date.now() + 10 * DAY;
    await d.login();
    assert.is((await d.install(read('leaf2.crt'), read('leaf.key'))).retvalue, 0, 'the leaf alone is valid then');
  } finally {
    await d.close();
  }
});

t('no reply ever carries a private key', async () => {
  const d = await device();
  try {
    await d.call('SetCertificate');
    await d.install(read('good.crt'), read('good.key'));
    await d.install(read('good.crt'), read('other.key'));
    await d.install(Buffer.concat([read('leaf.crt'), read('ca.crt')]), read('leaf.key'));
    await d.call('SetCertificate');
    // The first-boot key too (it is in the store: the contract names it).
    const all = d.replies.join('\n');
    assert.ok(d.replies.length >= 5);
    for (const k of [...KEYS, ...KEYS8]) assert.not.ok(all.includes(k.slice(0, 40)), 'a key in a reply');
    assert.not.match(all, /PRIVATE KEY|"Key":/);
  } finally {
    await d.close();
  }
});

t.run();
