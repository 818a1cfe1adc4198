// YMODEM against the real lrzsz tools (rb, sb) over socat pty pairs, through
// the fault shim (errors, pacing, a pulled cable), plus CRC/framing units.
//
// lrzsz waits on 1-second alarms: rb checks for a second after every EOT and
// waits a second before each 'C', and after a bad block it needs a quiet
// second (two when a byte was lost) before it NAKs, and our sender then waits
// a quarter of a second (more than a second after a second NAK in a row: see
// serial/ymodem-send.ts). The 256 KiB transfer to rb through the faulty shim
// therefore takes about 50 s here, idle; it runs in the
// background (its own pty pairs, processes and time limit) while the other
// tests run, and the last test checks its result. The throughput tests run
// before it starts: it keeps the CPU busy in bursts, which would be measured.
//
// YMODEM_TEST=text runs only the tests whose names contain it, YMODEM_TIMES=1
// prints each test's duration, YMODEM_TRACE=1 prints the last traffic on each
// link and the tools' stderr when a test fails.
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { ymodemReceive } from '../../serial/ymodem-receive.ts';
import { ymodemSend } from '../../serial/ymodem-send.ts';
import { baseName, crc16Xmodem, type TransferProgress } from '../../serial/transfer.ts';
import {
  ACK, CPMEOF, CRC_C, EOT, NAK, SOH, STX,
  YmodemError, endOfBatchBlock, frameBlock, headerBlock, parseBlock0,
} from '../../serial/ymodem/frame.ts';
import { startFaultShim } from '../../hil/fault-shim.ts';
import {
  RB_TIMEOUT, THROUGHPUT_PAYLOAD, exitOf, filesOf, guarded, lineRate, lrzsz, pct, ptyPair, rateToOurs, rateToRb,
  seededBytes, seenC, serialLink, shimmed, startOnTty, withTimeout, type Rate,
} from '../../hil/paced-line.ts';
import { FAULTS, checkProgress, rejection, sameFiles, sameOnDisk } from './transfer-checks.ts';

