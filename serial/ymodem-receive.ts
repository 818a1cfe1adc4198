// YMODEM batch receiver (Chuck Forsberg's YMODEM, as lrzsz `sb` sends it) over
// a ByteLink: the simulated terminal's serial console (simulator/shell/) runs
// it as its `rb`. The sender is ymodem-send.ts.
//
// It validates every block (header byte, number and complement, CRC), purges
// the line before NAKing a bad one, ACKs duplicates without storing them
// again, NAKs the first EOT and ACKs the second; after `retries` failures of
// one block it cancels with CAN CAN.
//
// The blocks are read in ymodem/frame.ts, the line in ymodem/reader.ts.
import type { ByteLink } from './link.ts';
import { baseName, crc16Xmodem, type TransferFile } from './transfer.ts';
import { ACK, CAN, CPMEOF, CRC_C, EOT, NAK, SOH, STX, YmodemError, parseBlock0, type Block0Info, type YmodemOptions } from './ymodem/frame.ts';
import { Reader, cancel, isTimeout, wrap } from './ymodem/reader.ts';

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

type Got =
  | { kind: 'block'; num: number; payload: Buffer }
  | { kind: 'eot' }
  | { kind: 'timeout' }
  | { kind: 'bad'; why: string }
  | { kind: 'cancel' };

