// ZMODEM: our sender (serial/zmodem.ts) against lrzsz's real rz over socat pty
// pairs, through the fault shim (errors, a pulled cable, a line paced at
// 115200 baud), and against a scripted receiver for what rz never asks for
// (CRC-16, escaped control characters, a receiver buffer size, ZNAK); plus
// CRC and framing units.
//
// The throughput test runs first, before the other tests keep the CPU busy:
// it flashes the default brand's image with ZMODEM to rz and with YMODEM to
// rb side by side (each on its own paced shim), timed from the receiver's
// start to its exit, which is what the harness pays.
//
// ZMODEM_TEST=text runs only the tests whose names contain it, YMODEM_TRACE=1
// prints the last traffic on each link and rz's stderr when a test fails.
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../build.ts';
import { defaultBrand } from '../../build/project.ts';
import { makeImage } from '../../hil/image.ts';
import { streamLink, type ByteLink } from '../../serial/link.ts';
import { ymodemSend } from '../../serial/ymodem-send.ts';
import { crc16Xmodem, type Protocol, type TransferFile, type TransferProgress } from '../../serial/transfer.ts';
import { ZmodemError, zmodemSend } from '../../serial/zmodem.ts';
import {
  CANFDX, CANOVIO, ESCCTL, ZACK, ZCRCE, ZCRCG, ZCRCW, ZDATA, ZDLE, ZEOF, ZFILE, ZFIN, ZNAK, ZPAD, ZRINIT, ZRPOS, ZRQINIT, ZSKIP,
  ZEncoder, crc32, hexHeader, posArg,
} from '../../serial/zmodem/frame.ts';
import {
  BAUD, RB_TIMEOUT, exitOf, filesOf, guarded, lineRate, lrzsz, pct, ptyPair, seededBytes, seenC, serialLink,
  serialStream, shimmed, startOnTty, withTimeout, type Proc, type Scope,
} from '../../hil/paced-line.ts';
import { FAULTS, checkProgress, rejection, sameOnDisk } from './transfer-checks.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const only = process.env.ZMODEM_TEST;
const test = (name: string, fn: () => void | Promise<void>) => {
  if (!only || name.includes(only)) uvuTest(name, fn);
};

const RZ = lrzsz('rz');
const RB = lrzsz('rb');

/**
 * Resolves once the receiver's ZRINIT has arrived (it stays on the link for
 * zmodemSend), so that a test's short timeouts do not run out while rz is
 * still starting on a busy machine.
 */
function seenZrinit(link: ByteLink, ms: number): Promise<void> {
  let tail = '';
  return withTimeout(
    new Promise<void>((resolve) => {
      const off = link.onData((chunk) => {
        tail = (tail + chunk.toString('latin1')).slice(-64);
        if (tail.includes('**\x18B01')) {
          off();
          resolve();
        }
      });
    }),
    ms,
    "rz's ZRINIT",
  );
}

/** A receiver's temp dir with an empty recv/ folder. */
function recvDir(scope: Scope): { dir: string; recv: string } {
  const dir = scope.tmpdir('zmodem-');
  const recv = join(dir, 'recv');
  mkdirSync(recv);
  return { dir, recv };
}

// ---------------------------------------------------------------------------
// The receiving side of our framing, written from the spec, for the scripted
// receiver and the units: headers and subpackets read off a ByteLink.

interface PeerHeader {
  type: number;
  arg: number[];
  pos: number;
  format: 'hex' | 'bin16' | 'bin32';
}

class Peer {
  /** Raw bytes of the subpacket being read (to check what was escaped). */
  private raw: number[] = [];

  constructor(
    readonly link: ByteLink,
    private readonly ms = 3000,
  ) {}

  private async byte(): Promise<number> {
    const c = await this.link.readByte(this.ms);
    this.raw.push(c);
    return c;
  }

