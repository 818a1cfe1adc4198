// ZMODEM sender (Chuck Forsberg's ZMODEM, as lrzsz `rz` receives it) over a
// ByteLink: hex headers to start and end, binary headers (CRC-32 when the
// receiver offers it) for ZFILE, ZDATA and ZEOF, 1 KiB data subpackets.
//
// Session: ZRQINIT -> ZRINIT (the receiver's capabilities), then per file
// ZFILE + "name NUL size mtime mode 0" -> ZRPOS (where to start) or ZSKIP,
// ZDATA + subpackets, ZEOF -> ZRINIT; at the end ZFIN -> ZFIN, "OO".
//
// Streaming with a window. The data is not acknowledged block by block: we
// ask for a ZACK (ZCRCQ) every ACK_EVERY bytes and never have more than
// WINDOW bytes unacknowledged. "Written" is not "on the line": the OS, a
// USB serial adapter or a pacing shim can hold tens of KiB, and without a
// window a receiver's ZRPOS (it saw a bad CRC or lost bytes) would find us
// far ahead, all of that wasted and counted as garbage by the receiver.
// A receiver that gives a buffer size in ZRINIT (or cannot take a
// non-stop stream: no CANFDX or CANOVIO) gets ZCRCW at every buffer's end,
// and we wait for its ZACK before the next ZDATA frame.
//
// Recovery is the receiver's ZRPOS: the frame is ended (ZCRCE), stale
// answers purged, and ZDATA restarts at the asked offset. A ZRPOS below an
// offset the receiver has already acknowledged is stale (the receiver's
// offset never goes back within a file) and ignored, so one error costs one
// restart. When the receiver goes quiet (a lost ZRPOS, a lost ZEOF, or the
// receiver stuck inside a damaged last subpacket) we restart at the last
// acknowledged offset ourselves: a receiver that is further along answers a
// ZDATA at the wrong offset with a ZRPOS to where it is. `retries` restarts
// at one offset without progress abort the transfer.
//
// The link is shared with the terminal's shell. Before the first ZRINIT
// anything that is not a header (the echoed command line, "rz waiting to
// receive.") is skipped. Once every file is acknowledged nothing past the
// receiver's ZFIN is read, and any text read while waiting for it (the
// receiver's messages, the shell when the receiver has quit) is put back on
// the link with unread(). The ZFIN is never resent into a shell.
//
// The headers and subpackets are built in zmodem/frame.ts; the receiver's
// headers are read in zmodem/headers.ts.
import { LinkClosed, withoutControls, writeIfOpen, type ByteLink } from './link.ts';
import { sendableNames, type TransferFile, type TransferProgress } from './transfer.ts';
import {
  ABORT, CANFC32, CANFDX, CANOVIO, EMPTY, ESCCTL, ZACK, ZCBIN, ZCRCE, ZCRCG, ZCRCQ, ZCRCW, ZDATA, ZEOF, ZFILE, ZFIN, ZNAK, ZRINIT, ZRPOS, ZRQINIT, ZSKIP,
  ZEncoder, frameName, hexHeader, posArg,
} from './zmodem/frame.ts';
import { HeaderReader, ReceiverCancelled, type Header } from './zmodem/headers.ts';

export interface ZmodemOptions {
  /** Per file: the offset the receiver asked for, every acknowledged offset, the size once ZEOF is acknowledged. */
  onProgress?: (p: TransferProgress) => void;
  /** Attempts per header exchange (ZFILE, ZEOF, ZFIN) and restarts at one offset before aborting (default 10). */
  retries?: number;
  /** How long to wait for the receiver, ms (default 10_000 for the first ZRINIT, 5_000 for each answer after that). */
  timeoutMs?: number;
  /**
   * What the terminal prints once the receiver has exited (the shell's
   * success marker, its prompt). Seen after every file was acknowledged, in
   * place of the receiver's ZFIN, it ends the session as complete: the
   * receiver quit and its last header was lost. The text stays on the link.
   */
  shellBack?: RegExp;
}

