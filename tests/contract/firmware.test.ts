// Signed firmware (issue 23 §4; docs/API.md, "Firmware package"): the
// signature block's format, checked against OpenSSL and Node's own Ed25519
// rather than only against contract/firmware.ts; every way a signature fails; the
// program that signs and makes keys (tools/firmware.ts, run as npm runs it); and the simulated
// terminal refusing each failure with its code, changing nothing, also
// through the forced upgrade, holding its brand's keys, and installing a
// good package.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSignature, keyIdOf, makePackage, publicKeyFrom, rawPublicKey, readPackage, readSigningKey, signPackage } from '../../contract/firmware.ts';
import { startSimulator, type SimulatorOptions } from '../../simulator/server.ts';
import { loadModel, type ModelOverrides } from '../../simulator/model.ts';
import { PACKAGE, SIGNATURE } from '../../contract/maintenance.ts';
import type { CallName } from '../../contract/index.ts';
import { FW_BAD_SIGNATURE, FW_CHECKSUM, FW_NOT_NEWER, FW_UNKNOWN_KEY, FW_UNSIGNED } from '../../contract/codes.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { TEST_VENDOR_KEY, TEST_VENDOR_KEY_FILE } from '../support/keys/vendor.ts';

type Rec = Record<string, unknown>;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = () => mkdtempSync(join(tmpdir(), 'fw-'));
const FACTORY_VERSION = 'V2.6.18.2026.11';
const OTHER_KEY = generateKeyPairSync('ed25519').privateKey;

/** A public key in a profile's form, worked out here from the SPKI DER (its last 32 bytes), not with contract/firmware.ts. */
const profileKey = (k: KeyObject) => ((k.type === 'public' ? k : createPublicKey(k)).export({ format: 'der', type: 'spki' }) as Buffer).subarray(-32).toString('base64');
const TEST_PUBLIC = profileKey(TEST_VENDOR_KEY);
const OTHER_PUBLIC = profileKey(OTHER_KEY);

const payload = Buffer.from('firmware image '.repeat(200));
const signed = (version = 'V2.6.19', key: KeyObject = TEST_VENDOR_KEY, model = 'T10') => makePackage({ model, version, payload, key });
const unsigned = (version = 'V2.6.19', model = 'T10') => makePackage({ model, version, payload });
/** A copy of `b` with `f` applied. */
const changed = (b: Buffer, f: (c: Buffer) => void) => {
  const c = Buffer.from(b);
  f(c);
  return c;
};
const blockOf = (p: Buffer) => p.subarray(p.length - SIGNATURE.bytes);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

// ---------------------------------------------------------------------------
const fmt = suite('the signature block');

fmt('a signed package: the unsigned bytes, then TASG, Ed25519, the key id and a signature OpenSSL verifies', () => {
  const p = signed();
  const body = unsigned();
  assert.is(p.length, PACKAGE.header + payload.length + SIGNATURE.bytes);
  assert.ok(p.subarray(0, body.length).equals(body), 'the header and payload are those of the unsigned package');
  const block = blockOf(p);
  assert.is(block.toString('latin1', 0, 4), 'TASG');
  assert.equal([...block.subarray(4, 8)], [1, 0, 0, 0], 'algorithm 1 (Ed25519), then zero');
  assert.equal(block.subarray(8, 16), sha256(Buffer.from(TEST_PUBLIC, 'base64')).subarray(0, 8), 'key id: SHA-256 of the raw public key, 8 bytes');
  assert.ok(verify(null, body, createPublicKey(TEST_VENDOR_KEY), block.subarray(16, 80)), 'Node verifies it over every byte before the block');
  // The OpenSSL command line verifies the same signature: plain Ed25519, nothing of this project's own.
  const d = tmp();
  writeFileSync(join(d, 'signed.bin'), body);
  writeFileSync(join(d, 'sig'), block.subarray(16, 80));
  writeFileSync(join(d, 'pub.pem'), createPublicKey(TEST_VENDOR_KEY).export({ format: 'pem', type: 'spki' }));
  const out = execFileSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', join(d, 'pub.pem'), '-rawin', '-in', join(d, 'signed.bin'), '-sigfile', join(d, 'sig')]).toString();
  assert.match(out, /Signature Verified Successfully/);
  const r = readPackage(p)!;
  assert.equal({ model: r.model, version: r.version, intact: r.intact, algorithm: r.signature?.algorithm }, { model: 'T10', version: 'V2.6.19', intact: true, algorithm: 1 });
  assert.is(checkSignature(r, [TEST_PUBLIC]), 'good');
});

