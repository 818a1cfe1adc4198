// A real web server in front of the simulated terminal, as on a device: the
// brand's .gz files installed the way the harness installs them (a release
// folder behind a symlink), the configuration the build generates, the
// server started on two loopback ports (HTTP, and HTTPS with the tests' own
// certificate: pki.ts) as an unprivileged user, /goform/ handed to the
// simulator, and the access file written as the firmware writes it when
// RestParam changes. lighttpd and nginx are Debian's packages; civetweb is
// Debian's libcivetweb-dev compiled with the C table and embed/civetweb/.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serverFiles, SERVER_ACCESS_FILE, type ServerKind } from '../../build/servers.ts';
import { ACCESS_FILES, TLS_FILES, accessFile, accessOf, type Access } from '../../build/access.ts';
import { writeCTable } from '../../build/c-table.ts';
import type { Simulator } from '../../simulator/server.ts';
import { testPki } from './pki.ts';
import { freePort } from '../../board/qemu.ts';

export const FRONT_KINDS = ['lighttpd', 'nginx', 'civetweb'] as const;
export type FrontKind = (typeof FRONT_KINDS)[number];

export interface Front {
  kind: FrontKind;
  /** http://127.0.0.1:<port> */
  url: string;
  /** https://127.0.0.1:<port>: the tests' CA signed its certificate (pki.ts). */
  https: string;
  /** Where the set is installed (the symlink the configuration names). */
  root: string;
  /** The device's folder: cert.pem, key.pem, the access file. */
  etc: string;
  /** What the firmware does when RestParam's HostNames or Protocol changes: write the access file, reload the server if it needs it. */
  setAccess(a: Access): Promise<void>;
  close(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../..');
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** The Debian packages each server needs, and the files that prove they are there. */
export const PACKAGES: Record<FrontKind, { pkg: string; present: () => boolean }> = {
  lighttpd: { pkg: 'lighttpd lighttpd-mod-openssl lighttpd-modules-lua', present: () => ['/usr/sbin/lighttpd', '/usr/lib/lighttpd/mod_openssl.so', '/usr/lib/lighttpd/mod_magnet.so'].every((f) => existsSync(f)) },
  nginx: { pkg: 'nginx', present: () => existsSync('/usr/sbin/nginx') },
  civetweb: { pkg: 'libcivetweb-dev libssl-dev', present: () => existsSync('/usr/include/civetweb.h') && existsSync('/usr/include/openssl/ssl.h') },
};

export const isFrontKind = (s: string): s is FrontKind => (FRONT_KINDS as readonly string[]).includes(s);

/**
 * The server a browser test goes through, from FRONT_SERVER (tests/browser/fixtures.ts): none (the
 * simulated terminal serves the console itself), one, or one of several given with commas, picked by a
 * hash of the test's file and titles, so that one run shares the tests out among the servers and a test
 * always goes through the same one. npm test runs the tests tagged @smoke on React 19 so, through all three.
 */
export function frontOf(setting: string, titlePath: readonly string[]): FrontKind | undefined {
  const kinds = setting.split(',').map((k) => k.trim()).filter(Boolean);
  const wrong = kinds.find((k) => !isFrontKind(k));
  if (wrong !== undefined) throw new Error(`FRONT_SERVER=${setting}: ${wrong} is none of ${FRONT_KINDS.join(', ')} (one, or several with commas)`);
  if (!kinds.length) return undefined;
  return kinds[createHash('sha256').update(titlePath.join('\n')).digest().readUInt32BE(0) % kinds.length] as FrontKind;
}


/** A folder the unprivileged server may read (and, for its own state, write). */
function ownDir(dir: string): void {
  chmodSync(dir, 0o755);
  if (asRoot) chownSync(dir, NOBODY, NOBODY);
}

/** The set as the harness installs it: <base>/www.d/<release>/*.gz, and <base>/www -> that folder. */
function install(siteDir: string, base: string): string {
  const release = join(base, 'www.d', 'r1');
  mkdirSync(release, { recursive: true });
  for (const f of readdirSync(siteDir)) if (f.endsWith('.gz')) copyFileSync(join(siteDir, f), join(release, f));
  chmodSync(join(base, 'www.d'), 0o755);
  chmodSync(release, 0o755);
  const root = join(base, 'www');
  symlinkSync(release, root);
  return root;
}

const CIVETWEB = ['console_server.c', 'console_access.c', 'console_access.h', 'openssl3_compat.c'].map((f) => join(ROOT, 'embed/civetweb', f));

function gcc(args: string[]): void {
  const cc = spawnSync('gcc', args, { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`gcc ${args.join(' ')} failed:\n${cc.stderr}`);
}

/**
 * embed/civetweb/console_server.c with this set's C table, compiled once per
 * set (by the manifest's and the sources' hash) into a shared cache;
 * concurrent callers race harmlessly (each renames its own finished folder
 * into place). Beside it, tls/: openssl3_compat.c built as libssl.so and a
 * libcrypto.so link, the folder the binary's DT_RPATH names, so that
 * Debian's civetweb finds them first when it loads OpenSSL (README.md there).
 */
export function civetwebBinary(siteDir: string): string {
  const hash = createHash('sha256').update(readFileSync(join(siteDir, 'manifest.json')));
  for (const f of CIVETWEB) hash.update(readFileSync(f));
  const cache = join(tmpdir(), 'console-civetweb');
  const dir = join(cache, hash.digest('hex').slice(0, 16));
  const bin = join(dir, 'console_server');
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true });
  chmodSync(cache, 0o755);
  const work = mkdtempSync(join(cache, 'build-'));
  chmodSync(work, 0o755);
  writeCTable(siteDir, work);
  const tls = join(work, 'tls');
  mkdirSync(tls);
  gcc(['-std=c99', '-O1', '-Wall', '-Wextra', '-pedantic', '-Werror', '-shared', '-fPIC', CIVETWEB[3], '-lssl', '-o', join(tls, 'libssl.so')]);
  symlinkSync(spawnSync('gcc', ['-print-file-name=libcrypto.so.3'], { encoding: 'utf8' }).stdout.trim(), join(tls, 'libcrypto.so'));
  // DT_RPATH names tls/ where it will be once the folder is renamed into place.
  gcc(['-std=c99', '-O1', '-Wall', '-Wextra', '-pedantic', '-Werror', `-I${work}`, CIVETWEB[0], CIVETWEB[1], join(work, 'console_files.c'),
    '-lcivetweb', '-lssl', `-Wl,--disable-new-dtags,-rpath,${join(dir, 'tls')}`, '-o', join(work, 'console_server')]);
  chmodSync(join(work, 'console_server'), 0o755);
  try {
    renameSync(work, dir);
  } catch (e) {
    // Another process finished first: its folder is as good.
    if (!existsSync(bin)) throw e;
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

/** Run as nobody when we are root (setpriv, util-linux), as ourselves otherwise. */
function launch(cmd: string, args: string[]): ChildProcess {
  const [c, a] = asRoot ? ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', cmd, ...args]] : [cmd, args];
  return spawn(c, a, { stdio: ['ignore', 'pipe', 'pipe'] });
}

async function waitUntilServing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
    try {
      const res = await fetch(`${url}/index.html`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  // SIGTERM: an nginx master stops its workers too (SIGKILL would leave them behind).
  child.kill('SIGTERM');
  throw new Error(`the server did not answer within 10 s:\n${log()}`);
}

/** A file the unprivileged server reads; written whole, then renamed into place (as the firmware should). */
function deviceFile(path: string, text: string | Buffer, mode = 0o644): void {
  writeFileSync(`${path}.new`, text, { mode });
  chmodSync(`${path}.new`, mode);
  if (asRoot) chownSync(`${path}.new`, NOBODY, NOBODY);
  renameSync(`${path}.new`, path);
}

/** The worker processes of an nginx master (Linux: /proc). */
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** `nginx -s reload`, by its signal, and wait until only workers started after it are left (they read the new configuration). */
async function reloadNginx(master: ChildProcess): Promise<void> {
  const before = new Set(children(master.pid!));
  master.kill('SIGHUP');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const now = children(master.pid!);
    if (now.length > 0 && now.every((p) => !before.has(p))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('nginx did not reload within 10 s');
}

export interface FrontOptions {
  /** The access file to start with; the factory one (no names, Protocol 0) by default. */
  access?: Access;
  /**
   * Play the firmware for this simulator: whenever its RestParam's HostNames
   * or Protocol changes (through the API), write the access file and reload.
   */
  follow?: Simulator;
}

/**
 * Start `kind` serving the brand's set in `siteDir` on two free loopback
 * ports, HTTP and HTTPS, with /goform/ handed to the API at `api` (host:port,
 * the simulator).
 */
export async function startFront(kind: FrontKind, siteDir: string, api: string, options: FrontOptions = {}): Promise<Front> {
  if (!PACKAGES[kind].present()) throw new Error(`${kind} is not installed: apt-get install ${PACKAGES[kind].pkg}`);
  const base = mkdtempSync(join(tmpdir(), `console-${kind}-`));
  ownDir(base);
  const root = install(siteDir, base);
  const etc = join(base, 'etc');
  mkdirSync(etc);
  ownDir(etc);
  const pki = testPki();
  deviceFile(join(etc, TLS_FILES.cert), readFileSync(pki.certFile));
  deviceFile(join(etc, TLS_FILES.key), readFileSync(pki.keyFile), 0o600);
  const port = await freePort();
  let httpsPort = await freePort();
  while (httpsPort === port) httpsPort = await freePort();
  const manifest = JSON.parse(readFileSync(join(siteDir, 'manifest.json'), 'utf8')) as { brand: string; version: string; csp?: string };
  const conf = { brand: manifest.brand, version: manifest.version, csp: manifest.csp, root, listen: `127.0.0.1:${port}`, https: `127.0.0.1:${httpsPort}`, api, etc };
  const accessPath = join(etc, kind === 'nginx' ? ACCESS_FILES.nginx : ACCESS_FILES.plain);
  const writeAccess = (a: Access) => deviceFile(accessPath, accessFile(kind === 'nginx' ? 'nginx' : 'plain', a));
  let child: ChildProcess;
  if (kind === 'civetweb') {
    writeAccess(options.access ?? { names: [], protocol: 0 });
    const [host, apiPort] = api.split(':');
    const tls = ['--https', String(httpsPort), '--cert', join(etc, TLS_FILES.cert), '--key', join(etc, TLS_FILES.key), '--access', accessPath];
    child = launch(civetwebBinary(siteDir), [...tls, String(port), host, apiPort]);
  } else {
    // The build's files, as a firmware installs them: the configuration beside them, the rest in etc.
    for (const [name, text] of serverFiles(kind as ServerKind, conf)) deviceFile(join(name.endsWith('.lua') || name === SERVER_ACCESS_FILE[kind as ServerKind] ? etc : base, name), text);
    if (options.access) writeAccess(options.access);
    if (kind === 'lighttpd') {
      child = launch('/usr/sbin/lighttpd', ['-D', '-f', join(base, 'lighttpd.conf')]);
    } else {
      // The generated configuration, included by the smallest nginx.conf an unprivileged nginx runs with.
      const state = join(base, 'nginx');
      mkdirSync(state);
      ownDir(state);
      const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(state, t)};`).join(' ');
      writeFileSync(
        join(base, 'nginx.conf'),
        `daemon off;\npid ${join(state, 'nginx.pid')};\nerror_log stderr warn;\nworker_processes 1;\nevents { worker_connections 256; }\n` +
          `http {\n  access_log off;\n  ${temp}\n  include ${join(base, 'nginx-console.conf')};\n}\n`,
      );
      child = launch('/usr/sbin/nginx', ['-p', state, '-e', 'stderr', '-c', join(base, 'nginx.conf')]);
    }
  }
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(url, child, () => output);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const setAccess = async (a: Access) => {
    writeAccess(a);
    if (kind === 'nginx') await reloadNginx(child);
  };
  // The firmware's part: RestParam changed through the API, so the access file follows (one change at a time).
  let timer: NodeJS.Timeout | undefined;
  if (options.follow) {
    const sim = options.follow;
    const now = () => JSON.stringify(accessOf(sim.store.get().settings.RestParam ?? {}));
    // What the server started with: no reload unless the terminal's settings differ from it.
    let applied = JSON.stringify(options.access ?? accessOf({}));
    let busy = false;
    const check = async () => {
      const want = now();
      if (busy || want === applied) return;
      busy = true;
      try {
        await setAccess(JSON.parse(want) as Access);
        applied = want;
      } finally {
        busy = false;
      }
    };
    await check();
    timer = setInterval(() => void check().catch((e) => console.error(`${kind}: the access file: ${(e as Error).message}`)), 100);
  }
  return {
    kind,
    url,
    https: `https://127.0.0.1:${httpsPort}`,
    root,
    etc,
    setAccess,
    async close() {
      clearInterval(timer);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
}
