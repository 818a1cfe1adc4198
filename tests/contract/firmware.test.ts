// contract/firmware.ts, the signed firmware package (docs/API.md, "Firmware package"): the
// layout and versions, and the signature block, checked against OpenSSL and Node's own Ed25519
// rather than only against contract/firmware.ts, with every way a signature fails.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSignature, compareVersions, isNewer, keyIdOf, makePackage, publicKeyFrom, rawPublicKey, readPackage, readSigningKey, signPackage } from '../../contract/firmware.ts';
import { loadModel } from '../../simulator/model.ts';
import { PACKAGE, SIGNATURE } from '../../contract/maintenance.ts';
import { TEST_VENDOR_KEY, TEST_VENDOR_KEY_FILE } from '../support/keys/vendor.ts';
import { changed, FACTORY_VERSION, OTHER_KEY, OTHER_PUBLIC, payload, modelKey, sha256, signed, TEST_PUBLIC, tmp, unsigned } from '../support/firmware.ts';

const blockOf = (p: Buffer) => p.subarray(p.length - SIGNATURE.bytes);

// ---------------------------------------------------------------------------
const fw = suite('firmware packages');

fw('makePackage writes the contract layout; readPackage reads it back', () => {
  const payload = Buffer.from([1, 2, 3, 4, 5]);
  const p = makePackage({ model: 'T10', version: 'V2.6.19', payload });
  assert.is(p.length, PACKAGE.header + 5);
  assert.is(p.toString('latin1', 0, 4), 'TAFW');
  assert.is(p[4], 1);
  assert.is(p.toString('latin1', PACKAGE.model[0], PACKAGE.model[0] + 4), 'T10\0');
  assert.is(p.toString('latin1', PACKAGE.firmware[0], PACKAGE.firmware[0] + 8), 'V2.6.19\0');
  assert.is(p.readUInt32LE(PACKAGE.length), 5);
  const r = readPackage(p)!;
  assert.equal({ model: r.model, version: r.version, payload: [...r.payload], intact: r.intact }, { model: 'T10', version: 'V2.6.19', payload: [1, 2, 3, 4, 5], intact: true });
});

fw('readPackage: not a package -> null; a changed payload is not intact', () => {
  const good = signed('V2.7');
  const changed = (f: (b: Buffer) => void) => {
    const b = Buffer.from(good);
    f(b);
    return b;
  };
  assert.is(readPackage(good.subarray(0, 100)), null, 'shorter than the header');
  assert.is(readPackage(changed((b) => b.write('TAFX', 0))), null, 'magic');
  assert.is(readPackage(changed((b) => (b[4] = 2))), null, 'format version');
  assert.is(readPackage(changed((b) => (b[6] = 1))), null, 'reserved bytes');
  assert.is(readPackage(changed((b) => b.writeUInt32LE(b.readUInt32LE(PACKAGE.length) + 1, PACKAGE.length))), null, 'length');
  assert.is(readPackage(Buffer.concat([good, Buffer.from([0])])), null, 'a byte more');
  assert.is(readPackage(changed((b) => (b[PACKAGE.model[0] + 10] = 0x41))), null, 'text after the NUL');
  assert.is(readPackage(changed((b) => b.write('\0\0\0', PACKAGE.model[0]))), null, 'empty model');
  assert.is(readPackage(changed((b) => b.write('beta', PACKAGE.firmware[0]))), null, 'a version that is not one');
  assert.is(readPackage(changed((b) => (b[PACKAGE.header] ^= 1)))!.intact, false);
});

fw('makePackage refuses what the header cannot carry', () => {
  assert.throws(() => makePackage({ model: 'x'.repeat(33), version: 'V1', payload: Buffer.alloc(0) }));
  assert.throws(() => makePackage({ model: 'Ü', version: 'V1', payload: Buffer.alloc(0) }));
  assert.throws(() => makePackage({ model: 'T10', version: '2.6-beta', payload: Buffer.alloc(0) }));
});

fw('versions compare by their numbers, left to right; the letter does not count', () => {
  assert.ok(isNewer('V2.6.19', FACTORY_VERSION));
  assert.ok(isNewer('V2.10', 'V2.9.99'), 'as numbers, not text');
  assert.ok(isNewer('V2.6.0.1', 'V2.6'));
  assert.is(compareVersions('V2.6', 'V2.6.0'), 0, 'a missing number is 0');
  assert.is(compareVersions('v2.6.18', 'V2.6.18'), 0, 'the letter does not count');
  assert.is(compareVersions('2.6.18', 'V002.06.18'), 0, 'leading zeros do not count');
  assert.ok(compareVersions('V2.6.17.9999', FACTORY_VERSION) < 0);
  assert.ok(isNewer('V99999999999999999999.1', 'V99999999999999999999.0'), 'numbers of any size');
  assert.not.ok(isNewer(FACTORY_VERSION, FACTORY_VERSION));
});
fw.run();

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
  assert.is(modelKey(publicKeyFrom(TEST_PUBLIC)), TEST_PUBLIC);
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
