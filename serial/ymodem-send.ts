// YMODEM batch sender (Chuck Forsberg's YMODEM, as lrzsz `rb` and U-Boot
// `loady` receive it) over a ByteLink: 1 KiB STX data blocks with
// CRC-16/XMODEM, block 0 carrying "name NUL size", EOT per file, and an
// all-zero block 0 to end the batch. The harness flashes a terminal with it;
// the receiver is ymodem-receive.ts.
//
// Stop-and-wait, as the protocol is: the sender writes one block and waits
// for ACK; NAK, a timeout (or a receiver's 'C') makes it resend; after
// `retries` failed attempts of one block it cancels with CAN CAN.
//
// Interop notes (found against lrzsz rb on ptys): rb flushes its input right
// after each 'C' and ACK, so the sender pauses 20 ms after a 'C' and before
// EOT (never between data blocks); rb can lose its very last ACK when it
// exits, so silence after the closing block 0 ends the batch once every file
// has been acknowledged, and so does the shell talking again (its marker and
// prompt are left on the link, never answered with a resend that would be
// typed into its line editor); after a block that had to be resent the
// sender lets the line go quiet, so a duplicate ACK is not taken for the
// next block; and after a NAK it waits for a quiet line before the next
// copy, because rb flushes its input after a NAK too (found on the virtual
// board: on a busy terminal the flush cut the head off every copy sent at
// once, and one block was refused until the retries ran out).
//
// The blocks are built in ymodem/frame.ts, the line is read in ymodem/reader.ts.
import { withoutControls, type ByteLink } from './link.ts';
import { sendableNames, type TransferFile } from './transfer.ts';
import { ACK, CAN, CRC_C, EOT, NAK, YmodemError, endOfBatchBlock, frameBlock, headerBlock, type YmodemOptions } from './ymodem/frame.ts';
import { Reader, byteBefore, cancel, hasCanCan, isTimeout, wrap } from './ymodem/reader.ts';

export interface YmodemSendOptions extends YmodemOptions {
  /**
   * What the terminal prints once the receiver has exited (the shell's
   * success marker, its prompt). Seen after the closing block 0, it ends
   * the batch: the receiver quit and its last ACK was lost. The text is
   * left on the link for the shell driver.
   */
  shellBack?: RegExp;
}

/**
 * How a batch ended, after every file was acknowledged: 'receiver' (it
 * acknowledged the closing block 0), 'shell back' (the shell's text came in
 * place of that ACK: the receiver had exited), 'timeout' (neither came).
 */
export type BatchEnd = 'receiver' | 'shell back' | 'timeout';

/**
 * The least quiet after a block's second NAK before the next copy (ms): longer than the second of
 * silence lrzsz rb waits for before it NAKs a bad block. Not longer than 3 s: after its NAK rb
 * waits 4 s for the next block, then NAKs again.
 */
const NAK_QUIET_MS = 1500;

