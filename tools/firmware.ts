// `npm run firmware`: a firmware package file for UpdateMachine, or a new
// vendor key (the package format and its checks are contract/firmware.ts):
//
//   npm run firmware -- --model T10 --version V2.6.19 --out fw.bin --key vendor.pem [--size 2000000] [--zero] [--corrupt]
//   npm run firmware -- --new-key vendor.pem
//
// --key: the vendor's Ed25519 private key (PKCS#8 PEM) that signs the
// package; without it the package is unsigned and a terminal refuses it
// (10105). --size: payload bytes (default 1 MiB), random unless --zero;
// --corrupt changes one payload byte after the SHA-256 and the signature are
// taken (the device answers 10103). --model is SetInfoParam's Model (the
// simulator's device model's modelCode). --new-key writes a new private key
// and prints its public key in the form a model's firmwareKeys takes.
// tests/support/keys/vendor-test.pem is the tests' key, which the simulator's
// default model holds: a test key, never one to ship.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readArgs } from '../build/args.ts';
import { keyIdOf, makePackage, newKeyPair, rawPublicKey, readSigningKey } from '../contract/firmware.ts';
import { FIRMWARE_MAX_BYTES, PACKAGE } from '../contract/maintenance.ts';

const USAGE = [
  'usage: npm run firmware -- --model T10 --version V2.6.19 --out fw.bin --key vendor.pem [--size BYTES] [--zero] [--corrupt]',
  '       npm run firmware -- --new-key vendor.pem',
  'Without --key the package is unsigned, and a terminal refuses it (10105).',
  'The simulator\'s default profile holds the test key tests/support/keys/vendor-test.pem (for tests only).',
].join('\n');

const OPTIONS = {
  model: { type: 'string' },
  version: { type: 'string' },
  out: { type: 'string' },
  size: { type: 'string' },
  zero: { type: 'boolean' },
  corrupt: { type: 'boolean' },
  key: { type: 'string' },
  'new-key': { type: 'string' },
} as const;

/** A path as given on npm's command line: relative to where npm was started (npm runs scripts from the project folder). */
const given = (path: string) => resolve(process.env.INIT_CWD ?? '.', path);

/** --new-key: a new private key file (never over an existing one), and the public key to put in a profile. */
function writeNewKey(path: string): void {
  const out = given(path);
  if (existsSync(out)) throw new Error(`${out} exists: a key is not overwritten`);
  const pair = newKeyPair();
  writeFileSync(out, pair.privatePem, { mode: 0o600, flag: 'wx' });
  console.log(`wrote ${out}: a new Ed25519 private key (PKCS#8 PEM); keep it secret, it signs firmware`);
  console.log(`key id ${pair.keyId}; the public key, for a profile's firmwareKeys (simulator/models/*.json):`);
  console.log(JSON.stringify(pair.publicKey));
}

function main(argv: string[]): void {
  const { values: a } = readArgs(argv, OPTIONS, USAGE);
  const text = (k: 'model' | 'version' | 'out') => {
    const v = a[k];
    if (v === undefined) throw new Error(`--${k} is needed\n${USAGE}`);
    return v;
  };
  if (a['new-key'] !== undefined) {
    if (Object.keys(a).length > 1) throw new Error(`--new-key takes no other option\n${USAGE}`);
    return writeNewKey(a['new-key']);
  }
  const size = a.size !== undefined ? Number(a.size) : 1 << 20;
  // Larger than the device takes is allowed: a file to test 10101 with.
  if (!Number.isSafeInteger(size) || size < 0 || size > 1 << 30) throw new Error(`--size takes a number of bytes (0 to ${1 << 30})`);
  const key = a.key !== undefined ? readSigningKey(readFileSync(given(a.key))) : undefined;
  const payload = a.zero ? Buffer.alloc(size) : randomBytes(size);
  const pkg = makePackage({ model: text('model'), version: text('version'), payload, key });
  if (a.corrupt) {
    // One payload byte changed after the hash and the signature were taken; with no payload, the hash itself.
    pkg[size ? PACKAGE.header + size - 1 : PACKAGE.sha256] ^= 0xff;
  }
  const out = given(text('out'));
  writeFileSync(out, pkg);
  const notes = [
    key ? `signed, key id ${keyIdOf(rawPublicKey(key)).toString('hex')}` : 'unsigned (no --key: a terminal refuses it, 10105)',
    ...(a.corrupt ? ['corrupted'] : []),
    ...(pkg.length > FIRMWARE_MAX_BYTES ? [`over the ${FIRMWARE_MAX_BYTES}-byte limit: the device answers 10101`] : []),
  ];
  console.log(`wrote ${out}: ${pkg.length} bytes, model ${text('model')}, version ${text('version')}, ${notes.join(', ')}`);
}

try {
  main(process.argv.slice(2));
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 2;
}