export interface ZmodemStats {
  /** File bytes the receiver acknowledged in this session (from the offset it asked for; skipped files count 0). */
  bytes: number;
  /** File bytes written, resent ones included. */
  sentBytes: number;
  /** performance.now() when zmodemSend started. */
  startAt: number;
  /** performance.now() when the first ZDATA header went out (0 if there was no data phase). */
  dataStartAt: number;
  /** performance.now() when the last file's ZEOF was acknowledged (0 if there was no data phase). */
  dataEndAt: number;
  /** performance.now() when the session ended. */
  endAt: number;
  /** Times the data went back to an earlier offset (the receiver's ZRPOS, or our own after a silence). */
  restarts: number;
  /** Files the receiver refused (ZSKIP), e.g. because they exist and it may not overwrite them. */
  skipped: string[];
  /** 'zfin': the receiver's ZFIN came and "OO" went out; 'shell': `shellBack` text came in its place. */
  ended: 'zfin' | 'shell';
  /** What the receiver said it can do (ZRINIT). */
  receiver: { crc32: boolean; escapeControls: boolean; fullDuplex: boolean; bufferSize: number };
}

export class ZmodemError extends Error {}

/** The mode announced for every file: a regular file, rw-r--r--. lrzsz applies it; 0 could leave the file unreadable. */
const FILE_MODE = 0o100644;

const SUBPACKET = 1024;
/** A ZCRCQ (asking for a ZACK) ends every this many bytes, which also go out in one write. */
const ACK_EVERY = 2 * 1024;
/** Most bytes unacknowledged while streaming (see the top of the file). */
const WINDOW = 8 * 1024;
/** Until the first ZRINIT, ZRQINIT is repeated this often (a receiver that was still starting missed it). */
const ZRQINIT_EVERY_MS = 2000;

// ---------------------------------------------------------------------------
// Sender

const abortSequence = (link: ByteLink) => writeIfOpen(link, ABORT);