  /** One data byte (ZDLE sequences decoded, XON/XOFF ignored as a receiver must), or the subpacket end. */
  private async decoded(): Promise<number | { end: number }> {
    for (;;) {
      const c = await this.byte();
      if ((c & 0x7f) === 0x11 || (c & 0x7f) === 0x13) continue;
      if (c !== ZDLE) return c;
      const d = await this.byte();
      if (d >= ZCRCE && d <= ZCRCW) return { end: d };
      if ((d & 0x60) !== 0x40) throw new Error(`bad escape ZDLE 0x${d.toString(16)}`);
      return d ^ 0x40;
    }
  }

  private async bytes(n: number): Promise<Buffer> {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      const d = await this.decoded();
      if (typeof d !== 'number') throw new Error('subpacket end inside a header or CRC');
      out[i] = d;
    }
    return out;
  }

  async header(): Promise<PeerHeader> {
    let c: number;
    do c = await this.byte();
    while (c !== ZPAD);
    while ((c = await this.byte()) === ZPAD);
    assert.is(c, ZDLE, 'ZDLE after ZPAD');
    const f = await this.byte();
    let b: Buffer;
    let format: PeerHeader['format'];
    if (f === 0x42) {
      b = Buffer.from((await this.link.readExact(14, this.ms)).toString('latin1'), 'hex');
      assert.is(crc16Xmodem(b), 0, 'hex header CRC');
      assert.equal([...(await this.link.readExact(2, this.ms))], [0x0d, 0x0a], 'CR LF after a hex header');
      format = 'hex';
    } else if (f === 0x41) {
      b = await this.bytes(7);
      assert.is(crc16Xmodem(b), 0, 'ZBIN header CRC');
      format = 'bin16';
    } else {
      assert.is(f, 0x43, 'header format');
      b = await this.bytes(9);
      assert.is(b.readUInt32LE(5), crc32(b, 0, 5), 'ZBIN32 header CRC');
      format = 'bin32';
    }
    return { type: b[0], arg: [...b.subarray(1, 5)], pos: b.readUInt32LE(1), format };
  }

  /** The next header after any more ZRQINITs (the sender repeats it every 2 s until it has a ZRINIT). */
  async afterZrqinit(): Promise<PeerHeader> {
    let h: PeerHeader;
    do h = await this.header();
    while (h.type === ZRQINIT);
    return h;
  }

  /** A data subpacket with its CRC checked; `controls`: raw control characters in it other than ZDLE. */
  async subpacket(crc32Mode: boolean): Promise<{ data: Buffer; end: number; controls: number }> {
    this.raw = [];
    const data: number[] = [];
    let end: number;
    for (;;) {
      const d = await this.decoded();
      if (typeof d === 'number') data.push(d);
      else {
        end = d.end;
        break;
      }
    }
    const covered = Buffer.from([...data, end]);
    if (crc32Mode) assert.is((await this.bytes(4)).readUInt32LE(0), crc32(covered), 'subpacket CRC-32');
    else assert.is((await this.bytes(2)).readUInt16BE(0), crc16Xmodem(covered), 'subpacket CRC-16');
    const controls = this.raw.filter((c) => (c & 0x60) === 0 && c !== ZDLE).length;
    if (end === ZCRCW) assert.is(await this.link.readByte(this.ms), 0x11, 'XON after ZCRCW');
    return { data: Buffer.from(data), end, controls };
  }
}

/** A link whose writes come back as its input. */
const loopback = () => streamLink(new PassThrough());

// ---------------------------------------------------------------------------
// Throughput at 115200 baud: the flash image, ZMODEM to rz and YMODEM to rb

interface Timing {
  bytes: number;
  /** From starting the receiver to its exit with the file on disk, ms. */
  allMs: number;
  /** The data alone, ms (ZMODEM: first ZDATA to the last ZEOF's ZRINIT; YMODEM: block 0's ACK to the last block's). */
  dataMs: number;
  /** Line time the shim lost to late timers, both directions, ms. */
  lateMs: number;
}

