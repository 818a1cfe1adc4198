// The virtual board's Debian packages: fetched with `apt-get download` into
// the cache (.board-cache/debs, gitignored) and unpacked with `dpkg-deb -x`
// (.board-cache/pkgs/<package>), never installed. The kernel is the one
// linux-image-amd64 depends on, so the board runs Debian's own kernel.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const CACHE = process.env.BOARD_CACHE ? resolve(process.env.BOARD_CACHE) : join(ROOT, '.board-cache');

/** What the initramfs is made of (the kernel package is added by its version). */
export const BOARD_PACKAGES = ['busybox-static', 'lrzsz', 'lighttpd', 'lighttpd-mod-openssl', 'lighttpd-modules-lua'] as const;
/** Host tools the board needs (Debian packages): QEMU, mkfs.ext4, socat for the pty, openssl for the password hash and certificate, xz to unpack the kernel. */
export const HOST_TOOLS: Array<{ bin: string; pkg: string }> = [
  { bin: '/usr/bin/qemu-system-x86_64', pkg: 'qemu-system-x86' },
  { bin: '/usr/sbin/mkfs.ext4', pkg: 'e2fsprogs' },
  { bin: '/usr/bin/socat', pkg: 'socat' },
  { bin: '/usr/bin/openssl', pkg: 'openssl' },
  { bin: '/usr/bin/xz', pkg: 'xz-utils' },
];

function run(cmd: string, args: string[], cwd?: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}

/** The host tools that are missing, as one apt-get line, or null. */
export function missingHostTools(): string | null {
  const pkgs = [...new Set(HOST_TOOLS.filter((t) => !existsSync(t.bin)).map((t) => t.pkg))];
  return pkgs.length ? `apt-get install ${pkgs.join(' ')}` : null;
}

/** linux-image-<version>, the package linux-image-amd64 depends on (apt-cache). */
export function kernelPackage(): string {
  if (process.env.BOARD_KERNEL_PACKAGE) return process.env.BOARD_KERNEL_PACKAGE;
  const out = run('apt-cache', ['depends', 'linux-image-amd64']);
  const m = /Depends:\s*(linux-image-[0-9][^\s]*)/.exec(out);
  if (!m) throw new Error(`apt-cache depends linux-image-amd64 names no kernel package (apt-get update first?):\n${out}`);
  return m[1];
}

/** The kernel release (uname -r) of a linux-image-<release> package. */
export const kernelRelease = (pkg: string) => pkg.replace(/^linux-image-/, '').replace(/-unsigned$/, '');

const DEBS = join(CACHE, 'debs');
/** The downloaded .deb of `pkg` in the cache, if there is one. */
const debOf = (pkg: string) => (existsSync(DEBS) ? readdirSync(DEBS).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb')) : undefined);

/** Downloads, in one apt-get run, those of `pkgs` that are neither unpacked nor downloaded yet. */
export function download(pkgs: string[], log: (line: string) => void = () => undefined): void {
  const missing = pkgs.filter((p) => !existsSync(join(CACHE, 'pkgs', p)) && !debOf(p));
  if (!missing.length) return;
  log(`board: apt-get download ${missing.join(' ')}`);
  mkdirSync(DEBS, { recursive: true });
  // apt drops to _apt for downloads; root's cache folder would make it warn, so it is run where _apt may write, then moved.
  const tmp = join(DEBS, `.dl-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    spawnSync('chmod', ['0777', tmp]);
    run('apt-get', ['download', '-q', ...missing], tmp);
    for (const f of readdirSync(tmp)) renameSync(join(tmp, f), join(DEBS, f));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The package unpacked in the cache: downloaded when its .deb is not there
 * yet, unpacked when its folder is not. Returns the folder (its /).
 */
export function unpacked(pkg: string, log: (line: string) => void = () => undefined): string {
  const dir = join(CACHE, 'pkgs', pkg);
  if (existsSync(dir)) return dir;
  download([pkg], log);
  const deb = debOf(pkg);
  if (!deb) throw new Error(`apt-get download ${pkg} left no .deb in ${DEBS}`);
  const work = `${dir}.part-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  run('dpkg-deb', ['-x', join(DEBS, deb), work]);
  renameSync(work, dir);
  return dir;
}

/** Every package's folder, by name, and the kernel's. */
export function boardPackages(log?: (line: string) => void): { dirs: Record<string, string>; kernelPkg: string; kernelDir: string; release: string } {
  const kernelPkg = kernelPackage();
  download([...BOARD_PACKAGES, kernelPkg], log);
  const dirs: Record<string, string> = {};
  for (const p of BOARD_PACKAGES) dirs[p] = unpacked(p, log);
  const kernelDir = unpacked(kernelPkg, log);
  return { dirs, kernelPkg, kernelDir, release: kernelRelease(kernelPkg) };
}
