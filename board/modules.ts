// Kernel modules for the board, from the kernel package as unpacked (no
// depmod: the package's modules.dep is made by depmod when it is installed,
// and this one never is). Each module's `depends=` is read from its ELF
// .modinfo section, and the modules come out in load order (a module after
// everything it depends on), which is the order /init insmods them in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The board's drivers: virtio over PCI, its network and block devices, ext4 (and crc32c, which ext4 asks the crypto API for). */
export const BOARD_MODULES = ['virtio_pci', 'virtio_net', 'virtio_blk', 'crc32c_generic', 'ext4'];

/** The .modinfo strings of an ELF64 little-endian module. */
export function modinfo(file: Buffer): Map<string, string[]> {
  if (file.readUInt32BE(0) !== 0x7f454c46 || file[4] !== 2 || file[5] !== 1) throw new Error('not an ELF64 little-endian module');
  const shoff = Number(file.readBigUInt64LE(0x28));
  const shentsize = file.readUInt16LE(0x3a);
  const shnum = file.readUInt16LE(0x3c);
  const shstrndx = file.readUInt16LE(0x3e);
  const section = (i: number) => {
    const at = shoff + i * shentsize;
    return { name: file.readUInt32LE(at), offset: Number(file.readBigUInt64LE(at + 0x18)), size: Number(file.readBigUInt64LE(at + 0x20)) };
  };
  const names = section(shstrndx);
  const nameOf = (n: number) => {
    const start = names.offset + n;
    return file.toString('latin1', start, file.indexOf(0, start));
  };
  const out = new Map<string, string[]>();
  for (let i = 0; i < shnum; i++) {
    const s = section(i);
    if (nameOf(s.name) !== '.modinfo') continue;
    for (const entry of file.toString('utf8', s.offset, s.offset + s.size).split('\0')) {
      const eq = entry.indexOf('=');
      if (eq <= 0) continue;
      const k = entry.slice(0, eq);
      out.set(k, [...(out.get(k) ?? []), entry.slice(eq + 1)]);
    }
  }
  return out;
}

const norm = (name: string) => name.replace(/-/g, '_');

/**
 * The modules to load, dependencies first, as paths under
 * lib/modules/<release>/ (modules.order names where each one is).
 */
export function moduleLoadOrder(modulesDir: string, wanted = BOARD_MODULES): Array<{ name: string; path: string }> {
  const where = new Map<string, string>();
  for (const line of readFileSync(join(modulesDir, 'modules.order'), 'utf8').split('\n')) {
    const path = line.trim();
    if (!path) continue;
    const base = path.split('/').pop()!.replace(/\.ko(\.xz|\.zst|\.gz)?$/, '');
    where.set(norm(base), path);
  }
  const builtin = new Set(
    readFileSync(join(modulesDir, 'modules.builtin'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((p) => norm(p.split('/').pop()!.replace(/\.ko$/, ''))),
  );
  const order: Array<{ name: string; path: string }> = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, chain: string[]) => {
    const n = norm(name);
    if (builtin.has(n) || state.get(n) === 'done') return;
    if (state.get(n) === 'visiting') throw new Error(`module dependency cycle: ${[...chain, n].join(' -> ')}`);
    const path = where.get(n);
    if (!path) throw new Error(`kernel module ${n} is neither in modules.order nor built in (${chain.join(' -> ') || 'wanted'})`);
    if (!path.endsWith('.ko')) throw new Error(`kernel module ${path} is compressed; busybox insmod here takes plain .ko`);
    state.set(n, 'visiting');
    const deps = (modinfo(readFileSync(join(modulesDir, path))).get('depends') ?? []).flatMap((d) => d.split(',')).filter(Boolean);
    for (const d of deps) visit(d, [...chain, n]);
    state.set(n, 'done');
    order.push({ name: n, path });
  };
  for (const w of wanted) visit(w, []);
  return order;
}
