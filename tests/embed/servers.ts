// A real web server in front of the simulated terminal, as on a device: the
// brand's .gz files installed the way the harness installs them (a release
// folder behind a symlink), the configuration the build generates, the
// server started on a loopback port as an unprivileged user, /goform/
// handed to the simulator. lighttpd and nginx are Debian's packages; civetweb
// is Debian's libcivetweb-dev compiled with the C table and
// embed/civetweb/console_server.c.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { lighttpdConf, nginxConf, CONFIG_FILE } from '../../build/servers.ts';
import { writeCTable } from '../../build/c-table.ts';

export const FRONT_KINDS = ['lighttpd', 'nginx', 'civetweb'] as const;
export type FrontKind = (typeof FRONT_KINDS)[number];

export interface Front {
  kind: FrontKind;
  url: string;
  /** Where the set is installed (the symlink the configuration names). */
  root: string;
  close(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../..');
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** The Debian package each server needs, and the command that proves it is there. */
export const PACKAGES: Record<FrontKind, { pkg: string; present: () => boolean }> = {
  lighttpd: { pkg: 'lighttpd', present: () => existsSync('/usr/sbin/lighttpd') },
  nginx: { pkg: 'nginx', present: () => existsSync('/usr/sbin/nginx') },
  civetweb: { pkg: 'libcivetweb-dev', present: () => existsSync('/usr/include/civetweb.h') },
};

export const isFrontKind = (s: string): s is FrontKind => (FRONT_KINDS as readonly string[]).includes(s);

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
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

/**
 * embed/civetweb/console_server.c with this set's C table, compiled once per
 * set (by the manifest's hash) into a shared cache; concurrent callers race
 * harmlessly (each renames its own finished binary into place).
 */
export function civetwebBinary(siteDir: string): string {
  const source = join(ROOT, 'embed/civetweb/console_server.c');
  const key = createHash('sha256').update(readFileSync(join(siteDir, 'manifest.json'))).update(readFileSync(source)).digest('hex').slice(0, 16);
  const cache = join(tmpdir(), 'console-civetweb');
  const bin = join(cache, `console_server-${key}`);
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true });
  chmodSync(cache, 0o755);
  const work = mkdtempSync(join(cache, 'build-'));
  writeCTable(siteDir, work);
  const out = join(work, 'console_server');
  const args = ['-std=c99', '-O1', '-Wall', '-Wextra', '-pedantic', '-Werror', `-I${work}`, source, join(work, 'console_files.c'), '-lcivetweb', '-o', out];
  const cc = spawnSync('gcc', args, { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`gcc ${args.join(' ')} failed:\n${cc.stderr}`);
  chmodSync(out, 0o755);
  renameSync(out, bin);
  rmSync(work, { recursive: true, force: true });
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
  child.kill('SIGKILL');
  throw new Error(`the server did not answer within 10 s:\n${log()}`);
}

/**
 * Start `kind` serving the brand's set in `siteDir` on a free loopback port,
 * with /goform/ handed to the API at `api` (host:port, the simulator).
 */
export async function startFront(kind: FrontKind, siteDir: string, api: string): Promise<Front> {
  if (!PACKAGES[kind].present()) throw new Error(`${kind} is not installed: apt-get install ${PACKAGES[kind].pkg}`);
  const base = mkdtempSync(join(tmpdir(), `console-${kind}-`));
  ownDir(base);
  const root = install(siteDir, base);
  const port = await freePort();
  const manifest = JSON.parse(readFileSync(join(siteDir, 'manifest.json'), 'utf8')) as { brand: string; version: string; csp?: string };
  const options = { brand: manifest.brand, version: manifest.version, csp: manifest.csp, root, listen: `127.0.0.1:${port}`, api };
  let child: ChildProcess;
  if (kind === 'lighttpd') {
    const conf = join(base, CONFIG_FILE.lighttpd);
    writeFileSync(conf, lighttpdConf(options));
    child = launch('/usr/sbin/lighttpd', ['-D', '-f', conf]);
  } else if (kind === 'nginx') {
    // The generated server block, included by the smallest nginx.conf an unprivileged nginx runs with.
    const state = join(base, 'nginx');
    mkdirSync(state);
    ownDir(state);
    writeFileSync(join(base, CONFIG_FILE.nginx), nginxConf(options));
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(state, t)};`).join(' ');
    writeFileSync(
      join(base, 'nginx.conf'),
      `daemon off;\npid ${join(state, 'nginx.pid')};\nerror_log stderr warn;\nworker_processes 1;\nevents { worker_connections 256; }\n` +
        `http {\n  access_log off;\n  ${temp}\n  include ${join(base, CONFIG_FILE.nginx)};\n}\n`,
    );
    child = launch('/usr/sbin/nginx', ['-p', state, '-e', 'stderr', '-c', join(base, 'nginx.conf')]);
  } else {
    const [host, apiPort] = api.split(':');
    child = launch(civetwebBinary(siteDir), [String(port), host, apiPort]);
  }
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(url, child, () => output);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    kind,
    url,
    root,
    async close() {
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