fmt('an old unsigned package, written byte by byte, is a package without a signature: unsigned, not garbage', () => {
  const old = Buffer.alloc(PACKAGE.header + 4);
  old.write('TAFW', 0, 'latin1');
  old[4] = 1;
  old.write('T10', 8, 'latin1');
  old.write('V2.6.17', 40, 'latin1');
  old.writeUInt32LE(4, 72);
  sha256(Buffer.from('abcd')).copy(old, 76);
  old.write('abcd', PACKAGE.header, 'latin1');
  const r = readPackage(old);
  assert.ok(r, 'read as a package');
  assert.is(r!.signature, null);
  assert.ok(r!.intact);
  assert.is(checkSignature(r!, [TEST_PUBLIC]), 'unsigned');
  assert.ok(old.equals(makePackage({ model: 'T10', version: 'V2.6.17', payload: Buffer.from('abcd') })), 'makePackage without a key writes the same bytes');
});

fmt('a header byte, a payload byte or a signature byte changed after signing: bad', () => {
  const p = signed('V2.6.19');
  // The version field V2.6.19 -> V2.6.99: still a valid header with an intact payload.
  const header = changed(p, (c) => (c[PACKAGE.firmware[0] + 5] = 0x39));
  assert.is(readPackage(header)!.version, 'V2.6.99');
  assert.ok(readPackage(header)!.intact);
  assert.is(checkSignature(readPackage(header)!, [TEST_PUBLIC]), 'bad', 'header');
  // A payload byte, with the header's SHA-256 made to match: only the signature sees it.
  const body = changed(p, (c) => {
    c[PACKAGE.header + 7] ^= 1;
    sha256(c.subarray(PACKAGE.header, PACKAGE.header + payload.length)).copy(c, PACKAGE.sha256);
  });
  assert.ok(readPackage(body)!.intact);
  assert.is(checkSignature(readPackage(body)!, [TEST_PUBLIC]), 'bad', 'payload');
  assert.is(checkSignature(readPackage(changed(p, (c) => (c[c.length - 1] ^= 0x80)))!, [TEST_PUBLIC]), 'bad', 'signature');
  assert.is(checkSignature(readPackage(changed(p, (c) => (c[PACKAGE.header] ^= 1)))!, [TEST_PUBLIC]), 'bad', 'a payload byte without the SHA-256 (the device answers 10103 first)');
  assert.not.ok(readPackage(changed(p, (c) => (c[PACKAGE.header] ^= 1)))!.intact);
});

fmt('the wrong key under a held key\'s id: bad; a key the device does not hold: unknown; several keys: either', () => {
  const other = signed('V2.6.19', OTHER_KEY);
  assert.is(checkSignature(readPackage(other)!, [TEST_PUBLIC]), 'unknown-key');
  assert.is(checkSignature(readPackage(other)!, [TEST_PUBLIC, OTHER_PUBLIC]), 'good', 'a second key (rotation)');
  assert.is(checkSignature(readPackage(signed())!, [OTHER_PUBLIC, TEST_PUBLIC]), 'good');
  assert.is(checkSignature(readPackage(signed())!, []), 'unknown-key', 'a device that holds no key takes nothing');
  // Signed by another key, but naming the test key: the named key does not verify it.
  const forged = changed(other, (c) => keyIdOf(Buffer.from(TEST_PUBLIC, 'base64')).copy(c, c.length - SIGNATURE.bytes + 8));
  assert.is(checkSignature(readPackage(forged)!, [TEST_PUBLIC]), 'bad');
  // Another algorithm: refused before the key is looked up.
  const alg = changed(signed(), (c) => (c[c.length - SIGNATURE.bytes + 4] = 2));
  assert.is(checkSignature(readPackage(alg)!, [TEST_PUBLIC]), 'not-ed25519');
});

