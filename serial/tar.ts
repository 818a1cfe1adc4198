// The flash image: a POSIX ustar archive of one brand's dist folder.
// Written deterministically (sorted names, mtime 0, uid/gid 0, mode 0644, no
// compression: the files inside are gzip already), so the same build gives
// the same image and the same SHA-256. busybox `tar -xf` unpacks it.
// The reader is the simulated terminal's `tar`; it refuses anything but plain
// files and folders with safe relative names.

const BLOCK = 512;

export interface TarEntry {
  name: string;
  data: Buffer;
}

function octal(value: number, width: number): string {
  // width includes the terminating NUL
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, type: '0' | '5'): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`tar: name too long for ustar: ${name}`);
  nameBytes.copy(h, 0);
  h.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii'); // uid
  h.write(octal(0, 8), 116, 'ascii'); // gid
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(0, 12), 136, 'ascii'); // mtime: fixed, for reproducible images
  h.write('        ', 148, 'ascii'); // checksum placeholder: spaces
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write('root', 265, 'ascii');
  h.write('root', 297, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

/** Build an archive of flat files, sorted by name. */
export function writeTar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    parts.push(header(e.name, e.data.length, '0'), e.data);
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return Buffer.concat(parts);
}

function readString(b: Buffer, start: number, len: number): string {
  const s = b.subarray(start, start + len);
  const nul = s.indexOf(0);
  return s.subarray(0, nul < 0 ? len : nul).toString('utf8');
}

function readOctal(b: Buffer, start: number, len: number): number {
  const s = readString(b, start, len).trim();
  if (!/^[0-7]*$/.test(s)) throw new Error('tar: bad number field');
  return s ? parseInt(s, 8) : 0;
}

export interface TarItem {
  name: string;
  type: 'file' | 'dir';
  data: Buffer;
}

/** A name that stays inside the folder it is unpacked into. */
export function safeName(name: string): boolean {
  if (!name || name.startsWith('/') || name.includes('\\') || name.includes('\0')) return false;
  return name.split('/').every((part) => part !== '..');
}

/** Read an archive; throws on a damaged or truncated one, or an unsafe entry. */
export function readTar(buf: Buffer): TarItem[] {
  const items: TarItem[] = [];
  let off = 0;
  for (;;) {
    if (off + BLOCK > buf.length) throw new Error('tar: unexpected end of archive');
    const h = buf.subarray(off, off + BLOCK);
    if (h.every((b) => b === 0)) {
      // End of archive: two zero blocks (one is tolerated at the very end).
      return items;
    }
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
    if (sum !== readOctal(h, 148, 8)) throw new Error('tar: header checksum mismatch');
    const prefix = readString(h, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + readString(h, 0, 100);
    const size = readOctal(h, 124, 12);
    const flag = String.fromCharCode(h[156] || 48);
    off += BLOCK;
    if (flag !== '0' && flag !== '5') throw new Error(`tar: unsupported entry type ${flag} for ${name}`);
    const clean = name.replace(/^\.\//, '').replace(/\/$/, '');
    if (!safeName(clean)) throw new Error(`tar: unsafe name ${name}`);
    if (off + size > buf.length) throw new Error('tar: unexpected end of archive');
    items.push({ name: clean, type: flag === '5' ? 'dir' : 'file', data: Buffer.from(buf.subarray(off, off + size)) });
    off += Math.ceil(size / BLOCK) * BLOCK;
  }
}
