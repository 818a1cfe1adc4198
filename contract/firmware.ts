// Firmware packages for UpdateMachine (contract/maintenance.ts, PACKAGE and
// SIGNATURE; docs/API.md, "Firmware package"): build and sign one, read and
// check one, compare versions, and make the vendor's Ed25519 key pair. The
// simulated terminal checks uploads with readPackage() and checkSignature();
// tests and the browser suites build packages with makePackage(); `npm run
// firmware` (tools/firmware.ts) writes a package file, or a new key.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { PACKAGE, SIGNATURE } from './maintenance.ts';

export interface PackageFields {
  /** The model the package is for: SetInfoParam's Model (printable ASCII, 1 to 32 characters). */
  model: string;
  /** The firmware version it installs: VERSION_PATTERN, at most 32 characters. */
  version: string;
  payload: Uint8Array;
  /** The vendor's Ed25519 private key: the package is signed with it. Without it the package is unsigned (a terminal refuses it). */
  key?: KeyObject;
}

/** A package's signature block (SIGNATURE). */
export interface Signature {
  /** 1: Ed25519; a device refuses any other (10106). */
  algorithm: number;
  /** The first 8 bytes of SHA-256 of the signing key's raw public key. */
  keyId: Buffer;
  value: Buffer;
}

export interface FirmwarePackage {
  model: string;
  version: string;
  payload: Buffer;
  /** The SHA-256 the header gives. */
  sha256: Buffer;
  /** Whether the payload's SHA-256 is the header's. */
  intact: boolean;
  /** The signature block; null for an unsigned package. */
  signature: Signature | null;
  /** The bytes the signature covers: every byte before the block (header and payload). */
  signed: Buffer;
}

/**
 * A firmware version: an optional letter, then decimal numbers separated by
 * dots ("V2.6.18.2026.11", "2.7"). The letter is not part of the order.
 */
export const VERSION_PATTERN = /^[A-Za-z]?[0-9]+(\.[0-9]+)*$/;
/** A model code: printable ASCII (space to tilde), no space at either end. */
export const MODEL_PATTERN = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

const [MODEL_AT, MODEL_LEN] = PACKAGE.model;
const [VERSION_AT, VERSION_LEN] = PACKAGE.firmware;
const [KEY_ID_AT, KEY_ID_LEN] = SIGNATURE.keyId;
const [VALUE_AT, VALUE_LEN] = SIGNATURE.value;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

// ---------------------------------------------------------------------------
// Keys

/** The 32-byte raw Ed25519 public key of a private or public key. Throws on a key that is not Ed25519. */
export function rawPublicKey(key: KeyObject): Buffer {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  if (pub.asymmetricKeyType !== 'ed25519') throw new Error(`an Ed25519 key is needed, not ${pub.asymmetricKeyType ?? 'a secret key'}`);
  return Buffer.from(pub.export({ format: 'jwk' }).x!, 'base64url');
}

/** A key id: the first 8 bytes of SHA-256 of the raw public key (what the signature block names). */
export const keyIdOf = (raw: Uint8Array): Buffer => sha256(raw).subarray(0, KEY_ID_LEN);