fmt('bytes after the payload that are not a signature block: not a package', () => {
  const p = signed();
  const at = p.length - SIGNATURE.bytes;
  assert.is(readPackage(changed(p, (c) => c.write('TASX', at, 'latin1'))), null, 'block magic');
  assert.is(readPackage(changed(p, (c) => (c[at + 6] = 1))), null, 'reserved byte');
  assert.is(readPackage(p.subarray(0, p.length - 1)), null, 'a block cut short');
  assert.is(readPackage(Buffer.concat([p, blockOf(p)])), null, 'two blocks');
  assert.is(readPackage(Buffer.concat([unsigned(), Buffer.alloc(SIGNATURE.bytes)])), null, 'zeros where the block goes');
  assert.throws(() => signPackage(p, TEST_VENDOR_KEY), /signed already/);
  assert.throws(() => signPackage(Buffer.from('not firmware'), TEST_VENDOR_KEY), /not a firmware package/);
});

fmt('keys: the profile\'s form is base64 of 32 raw bytes; the signing key must be an Ed25519 private key', () => {
  assert.is(rawPublicKey(TEST_VENDOR_KEY).toString('base64'), TEST_PUBLIC);
  assert.is(profileKey(publicKeyFrom(TEST_PUBLIC)), TEST_PUBLIC);
  assert.throws(() => publicKeyFrom(Buffer.alloc(31).toString('base64')), /32 bytes/);
  assert.throws(() => publicKeyFrom(`${TEST_PUBLIC}\n`), /32 bytes/);
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' });
  assert.throws(() => readSigningKey(ec), /must be Ed25519/);
  assert.throws(() => readSigningKey('no key here'), /not a private key/);
  // The test key file says what it is before its PEM block.
  assert.match(readFileSync(TEST_VENDOR_KEY_FILE, 'utf8'), /^TEST KEY\. Never sign firmware for a real terminal with it/);
  assert.ok(loadModel('default').firmwareKeys.default.includes(TEST_PUBLIC), 'the default profile holds the test key');
  assert.throws(() => loadModel('default', { firmwareKeys: { default: ['abc'] } }), /32 bytes/);
  assert.throws(() => loadModel('default', { firmwareKeys: { ia: [TEST_PUBLIC] } }), /default/);
});

fmt('OpenSSL makes a key the tool signs with; the documented command prints its public key in the profile\'s form', () => {
  const d = tmp();
  const pem = join(d, 'vendor.pem');
  execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', pem]);
  const printed = execFileSync('bash', ['-c', 'openssl pkey -in "$1" -pubout -outform DER | tail -c 32 | base64', 'sh', pem]).toString().trim();
  const key = readSigningKey(readFileSync(pem));
  assert.is(rawPublicKey(key).toString('base64'), printed);
  assert.is(checkSignature(readPackage(signed('V3', key))!, [printed]), 'good');
});
fmt.run();

// ---------------------------------------------------------------------------
const cli = suite('npm run firmware');

/** The program as npm runs it: node with tsx, from the project folder, INIT_CWD where npm was started. */
function firmware(args: string[], cwd: string): { out: string; err: string; code: number } {
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools/firmware.ts'), ...args], { cwd: ROOT, env: { ...process.env, INIT_CWD: cwd }, stdio: 'pipe' }).toString();
    return { out, err: '', code: 0 };
  } catch (e) {
    const x = e as { stdout: Buffer; stderr: Buffer; status: number };
    return { out: x.stdout.toString(), err: x.stderr.toString(), code: x.status };
  }
}