const only = process.env.YMODEM_TEST;
const times = !!process.env.YMODEM_TIMES;
const test = (name: string, fn: () => void | Promise<void>) => {
  if (only && !name.includes(only)) return;
  uvuTest(name, async () => {
    const t0 = performance.now();
    try {
      await fn();
    } finally {
      if (times) console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s  ${name}`);
    }
  });
};

const RB = lrzsz('rb');
const SB = lrzsz('sb');
const SIZES = [0, 1, 1023, 1024, 1025, 3 * 1024, 1024 * 1024];

// ---------------------------------------------------------------------------
// The 256 KiB transfer to rb through faults (see the top of the file): the
// first test after the timing measurements starts it, the last one checks it.

let rbFaultReport = '';
let rbFaults: Promise<void> | undefined;
const startRbFaults = () =>
  (rbFaults ??= guarded(150_000, async (scope) => {
    const dir = scope.tmpdir();
    const recv = join(dir, 'recv');
    mkdirSync(recv);
    const { near, far, shim } = await shimmed(scope, dir, { ...FAULTS, seed: 20240611 });
    const link = await serialLink(scope, near);
    const files = filesOf([256 * 1024], 3);
    const rb = startOnTty(scope, RB, ['-y'], far, recv);
    await ymodemSend(link, files, { timeoutMs: RB_TIMEOUT });
    assert.is(await exitOf(rb, 10_000, 'rb'), 0, `rb exit status; stderr: ${rb.stderr().slice(-300)}`);
    sameOnDisk(recv, files);
    const c = shim.counters;
    assert.ok(c.dropped + c.corrupted > 5, `the shim injected faults: ${JSON.stringify(c)}`);
    rbFaultReport = `${c.aToB.passed} bytes sent to rb, ${c.dropped} dropped, ${c.corrupted} corrupted`;
  })());

// ---------------------------------------------------------------------------
// Units

test('CRC-16/XMODEM', () => {
  assert.is(crc16Xmodem(Buffer.from('123456789')), 0x31c3);
  assert.is(crc16Xmodem(Buffer.alloc(0)), 0);
  assert.is(crc16Xmodem(Buffer.from('A')), 0x58e5);
  const b = Buffer.from('xx123456789yy');
  assert.is(crc16Xmodem(b, 2, 11), 0x31c3);
});

test('block framing', () => {
  const data = Buffer.from('hello');
  const b = frameBlock(1, data);
  assert.is(b.length, 1029);
  assert.equal([...b.subarray(0, 3)], [STX, 1, 0xfe]);
  assert.ok(b.subarray(3, 8).equals(data));
  assert.ok(b.subarray(8, 1027).every((x) => x === CPMEOF), 'padded with 0x1A');
  assert.is(b.readUInt16BE(1027), crc16Xmodem(b, 3, 1027));
  // numbers wrap modulo 256 with their complement
  assert.equal([...frameBlock(256, data).subarray(1, 3)], [0x00, 0xff]);
  assert.equal([...frameBlock(300, data).subarray(1, 3)], [44, 211]);
  const s = frameBlock(7, data, 128);
  assert.is(s.length, 133);
  assert.is(s[0], SOH);
  // a full block needs no padding
  const full = seededBytes(1024, 5);
  assert.ok(frameBlock(2, full).subarray(3, 1027).equals(full));
  assert.throws(() => frameBlock(1, Buffer.alloc(1025)));
});

test('block 0', () => {
  const h = headerBlock('fw.bin', 1234);
  assert.is(h.length, 133);
  assert.equal([...h.subarray(0, 3)], [SOH, 0, 0xff]);
  assert.is(h.subarray(3, 3 + 12).toString('latin1'), 'fw.bin\x001234\x00');
  assert.ok(h.subarray(14, 131).every((x) => x === 0), 'zero-padded');
  assert.is(h.readUInt16BE(131), crc16Xmodem(h, 3, 131));
  assert.equal(parseBlock0(h.subarray(3, 131)), { name: 'fw.bin', size: 1234 });
  // as lrzsz sb writes it: size, octal mtime, octal mode, serial, files and bytes left
  const sb = Buffer.alloc(128);
  sb.write('image.tar\x0055 14620060751 100644 0 1 55', 'latin1');
  assert.equal(parseBlock0(sb), { name: 'image.tar', size: 55, mtime: 0o14620060751 });
  assert.equal(parseBlock0(Buffer.from('x\0\0\0')), { name: 'x' });
  const end = endOfBatchBlock();
  assert.is(end.length, 133);
  assert.ok(end.subarray(3, 131).every((x) => x === 0));
  assert.is(parseBlock0(end.subarray(3, 131)).name, '');
  // a long name moves block 0 to 1 KiB
  assert.is(headerBlock('n'.repeat(200), 1)[0], STX);
  assert.throws(() => headerBlock('n'.repeat(1100), 1), (e: unknown) => e instanceof YmodemError);
  assert.is(baseName('a/b/c.bin'), 'c.bin');
  assert.is(baseName('C:\\x\\y.bin'), 'y.bin');
  assert.is(baseName('dir/'), '');
  assert.is(baseName('..'), '');
});

/** One end of an in-memory cable: what the shim writes is collected, `feed` is what the shim reads. */
function cableEnd() {
  const out: Buffer[] = [];
  const times: number[] = [];
  const d = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      out.push(chunk);
      times.push(performance.now());
      cb();
    },
  });
  return { d, out, times, feed: (b: Buffer) => d.push(b), got: () => Buffer.concat(out) };
}

test('fault shim: seeded faults are reproducible and near the asked rates', async () => {
  const runs = [];
  for (let r = 0; r < 2; r++) {
    const a = cableEnd();
    const b = cableEnd();
    const shim = startFaultShim(a.d, b.d, { dropRate: 0.005, corruptRate: 0.005, seed: 99 });
    const input = seededBytes(200_000, 1);
    for (let i = 0; i < input.length; i += 1000) a.feed(input.subarray(i, i + 1000));
    b.feed(Buffer.from('answer'));
    await new Promise((r) => setImmediate(r));
    runs.push({ out: b.got(), back: a.got(), c: shim.counters });
    await shim.close();
  }
  assert.ok(runs[0].out.equals(runs[1].out), 'same seed, same damage');
  const c = runs[0].c;
  assert.is(c.aToB.passed, 200_000);
  assert.is(c.aToB.delivered, 200_000 - c.aToB.dropped);
  assert.is(runs[0].out.length, c.aToB.delivered);
  for (const n of [c.aToB.dropped, c.aToB.corrupted]) assert.ok(n > 850 && n < 1150, `about 1000 of 200,000 at 0.5 %: ${n}`);
  assert.is(runs[0].back.toString(), 'answer');
});

test('fault shim: pacing at 115200 baud is smooth and close to 11,520 bytes/s', async () => {
  const a = cableEnd();
  const b = cableEnd();
  const shim = startFaultShim(a.d, b.d, { baud: 115200 });
  const t0 = performance.now();
  a.feed(seededBytes(11_520, 2));
  await withTimeout(
    (async () => {
      while (b.got().length < 11_520) await new Promise((r) => setTimeout(r, 5));
    })(),
    30_000, // a hang guard, not a speed limit: the time is checked below against the shim's own late timers
    'paced delivery',
  );
  const s = (b.times[b.times.length - 1] - t0) / 1000;
  const late = shim.counters.aToB.lateMs / 1000;
  await shim.close();
  // Never faster than the line; slower only by what late timers cost (a busy machine).
  assert.ok(s > 0.99 && s < 1.05 + late, `one second of line time took ${s.toFixed(3)} s (${late.toFixed(3)} s lost to late timers)`);
  const biggest = Math.max(...b.out.map((x) => x.length));
  assert.ok(biggest <= 60, `largest burst ${biggest} bytes (~${((biggest * 10) / 115.2).toFixed(1)} ms of line time)`);
});

test('fault shim: cutAfterBytes stops both directions', async () => {
  const a = cableEnd();
  const b = cableEnd();
  let cuts = 0;
  const shim = startFaultShim(a.d, b.d, { cutAfterBytes: 1500, onCut: () => cuts++ });
  a.feed(Buffer.alloc(1000, 1));
  b.feed(Buffer.from('ok'));
  a.feed(Buffer.alloc(1000, 2));
  await new Promise((r) => setImmediate(r));
  b.feed(Buffer.from('lost'));
  a.feed(Buffer.alloc(10, 3));
  await new Promise((r) => setImmediate(r));
  assert.is(b.got().length, 1500);
  assert.is(a.got().toString(), 'ok');
  assert.ok(shim.cut);
  assert.is(cuts, 1);
  assert.is(shim.counters.aToB.discarded, 510);
  await shim.close();
});

// ---------------------------------------------------------------------------
// Throughput, paced by the shim like a 115200 baud line

/**
 * The rate as asked (payload bytes x 10 / baud / elapsed seconds), and the
 * same with the line time the shim itself lost to a busy machine taken out:
 * when its timers run late the simulated line runs slower than 115200 baud,
 * which is not the sender's doing (a baseline measured in the same run).
 *
 * YMODEM waits for an answer after every block, and on a busy machine every
 * answer waits for the receiver's turn on a CPU: with two CPU-bound programs
 * and the browser suite beside them these tests measured as low as 55 % (idle: 96 %). So the bar here
 * is 40 %, a margin that holds on a busy machine and still fails a sender that
 * waits out a timeout or pauses per block (a 2 s timeout a block is 4 %);
 * the 90 % bar is npm run bench's (section ymodem, on a quiet machine). One
 * measurement: a shortfall is a failure to look into, never measured again.
 */
const YMODEM_BAR = 40;

function rates(ms: number, lateMs: number) {
  const { raw, fair } = lineRate(THROUGHPUT_PAYLOAD, ms, lateMs);
  const text = `${raw.toFixed(1)} % of line rate` + (lateMs >= 1 ? ` (${fair.toFixed(1)} % without the ${lateMs.toFixed(0)} ms of line time the shim lost to late timers)` : '');
  return { ok: raw >= YMODEM_BAR || fair >= YMODEM_BAR, text: `${text}; the bar here: ${YMODEM_BAR} %` };
}

async function measure(run: () => Promise<Rate>, key: 'dataMs' | 'allMs') {
  const r = await run();
  return { r, ...rates(r[key], r.lateMs) };
}

test(
  'throughput: our sender -> rb at 115200 baud, 128 KiB',
  guarded(60_000, async (scope) => {
    const m = await measure(() => rateToRb(scope, 71), 'dataMs');
    const all = pct(THROUGHPUT_PAYLOAD, m.r.allMs);
    console.log(
      `YMODEM to rb at 115200 baud: ${m.text}, data blocks; whole batch ${all.toFixed(1)} %, ` +
        `which includes rb's own 1 s timers around EOT and the end of the batch`,
    );
    assert.ok(m.ok, m.text);
  }),
);