async function pacedTransfer(scope: Scope, protocol: Protocol, file: TransferFile): Promise<Timing> {
  const { dir, recv } = recvDir(scope);
  const { near, far, shim } = await shimmed(scope, dir, { baud: BAUD });
  const link = await serialLink(scope, near);
  let dataMs: number;
  let t0: number;
  let proc: Proc;
  if (protocol === 'zmodem') {
    t0 = performance.now();
    proc = startOnTty(scope, RZ, ['-y'], far, recv);
    const stats = await zmodemSend(link, [file]);
    dataMs = stats.dataEndAt - stats.dataStartAt;
  } else {
    // rb's first 'C' comes after a second or more; our sender's short rb timeout must not run out before it.
    const ready = seenC(link, 10_000);
    t0 = performance.now();
    proc = startOnTty(scope, RB, ['-y'], far, recv);
    await ready;
    const t = { from: 0, to: 0 };
    const onProgress = (p: TransferProgress) => {
      if (p.bytes === 0) t.from = performance.now();
      if (p.bytes === p.total) t.to = performance.now();
    };
    await ymodemSend(link, [file], { timeoutMs: RB_TIMEOUT, onProgress });
    dataMs = t.to - t.from;
  }
  assert.is(await exitOf(proc, 15_000, protocol === 'zmodem' ? 'rz' : 'rb'), 0);
  const allMs = performance.now() - t0;
  sameOnDisk(recv, [file]);
  const c = shim.counters;
  return { bytes: file.data.length, allMs, dataMs, lateMs: c.aToB.lateMs + c.bToA.lateMs };
}

/** "x % of line rate", and without the line time a busy machine's late shim timers lost. */
function share(bytes: number, ms: number, lateMs: number) {
  const { raw, fair } = lineRate(bytes, ms, lateMs);
  const text = `${(ms / 1000).toFixed(1)} s, ${raw.toFixed(1)} % of line rate` + (lateMs >= 1 ? ` (${fair.toFixed(1)} % without the ${lateMs.toFixed(0)} ms the shim lost to late timers)` : '');
  return { ok: raw >= 90 || fair >= 90, text };
}

test(
  'throughput at 115200 baud, the default brand image: ZMODEM to rz (whole transfer >= 90 % of line rate) and YMODEM to rb',
  guarded(90_000, async (scope) => {
    const brand = defaultBrand();
    const site = join(ROOT, 'dist', brand);
    await ensureBuilt(brand, { quiet: true });
    const image = makeImage(site);
    const file = { name: image.name, data: image.data };
    // One measurement each: a shortfall is a failure to look into, never measured again into green.
    const [z, y] = await Promise.all([pacedTransfer(scope, 'zmodem', file), pacedTransfer(scope, 'ymodem', file)]);
    const zAll = share(z.bytes, z.allMs, z.lateMs);
    const line = `${image.data.length}-byte image of ${brand} at 115200 baud`;
    console.log(`ZMODEM to rz, ${line}: whole transfer (rz started to rz exited) ${zAll.text}; data only ${share(z.bytes, z.dataMs, z.lateMs).text}`);
    console.log(
      `YMODEM to rb, ${line}: whole transfer (rb started to rb exited) ${share(y.bytes, y.allMs, y.lateMs).text}; ` +
        `data only ${share(y.bytes, y.dataMs, y.lateMs).text}`,
    );
    console.log(`ZMODEM whole transfer took ${((100 * z.allMs) / y.allMs).toFixed(0)} % of YMODEM's (${(pct(z.bytes, z.allMs) / pct(y.bytes, y.allMs)).toFixed(2)} x the rate)`);
    assert.ok(zAll.ok, `ZMODEM whole transfer: ${zAll.text}`);
  }),
);

// ---------------------------------------------------------------------------
// Units

