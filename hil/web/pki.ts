// The tests' own certificate authority, made with the openssl command line:
// an ECDSA P-256 CA, and a server certificate it signs for the names the
// tests open a terminal by (127.0.0.1, localhost, and the names the host
// tests add, and 127.0.0.3, where the bench's slow line listens: link.ts). The
// servers in tests/servers serve with it; Node's https trusts
// it by `ca`; Chromium trusts it through an NSS database in a home folder of
// its own (certutil, Debian's libnss3-tools), never by ignoring errors.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LINK_HOST } from './line.ts';

export interface TestPki {
  dir: string;
  /** The CA's certificate (PEM): what a client trusts. */
  ca: string;
  caFile: string;
  /** The server's certificate and key files, as a terminal keeps them (build/access.ts TLS_FILES). */
  certFile: string;
  keyFile: string;
}

/** Names the server certificate carries besides 127.0.0.1 and localhost: the names tests/browser/host.spec.ts opens. */
export const TEST_NAMES = ['rebind.test', 'console.test'];

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  // No input: a tool that would ask a question gets end of file, not a wait.
  const r = spawnSync(cmd, args, { encoding: 'utf8', env, input: '' });
  if (r.error) throw new Error(`${cmd}: ${r.error.message} (apt-get install ${cmd === 'certutil' ? 'libnss3-tools' : cmd})`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

export const openssl = (...args: string[]) => run('openssl', args);

let made: TestPki | undefined;

/** The folder of the PKI made first, for the processes this one starts (Playwright's workers). */
const SHARED = 'CONSOLE_TEST_PKI';

/** The test CA and server certificate: made once (a few openssl runs), and shared with child processes through the environment. */
export function testPki(): TestPki {
  if (made) return made;
  const shared = process.env[SHARED];
  if (shared && existsSync(join(shared, 'cert.pem'))) return (made = pkiIn(shared));
  const dir = mkdtempSync(join(tmpdir(), 'console-pki-'));
  chmodSync(dir, 0o755);
  const f = (n: string) => join(dir, n);
  const p256 = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-noenc'];
  openssl('req', '-x509', ...p256, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-subj', '/CN=Console test CA', '-days', '2',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const sans = ['IP:127.0.0.1', `IP:${LINK_HOST}`, 'DNS:localhost', ...TEST_NAMES.map((n) => `DNS:${n}`)].join(',');
  openssl('req', '-x509', ...p256, '-keyout', f('key.pem'), '-out', f('cert.pem'), '-subj', '/CN=127.0.0.1', '-days', '2',
    '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-addext', `subjectAltName=${sans}`, '-addext', 'basicConstraints=critical,CA:FALSE',
    '-addext', 'keyUsage=critical,digitalSignature', '-addext', 'extendedKeyUsage=serverAuth');
  process.env[SHARED] = dir;
  return (made = pkiIn(dir));
}

function pkiIn(dir: string): TestPki {
  const f = (n: string) => join(dir, n);
  return { dir, ca: readFileSync(f('ca.pem'), 'utf8'), caFile: f('ca.pem'), certFile: f('cert.pem'), keyFile: f('key.pem') };
}

/**
 * A file for NODE_EXTRA_CA_CERTS: the test CA after the certificates the
 * variable named already (a machine may need those), so that a Node process
 * started with it trusts the test servers too.
 */
export function extraCaFile(already: string | undefined, pki = testPki()): string {
  const file = join(pki.dir, 'node-extra-ca.pem');
  if (already === file) return file; // a worker: the runner made it
  const before = already && existsSync(already) ? readFileSync(already, 'utf8') : '';
  writeFileSync(file, `${before}${before && !before.endsWith('\n') ? '\n' : ''}${pki.ca}`);
  return file;
}

/**
 * A home folder whose NSS database trusts the test CA for TLS servers
 * ("C,,"): Chromium on Linux reads $HOME/.pki/nssdb, so a browser launched
 * with HOME set to it trusts the test servers and nothing else changes.
 */
export function chromiumHome(pki = testPki()): string {
  const home = join(pki.dir, 'home');
  if (existsSync(join(home, '.pki', 'nssdb', 'cert9.db'))) return home;
  // Playwright's workers ask at the same moment: each makes the database in a folder of its own and
  // renames it into place; the one that loses the race uses the winner's. (certutil -N on a database
  // another worker has just made asks for its password, and with no input asks forever.)
  const mine = mkdtempSync(join(pki.dir, 'home-'));
  const db = join(mine, '.pki', 'nssdb');
  mkdirSync(db, { recursive: true });
  run('certutil', ['-N', '-d', `sql:${db}`, '--empty-password']);
  run('certutil', ['-A', '-d', `sql:${db}`, '-n', 'Console test CA', '-t', 'C,,', '-i', pki.caFile]);
  try {
    renameSync(mine, home);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
    rmSync(mine, { recursive: true, force: true });
  }
  return home;
}
