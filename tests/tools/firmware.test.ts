// tools/firmware.ts, `npm run firmware` run as npm runs it: a new key (its file and its printed
// public key), signed, unsigned and corrupt packages, and what it refuses.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSignature, keyIdOf, readPackage, readSigningKey } from '../../contract/firmware.ts';
import { TEST_VENDOR_KEY_FILE } from '../support/keys/vendor.ts';
import { modelKey, TEST_PUBLIC, tmp } from '../support/firmware.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

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
  assert.is(printed, modelKey(key), 'the printed key is the file\'s public key, in the profile\'s form');
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