test(
  'throughput: our sender -> our receiver at 115200 baud, 128 KiB',
  guarded(50_000, async (scope) => {
    const m = await measure(() => rateToOurs(scope, 81), 'allMs');
    console.log(`YMODEM to our receiver at 115200 baud: ${m.text}, whole batch; data blocks ${pct(THROUGHPUT_PAYLOAD, m.r.dataMs).toFixed(1)} %`);
    assert.ok(m.ok, m.text);
  }),
);

// ---------------------------------------------------------------------------
// Real tools over pty pairs

test('our sender -> fault shim (1e-4) -> lrzsz rb, 256 KiB: started, runs in the background', () => {
  startRbFaults().catch(() => {}); // reported by the last test
});

test(
  'our sender -> lrzsz rb: 0, 1, 1023, 1024, 1025, 3072 bytes and 1 MiB',
  // A hang guard, not a speed: the 1 MiB batch is some 1,000 answered blocks, each waiting on a busy
  // machine's scheduler (a CI run beside the other lanes took more than 40 s).
  guarded(120_000, async (scope) => {
    // rb spends ~2 s per file on its own timers, so three batches run side by side.
    const batches = [[0, 1, 1023], [1024, 1025, 3 * 1024], [1024 * 1024]];
    await Promise.all(
      batches.map(async (sizes, bi) => {
        const dir = scope.tmpdir();
        const recv = join(dir, 'recv');
        mkdirSync(recv);
        const { a, b } = await ptyPair(scope, dir, 'p');
        const link = await serialLink(scope, a); // before rb starts: opening the port flushes it
        const files = filesOf(sizes, 10 + bi);
        const rb = startOnTty(scope, RB, ['-y'], b, recv);
        const progress: TransferProgress[] = [];
        await ymodemSend(link, files, { timeoutMs: RB_TIMEOUT, onProgress: (p) => progress.push(p) });
        assert.is(await exitOf(rb, 10_000, 'rb'), 0, `rb exit status; stderr: ${rb.stderr().slice(-300)}`);
        assert.equal(readdirSync(recv).sort(), files.map((f) => f.name).sort());
        sameOnDisk(recv, files);
        checkProgress(progress, files);
      }),
    );
  }),
);