test('CRC-32 and CRC-16 of known vectors', () => {
  assert.is(crc32(Buffer.from('123456789')), 0xcbf43926);
  assert.is(crc32(Buffer.alloc(0)), 0);
  assert.is(crc32(Buffer.from('The quick brown fox jumps over the lazy dog')), 0x414fa339);
  assert.is(crc32(Buffer.from('xx123456789yy'), 2, 11), 0xcbf43926);
  assert.is(crc16Xmodem(Buffer.from('123456789')), 0x31c3);
});

test('hex headers, byte for byte', () => {
  assert.is(hexHeader(ZRQINIT).toString('latin1'), '**\x18B00000000000000\r\n\x11');
  // rz's own ZRINIT (CANFC32 | CANOVIO | CANFDX), as captured from lrzsz 0.12.21 (which sends LF with the high bit)
  assert.is(hexHeader(ZRINIT, [0, 0, 0, 0x23]).toString('latin1'), '**\x18B0100000023be50\r\n\x11');
  // no XON after ZFIN (it would reach the shell) or ZACK
  assert.is(hexHeader(ZFIN).toString('latin1'), '**\x18B0800000000022d\r\n');
  assert.ok(hexHeader(ZACK, posArg(0x1234)).toString('latin1').startsWith('**\x18B0334120000'));
  assert.ok(!hexHeader(ZACK).includes(0x11));
  assert.equal(posArg(0x12345678), [0x78, 0x56, 0x34, 0x12]);
});

test('ZDLE escaping: what must be escaped is, and binary headers and subpackets decode to what went in', async () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const must = [0x18, 0x10, 0x90, 0x11, 0x91, 0x13, 0x93];
  const plain = new ZEncoder(true, false).escape(all);
  for (let i = 0; i < plain.length; i++) {
    if (plain[i] === ZDLE) i++; // the escaped byte
    else assert.not.ok(must.includes(plain[i]), `raw 0x${plain[i].toString(16)} on the wire`);
  }
  assert.is(plain.length, 256 + must.length);
  const ctl = new ZEncoder(true, true).escape(all);
  for (let i = 0; i < ctl.length; i++) {
    if (ctl[i] === ZDLE) i++;
    else assert.ok((ctl[i] & 0x60) !== 0, `ESCCTL: raw control 0x${ctl[i].toString(16)}`);
  }
  // CR after '@' (Telenet's escape), with or without the high bit; not after other bytes
  assert.equal([...new ZEncoder().escape(Buffer.from('@\r\xc0\x8dA\r', 'latin1'))], [0x40, ZDLE, 0x4d, 0xc0, ZDLE, 0xcd, 0x41, 0x0d]);

  for (const [crc, escctl] of [[true, false], [false, false], [true, true], [false, true]]) {
    const link = loopback();
    const peer = new Peer(link, 1000);
    const enc = new ZEncoder(crc, escctl);
    const data = Buffer.concat([all, Buffer.from('@\r@\r\x18\x18'), seededBytes(3000, 9)]);
    await link.write(enc.header(ZDATA, posArg(0x01020304)));
    await link.write(enc.subpacket(data, 0, 1024, ZCRCG));
    await link.write(enc.subpacket(data, 1024, data.length, ZCRCW));
    await link.write(enc.subpacket(data, 0, 0, ZCRCE));
    const h = await peer.header();
    assert.equal([h.type, h.pos, h.format], [ZDATA, 0x01020304, crc ? 'bin32' : 'bin16']);
    const a = await peer.subpacket(crc);
    const b = await peer.subpacket(crc);
    const e = await peer.subpacket(crc);
    assert.equal([a.end, b.end, e.end, e.data.length], [ZCRCG, ZCRCW, ZCRCE, 0]);
    assert.ok(Buffer.concat([a.data, b.data]).equals(data), `round trip (CRC-${crc ? 32 : 16}${escctl ? ', ESCCTL' : ''})`);
    if (escctl) assert.is(a.controls + b.controls, 0, 'no raw control characters with ESCCTL');
    await link.close();
  }
});