/** A public key as a profile's firmwareKeys holds it: base64 of the 32 raw bytes. Throws on anything else. */
export function publicKeyFrom(base64: string): KeyObject {
  const raw = Buffer.from(base64, 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== base64) throw new Error(`a firmware key is the base64 of 32 bytes (an Ed25519 public key): ${JSON.stringify(base64)}`);
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** The signing key from a PEM text (PKCS#8, unencrypted; text before the PEM block is allowed). Throws on anything but an Ed25519 private key. */
export function readSigningKey(pem: string | Buffer): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new Error(`not a private key in PEM (${(err as Error).message}); make one with npm run firmware -- --new-key vendor.pem`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the signing key must be Ed25519, not ${key.asymmetricKeyType}`);
  return key;
}

/** A new vendor key pair: the private key as PKCS#8 PEM, the public key in the profile's form. */
export function newKeyPair(): { privatePem: string; publicKey: string; keyId: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const raw = rawPublicKey(privateKey);
  return { privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey: raw.toString('base64'), keyId: keyIdOf(raw).toString('hex') };
}

// ---------------------------------------------------------------------------
// Packages

/** A package: the 108-byte header, the payload, and with `key` the signature block. Throws on a model or version the header cannot carry. */
export function makePackage({ model, version, payload, key }: PackageFields): Buffer {
  if (!MODEL_PATTERN.test(model) || model.length > MODEL_LEN) throw new Error(`model must be printable ASCII, 1 to ${MODEL_LEN} characters: ${JSON.stringify(model)}`);
  if (!VERSION_PATTERN.test(version) || version.length > VERSION_LEN) throw new Error(`version must look like V2.6.19 (a letter, dotted numbers), at most ${VERSION_LEN} characters: ${JSON.stringify(version)}`);
  const out = Buffer.alloc(PACKAGE.header + payload.length);
  out.write(PACKAGE.magic, 0, 'latin1');
  out[4] = PACKAGE.version;
  // Bytes 5 to 7 stay zero; the text fields are NUL-padded by alloc().
  out.write(model, MODEL_AT, 'latin1');
  out.write(version, VERSION_AT, 'latin1');
  out.writeUInt32LE(payload.length, PACKAGE.length);
  sha256(payload).copy(out, PACKAGE.sha256);
  out.set(payload, PACKAGE.header);
  return key ? signPackage(out, key) : out;
}

/** An unsigned package with its signature block added: the Ed25519 signature of all its bytes. Throws on bytes that are not an unsigned package. */
export function signPackage(unsigned: Buffer, key: KeyObject): Buffer {
  const pkg = readPackage(unsigned);
  if (!pkg) throw new Error('not a firmware package');
  if (pkg.signature) throw new Error('the package is signed already');
  const block = Buffer.alloc(SIGNATURE.bytes);
  block.write(SIGNATURE.magic, 0, 'latin1');
  block[4] = SIGNATURE.ed25519;
  keyIdOf(rawPublicKey(key)).copy(block, KEY_ID_AT);
  sign(null, unsigned, key).copy(block, VALUE_AT);
  return Buffer.concat([unsigned, block]);
}

/** A NUL-padded ASCII field: the text before the padding, or null when it is not one (empty, not printable, text after a NUL). */
function textField(buf: Buffer, at: number, len: number): string | null {
  const raw = buf.subarray(at, at + len);
  const nul = raw.indexOf(0);
  const end = nul < 0 ? len : nul;
  for (let i = end; i < len; i++) if (raw[i] !== 0) return null;
  const text = raw.subarray(0, end).toString('latin1');
  return MODEL_PATTERN.test(text) ? text : null;
}

/**
 * Read a package's header and signature block; null when the bytes are not
 * a package: shorter than the header, another magic or format version,
 * reserved bytes 5 to 7 not zero, a model or version field that is not
 * NUL-padded printable ASCII (the version must match VERSION_PATTERN), or a
 * total length other than header + payload length (unsigned) or that plus
 * a signature block with its magic and zero reserved bytes (signed). The
 * checksum and the signature are reported (`intact`, `signature`), not
 * enforced: the caller decides the order of its answers (the model comes
 * before the checksum, see UpdateMachine).
 */
export function readPackage(buf: Buffer): FirmwarePackage | null {
  if (buf.length < PACKAGE.header) return null;
  if (buf.toString('latin1', 0, 4) !== PACKAGE.magic || buf[4] !== PACKAGE.version) return null;
  if (buf[5] || buf[6] || buf[7]) return null;
  const model = textField(buf, MODEL_AT, MODEL_LEN);
  const version = textField(buf, VERSION_AT, VERSION_LEN);
  if (model === null || version === null || !VERSION_PATTERN.test(version)) return null;
  const end = PACKAGE.header + buf.readUInt32LE(PACKAGE.length);
  let signature: Signature | null = null;
  if (buf.length === end + SIGNATURE.bytes) {
    const block = buf.subarray(end);
    if (block.toString('latin1', 0, 4) !== SIGNATURE.magic || block[5] || block[6] || block[7]) return null;
    signature = { algorithm: block[4], keyId: Buffer.from(block.subarray(KEY_ID_AT, KEY_ID_AT + KEY_ID_LEN)), value: Buffer.from(block.subarray(VALUE_AT, VALUE_AT + VALUE_LEN)) };
  } else if (buf.length !== end) return null;
  const payload = buf.subarray(PACKAGE.header, end);
  const want = Buffer.from(buf.subarray(PACKAGE.sha256, PACKAGE.sha256 + 32));
  return { model, version, payload, sha256: want, intact: sha256(payload).equals(want), signature, signed: buf.subarray(0, end) };
}

/**
 * A package's signature against the keys a device holds (a profile's
 * firmwareKeys for its brand, base64 raw public keys), in the order
 * UpdateMachine answers: `unsigned` (10105); `not-ed25519`, a block of
 * another algorithm (10106); `unknown-key`, no held key has the block's key
 * id (10107): the signature can only be checked with the key it names;
 * `bad`, it does not verify with that key (10106); else `good`.
 */
export type SignatureVerdict = 'unsigned' | 'not-ed25519' | 'unknown-key' | 'bad' | 'good';

export function checkSignature(pkg: FirmwarePackage, keys: readonly string[]): SignatureVerdict {
  const s = pkg.signature;
  if (!s) return 'unsigned';
  if (s.algorithm !== SIGNATURE.ed25519) return 'not-ed25519';
  const held = keys.find((k) => keyIdOf(Buffer.from(k, 'base64')).equals(s.keyId));
  if (held === undefined) return 'unknown-key';
  return verify(null, pkg.signed, publicKeyFrom(held), s.value) ? 'good' : 'bad';
}

// ---------------------------------------------------------------------------
// Versions

/** The numbers of a version ("V2.6.18" -> ['2', '6', '18']) without leading zeros; null when it is not a version. */
function parts(version: string): string[] | null {
  if (!VERSION_PATTERN.test(version)) return null;
  return version
    .replace(/^[A-Za-z]/, '')
    .split('.')
    .map((n) => n.replace(/^0+(?=.)/, ''));
}

/**
 * Order of two versions: their numbers compared left to right, as numbers of
 * any size (a missing number counts as 0: V2.6 equals V2.6.0); the leading
 * letter does not count. <0 when a is older, 0 when the same, >0 when newer.
 * A text that is not a version is older than every version.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  if (!pa || !pb) return (pa ? 1 : 0) - (pb ? 1 : 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    if (x.length !== y.length) return x.length - y.length;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether `candidate` is newer than `running` (compareVersions). */
export const isNewer = (candidate: string, running: string) => compareVersions(candidate, running) > 0;
