// Firmware packages for UpdateMachine (src/api/maintenance.ts, PACKAGE; docs/API.md,
// "Firmware package"): build one, read and check one, and compare versions.
// The simulated terminal checks uploads with readPackage(); tests and the
// browser suites build packages with makePackage(). Run as a program it
// writes a package file:
//
//   npm run firmware -- --model T10 --version V2.6.19 --out fw.bin [--size 2000000] [--zero] [--corrupt]
//
// --size: payload bytes (default 1 MiB), random unless --zero; --corrupt
// changes one payload byte after the SHA-256 is taken (the device answers
// 10103). --model is SetInfoParam's Model (the simulator's profile modelCode).
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRMWARE_MAX_BYTES, PACKAGE } from '../src/api/maintenance.ts';

export interface PackageFields {
  /** The model the package is for: SetInfoParam's Model (printable ASCII, 1 to 32 characters). */
  model: string;
  /** The firmware version it installs: VERSION_PATTERN, at most 32 characters. */
  version: string;
  payload: Uint8Array;
}

export interface FirmwarePackage {
  model: string;
  version: string;
  payload: Buffer;
  /** The SHA-256 the header gives. */
  sha256: Buffer;
  /** Whether the payload's SHA-256 is the header's. */
  intact: boolean;
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

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

/** A package: the 108-byte header, then the payload. Throws on a model or version the header cannot carry. */
export function makePackage({ model, version, payload }: PackageFields): Buffer {
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
  return out;
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
 * Read a package's header; null when the bytes are not a package: shorter
 * than the header, another magic or format version, reserved bytes 5 to 7
 * not zero, a model or version field that is not NUL-padded printable ASCII
 * (the version must match VERSION_PATTERN), or a total length other than
 * header + payload length. The checksum is reported (`intact`), not
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
  if (buf.length !== PACKAGE.header + buf.readUInt32LE(PACKAGE.length)) return null;
  const payload = buf.subarray(PACKAGE.header);
  const want = Buffer.from(buf.subarray(PACKAGE.sha256, PACKAGE.sha256 + 32));
  return { model, version, payload, sha256: want, intact: sha256(payload).equals(want) };
}

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

// ---------------------------------------------------------------------------
// The program

const USAGE = 'usage: npm run firmware -- --model T10 --version V2.6.19 --out fw.bin [--size BYTES] [--zero] [--corrupt]';

function main(argv: string[]): void {
  const a = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z]+)(?:=(.*))?$/s.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${argv[i]}\n${USAGE}`);
    const flag = m[1] === 'zero' || m[1] === 'corrupt';
    if (!['model', 'version', 'out', 'size', 'zero', 'corrupt'].includes(m[1])) throw new Error(`unknown option --${m[1]}\n${USAGE}`);
    if (flag) a.set(m[1], true);
    else {
      const v = m[2] ?? argv[++i];
      if (v === undefined) throw new Error(`--${m[1]} needs a value\n${USAGE}`);
      a.set(m[1], v);
    }
  }
  const text = (k: string) => {
    const v = a.get(k);
    if (typeof v !== 'string') throw new Error(`--${k} is needed\n${USAGE}`);
    return v;
  };
  const size = a.has('size') ? Number(text('size')) : 1 << 20;
  // Larger than the device takes is allowed: a file to test 10101 with.
  if (!Number.isSafeInteger(size) || size < 0 || size > 1 << 30) throw new Error(`--size takes a number of bytes (0 to ${1 << 30})`);
  const payload = a.has('zero') ? Buffer.alloc(size) : randomBytes(size);
  const pkg = makePackage({ model: text('model'), version: text('version'), payload });
  if (a.has('corrupt')) {
    // One payload byte changed after the hash was taken; with no payload, the hash itself.
    pkg[size ? pkg.length - 1 : PACKAGE.sha256] ^= 0xff;
  }
  // npm runs scripts from the project folder; a relative --out is relative to where npm was started.
  const out = resolve(process.env.INIT_CWD ?? '.', text('out'));
  writeFileSync(out, pkg);
  const note = pkg.length > FIRMWARE_MAX_BYTES ? ` (over the ${FIRMWARE_MAX_BYTES}-byte limit: the device answers 10101)` : '';
  console.log(`wrote ${out}: ${pkg.length} bytes, model ${text('model')}, version ${text('version')}${a.has('corrupt') ? ', corrupted' : ''}${note}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 2;
  }
}