/** Send files as one ZMODEM session; resolves once the receiver has acknowledged the end (or the shell is back, see shellBack). */
export async function zmodemSend(link: ByteLink, files: TransferFile[], opts: ZmodemOptions = {}): Promise<ZmodemStats> {
  const retries = Math.max(1, opts.retries ?? 10);
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const firstTimeoutMs = opts.timeoutMs ?? 10_000;
  const names = sendableNames(files, (msg) => new ZmodemError(`ZMODEM: ${msg}`));
  const rx = new HeaderReader(link);
  const stats: ZmodemStats = {
    bytes: 0,
    sentBytes: 0,
    startAt: performance.now(),
    dataStartAt: 0,
    dataEndAt: 0,
    endAt: 0,
    restarts: 0,
    skipped: [],
    ended: 'zfin',
    receiver: { crc32: false, escapeControls: false, fullDuplex: false, bufferSize: 0 },
  };
  let doing = 'waiting for the receiver (ZRINIT)';
  /** Framing for this receiver, from its ZRINIT. */
  let enc!: ZEncoder;
  const send = (b: Buffer) => link.write(b);
  const fail = async (what: string): Promise<never> => {
    await abortSequence(link);
    throw new ZmodemError(`ZMODEM: ${what} while ${doing}, transfer aborted`);
  };
  /** Answers that end the transfer whenever they come. */
  const fatal = (h: Header) => fail(`the receiver answered ${frameName(h.type)}`);

  /** ZRQINIT until the receiver's ZRINIT; other headers (the echo of our own ZRQINIT) and text are skipped. */
  const greet = async (): Promise<Header> => {
    const deadline = Date.now() + firstTimeoutMs;
    while (Date.now() < deadline) {
      await send(hexHeader(ZRQINIT));
      const until = Math.min(deadline, Date.now() + ZRQINIT_EVERY_MS);
      for (let h; (h = await rx.next(until)); ) if (h.type === ZRINIT) return h;
    }
    return fail(`no ZRINIT within ${firstTimeoutMs} ms (received: ${rx.recent()})`);
  };

  /** ZFILE until the receiver says where to start (ZRPOS) or that it does not want the file (ZSKIP). */
  const offer = async (name: string, data: Buffer): Promise<number | 'skip'> => {
    const mtime = Math.floor(Date.now() / 1000);
    const info = Buffer.from(`${name}\0${data.length} ${mtime.toString(8)} ${FILE_MODE.toString(8)} 0\0`, 'utf8');
    for (let attempt = 1; attempt <= retries; attempt++) {
      await send(Buffer.concat([enc.header(ZFILE, [0, 0, 0, ZCBIN]), enc.subpacket(info, 0, info.length, ZCRCW)]));
      const deadline = Date.now() + timeoutMs;
      for (let h; (h = await rx.next(deadline)); ) {
        if (h.type === ZRPOS) {
          if (h.pos > data.length) return fail(`the receiver asked for offset ${h.pos} of a ${data.length}-byte file`);
          return h.pos;
        }
        if (h.type === ZSKIP) return 'skip';
        if (h.type === ZNAK) break; // our header arrived damaged
        // A second ZRINIT (the answer to our ZRQINIT after the receiver's own) or a stale ZACK: not for this.
        if (h.type !== ZRINIT && h.type !== ZACK && h.type !== ZRQINIT) return fatal(h);
      }
    }
    return fail(`no answer to ZFILE in ${retries} attempts of ${timeoutMs} ms (received: ${rx.recent()})`);
  };

  /** The data of one file from `start`, then ZEOF; 'skip' if the receiver gave up on it (ZSKIP). */
  const sendData = async (name: string, data: Buffer, start: number, flow: { window: number; segment: number }): Promise<'done' | 'skip'> => {
    const total = data.length;
    let pos = start; // next byte to send
    let acked = start;
    let inFrame = false; // a ZDATA header is out and no ZCRCE/ZCRCW has ended its frame
    let segmentEnd = Infinity;
    let phase: 'data' | 'eof' = 'data';
    let restartedAt = -1;
    let restartsHere = 0;
    let eofSends = 0;
    /** While the window is full: when to give up waiting for a ZACK (kept across answers that do not open it). */
    let waitUntil = 0;

    const restart = async (to: number, why: string) => {
      if (to > restartedAt) {
        restartedAt = to;
        restartsHere = 0;
      }
      if (++restartsHere > retries) await fail(`${retries} restarts at offset ${to} of ${name} without progress (last: ${why})`);
      stats.restarts++;
      if (inFrame) await send(enc.subpacket(EMPTY, 0, 0, ZCRCE));
      rx.purge();
      // A receiver asking for `to` has everything before it (lost ZACKs must not keep the window shut).
      pos = acked = to;
      waitUntil = 0;
      inFrame = false;
      phase = 'data';
      eofSends = 0;
    };

    /** An answer in the data or EOF phase; 'done' / 'skip' end the file. */
    const answer = async (h: Header): Promise<'done' | 'skip' | undefined> => {
      switch (h.type) {
        case ZACK:
          if (h.pos > acked && h.pos <= pos) {
            acked = h.pos;
            waitUntil = 0;
            opts.onProgress?.({ file: name, bytes: acked, total });
          }
          return;
        case ZRPOS:
          if (h.pos > total) await fail(`the receiver asked for offset ${h.pos} of a ${total}-byte file`);
          if (h.pos >= acked) await restart(h.pos, `ZRPOS ${h.pos}`); // below: stale, see the top of the file
          return;
        case ZNAK: // a damaged header: ZEOF is resent by the caller, a ZDATA means resending the frame
          if (phase === 'data') await restart(acked, 'ZNAK');
          return;
        case ZSKIP:
          return 'skip';
        case ZRINIT:
          return phase === 'eof' ? 'done' : undefined; // in the data phase: a stale duplicate
        case ZRQINIT:
          return; // the echo of ours, from before the receiver had its tty in raw mode
        default:
          return fatal(h);
      }
    };

    for (;;) {
      if (phase === 'data') {
        for (let h; (h = await rx.next(0, { poll: true })); ) {
          const end = await answer(h);
          if (end) return end;
        }
        // Full window, or a ZCRCW waiting for its ZACK.
        if (pos - acked >= flow.window) {
          waitUntil ||= Date.now() + timeoutMs;
          const h = await rx.next(waitUntil);
          if (!h) await restart(acked, `no ZACK for ${timeoutMs} ms`);
          else {
            const end = await answer(h);
            if (end) return end;
          }
          continue;
        }
        if (!inFrame) {
          await send(enc.header(ZDATA, posArg(pos)));
          stats.dataStartAt ||= performance.now();
          inFrame = true;
          segmentEnd = flow.segment ? pos + flow.segment : Infinity;
        }
        const stop = Math.min(total, segmentEnd, pos + ACK_EVERY);
        const last = stop === total ? ZCRCE : stop === segmentEnd ? ZCRCW : ZCRCQ;
        const parts: Buffer[] = [];
        let p = pos;
        do {
          const n = Math.min(SUBPACKET, stop - p);
          parts.push(enc.subpacket(data, p, p + n, p + n === stop ? last : ZCRCG));
          p += n;
        } while (p < stop);
        await send(parts.length === 1 ? parts[0] : Buffer.concat(parts));
        stats.sentBytes += stop - pos;
        pos = stop;
        if (last !== ZCRCQ) inFrame = false;
        if (last === ZCRCE) phase = 'eof';
        continue;
      }
      // EOF: resent after a ZNAK; after a silence, restart from the last acknowledged offset instead
      if (++eofSends > retries) await fail(`ZEOF of ${name} refused ${retries} times`);
      await send(enc.header(ZEOF, posArg(total)));
      const deadline = Date.now() + timeoutMs;
      let h: Header | null;
      while ((h = await rx.next(deadline))) {
        const end = await answer(h);
        if (end) return end;
        if (phase !== 'eof' || h.type === ZNAK) break;
      }
      if (!h) await restart(acked, `no answer to ZEOF for ${timeoutMs} ms`);
    }
  };

  /** ZFIN until the receiver's ZFIN, then "OO"; or the shell's text (shellBack) in its place. */
  const finish = async (): Promise<void> => {
    rx.markNoise();
    const shellIsBack = () => !!opts.shellBack && opts.shellBack.test(withoutControls(rx.noiseText()).text);
    for (let attempt = 1; attempt <= retries; attempt++) {
      await send(hexHeader(ZFIN));
      const deadline = Date.now() + timeoutMs;
      let h: Header | null;
      while ((h = await rx.next(deadline, { stop: shellIsBack }))) {
        if (h.type === ZFIN) {
          rx.giveBack();
          await send(Buffer.from('OO'));
          return;
        }
        if (h.type === ZNAK) break; // our ZFIN arrived damaged: the receiver is there, send it again
      }
      if (h) continue;
      if (shellIsBack()) {
        rx.giveBack();
        stats.ended = 'shell';
        return;
      }
      if (rx.noiseText().length) {
        // Text instead of an answer: a resent ZFIN could land in the shell's line editor.
        const seen = rx.recent();
        rx.giveBack();
        throw new ZmodemError(`ZMODEM: every file was acknowledged, but text came instead of the receiver's ZFIN: ${seen}`);
      }
    }
    rx.giveBack();
    throw new ZmodemError(`ZMODEM: every file was acknowledged, but the receiver did not answer ZFIN (${retries} attempts of ${timeoutMs} ms)`);
  };

  try {
    const init = await greet();
    const flags = init.arg[3];
    const receiver = {
      crc32: !!(flags & CANFC32),
      escapeControls: !!(flags & ESCCTL),
      fullDuplex: (flags & (CANFDX | CANOVIO)) === (CANFDX | CANOVIO),
      bufferSize: init.arg[0] | (init.arg[1] << 8),
    };
    stats.receiver = receiver;
    enc = new ZEncoder(receiver.crc32, receiver.escapeControls);
    // A receiver that cannot take a non-stop stream gets ZCRCW (and is waited for) every `segment` bytes.
    const segment = receiver.bufferSize || (receiver.fullDuplex ? 0 : WINDOW);
    const flow = { segment, window: segment || WINDOW };
    for (let i = 0; i < files.length; i++) {
      const name = names[i];
      const { data } = files[i];
      doing = `offering ${name} (ZFILE)`;
      const start = await offer(name, data);
      let result: 'done' | 'skip' = 'skip';
      if (start !== 'skip') {
        opts.onProgress?.({ file: name, bytes: start, total: data.length });
        doing = `sending ${name}`;
        result = await sendData(name, data, start, flow);
        if (result === 'done') {
          stats.bytes += data.length - start;
          opts.onProgress?.({ file: name, bytes: data.length, total: data.length });
        }
      }
      if (result === 'skip') stats.skipped.push(name);
    }
    if (stats.dataStartAt) stats.dataEndAt = performance.now();
    doing = 'ending the session (ZFIN)';
    await finish();
    stats.endAt = performance.now();
    return stats;
  } catch (e) {
    if (e instanceof ZmodemError) throw e;
    if (e instanceof ReceiverCancelled) throw new ZmodemError(`ZMODEM: transfer cancelled by the receiver (CAN × 5) while ${doing}`);
    await abortSequence(link);
    const msg = e instanceof LinkClosed ? 'link closed' : e instanceof Error ? e.message : String(e);
    throw new ZmodemError(`ZMODEM: ${msg} while ${doing}`, { cause: e });
  }
}