// ---------------------------------------------------------------------------
// Our sender -> lrzsz rz over pty pairs

/** One session to rz on a pty pair; resolves with the stats after rz exited 0 and the files are on disk. */
async function toRz(scope: Scope, files: TransferFile[], rzArgs: string[]) {
  const { dir, recv } = recvDir(scope);
  const { a, b } = await ptyPair(scope, dir, 'p');
  const link = await serialLink(scope, a); // before rz starts: opening the port flushes it
  const rz = startOnTty(scope, RZ, rzArgs, b, recv);
  const progress: TransferProgress[] = [];
  const stats = await zmodemSend(link, files, { onProgress: (p) => progress.push(p) });
  assert.is(await exitOf(rz, 10_000, 'rz'), 0, `rz exit status; stderr: ${rz.stderr().slice(-300)}`);
  assert.equal(readdirSync(recv).sort(), files.map((f) => f.name).sort());
  sameOnDisk(recv, files);
  checkProgress(progress, files);
  return stats;
}

test(
  'our sender -> lrzsz rz: 0, 1, 1023, 1024, 1025, 3072 bytes and 1 MiB, three sessions side by side (one with rz -e)',
  guarded(30_000, async (scope) => {
    const [one, escaped, big] = await Promise.all([
      toRz(scope, filesOf([0, 1, 1023, 1024], 50), ['-y']),
      toRz(scope, filesOf([1025, 3 * 1024], 51), ['-y', '-e']),
      toRz(scope, filesOf([1024 * 1024], 52), ['-y']),
    ]);
    for (const s of [one, escaped, big]) {
      assert.is(s.ended, 'zfin');
      assert.equal(s.skipped, []);
      assert.ok(s.receiver.crc32 && s.receiver.fullDuplex, 'rz offers CRC-32 and full duplex');
    }
    assert.ok(escaped.receiver.escapeControls, 'rz -e asks for escaped control characters');
    assert.is(big.bytes, 1024 * 1024);
    assert.is(big.restarts, 0);
  }),
);

test(
  'lrzsz rz: an existing file is refused (ZSKIP) and the next one still arrives; rz -r resumes a partial file from the offset it asks for',
  guarded(30_000, async (scope) => {
    const skip = async () => {
      const { dir, recv } = recvDir(scope);
      const files = filesOf([5000, 3000], 53);
      writeFileSync(join(recv, files[0].name), 'old');
      const { a, b } = await ptyPair(scope, dir, 'p');
      const link = await serialLink(scope, a);
      const rz = startOnTty(scope, RZ, [], b, recv); // no -y: rz keeps what exists
      const stats = await zmodemSend(link, files);
      assert.is(await exitOf(rz, 10_000, 'rz'), 0);
      assert.equal(stats.skipped, [files[0].name]);
      assert.is(readFileSync(join(recv, files[0].name), 'latin1'), 'old');
      sameOnDisk(recv, [files[1]]);
    };
    const resume = async () => {
      const { dir, recv } = recvDir(scope);
      const files = filesOf([5000], 54);
      writeFileSync(join(recv, files[0].name), files[0].data.subarray(0, 2000));
      const { a, b } = await ptyPair(scope, dir, 'p');
      const link = await serialLink(scope, a);
      const rz = startOnTty(scope, RZ, ['-r'], b, recv);
      const progress: TransferProgress[] = [];
      const stats = await zmodemSend(link, files, { onProgress: (p) => progress.push(p) });
      assert.is(await exitOf(rz, 10_000, 'rz'), 0);
      sameOnDisk(recv, files);
      assert.ok(progress[0].bytes > 0 && progress[0].bytes <= 2000, `started at offset ${progress[0].bytes}`);
      assert.is(stats.bytes, 5000 - progress[0].bytes);
    };
    await Promise.all([skip(), resume()]);
  }),
);

