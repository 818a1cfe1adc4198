// docs/EMBEDDING.md's first-boot step (issue 23 §3), run exactly as the page
// gives it (the sh block after its "first-boot.sh" marker) with Debian's
// openssl, and its certificate read back with Node's X509Certificate: ECDSA
// P-256, the serial number as the subject, the addresses and added names as
// subject alternative names, ten years from now, the key that belongs to it
// (mode 0600); kept on the next boot, made again when a file is missing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FIRST_BOOT_DAYS } from '../../simulator/areas/certificate.ts';

const doc = readFileSync(resolve(import.meta.dirname, '../../docs/EMBEDDING.md'), 'utf8');
const script = /<!-- first-boot\.sh[^>]*-->\n```sh\n([\s\S]*?)```/.exec(doc)?.[1];
const DAY = 86_400_000;

function boot(etc: string, env: { SERIAL: string; IPS: string; NAMES: string }) {
  const file = join(etc, 'first-boot.sh');
  writeFileSync(file, script!);
  const r = spawnSync('sh', [file], { encoding: 'utf8', env: { PATH: process.env.PATH, ETC: etc, ...env } });
  assert.is(r.status, 0, `first-boot.sh: ${r.stderr}`);
  return { cert: readFileSync(join(etc, 'cert.pem')), key: readFileSync(join(etc, 'key.pem')) };
}

test('docs/EMBEDDING.md gives the first-boot script', () => {
  assert.ok(script, 'the sh block after <!-- first-boot.sh --> in docs/EMBEDDING.md');
  assert.match(script!, /openssl req -x509/);
});

test('the first boot makes an ECDSA P-256 certificate: serial number as subject, addresses and names as SANs, ten years', () => {
  const etc = mkdtempSync(join(tmpdir(), 'first-boot-'));
  const before = Date.now();
  const { cert, key } = boot(etc, { SERIAL: 'AB12C3456789', IPS: '192.168.1.5 10.0.0.7', NAMES: 'terminal.example door-3.lan' });
  const x = new X509Certificate(cert);
  assert.is(x.subject, 'CN=AB12C3456789');
  assert.is(x.issuer, x.subject, 'self-signed');
  assert.ok(x.verify(x.publicKey), 'signed by its own key');
  assert.is(x.subjectAltName, 'IP Address:192.168.1.5, IP Address:10.0.0.7, DNS:terminal.example, DNS:door-3.lan');
  assert.is(x.publicKey.asymmetricKeyType, 'ec');
  assert.is(x.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1', 'P-256');
  assert.is(x.ca, false, 'not a CA');
  assert.ok(x.keyUsage?.includes('1.3.6.1.5.5.7.3.1'), 'for TLS servers');
  assert.ok(Date.parse(x.validFrom) <= Date.now() && Date.parse(x.validFrom) >= before - 2000, `valid from now: ${x.validFrom}`);
  const days = (Date.parse(x.validTo) - before) / DAY;
  assert.ok(Math.abs(days - FIRST_BOOT_DAYS) < 1, `valid ${FIRST_BOOT_DAYS} days, as the simulator's: ${x.validTo}`);
  assert.ok(x.checkPrivateKey(createPrivateKey(key)), 'key.pem is its key');
  assert.is(statSync(join(etc, 'key.pem')).mode & 0o777, 0o600, 'the key is readable by its owner only');
  assert.is(statSync(join(etc, 'cert.pem')).mode & 0o777, 0o644);
  rmSync(etc, { recursive: true, force: true });
});

test('the next boot keeps it; with a file gone it makes a new pair; no added names is fine', () => {
  const etc = mkdtempSync(join(tmpdir(), 'first-boot-'));
  const env = { SERIAL: 'ZX9', IPS: '192.168.1.5', NAMES: '' };
  const first = boot(etc, env);
  assert.is(new X509Certificate(first.cert).subjectAltName, 'IP Address:192.168.1.5');
  const again = boot(etc, env);
  assert.ok(again.cert.equals(first.cert) && again.key.equals(first.key), 'kept across reboots');
  rmSync(join(etc, 'cert.pem'));
  const remade = boot(etc, env);
  assert.not.ok(remade.key.equals(first.key), 'a new key');
  assert.ok(new X509Certificate(remade.cert).checkPrivateKey(createPrivateKey(remade.key)), 'and its certificate');
  rmSync(etc, { recursive: true, force: true });
});

test.run();