/** Receive one YMODEM batch; resolves with the files (data cut to the size block 0 announced). */
export async function ymodemReceive(link: ByteLink, opts: YmodemOptions & { maxBytes?: number } = {}): Promise<TransferFile[]> {
  const retries = Math.max(1, opts.retries ?? 10);
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  /** Inside a block, bytes must keep coming at least this often. */
  const idleMs = Math.min(1000, Math.max(100, Math.round(timeoutMs / 5)));
  /** Purge: wait for this much silence before NAKing a bad block. */
  const quietMs = Math.min(100, idleMs);
  /** Poll with 'C' this often until block 0 arrives. */
  const pollMs = Math.min(1000, timeoutMs);
  const rx = new Reader(link);
  const files: TransferFile[] = [];
  const send = (b: number) => link.write(Buffer.from([b]));
  let doing = 'waiting for the sender';

  const fail = async (msg: string): Promise<never> => {
    await cancel(link);
    throw new YmodemError(`YMODEM: ${msg}`);
  };

  const readBlock = async (waitMs: number): Promise<Got> => {
    let c: number;
    try {
      c = await rx.byte(waitMs);
    } catch (e) {
      if (isTimeout(e)) return { kind: 'timeout' };
      throw e;
    }
    if (c === SOH || c === STX) {
      const size = c === STX ? 1024 : 128;
      let body: Buffer;
      try {
        body = await rx.exact(size + 4, idleMs);
      } catch (e) {
        if (isTimeout(e)) return { kind: 'bad', why: 'short block' };
        throw e;
      }
      if ((body[0] ^ body[1]) !== 0xff) return { kind: 'bad', why: 'block number and complement disagree' };
      const crc = body.readUInt16BE(size + 2);
      if (crc16Xmodem(body, 2, size + 2) !== crc) return { kind: 'bad', why: 'CRC error' };
      return { kind: 'block', num: body[0], payload: body.subarray(2, size + 2) };
    }
    if (c === EOT) return { kind: 'eot' };
    if (c === CAN) {
      try {
        if ((await rx.byte(idleMs)) === CAN) return { kind: 'cancel' };
      } catch (e) {
        if (!isTimeout(e)) throw e;
      }
      return { kind: 'bad', why: 'lone CAN' };
    }
    return { kind: 'bad', why: `unexpected byte 0x${c.toString(16).padStart(2, '0')}` };
  };

  const purge = () => rx.purge(quietMs, Math.max(timeoutMs, 1000));

  /** Block 0 of the next file (or the empty one): poll with 'C' until it arrives. */
  const getBlock0 = async (first: boolean): Promise<Block0Info> => {
    let errors = 0;
    for (;;) {
      // 'C', never NAK, before block 0: to some senders a NAK here means "checksum, not CRC".
      await send(CRC_C);
      const got = await readBlock(pollMs);
      if (got.kind === 'block' && got.num === 0) return parseBlock0(got.payload);
      if (got.kind === 'cancel') throw new YmodemError(`YMODEM: transfer cancelled by the sender (CAN CAN) while ${doing}`);
      if (got.kind === 'eot' && !first) {
        // Our ACK of the last EOT got lost: acknowledge again.
        await send(ACK);
        errors = 0;
        continue;
      }
      if (got.kind === 'block' || got.kind === 'bad' || got.kind === 'eot') await purge();
      if (++errors >= retries) {
        const what = got.kind === 'timeout' ? (first ? `no sender answered ${retries} 'C'` : 'no block 0') : got.kind === 'bad' ? got.why : `unexpected ${got.kind}`;
        return fail(`${what} while ${doing}, transfer aborted`);
      }
    }
  };

  /** Data blocks and EOT of one file. */
  const getData = async (file: string, size: number | undefined): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    let received = 0;
    let expected = 1; // absolute number of the next block
    let errors = 0;
    let eots = 0;
    let answer = CRC_C; // until the first data block, 'C' asks for data
    for (;;) {
      await send(answer);
      const got = await readBlock(timeoutMs);
      if (got.kind === 'block') {
        eots = 0;
        if (got.num === (expected & 0xff)) {
          // Copy: the payload is a view of a larger read buffer.
          chunks.push(Buffer.from(got.payload));
          received += got.payload.length;
          expected++;
          errors = 0;
          answer = ACK;
          if (size === undefined && received > maxBytes + 1024)
            return fail(`${file} is larger than the ${maxBytes}-byte limit, transfer aborted`);
          opts.onProgress?.({ file, bytes: size === undefined ? received : Math.min(received, size), total: size ?? 0 });
          continue;
        }
        if (got.num === ((expected - 1) & 0xff)) {
          // A duplicate: our ACK got lost. ACK again, store nothing; after a
          // repeated block 0, ask for the data again.
          answer = ACK;
          if (expected === 1) {
            await send(ACK);
            answer = CRC_C;
          }
          continue;
        }
        return fail(`expected block ${expected} of ${file}, got block number ${got.num}, transfer aborted`);
      }
      if (got.kind === 'cancel') throw new YmodemError(`YMODEM: transfer cancelled by the sender (CAN CAN) while ${doing}`);
      if (got.kind === 'eot') {
        if (eots === 0 && (size === undefined || received < size)) {
          // Not expected yet: make sure it is not the start of a damaged block.
          const after = await purge();
          if (after.length) {
            errors++;
            answer = NAK;
            if (errors >= retries) return fail(`block ${expected} of ${file} bad ${retries} times, transfer aborted`);
            continue;
          }
        }
        if (++eots === 1) {
          answer = NAK; // the first EOT is NAKed, the sender repeats it
          continue;
        }
        if (size !== undefined && received < size)
          return fail(`${file} ended after ${received} of ${size} bytes, transfer aborted`);
        await send(ACK);
        const all = Buffer.concat(chunks, received);
        if (size !== undefined) return all.subarray(0, size);
        let end = all.length;
        while (end > 0 && all[end - 1] === CPMEOF) end--;
        return all.subarray(0, end);
      }
      // timeout or bad block
      errors++;
      if (got.kind === 'bad') await purge();
      if (errors >= retries) {
        const why = got.kind === 'timeout' ? `no block ${expected} within ${timeoutMs} ms` : got.why;
        return fail(`block ${expected} of ${file} failed ${retries} times (${why}), transfer aborted`);
      }
      // A bad block is NAKed; silence before the first data block is met
      // with 'C' again (the sender may have missed the first one).
      answer = got.kind === 'timeout' && expected === 1 ? CRC_C : NAK;
    }
  };

  try {
    for (;;) {
      doing = files.length ? 'waiting for the next file' : 'waiting for the sender';
      const info = await getBlock0(files.length === 0);
      if (!info.name) {
        await send(ACK);
        return files;
      }
      const name = baseName(info.name);
      if (!name) return fail(`unusable file name ${JSON.stringify(info.name)} in block 0, transfer aborted`);
      if (info.size !== undefined && info.size > maxBytes)
        return fail(`${name} is ${info.size} bytes, over the ${maxBytes}-byte limit, transfer aborted`);
      await send(ACK);
      opts.onProgress?.({ file: name, bytes: 0, total: info.size ?? 0 });
      doing = `receiving ${name}`;
      const data = await getData(name, info.size);
      files.push({ name, data });
    }
  } catch (e) {
    if (!(e instanceof YmodemError)) await cancel(link);
    throw wrap(e, doing);
  }
}