for (const args of [[], ['-k']]) {
  test(
    `lrzsz sb ${args.join(' ') || '(128-byte blocks)'} -> our receiver: one batch of all sizes`,
    // A hang guard, not a speed: 1 MiB in 128-byte blocks is some 8,000 answered blocks, each waiting on a
    // busy machine's scheduler (a CI run beside other suites took more than 30 s).
    guarded(120_000, async (scope) => {
      const dir = scope.tmpdir();
      const send = join(dir, 'send');
      mkdirSync(send);
      const files = filesOf(SIZES, args.length ? 21 : 20);
      for (const f of files) writeFileSync(join(send, f.name), f.data);
      const { a, b } = await ptyPair(scope, dir, 'p');
      const link = await serialLink(scope, a);
      const sb = startOnTty(scope, SB, [...args, ...files.map((f) => f.name)], b, send);
      const progress: TransferProgress[] = [];
      const got = await ymodemReceive(link, { onProgress: (p) => progress.push(p) });
      sameFiles(got, files);
      checkProgress(progress, files);
      assert.is(await exitOf(sb, 10_000, 'sb'), 0, `sb exit status; stderr: ${sb.stderr().slice(-300)}`);
    }),
  );
}

test(
  'our sender -> our receiver over a pty pair: one batch of all sizes',
  guarded(120_000, async (scope) => {
    const dir = scope.tmpdir();
    const { a, b } = await ptyPair(scope, dir, 'p');
    const slink = await serialLink(scope, a);
    const rlink = await serialLink(scope, b);
    const files = filesOf(SIZES, 25);
    const progress: TransferProgress[] = [];
    const [, got] = await Promise.all([ymodemSend(slink, files), ymodemReceive(rlink, { onProgress: (p) => progress.push(p) })]);
    sameFiles(got, files);
    checkProgress(progress, files);
  }),
);