test(
  'our sender -> fault shim (1e-4) -> lrzsz rz, 256 KiB: arrives intact, recovered with ZRPOS',
  guarded(45_000, async (scope) => {
    const { dir, recv } = recvDir(scope);
    const { near, far, shim } = await shimmed(scope, dir, { ...FAULTS, seed: 20240612 });
    const link = await serialLink(scope, near);
    const files = filesOf([256 * 1024], 55);
    const ready = seenZrinit(link, 10_000);
    const rz = startOnTty(scope, RZ, ['-y'], far, recv);
    await ready;
    // rz itself waits 10 s for a lost header; our 2 s restarts a stalled stream sooner.
    const stats = await zmodemSend(link, files, { timeoutMs: 2000 });
    assert.is(await exitOf(rz, 10_000, 'rz'), 0, `rz exit status; stderr: ${rz.stderr().slice(-300)}`);
    sameOnDisk(recv, files);
    const c = shim.counters;
    assert.ok(c.dropped + c.corrupted > 5, `the shim injected faults: ${JSON.stringify(c)}`);
    assert.ok(stats.restarts > 0, 'restarted after errors');
    console.log(`fault shim to rz: ${c.aToB.passed} bytes sent for 256 KiB, ${c.dropped} dropped, ${c.corrupted} corrupted, ${stats.restarts} restarts`);
  }),
);

test(
  'cable cut half way: our sender fails with ZmodemError after its restarts, not at a hang',
  // 2 s for an answer: a busy machine's late timers must not end the transfer before the cut it is about.
  guarded(60_000, async (scope) => {
    const { dir, recv } = recvDir(scope);
    const size = 64 * 1024;
    const { near, far, shim } = await shimmed(scope, dir, { cutAfterBytes: size / 2 });
    const link = await serialLink(scope, near);
    const ready = seenZrinit(link, 10_000);
    startOnTty(scope, RZ, ['-y'], far, recv);
    await ready;
    const err = await rejection(zmodemSend(link, filesOf([size], 56), { timeoutMs: 2000, retries: 3 }));
    assert.ok(shim.cut);
    assert.instance(err, ZmodemError);
    assert.match(err.message, /^ZMODEM: 3 restarts at offset \d+ of f56-0-65536\.bin without progress \(last: no ZACK for 2000 ms\) while sending f56-0-65536\.bin, transfer aborted$/);
  }),
);

// ---------------------------------------------------------------------------
// The shell after the session

