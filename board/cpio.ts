// A cpio archive in the "newc" format (SVR4, no CRC), the one the Linux
// kernel unpacks as an initramfs: a 110-byte ASCII header per entry, its
// name, its data, each padded to 4 bytes, and a TRAILER!!! entry at the end.

export type CpioEntry =
  | { path: string; kind: 'dir'; mode?: number }
  | { path: string; kind: 'file'; data: Buffer | string; mode?: number }
  | { path: string; kind: 'symlink'; target: string }
  | { path: string; kind: 'char'; major: number; minor: number; mode?: number };

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
const S_IFCHR = 0o020000;

const hex = (n: number) => n.toString(16).padStart(8, '0');
const pad4 = (n: number) => Buffer.alloc((4 - (n % 4)) % 4);

function header(ino: number, mode: number, size: number, name: string, rdev: [number, number] = [0, 0]): Buffer {
  const nameBytes = Buffer.from(`${name}\0`);
  // magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor, devminor, rdevmajor, rdevminor, namesize, check
  const fields = [ino, mode, 0, 0, mode & S_IFDIR ? 2 : 1, 0, size, 0, 0, rdev[0], rdev[1], nameBytes.length, 0];
  const h = Buffer.from(`070701${fields.map(hex).join('')}`, 'ascii');
  return Buffer.concat([h, nameBytes, pad4(h.length + nameBytes.length)]);
}

/**
 * The archive of `entries` (paths without a leading slash), parents made
 * first whether listed or not, every entry owned by root with mtime 0, so the
 * same inputs give the same bytes.
 */
export function cpio(entries: CpioEntry[]): Buffer {
  const byPath = new Map<string, CpioEntry>();
  for (const e of entries) {
    const path = e.path.replace(/^\/+/, '').replace(/\/+$/, '');
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!byPath.has(dir)) byPath.set(dir, { path: dir, kind: 'dir' });
    }
    byPath.set(path, { ...e, path });
  }
  const out: Buffer[] = [];
  let ino = 1;
  for (const e of [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    let mode: number;
    let data: Buffer = Buffer.alloc(0);
    let rdev: [number, number] = [0, 0];
    if (e.kind === 'dir') mode = S_IFDIR | (e.mode ?? 0o755);
    else if (e.kind === 'file') {
      mode = S_IFREG | (e.mode ?? 0o644);
      data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    } else if (e.kind === 'symlink') {
      mode = S_IFLNK | 0o777;
      data = Buffer.from(e.target);
    } else {
      mode = S_IFCHR | (e.mode ?? 0o600);
      rdev = [e.major, e.minor];
    }
    out.push(header(ino++, mode, data.length, e.path, rdev), data, pad4(data.length));
  }
  out.push(header(0, 0, 0, 'TRAILER!!!'));
  const all = Buffer.concat(out);
  return Buffer.concat([all, Buffer.alloc((512 - (all.length % 512)) % 512)]);
}