test(
  'our receiver, scripted sender: bad CRC is NAKed, a duplicate is ACKed once, EOT NAK then ACK, path stripped',
  guarded(15_000, async (scope) => {
    const dir = scope.tmpdir();
    const { a, b } = await ptyPair(scope, dir, 'p');
    const rlink = await serialLink(scope, a);
    const peer = await serialLink(scope, b);
    const data = seededBytes(2000, 77);
    const receiving = ymodemReceive(rlink, { timeoutMs: 2000 });
    receiving.catch(() => {});
    const next = () => peer.readByte(3000);
    assert.is(await next(), CRC_C);
    peer.drain();
    const h = Buffer.alloc(128);
    h.write('some/dir/name.bin\x002000 0 100644', 'latin1');
    await peer.write(frameBlock(0, h, 128, 0));
    assert.is(await next(), ACK);
    assert.is(await next(), CRC_C);
    const b1 = frameBlock(1, data.subarray(0, 1024));
    const bad = Buffer.from(b1);
    bad[500] ^= 0x40;
    await peer.write(bad);
    assert.is(await next(), NAK, 'corrupted block');
    await peer.write(Buffer.concat([Buffer.from([STX]), Buffer.from('garbage')]));
    assert.is(await next(), NAK, 'short block');
    await peer.write(b1);
    assert.is(await next(), ACK);
    await peer.write(b1);
    assert.is(await next(), ACK, 'duplicate');
    const b2 = Buffer.from(frameBlock(2, data.subarray(1024)));
    b2[2] = 0; // block number and complement disagree
    await peer.write(b2);
    assert.is(await next(), NAK, 'bad complement');
    await peer.write(frameBlock(2, data.subarray(1024)));
    assert.is(await next(), ACK);
    await peer.write(Buffer.from([EOT]));
    assert.is(await next(), NAK, 'first EOT');
    await peer.write(Buffer.from([EOT]));
    assert.is(await next(), ACK, 'second EOT');
    assert.is(await next(), CRC_C);
    await peer.write(endOfBatchBlock());
    assert.is(await next(), ACK);
    const got = await receiving;
    assert.is(got.length, 1);
    assert.is(got[0].name, 'name.bin');
    assert.ok(got[0].data.equals(data));
  }),
);

test(
  'our sender, scripted receiver like rb on a busy terminal (its flush late after a NAK, a second of silence before it takes a block again): each copy waits long enough and the last arrives whole',
  guarded(20_000, async (scope) => {
    const dir = scope.tmpdir();
    const { a, b } = await ptyPair(scope, dir, 'n');
    const slink = await serialLink(scope, a);
    const peer = await serialLink(scope, b);
    const files = filesOf([2048], 78);
    const sending = ymodemSend(slink, files, { timeoutMs: 2000 });
    sending.catch(() => {});
    /** One frame as the receiver reads it: STX and 1028 bytes, SOH and 132, or EOT. */
    const frame = async (): Promise<Buffer> => {
      const first = await peer.readByte(10_000);
      const rest = first === STX ? 1028 : first === SOH ? 132 : 0;
      const out = [first];
      for (let i = 0; i < rest; i++) out.push(await peer.readByte(10_000));
      return Buffer.from(out);
    };
    const answer = (c: number) => peer.write(Buffer.from([c]));
    await answer(CRC_C);
    assert.is((await frame())[0], SOH, 'block 0');
    await answer(ACK);
    await answer(CRC_C);
    const first = await frame();
    assert.is(first[1], 1, 'block 1');
    // Refused, then the receiver's flush comes 200 ms after its NAK: what got here before it is lost.
    await answer(NAK);
    await new Promise((r) => setTimeout(r, 200));
    const lost = peer.drain();
    assert.is(lost.length, 0, `nothing the sender sent after the NAK was lost to the late flush (${lost.length} bytes were)`);
    assert.ok((await frame()).equals(first), 'the copy after the NAK is block 1, whole');
    // Refused again, as rb refuses a copy it ate while it waited for a second of silence: the next
    // copy waits longer than that second (a timer never fires early: a slow machine only makes it longer).
    await answer(NAK);
    const nakAt = performance.now();
    const head = await peer.readByte(10_000);
    const gap = performance.now() - nakAt;
    assert.ok(gap >= 1000, `the copy after a second NAK came ${gap.toFixed(0)} ms after it: rb would have eaten it`);
    peer.unread(Buffer.from([head]));
    assert.ok((await frame()).equals(first), 'the copy after the second NAK is block 1, whole');
    await answer(ACK);
    assert.is((await frame())[1], 2, 'block 2');
    await answer(ACK);
    assert.is((await frame())[0], EOT);
    await answer(ACK);
    await answer(CRC_C);
    assert.ok((await frame()).equals(endOfBatchBlock()), 'the end of the batch');
    await answer(ACK);
    await sending;
  }),
);