test(
  'shell text right after the session stays on the link (rz in a shell that prints HIL_OK and a prompt)',
  guarded(20_000, async (scope) => {
    const { dir, recv } = recvDir(scope);
    const { a, b } = await ptyPair(scope, dir, 'p');
    const link = await serialLink(scope, a);
    const files = filesOf([3000, 70_000], 57);
    const sh = startOnTty(scope, 'sh', ['-c', `${RZ} -y; echo HIL_OK; printf '# '`], b, recv);
    const stats = await zmodemSend(link, files, { shellBack: /^HIL_OK\r?$/m });
    assert.is(stats.ended, 'zfin');
    assert.match(await link.expect(/HIL_OK\r?\n# $/, 5000), /HIL_OK/);
    assert.is(await exitOf(sh, 5000, 'sh'), 0);
    sameOnDisk(recv, files);
  }),
);

/**
 * Two pty pairs joined by a relay that passes everything both ways, except
 * that `fromReceiver` may change what the receiver sends us (it is also
 * given a way to answer the receiver itself).
 */
async function relayed(scope: Scope, dir: string, fromReceiver: (chunk: Buffer, answer: (b: Buffer) => void) => Buffer) {
  const p1 = await ptyPair(scope, dir, 'near-');
  const p2 = await ptyPair(scope, dir, 'far-');
  const ours = await serialStream(scope, p1.b);
  const theirs = await serialStream(scope, p2.a);
  const answer = (b: Buffer) => void theirs.write(b);
  ours.on('data', (c: Buffer) => theirs.write(c));
  theirs.on('data', (c: Buffer) => {
    const out = fromReceiver(c, answer);
    if (out.length) ours.write(out);
  });
  return { near: p1.a, far: p2.b };
}

test(
  "the receiver's last ZFIN lost: the shell's text (shellBack) ends the session as complete and stays on the link",
  guarded(20_000, async (scope) => {
    const { dir, recv } = recvDir(scope);
    // rz's ZFIN exactly as it sends it (LF with the high bit).
    const zfin = Buffer.from('**\x18B0800000000022d\r\x8a', 'latin1');
    let held = Buffer.alloc(0);
    let dropped = false;
    const { near, far } = await relayed(scope, dir, (chunk, answer) => {
      let data = Buffer.concat([held, chunk]);
      const at = data.indexOf(zfin);
      if (at >= 0) {
        dropped = true;
        data = Buffer.concat([data.subarray(0, at), data.subarray(at + zfin.length)]);
        // Stands in for rz giving up on its ZFIN (lrzsz waits 10 s three times) so that the shell comes back now.
        answer(Buffer.from('OO'));
      }
      // Hold back a tail that may be the start of the ZFIN.
      let keep = Math.min(zfin.length - 1, data.length);
      while (keep > 0 && !data.subarray(data.length - keep).equals(zfin.subarray(0, keep))) keep--;
      held = data.subarray(data.length - keep);
      return data.subarray(0, data.length - keep);
    });
    const link = await serialLink(scope, near);
    const files = filesOf([4000], 58);
    const sh = startOnTty(scope, 'sh', ['-c', `${RZ} -y; echo HIL_OK; printf '# '`], far, recv);
    const stats = await zmodemSend(link, files, { shellBack: /^HIL_OK\r?$/m });
    assert.ok(dropped, "the relay dropped rz's ZFIN");
    assert.is(stats.ended, 'shell');
    assert.match(await link.expect(/HIL_OK\r?\n# $/, 3000), /HIL_OK/);
    assert.is(await exitOf(sh, 5000, 'sh'), 0);
    sameOnDisk(recv, files);
  }),
);

// ---------------------------------------------------------------------------
// A scripted receiver: what rz never asks for

test(
  'scripted receiver: junk before ZRINIT, CRC-16, ESCCTL, 2 KiB buffer (ZCRCW), ZNAK, non-zero ZRPOS, ZSKIP, text after its ZFIN stays',
  guarded(20_000, async (scope) => {
    const dir = scope.tmpdir('zmodem-');
    const { a, b } = await ptyPair(scope, dir, 'p');
    const link = await serialLink(scope, a);
    const peer = new Peer(await serialLink(scope, b));
    const say = (x: Buffer | string) => peer.link.write(x);
    const files = filesOf([5000, 100], 59);
    const data = files[0].data;
    const progress: TransferProgress[] = [];
    const sending = zmodemSend(link, files, { onProgress: (p) => progress.push(p) });
    sending.catch(() => {});

    assert.is((await peer.header()).type, ZRQINIT);
    // What a terminal shows before rz runs (the echoed command, rz's banner); then a ZRINIT with a 2048-byte buffer.
    await say(Buffer.concat([Buffer.from('# rz\r\nrz waiting to receive.'), hexHeader(ZRINIT, [0x00, 0x08, 0, CANFDX | CANOVIO | ESCCTL])]));
    let h = await peer.afterZrqinit();
    assert.equal([h.type, h.format, h.arg], [ZFILE, 'bin16', [0, 0, 0, 1]], 'ZFILE, CRC-16 (no CANFC32), binary (ZCBIN)');
    let sp = await peer.subpacket(false);
    assert.is(sp.end, ZCRCW);
    const [name, info] = sp.data.toString('latin1').split('\0');
    assert.is(name, files[0].name);
    assert.match(info, /^5000 [0-7]+ 100644 0$/);
    await say(hexHeader(ZNAK));
    h = await peer.header();
    assert.is(h.type, ZFILE, 'ZFILE again after ZNAK');
    await peer.subpacket(false);
    await say(hexHeader(ZRPOS, posArg(1000)));

    const got: Buffer[] = [];
    const frame = async (pos: number, ends: number[]) => {
      const hd = await peer.header();
      assert.equal([hd.type, hd.pos, hd.format], [ZDATA, pos, 'bin16']);
      for (const end of ends) {
        const s = await peer.subpacket(false);
        assert.is(s.end, end);
        assert.is(s.controls, 0, 'ESCCTL: no raw control characters');
        got.push(s.data);
      }
    };
    // The buffer's worth ends with ZCRCW; the next frame waits for our ZACK.
    await frame(1000, [ZCRCG, ZCRCW]);
    await say(hexHeader(ZACK, posArg(3048)));
    await frame(3048, [ZCRCG, ZCRCE]);
    assert.ok(Buffer.concat(got).equals(data.subarray(1000)), 'the data from offset 1000');
    h = await peer.header();
    assert.equal([h.type, h.pos], [ZEOF, 5000]);
    await say(hexHeader(ZNAK));
    h = await peer.header();
    assert.equal([h.type, h.pos], [ZEOF, 5000], 'ZEOF again after ZNAK');
    await say(hexHeader(ZRINIT, [0x00, 0x08, 0, CANFDX | CANOVIO | ESCCTL]));

    h = await peer.header();
    assert.is(h.type, ZFILE);
    await peer.subpacket(false);
    await say(hexHeader(ZSKIP));
    h = await peer.header();
    assert.equal([h.type, h.format], [ZFIN, 'hex']);
    // Our ZFIN and the shell in one write: the sender must read no further than the ZFIN.
    await say(Buffer.concat([hexHeader(ZFIN), Buffer.from('HIL_OK\r\n# ')]));
    assert.is((await peer.link.readExact(2, 2000)).toString(), 'OO');
    const stats = await sending;
    assert.equal(stats.skipped, [files[1].name]);
    assert.is(stats.ended, 'zfin');
    assert.is(stats.bytes, 4000);
    assert.equal(stats.receiver, { crc32: false, escapeControls: true, fullDuplex: true, bufferSize: 2048 });
    assert.is(await link.expect(/# $/, 1000), 'HIL_OK\r\n# ');
    assert.equal(
      progress.map((p) => p.bytes),
      [1000, 3048, 5000],
    );
  }),
);

test(
  'scripted receiver: CAN x 5 cancels with a clear error; no receiver at all fails after timeoutMs',
  guarded(15_000, async (scope) => {
    const dir = scope.tmpdir('zmodem-');
    const { a, b } = await ptyPair(scope, dir, 'p');
    const link = await serialLink(scope, a);
    const peer = new Peer(await serialLink(scope, b));
    const sending = zmodemSend(link, filesOf([100], 60));
    sending.catch(() => {});
    assert.is((await peer.header()).type, ZRQINIT);
    await peer.link.write(hexHeader(ZRINIT, [0, 0, 0, CANFDX | CANOVIO]));
    assert.is((await peer.afterZrqinit()).type, ZFILE);
    await peer.link.write(Buffer.from([...Array(8).fill(0x18), ...Array(8).fill(0x08)]));
    const err = await rejection(sending);
    assert.instance(err, ZmodemError);
    assert.match(err.message, /^ZMODEM: transfer cancelled by the receiver \(CAN × 5\) while offering f60-0-100\.bin \(ZFILE\)$/);

    const p2 = await ptyPair(scope, dir, 'q');
    const lonely = await serialLink(scope, p2.a);
    const err2 = await rejection(zmodemSend(lonely, filesOf([100], 61), { timeoutMs: 500 }));
    assert.instance(err2, ZmodemError);
    assert.match(err2.message, /^ZMODEM: no ZRINIT within 500 ms .* while waiting for the receiver \(ZRINIT\), transfer aborted$/);
  }),
);

uvuTest.run();
