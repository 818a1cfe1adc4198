// The board's kernel as QEMU boots it quickest: the ELF inside Debian's bzImage, entered through
// its PVH note. A bzImage goes through the BIOS's real-mode start and then decompresses itself
// (Debian's is xz): under TCG that was 3.5 s of a 10.4 s boot to the login prompt, before the
// kernel's first line. QEMU loads an ELF with the PVH entry note (CONFIG_PVH, which Debian's amd64
// kernel has) straight into memory and jumps to it: the same kernel, 7 s to the login prompt.
// Unpacked once on the host, beside the package; a kernel without the note boots as the bzImage.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** The compressed kernel inside a bzImage (boot protocol 2.08 and later: payload_offset and payload_length), or null. */
export function bzImagePayload(image: Buffer): Buffer | null {
  if (image.length < 0x250 || image.toString('latin1', 0x202, 0x206) !== 'HdrS' || image.readUInt16LE(0x206) < 0x0208) return null;
  // The protected-mode part starts after the setup sectors (0 means 4) and the boot sector.
  const protectedMode = ((image[0x1f1] || 4) + 1) * 512;
  const start = protectedMode + image.readUInt32LE(0x248);
  const end = start + image.readUInt32LE(0x24c);
  return end <= image.length ? image.subarray(start, end) : null;
}

/** The payload decompressed: gzip here, xz through xz-utils; null for another format. */
export function decompress(payload: Buffer): Buffer | null {
  if (payload[0] === 0x1f && payload[1] === 0x8b) return gunzipSync(payload);
  if (payload.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) {
    // --single-stream: the build appends the decompressed size after the stream, which is not xz.
    const r = spawnSync('xz', ['--decompress', '--stdout', '--single-stream'], { input: payload, maxBuffer: 1 << 30 });
    if (r.error || r.status !== 0) throw new Error(`xz could not unpack the kernel: ${r.error?.message ?? r.stderr.toString().trim()} (apt-get install xz-utils)`);
    return r.stdout;
  }
  return null;
}

/** XEN_ELFNOTE_PHYS32_ENTRY: the note that gives a PVH entry point (what QEMU looks for in an ELF kernel). */
const PVH_ENTRY_NOTE = 18;

/** Whether `elf` is a 64-bit little-endian ELF with a PVH entry note in one of its PT_NOTE segments. */
export function hasPvhEntry(elf: Buffer): boolean {
  if (elf.length < 64 || elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2 || elf[5] !== 1) return false;
  const phoff = Number(elf.readBigUInt64LE(0x20));
  const phentsize = elf.readUInt16LE(0x36);
  const phnum = elf.readUInt16LE(0x38);
  const align4 = (n: number) => (n + 3) & ~3;
  for (let i = 0; i < phnum; i++) {
    const ph = phoff + i * phentsize;
    if (ph + 56 > elf.length || elf.readUInt32LE(ph) !== 4) continue; // PT_NOTE
    const start = Number(elf.readBigUInt64LE(ph + 8));
    const end = Math.min(elf.length, start + Number(elf.readBigUInt64LE(ph + 32)));
    for (let n = start; n + 12 <= end; ) {
      const namesz = elf.readUInt32LE(n);
      const descsz = elf.readUInt32LE(n + 4);
      const type = elf.readUInt32LE(n + 8);
      const name = elf.toString('latin1', n + 12, n + 12 + namesz);
      if (name === 'Xen\0' && type === PVH_ENTRY_NOTE) return true;
      n += 12 + align4(namesz) + align4(descsz);
    }
  }
  return false;
}

/**
 * The kernel to give QEMU's -kernel: the ELF unpacked from `bzImage` into `elfPath` (once; kept
 * there) when it has a PVH entry, else the bzImage itself. `log` says which.
 */
export function bootableKernel(bzImage: string, elfPath: string, log: (line: string) => void = () => undefined): string {
  if (existsSync(elfPath)) return elfPath;
  const payload = bzImagePayload(readFileSync(bzImage));
  const elf = payload && decompress(payload);
  if (!elf || !hasPvhEntry(elf)) {
    log(`board: ${bzImage} has no ELF with a PVH entry inside; QEMU boots the bzImage (its own decompression included)`);
    return bzImage;
  }
  writeFileSync(`${elfPath}.part`, elf);
  renameSync(`${elfPath}.part`, elfPath);
  log(`board: kernel ${elfPath} (the ELF inside ${bzImage}, ${(elf.length / 1048576).toFixed(0)} MiB), booted through its PVH entry`);
  return elfPath;
}