test(
  'our receiver refuses a file over maxBytes with CAN CAN; our sender reports the cancel',
  guarded(15_000, async (scope) => {
    const dir = scope.tmpdir();
    const { a, b } = await ptyPair(scope, dir, 'p');
    const slink = await serialLink(scope, a);
    const rlink = await serialLink(scope, b);
    const [rerr, serr] = await Promise.all([
      rejection(ymodemReceive(rlink, { maxBytes: 4096, timeoutMs: 2000 })),
      rejection(ymodemSend(slink, filesOf([5000], 30), { timeoutMs: 2000 })),
    ]);
    assert.instance(rerr, YmodemError);
    assert.match((rerr as Error).message, /5000 bytes, over the 4096-byte limit/);
    assert.instance(serr, YmodemError);
    assert.match((serr as Error).message, /cancelled by the receiver/);
  }),
);

test(
  'our sender -> fault shim (1e-4) -> our receiver: 256 KiB verifies',
  guarded(120_000, async (scope) => {
    const dir = scope.tmpdir();
    const { near, far, shim } = await shimmed(scope, dir, { ...FAULTS, seed: 424242 });
    const slink = await serialLink(scope, near);
    const rlink = await serialLink(scope, far);
    const files = filesOf([256 * 1024], 4);
    const opts = { timeoutMs: 2000 };
    const [, got] = await Promise.all([ymodemSend(slink, files, opts), ymodemReceive(rlink, opts)]);
    sameFiles(got, files);
    const c = shim.counters;
    assert.ok(c.dropped + c.corrupted > 5, `the shim injected faults: ${JSON.stringify(c)}`);
  }),
);

test(
  'cable cut half way: our sender and our receiver both give up after their retries with YmodemError',
  // 2 s for an answer, not 300 ms: a busy machine's late timers must not end the transfer before the cut it is about.
  guarded(60_000, async (scope) => {
    const dir = scope.tmpdir();
    const size = 64 * 1024;
    const { near, far, shim } = await shimmed(scope, dir, { cutAfterBytes: size / 2 });
    const slink = await serialLink(scope, near);
    const rlink = await serialLink(scope, far);
    const opts = { timeoutMs: 2000, retries: 3 };
    const [serr, rerr] = await Promise.all([
      rejection(ymodemSend(slink, filesOf([size], 5), opts)),
      rejection(ymodemReceive(rlink, opts)),
    ]);
    assert.ok(shim.cut);
    assert.instance(serr, YmodemError);
    assert.match((serr as Error).message, /^YMODEM: block \d+ refused 3 times, transfer aborted/);
    assert.instance(rerr, YmodemError);
    assert.match((rerr as Error).message, /^YMODEM: block \d+ of f5-0-65536\.bin failed 3 times/);
  }),
);

test(
  'cable cut half way: lrzsz sb -> our receiver fails instead of returning a partial file; our sender -> rb fails',
  guarded(60_000, async (scope) => {
    const dir = scope.tmpdir();
    const size = 64 * 1024;
    const files = filesOf([size], 6);
    const send = join(dir, 'send');
    mkdirSync(send);
    writeFileSync(join(send, files[0].name), files[0].data);
    const opts = { timeoutMs: 2000, retries: 3 };
    // sb on the near side (data flows A -> B), our receiver on the far side
    const one = await shimmed(scope, join(dir), { cutAfterBytes: size / 2 });
    const rlink = await serialLink(scope, one.far);
    startOnTty(scope, SB, ['-k', files[0].name], one.near, send);
    const rerr = await rejection(ymodemReceive(rlink, opts));
    assert.ok(one.shim.cut);
    assert.instance(rerr, YmodemError);
    // our sender on the near side, rb on the far side
    const recv = join(dir, 'recv');
    mkdirSync(recv);
    const d2 = join(dir, 'two');
    mkdirSync(d2);
    const two = await shimmed(scope, d2, { cutAfterBytes: size / 2 });
    const slink = await serialLink(scope, two.near);
    const ready = seenC(slink, 10_000); // rb takes a second before its first 'C'
    startOnTty(scope, RB, ['-y'], two.far, recv);
    await ready;
    const serr = await rejection(ymodemSend(slink, files, opts));
    assert.instance(serr, YmodemError);
    assert.match((serr as Error).message, /refused 3 times, transfer aborted/);
  }),
);

test('our sender -> fault shim (1e-4) -> lrzsz rb, 256 KiB: completes and verifies', async () => {
  await startRbFaults();
  console.log(`fault shim to rb: ${rbFaultReport}`);
});

uvuTest.run();
