// What the signed-firmware tests share (tests/contract/firmware.test.ts, tests/tools/firmware.test.ts,
// tests/simulator/update-signature.test.ts, tests/simulator/maintenance.test.ts): packages signed
// with the test key or another, keys in a profile's form, the default profile's factory version.
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePackage } from '../../contract/firmware.ts';
import { TEST_VENDOR_KEY } from './keys/vendor.ts';

/** A new empty folder under the system's temporary folder. */
export const tmp = () => mkdtempSync(join(tmpdir(), 'fw-'));
/** The firmware the default profile's terminal runs when new. */
export const FACTORY_VERSION = 'V2.6.18.2026.11';
/** A key no profile holds, made for this run. */
export const OTHER_KEY = generateKeyPairSync('ed25519').privateKey;

/** A public key in a device model's form (its firmwareKeys), worked out here from the SPKI DER (its last 32 bytes), not with contract/firmware.ts. */
export const modelKey = (k: KeyObject) => ((k.type === 'public' ? k : createPublicKey(k)).export({ format: 'der', type: 'spki' }) as Buffer).subarray(-32).toString('base64');
export const TEST_PUBLIC = modelKey(TEST_VENDOR_KEY);
export const OTHER_PUBLIC = modelKey(OTHER_KEY);

export const payload = Buffer.from('firmware image '.repeat(200));
export const signed = (version = 'V2.6.19', key: KeyObject = TEST_VENDOR_KEY, model = 'T10') => makePackage({ model, version, payload, key });
export const unsigned = (version = 'V2.6.19', model = 'T10') => makePackage({ model, version, payload });
/** A copy of `b` with `f` applied. */
export const changed = (b: Buffer, f: (c: Buffer) => void) => {
  const c = Buffer.from(b);
  f(c);
  return c;
};
export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();
