// Everything the virtual board boots from, built when missing: Debian's
// kernel (from its package; the ELF inside, which boots through PVH:
// board/kernel.ts), the initramfs (board/initramfs.ts) and the
// /data disk: an ext4 image made with `mkfs.ext4 -d` from a folder laid out
// as a terminal's: the factory release in /data/www.d/factory, /data/www a
// link to it, and the web server's files in /data/etc (the configuration
// the build writes, its access files, a certificate for HTTPS).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverFiles } from '../build/servers.ts';
import { TLS_FILES } from '../build/access.ts';
import { loadConsoleProfile, type ConsoleProfile } from '../serial/console-profile.ts';
import { BOARD_LAYOUT, buildInitramfs } from './initramfs.ts';
import { bootableKernel } from './kernel.ts';
import { CACHE, ROOT, boardPackages } from './packages.ts';

export interface BoardFiles {
  kernel: string;
  initrd: string;
  disk: string;
  /** uname -r of the board's kernel. */
  release: string;
  kernelPkg: string;
  profile: ConsoleProfile;
}

export interface PrepareOptions {
  brand: string;
  /** The board's terminal profile (name or path); board by default. */
  profile?: string;
  /** The /data image; .board-cache/data-<brand>.img by default. It is kept between runs: a terminal's disk. */
  disk?: string;
  /** Make the /data image again from the build (the factory state). */
  fresh?: boolean;
  /** Size of /data in MiB (64 by default). */
  diskMiB?: number;
  log?: (line: string) => void;
}

const SOURCES = ['initramfs.ts', 'modules.ts', 'cpio.ts'].map((f) => join(import.meta.dirname, f));

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${(r.stderr || r.stdout).trim()}`);
}

/** The /data folder as the factory leaves it, in `dir`. */
export function stageData(dir: string, siteDir: string): void {
  const manifest = JSON.parse(readFileSync(join(siteDir, 'manifest.json'), 'utf8')) as { brand: string; version: string; csp?: string };
  const rel = (p: string) => join(dir, p.slice(BOARD_LAYOUT.data.length + 1));
  const factory = join(rel(BOARD_LAYOUT.releases), 'factory');
  mkdirSync(factory, { recursive: true });
  for (const f of readdirSync(siteDir)) if (f === 'manifest.json' || f.endsWith('.gz')) copyFileSync(join(siteDir, f), join(factory, f));
  symlinkSync(`${BOARD_LAYOUT.releases}/factory`, rel(BOARD_LAYOUT.www));
  const etc = rel(BOARD_LAYOUT.etc);
  mkdirSync(etc, { recursive: true });
  const conf = { brand: manifest.brand, version: manifest.version, csp: manifest.csp, root: BOARD_LAYOUT.www, listen: '80', https: '443', api: `${BOARD_LAYOUT.apiIp}:${BOARD_LAYOUT.apiPort}`, etc: BOARD_LAYOUT.etc };
  for (const [name, text] of serverFiles('lighttpd', conf)) writeFileSync(join(etc, name), text);
  // The device's own certificate (a real terminal makes one at first boot: docs/EMBEDDING.md).
  run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650', '-subj', '/CN=board', '-keyout', join(etc, TLS_FILES.key), '-out', join(etc, TLS_FILES.cert)]);
  mkdirSync(join(dir, 'log'), { recursive: true });
}

/** An ext4 image of `siteDir`'s factory /data. */
export function makeDisk(path: string, siteDir: string, sizeMiB = 64): void {
  const stage = mkdtempSync(join(tmpdir(), 'board-data-'));
  try {
    stageData(stage, siteDir);
    const part = `${path}.part-${process.pid}`;
    rmSync(part, { force: true });
    run('mkfs.ext4', ['-q', '-F', '-L', 'data', '-E', 'root_owner=0:0', '-d', stage, part, `${sizeMiB}M`]);
    renameSync(part, path);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Kernel, initramfs and disk, each built when missing (the initramfs again when its inputs changed). */
export function prepareBoard(o: PrepareOptions): BoardFiles {
  const log = o.log ?? (() => undefined);
  const profile = loadConsoleProfile(o.profile ?? 'board');
  const siteDir = join(ROOT, 'dist', o.brand);
  if (!existsSync(join(siteDir, 'manifest.json'))) throw new Error(`no build of brand ${o.brand} (npm run build -- --brand ${o.brand})`);
  mkdirSync(CACHE, { recursive: true });
  const pkgs = boardPackages(log);
  const bzImage = join(pkgs.kernelDir, 'boot', `vmlinuz-${pkgs.release}`);
  if (!existsSync(bzImage)) throw new Error(`${pkgs.kernelPkg} has no ${bzImage}`);
  const kernel = bootableKernel(bzImage, join(pkgs.kernelDir, 'boot', `vmlinux-${pkgs.release}`), log);

  const key = createHash('sha256').update(JSON.stringify([pkgs.release, Object.keys(pkgs.dirs), profile.user, profile.password]));
  for (const f of SOURCES) key.update(readFileSync(f));
  const initrd = join(CACHE, `initrd-${key.digest('hex').slice(0, 12)}.cpio`);
  if (!existsSync(initrd)) {
    const started = Date.now();
    const built = buildInitramfs({ dirs: pkgs.dirs, kernelDir: pkgs.kernelDir, release: pkgs.release, user: profile.user, password: profile.password });
    writeFileSync(`${initrd}.part`, built.data);
    renameSync(`${initrd}.part`, initrd);
    for (const f of readdirSync(CACHE)) if (/^initrd-.*\.cpio(\.gz)?$/.test(f) && join(CACHE, f) !== initrd) rmSync(join(CACHE, f), { force: true });
    log(`board: initramfs ${initrd} (${(built.data.length / 1048576).toFixed(1)} MiB, ${built.files} entries, modules ${built.modules.join(' ')}) in ${Date.now() - started} ms`);
  }

  const disk = o.disk ?? join(CACHE, `data-${o.brand}.img`);
  if (o.fresh || !existsSync(disk)) {
    makeDisk(disk, siteDir, o.diskMiB);
    log(`board: /data ${disk} (ext4, the factory release of dist/${o.brand})`);
  }
  return { kernel, initrd, disk, release: pkgs.release, kernelPkg: pkgs.kernelPkg, profile };
}
