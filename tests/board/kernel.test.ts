// The board's kernel as QEMU boots it (board/kernel.ts): the ELF found inside a bzImage through its
// setup header, unpacked from gzip or xz, used only when it has a PVH entry note; anything else
// boots as the bzImage. On made-up images here; tests/board/board.test.ts boots Debian's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bootableKernel, bzImagePayload, hasPvhEntry } from '../../board/kernel.ts';

/** A note: its name and descriptor, each padded to four bytes. */
function note(name: string, type: number, desc: Buffer): Buffer {
  const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
  const head = Buffer.alloc(12);
  head.writeUInt32LE(name.length + 1, 0);
  head.writeUInt32LE(desc.length, 4);
  head.writeUInt32LE(type, 8);
  return Buffer.concat([head, pad(Buffer.from(`${name}\0`, 'latin1')), pad(desc)]);
}

/** A 64-bit little-endian ELF holding one PT_NOTE segment with these notes. */
function elf(notes: Buffer[]): Buffer {
  const body = Buffer.concat(notes);
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 2; // 64-bit
  header[5] = 1; // little-endian
  header.writeBigUInt64LE(64n, 0x20); // program headers right after
  header.writeUInt16LE(56, 0x36);
  header.writeUInt16LE(1, 0x38);
  const ph = Buffer.alloc(56);
  ph.writeUInt32LE(4, 0); // PT_NOTE
  ph.writeBigUInt64LE(120n, 8);
  ph.writeBigUInt64LE(BigInt(body.length), 32);
  return Buffer.concat([header, ph, body, Buffer.alloc(4096)]);
}

/** A bzImage's outline: boot sector and setup sectors with the header, then the payload and the 4-byte size the build appends. */
function bzImage(payload: Buffer, setupSects = 3): Buffer {
  const setup = Buffer.alloc((setupSects + 1) * 512);
  setup[0x1f1] = setupSects;
  setup.write('HdrS', 0x202, 'latin1');
  setup.writeUInt16LE(0x020f, 0x206);
  setup.writeUInt32LE(100, 0x248); // payload_offset, from the protected-mode part
  setup.writeUInt32LE(payload.length, 0x24c);
  return Buffer.concat([setup, Buffer.alloc(100, 0x90), payload, Buffer.from([1, 2, 3, 4]), Buffer.alloc(64)]);
}

const PVH = elf([note('GNU', 3, Buffer.alloc(20)), note('Xen', 18, Buffer.from([0, 0, 0, 1]))]);
const NO_PVH = elf([note('GNU', 3, Buffer.alloc(20)), note('Xen', 17, Buffer.alloc(4))]);

test('the PVH entry note is found among the notes, and only that note', () => {
  assert.ok(hasPvhEntry(PVH));
  assert.not.ok(hasPvhEntry(NO_PVH), 'another Xen note');
  assert.not.ok(hasPvhEntry(elf([note('Linux', 18, Buffer.alloc(4))])), 'type 18 under another name');
  assert.not.ok(hasPvhEntry(Buffer.from('not an ELF at all, long enough to read a header from'.repeat(2))));
});

test('the payload is where the setup header says, whatever the number of setup sectors', () => {
  const payload = gzipSync(PVH);
  for (const sects of [1, 3, 30]) assert.ok(bzImagePayload(bzImage(payload, sects))?.equals(payload), `${sects} setup sectors`);
  const old = bzImage(payload);
  old.writeUInt16LE(0x0206, 0x206);
  assert.is(bzImagePayload(old), null, 'a boot protocol before 2.08 names no payload');
  assert.is(bzImagePayload(PVH), null, 'an ELF is no bzImage');
});

test('gzip and xz kernels are unpacked once and kept; a kernel without the PVH note boots as the bzImage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'board-kernel-'));
  try {
    const xz = spawnSync('xz', ['--format=xz', '--check=crc32', '--stdout'], { input: PVH });
    assert.is(xz.status, 0, 'xz-utils is on this machine (npm test installs it)');
    for (const [kind, payload] of [['gzip', gzipSync(PVH)], ['xz', xz.stdout]] as const) {
      const image = join(dir, `vmlinuz-${kind}`);
      const out = join(dir, `vmlinux-${kind}`);
      writeFileSync(image, bzImage(payload));
      const lines: string[] = [];
      assert.is(bootableKernel(image, out, (l) => lines.push(l)), out, kind);
      assert.ok(readFileSync(out).equals(PVH), `${kind}: the ELF, byte for byte`);
      assert.match(lines.join('\n'), /booted through its PVH entry/);
      writeFileSync(image, 'changed');
      assert.is(bootableKernel(image, out), out, `${kind}: kept, not unpacked again`);
    }
    const plain = join(dir, 'vmlinuz-plain');
    writeFileSync(plain, bzImage(gzipSync(NO_PVH)));
    const lines: string[] = [];
    assert.is(bootableKernel(plain, join(dir, 'vmlinux-plain'), (l) => lines.push(l)), plain);
    assert.not.ok(existsSync(join(dir, 'vmlinux-plain')), 'nothing kept');
    assert.match(lines.join('\n'), /no ELF with a PVH entry/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