/** Send files as one YMODEM batch (1 KiB STX blocks, CRC-16), then the empty block 0 that ends the batch. */
export async function ymodemSend(link: ByteLink, files: TransferFile[], opts: YmodemSendOptions = {}): Promise<{ ended: BatchEnd }> {
  const retries = Math.max(1, opts.retries ?? 10);
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const firstTimeoutMs = opts.timeoutMs ?? 10_000;
  /** A 'C' while waiting for an ACK may have crossed our block: give the ACK this long to follow. */
  const graceMs = Math.min(500, timeoutMs);
  /**
   * Pause after a 'C' before block 0 or block 1, and before EOT. lrzsz rb
   * flushes its input right after sending 'C' or ACK; an answer that gets
   * there before the flush is lost and costs a whole timeout. A few times
   * per file, never per data block.
   */
  const afterCMs = 20;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const rx = new Reader(link);
  const names = sendableNames(files, (msg) => new YmodemError(`YMODEM: ${msg}`));
  let doing = 'waiting for the receiver';
  let ended: BatchEnd = 'receiver';

  /** Next 'C' within ms: true, or false on timeout. Other bytes are ignored; CAN CAN throws. */
  const waitForC = async (ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    let prev = -1;
    for (;;) {
      const c = await byteBefore(rx, deadline);
      if (c === null) return false;
      if (c === CRC_C) return true;
      if (c === CAN && prev === CAN) throw new YmodemError(`YMODEM: transfer cancelled by the receiver (CAN CAN) while ${doing}`);
      prev = c;
    }
  };

  /** Typical time from writing a data block to its ACK (ms), learnt from clean blocks. */
  let rtt = 0;
  /** The slowest clean answer so far (ms): how late an answer can come on this link and this machine. */
  let rttMax = 0;
  /** How long the line must stay quiet to be sure the receiver has had its say: longer than its slowest answer, never under 250 ms. */
  const quiet = () => Math.min(Math.max(250, 4 * rtt, 2 * rttMax), timeoutMs / 2);

  /**
   * Write one block until ACKed; abort after `retries` attempts.
   * - 'data': after a block that went out more than once, wait for a quiet
   *   line before the next one. Each copy gets its own answer, and a copy
   *   sent on a timeout can cross a NAK the receiver sent on its own
   *   timeout; an ACK for the extra copy, read as the next block's ACK,
   *   would silently skip that block.
   * - 'end' (the closing block 0): silence is resent once after a second,
   *   and a second silence ends the batch quietly (see where it is sent);
   *   with `shellBack`, nothing is resent and the shell is waited for.
   */
  const sendBlock = async (frame: Buffer, label: string, kind: 'header' | 'data' | 'end'): Promise<void> => {
    let why = 'no answer';
    let silences = 0;
    /** The copy before this one was NAKed too. */
    let nakBefore = false;
    /** After the closing block 0: text that is not an answer means the receiver has exited and the shell is talking. */
    const shellIsBack = async (first: number): Promise<void> => {
      const deadline = Date.now() + timeoutMs * retries;
      let seen = Buffer.from([first]);
      const back = () => !opts.shellBack || opts.shellBack.test(withoutControls(seen.toString('latin1')).text);
      while (!back() && Date.now() < deadline) {
        const c = await byteBefore(rx, deadline);
        if (c !== null) seen = Buffer.concat([seen, Buffer.from([c]), rx.drain()]);
      }
      ended = back() ? 'shell back' : 'timeout';
      link.unread(Buffer.concat([seen, rx.drain()]));
    };
    for (let attempt = 1; attempt <= retries; attempt++) {
      // Stale answers (a late 'C', a duplicate ACK) must not be taken for this block's.
      if (hasCanCan(rx.drain())) throw new YmodemError(`YMODEM: transfer cancelled by the receiver (CAN CAN) while ${doing}`);
      const sentAt = performance.now();
      await link.write(frame);
      let deadline = Date.now() + (kind === 'end' && silences === 0 ? Math.min(1000, timeoutMs) : timeoutMs);
      let prev = -1;
      let graceUntil = 0;
      for (;;) {
        const until = graceUntil || deadline;
        let c: number;
        try {
          c = await rx.byte(until - Date.now());
        } catch (e) {
          if (!isTimeout(e)) throw e;
          if (kind === 'end' && !graceUntil) {
            // With a shell to come back, wait instead of resending: a receiver that lost
            // the block asks again ('C', NAK); one that quit is followed by the shell,
            // however busy the terminal (or this machine) is, so wait for it as long as
            // for `retries` answers. Without one, a second silence ends the batch.
            if (++silences >= (opts.shellBack ? retries : 2)) {
              ended = 'timeout';
              return;
            }
            if (opts.shellBack) {
              deadline = Date.now() + timeoutMs;
              continue;
            }
          }
          why = graceUntil ? "'C'" : 'no answer';
          break;
        }
        if (kind === 'end' && c !== ACK && c !== NAK && c !== CRC_C && c !== CAN) {
          // Never resend into a shell: this block would land in its line editor.
          return shellIsBack(c);
        }
        if (c === ACK) {
          if (kind !== 'data') return;
          if (attempt === 1) {
            const t = performance.now() - sentAt;
            rtt = rtt ? rtt + (t - rtt) / 8 : t;
            rttMax = Math.max(rttMax, t);
            return;
          }
          // YMODEM's ACK names no block: the answer to an extra copy can come late (a receiver
          // slowed by a busy terminal or machine), so the line must stay quiet for a while.
          // Only blocks that went out twice pay it.
          if (hasCanCan(await rx.purge(quiet(), timeoutMs)))
            throw new YmodemError(`YMODEM: transfer cancelled by the receiver (CAN CAN) while ${doing}`);
          return;
        }
        if (c === NAK) {
          why = 'NAK';
          break;
        }
        if (c === CAN && prev === CAN) throw new YmodemError(`YMODEM: transfer cancelled by the receiver (CAN CAN) while ${doing}`);
        if (c === CRC_C && !graceUntil) graceUntil = Math.min(deadline, Date.now() + graceMs);
        prev = c;
      }
      // After a NAK, the next copy waits for a quiet line; after a NAK of the copy sent after a
      // NAK, for longer than a second. rb flushes its input just after its NAK, and on a busy terminal
      // that flush can come late: a copy sent at once would lose its head. And rb, given a bad
      // block, reads on until the line has been silent for a second (or 1000 bytes, less than a
      // 1 KiB block) before it NAKs: the tail of a bad copy that arrives after its flush is taken
      // for the next block, refused, and rb then eats whatever comes in its next second of
      // waiting for silence. A copy sent into that is eaten, NAKed, resent, eaten, until the
      // retries run out (seen on the virtual board under load: "Got 0132 sector header" ten
      // times over in rb's log). Waiting longer than rb's second lets it NAK that tail first.
      if (why === 'NAK') {
        // The first wait is short and the same on any line (a NAK per line error must not cost a
        // second); after a NAK of the copy sent after a NAK it is rb's second, and longer on a slow link.
        const wait = nakBefore ? Math.min(Math.max(NAK_QUIET_MS, quiet()), timeoutMs, 3000) : Math.min(250, timeoutMs / 2);
        if (hasCanCan(await rx.purge(wait, timeoutMs * 2)))
          throw new YmodemError(`YMODEM: transfer cancelled by the receiver (CAN CAN) while ${doing}`);
      }
      nakBefore = why === 'NAK';
    }
    await cancel(link);
    throw new YmodemError(`YMODEM: ${label} refused ${retries} times, transfer aborted (${doing}; last answer: ${why})`);
  };

  try {
    if (!(await waitForC(firstTimeoutMs)))
      throw new YmodemError(`YMODEM: the receiver did not ask to start ('C') within ${firstTimeoutMs} ms`);
    for (let fi = 0; fi < files.length; fi++) {
      const { data } = files[fi];
      const file = names[fi];
      const total = data.length;
      if (fi > 0) {
        doing = `waiting for the receiver to ask for ${file}`;
        await waitForC(timeoutMs); // if the 'C' got lost, block 0 goes out anyway
      }
      await pause(afterCMs);
      doing = `sending block 0 of ${file}`;
      await sendBlock(headerBlock(file, total), `block 0 (${file})`, 'header');
      opts.onProgress?.({ file, bytes: 0, total });
      doing = `waiting for the receiver to ask for the data of ${file}`;
      await waitForC(timeoutMs); // a lost 'C' costs one timeout; block 1 goes out anyway
      await pause(afterCMs);
      const blocks = Math.ceil(total / 1024);
      for (let i = 0; i < blocks; i++) {
        const num = i + 1;
        doing = `sending block ${num} of ${file}`;
        const end = Math.min(total, (i + 1) * 1024);
        await sendBlock(frameBlock(num, data.subarray(i * 1024, end)), `block ${num}`, 'data');
        opts.onProgress?.({ file, bytes: end, total });
      }
      doing = `ending ${file} (EOT)`;
      await pause(afterCMs); // rb flushes its input after each ACK, too
      await sendEot(link, rx, retries, timeoutMs, file);
    }
    doing = 'ending the batch';
    await waitForC(timeoutMs);
    await pause(afterCMs);
    // Every file has been acknowledged by now. A receiver that got the
    // closing block may quit without its ACK reaching us (lrzsz rb flushes
    // its tty on exit, which on a pty can discard that last ACK), so after
    // one quick resend (in case the block itself was lost) silence ends the
    // batch; a NAK or 'C' gets the block again as usual.
    await sendBlock(endOfBatchBlock(), 'block 0 (end of batch)', 'end');
    return { ended };
  } catch (e) {
    if (!(e instanceof YmodemError)) await cancel(link);
    throw wrap(e, doing);
  }
}

async function sendEot(link: ByteLink, rx: Reader, retries: number, timeoutMs: number, file: string): Promise<void> {
  let why = 'no answer';
  // One more than `retries`: the usual first answer to EOT is a NAK.
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    rx.drain();
    await link.write(Buffer.from([EOT]));
    const deadline = Date.now() + timeoutMs;
    let prev = -1;
    for (;;) {
      const c = await byteBefore(rx, deadline);
      if (c === null) {
        why = 'no answer';
        break;
      }
      if (c === ACK) return;
      if (c === NAK) {
        // The usual first answer to EOT: send it again.
        why = 'NAK';
        break;
      }
      if (c === CAN && prev === CAN) throw new YmodemError(`YMODEM: transfer cancelled by the receiver (CAN CAN) at the end of ${file}`);
      prev = c;
    }
  }
  await cancel(link);
  throw new YmodemError(`YMODEM: EOT after ${file} refused ${retries + 1} times, transfer aborted (last answer: ${why})`);
}