cli('--new-key writes a private key (0600, never over another) and prints the public key; --key signs with it; no --key: unsigned', () => {
  const d = tmp();
  const made = firmware(['--new-key', 'vendor.pem'], d);
  assert.is(made.code, 0, made.err);
  const pem = join(d, 'vendor.pem');
  assert.is(statSync(pem).mode & 0o777, 0o600);
  const key = readSigningKey(readFileSync(pem));
  const printed = JSON.parse(made.out.trim().split('\n').at(-1)!) as string;
  assert.is(printed, profileKey(key), 'the printed key is the file\'s public key, in the profile\'s form');
  assert.match(made.out, new RegExp(`key id ${keyIdOf(Buffer.from(printed, 'base64')).toString('hex')}`));
  const first = readFileSync(pem);
  const again = firmware(['--new-key', 'vendor.pem'], d);
  assert.is(again.code, 2);
  assert.match(again.err, /exists/);
  assert.ok(readFileSync(pem).equals(first), 'the key is as it was');

  const s = firmware(['--model', 'T10', '--version', 'V2.6.19', '--out', 'fw.bin', '--key', 'vendor.pem', '--size', '1000'], d);
  assert.is(s.code, 0, s.err);
  assert.match(s.out, /signed, key id [0-9a-f]{16}/);
  const p = readPackage(readFileSync(join(d, 'fw.bin')))!;
  assert.equal([p.model, p.version, p.payload.length, p.intact], ['T10', 'V2.6.19', 1000, true]);
  assert.is(checkSignature(p, [printed]), 'good');
  assert.is(checkSignature(p, [TEST_PUBLIC]), 'unknown-key');

  const u = firmware(['--model', 'T10', '--version', 'V2.6.19', '--out', 'plain.bin', '--size', '10'], d);
  assert.is(u.code, 0, u.err);
  assert.match(u.out, /unsigned \(no --key: a terminal refuses it, 10105\)/);
  assert.is(readPackage(readFileSync(join(d, 'plain.bin')))!.signature, null);

  const c = firmware(['--model', 'T10', '--version', 'V2.6.19', '--out', 'bad.bin', '--key', TEST_VENDOR_KEY_FILE, '--size', '10', '--corrupt'], d);
  assert.is(c.code, 0, c.err);
  const broken = readPackage(readFileSync(join(d, 'bad.bin')))!;
  assert.not.ok(broken.intact, '--corrupt: a payload byte (the device answers 10103)');
  assert.ok(broken.signature, 'still signed');

  const ec = join(d, 'ec.pem');
  writeFileSync(ec, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const wrong = firmware(['--model', 'T10', '--version', 'V2', '--out', 'x.bin', '--key', 'ec.pem'], d);
  assert.is(wrong.code, 2);
  assert.match(wrong.err, /must be Ed25519/);
  const help = firmware(['--help'], d);
  assert.is(help.code, 0);
  assert.match(help.out, /Without --key the package is unsigned, and a terminal refuses it \(10105\)/);
  const unknown = firmware(['--model', 'T10', '--modle', 'T10'], d);
  assert.is(unknown.code, 2);
  assert.match(unknown.err, /^unknown option --modle \(use --model, --version, --out, --size, --zero, --corrupt, --key, --new-key, --help\)\n$/);
});
cli.run();

// ---------------------------------------------------------------------------
const sim = suite('UpdateMachine: the signature');

interface Device {
  url: string;
  storeFile: string;
  token: string;
  call(name: CallName, params?: Rec): Promise<Rec>;
  upgrade(data: Uint8Array): Promise<Rec>;
  info(): Promise<Rec>;
  up(): Promise<void>;
  restarting(): boolean;
  close(): Promise<void>;
}

async function device(overrides: ModelOverrides = {}, options: Partial<SimulatorOptions> = {}): Promise<Device> {
  const storeFile = join(tmp(), 'store.json');
  const s = await startSimulator({ activated: TEST_ADMIN.password, storeFile, model: loadModel('default', { seedUsers: 2, seedRecords: 0, restartMs: 100, ...overrides }), ...options });
  const login = async () => (await callSimulator(s.url, 'chklogin', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).token as string;
  const d: Device = {
    url: s.url,
    storeFile,
    token: await login(),
    call: (name, params = {}) => callSimulator(s.url, name, params, d.token) as Promise<Rec>,
    async upgrade(data) {
      const form = new FormData();
      form.append('File', new Blob([new Uint8Array(data)], { type: 'application/octet-stream' }), 'fw.bin');
      return (await (await fetch(`${s.url}/goform/UpdateMachine?_t=1`, { method: 'POST', headers: { 'X-Token': d.token }, body: form })).json()) as Rec;
    },
    info: () => d.call('SetInfoParam'),
    async up() {
      await s.whenUp();
      d.token = await login();
    },
    restarting: () => s.restarting !== null,
    close: () => s.close(),
  };
  return d;
}

const refused = (code: number, msg: string) => ({ retvalue: code, msg, field: 'File' });
const UNSIGNED = refused(FW_UNSIGNED, 'msg.fwUnsigned');
const BAD = refused(FW_BAD_SIGNATURE, 'msg.fwBadSignature');
const UNKNOWN = refused(FW_UNKNOWN_KEY, 'msg.fwUnknownKey');

sim('each failed signature is refused with its code, in the contract\'s order, and changes nothing', async () => {
  const d = await device();
  try {
    const before = readFileSync(d.storeFile, 'utf8');
    const good = signed('V2.6.19');
    assert.equal(await d.upgrade(unsigned('V2.6.19')), UNSIGNED, 'unsigned');
    assert.equal(await d.upgrade(changed(good, (c) => (c[PACKAGE.firmware[0] + 5] = 0x39))), BAD, 'a header byte changed after signing');
    const payloadChanged = changed(good, (c) => {
      c[PACKAGE.header + 3] ^= 1;
      sha256(c.subarray(PACKAGE.header, PACKAGE.header + payload.length)).copy(c, PACKAGE.sha256);
    });
    assert.equal(await d.upgrade(payloadChanged), BAD, 'a payload byte changed after signing, the SHA-256 made to match');
    assert.equal(await d.upgrade(changed(good, (c) => (c[c.length - SIGNATURE.bytes + 4] = 2))), BAD, 'not Ed25519');
    assert.equal(await d.upgrade(signed('V2.6.19', OTHER_KEY)), UNKNOWN, 'a key the terminal does not hold');
    // The order: model and checksum before the signature, the signature before the version.
    assert.equal(await d.upgrade(unsigned('V2.6.19', 'T2')), refused(10102, 'err.10102'), 'another model, unsigned');
    assert.equal(await d.upgrade(changed(unsigned('V2.6.19'), (c) => (c[PACKAGE.header] ^= 1))), refused(FW_CHECKSUM, 'msg.fwChecksum'), 'checksum before the signature');
    assert.equal(await d.upgrade(unsigned(FACTORY_VERSION)), UNSIGNED, 'unsigned before not newer');
    assert.equal(await d.upgrade(signed('V1.0', OTHER_KEY)), UNKNOWN, 'unknown key before not newer');
    assert.equal(await d.upgrade(changed(signed('V1.0'), (c) => (c[c.length - 1] ^= 1))), BAD, 'bad signature before not newer');
    assert.equal(await d.upgrade(changed(signed('V1.0', OTHER_KEY), (c) => (c[c.length - 1] ^= 1))), UNKNOWN, 'the key is looked up before the signature is checked');
    assert.equal(await d.upgrade(signed(FACTORY_VERSION)), refused(FW_NOT_NEWER, 'msg.fwNotNewer'), 'a good signature, not newer');
    assert.is(readFileSync(d.storeFile, 'utf8'), before, 'the store is as it was');
    assert.not.ok(d.restarting(), 'no restart');
    assert.is((await d.info()).Build_Version, FACTORY_VERSION);
    // A good package installs.
    assert.equal(await d.upgrade(good), { retvalue: 0, Version: 'V2.6.19' });
    assert.ok(d.restarting());
    await d.up();
    assert.is((await d.info()).Build_Version, 'V2.6.19');
  } finally {
    await d.close();
  }
});

sim('the forced upgrade (/up) skips "not newer" only, never the signature', async () => {
  const d = await device();
  try {
    assert.equal(await d.call('SetWebUpgradeMode', { Password: '888888' }), { retvalue: 0 });
    const before = readFileSync(d.storeFile, 'utf8');
    assert.equal(await d.upgrade(unsigned('V2.0')), UNSIGNED);
    assert.equal(await d.upgrade(signed('V2.0', OTHER_KEY)), UNKNOWN);
    assert.equal(await d.upgrade(changed(signed('V2.0'), (c) => (c[c.length - 1] ^= 1))), BAD);
    assert.equal(await d.upgrade(unsigned(FACTORY_VERSION)), UNSIGNED, 'not even the running version again');
    assert.is(readFileSync(d.storeFile, 'utf8'), before);
    assert.not.ok(d.restarting());
    // Still open after those refusals: a signed older package installs.
    assert.equal(await d.upgrade(signed('V2.0')), { retvalue: 0, Version: 'V2.0' });
    await d.up();
    assert.is((await d.info()).Build_Version, 'V2.0');
  } finally {
    await d.close();
  }
});

sim('the terminal holds its brand\'s keys: from SimulatorOptions.brand, else the site\'s manifest, else the default list', async () => {
  const firmwareKeys = { default: [TEST_PUBLIC], nice: [OTHER_PUBLIC] };
  const site = join(tmp(), 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'manifest.json'), JSON.stringify({ brand: 'nice', files: [] }));
  const cases: [string, Partial<SimulatorOptions>, KeyObject, KeyObject][] = [
    ['options.brand nice', { brand: 'nice' }, OTHER_KEY, TEST_VENDOR_KEY],
    ['the manifest\'s brand nice', { siteDir: site }, OTHER_KEY, TEST_VENDOR_KEY],
    ['options.brand over the manifest', { siteDir: site, brand: 'ia' }, TEST_VENDOR_KEY, OTHER_KEY],
    ['a brand with no list of its own: default', { brand: 'anviz' }, TEST_VENDOR_KEY, OTHER_KEY],
    ['no brand: default', {}, TEST_VENDOR_KEY, OTHER_KEY],
    ['a name that is no brand but an Object property: default', { brand: 'constructor' }, TEST_VENDOR_KEY, OTHER_KEY],
  ];
  for (const [what, options, held, foreign] of cases) {
    const d = await device({ firmwareKeys }, options);
    try {
      assert.equal(await d.upgrade(signed('V2.7', foreign)), UNKNOWN, `${what}: the other brand's key`);
      assert.equal(await d.upgrade(signed('V2.7', held)), { retvalue: 0, Version: 'V2.7' }, `${what}: its own key`);
      await d.up();
    } finally {
      await d.close();
    }
  }
});

sim('key rotation: a brand holding the old and the new key takes both; once the old is dropped, only the new', async () => {
  const NEW = generateKeyPairSync('ed25519').privateKey;
  const both = await device({ firmwareKeys: { default: [TEST_PUBLIC, profileKey(NEW)] } });
  try {
    assert.equal(await both.upgrade(signed('V2.7', TEST_VENDOR_KEY)), { retvalue: 0, Version: 'V2.7' }, 'the old key');
    await both.up();
    assert.equal(await both.upgrade(signed('V2.8', NEW)), { retvalue: 0, Version: 'V2.8' }, 'the new key');
    await both.up();
  } finally {
    await both.close();
  }
  const dropped = await device({ firmwareKeys: { default: [profileKey(NEW)] } });
  try {
    assert.equal(await dropped.upgrade(signed('V2.7', TEST_VENDOR_KEY)), UNKNOWN, 'the old key, withdrawn');
    assert.equal(await dropped.upgrade(signed('V2.7', NEW)), { retvalue: 0, Version: 'V2.7' });
    await dropped.up();
  } finally {
    await dropped.close();
  }
});
sim.run();
