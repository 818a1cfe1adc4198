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
import { LinkClosed, LinkTimeout, withoutControls, writeIfOpen, type ByteLink } from './link.ts';
import { crc16Xmodem, sendableNames, type YmodemFile, type YmodemProgress } from './ymodem.ts';

export type ZmodemFile = YmodemFile;
export type ZmodemProgress = YmodemProgress;

export interface ZmodemOptions {
  /** Per file: the offset the receiver asked for, every acknowledged offset, the size once ZEOF is acknowledged. */
  onProgress?: (p: ZmodemProgress) => void;
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

// ---------------------------------------------------------------------------
// Protocol constants (zmodem.txt)

export const ZPAD = 0x2a; // '*'
export const ZDLE = 0x18; // also CAN
const ZBIN = 0x41; // 'A': binary header, CRC-16
const ZHEX = 0x42; // 'B': hex header, CRC-16
const ZBIN32 = 0x43; // 'C': binary header, CRC-32
const XON = 0x11;
const XOFF = 0x13;
const CR = 0x0d;
const LF = 0x0a;
const BS = 0x08;

export const ZRQINIT = 0;
export const ZRINIT = 1;
export const ZACK = 3;
export const ZFILE = 4;
export const ZSKIP = 5;
export const ZNAK = 6;
export const ZFIN = 8;
export const ZRPOS = 9;
export const ZDATA = 10;
export const ZEOF = 11;
const FRAME_NAMES = ['ZRQINIT', 'ZRINIT', 'ZSINIT', 'ZACK', 'ZFILE', 'ZSKIP', 'ZNAK', 'ZABORT', 'ZFIN', 'ZRPOS', 'ZDATA', 'ZEOF', 'ZFERR', 'ZCRC', 'ZCHALLENGE', 'ZCOMPL', 'ZCAN', 'ZFREECNT', 'ZCOMMAND', 'ZSTDERR'];
const frameName = (t: number) => FRAME_NAMES[t] ?? `frame type ${t}`;

/** Subpacket ends: frame ends (a header follows) / goes on / goes on, ZACK wanted / ends, ZACK wanted. */
export const ZCRCE = 0x68;
export const ZCRCG = 0x69;
export const ZCRCQ = 0x6a;
export const ZCRCW = 0x6b;
/** Escaped 0x7f and 0xff, which a receiver must understand (we never send them). */
const ZRUB0 = 0x6c;
const ZRUB1 = 0x6d;

/** ZRINIT ZF0 flags. */
export const CANFDX = 0x01;
export const CANOVIO = 0x02;
export const CANFC32 = 0x20;
export const ESCCTL = 0x40;
/** ZFILE ZF0: binary, no conversion. */
const ZCBIN = 1;
/** The mode announced for every file: a regular file, rw-r--r--. lrzsz applies it; 0 could leave the file unreadable. */
const FILE_MODE = 0o100644;

const SUBPACKET = 1024;
/** A ZCRCQ (asking for a ZACK) ends every this many bytes, which also go out in one write. */
const ACK_EVERY = 2 * 1024;
/** Most bytes unacknowledged while streaming (see the top of the file). */
const WINDOW = 8 * 1024;
/** Until the first ZRINIT, ZRQINIT is repeated this often (a receiver that was still starting missed it). */
const ZRQINIT_EVERY_MS = 2000;
/** Inside a header, the next byte must come within this (the rest of a header started in a poll). */
const IN_HEADER_MS = 1000;

/** The abort sequence: 8 CAN (5 make a ZMODEM receiver quit), then 8 backspaces to rub them out of a line editor. */
export const ABORT = Buffer.from([...Array(8).fill(ZDLE), ...Array(8).fill(BS)]);
const EMPTY = Buffer.alloc(0);

const isFlowControl = (c: number) => (c & 0x7f) === XON || (c & 0x7f) === XOFF;

// ---------------------------------------------------------------------------
// CRC and framing (exported for tests)

const CRC32_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32Update(crc: number, data: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) crc = CRC32_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return crc;
}

/** CRC-32 (IEEE 802.3, as ZMODEM's ZBIN32 headers and their subpackets use) of data[start, end). */
export function crc32(data: Uint8Array, start = 0, end = data.length): number {
  return ~crc32Update(-1, data, start, end) >>> 0;
}

/** The 4 header bytes ZP0..ZP3 for an offset (little-endian). ZF0 is the last byte, ZF3 the first. */
export function posArg(pos: number): number[] {
  return [pos & 0xff, (pos >>> 8) & 0xff, (pos >>> 16) & 0xff, (pos >>> 24) & 0xff];
}

/** A hex header: ZPAD ZPAD ZDLE 'B', type and ZP0..ZP3 and CRC-16 as lower-case hex, CR LF, XON (not after ZACK, ZFIN). */
export function hexHeader(type: number, arg: number[] = [0, 0, 0, 0]): Buffer {
  const bytes = Buffer.from([type, ...arg]);
  const crc = crc16Xmodem(bytes);
  const hex = Buffer.concat([bytes, Buffer.from([crc >> 8, crc & 0xff])]).toString('hex');
  // The XON frees a peer whose output a line-noise XOFF stopped (it owes us an answer). zmodem.txt leaves it
  // out after ZACK and ZFIN; after our ZFIN it would reach the shell.
  const tail = type === ZACK || type === ZFIN ? '\r\n' : '\r\n\x11';
  return Buffer.from(`**\x18B${hex}${tail}`, 'latin1');
}

/**
 * ZDLE escaping and the binary frames that use it, for one receiver: ZBIN32
 * headers and CRC-32 subpackets when it has CANFC32, else ZBIN and CRC-16;
 * every control character escaped when it asked for ESCCTL. Always escaped:
 * ZDLE, DLE, XON, XOFF (and their high-bit twins: modems and terminal
 * servers eat or act on them) and CR after '@' (Telenet's escape, "@ CR").
 */
export class ZEncoder {
  private readonly table = new Uint8Array(256);
  /** The last byte put on the wire, for the '@' CR rule across calls. */
  private last = 0;

  constructor(
    readonly crc32Mode = true,
    escapeControls = false,
  ) {
    for (const c of [ZDLE, 0x10, 0x90, XON, XON | 0x80, XOFF, XOFF | 0x80]) this.table[c] = 1;
    if (escapeControls) for (let c = 0; c < 256; c++) if ((c & 0x60) === 0) this.table[c] = 1;
  }

  private put(out: Buffer, o: number, src: Uint8Array, start: number, end: number): number {
    const t = this.table;
    let last = this.last;
    for (let i = start; i < end; i++) {
      const c = src[i];
      if (t[c] || ((c & 0x7f) === CR && (last & 0x7f) === 0x40)) {
        out[o++] = ZDLE;
        out[o++] = last = c ^ 0x40;
      } else out[o++] = last = c;
    }
    this.last = last;
    return o;
  }

  /** data, ZDLE-escaped. */
  escape(data: Uint8Array): Buffer {
    const out = Buffer.allocUnsafe(data.length * 2);
    return out.subarray(0, this.put(out, 0, data, 0, data.length));
  }

  /** A binary header: ZPAD ZDLE 'C' (or 'A'), then type, ZP0..ZP3 and the CRC, escaped. */
  header(type: number, arg: number[]): Buffer {
    const bytes = Buffer.from([type, ...arg]);
    const crc = this.crc32Mode ? Buffer.alloc(4) : Buffer.alloc(2);
    if (this.crc32Mode) crc.writeUInt32LE(crc32(bytes));
    else crc.writeUInt16BE(crc16Xmodem(bytes));
    this.last = this.crc32Mode ? ZBIN32 : ZBIN;
    return Buffer.concat([Buffer.from([ZPAD, ZDLE, this.last]), this.escape(Buffer.concat([bytes, crc]))]);
  }

  /** A data subpacket: data[start, end) escaped, ZDLE and `frameEnd`, the CRC over both, escaped; XON after ZCRCW. */
  subpacket(data: Uint8Array, start: number, end: number, frameEnd: number): Buffer {
    const out = Buffer.allocUnsafe(2 * (end - start) + 12);
    let o = this.put(out, 0, data, start, end);
    out[o++] = ZDLE;
    out[o++] = this.last = frameEnd;
    let crc: Buffer;
    if (this.crc32Mode) {
      const c = crc32Update(-1, data, start, end);
      crc = Buffer.alloc(4);
      crc.writeUInt32LE(~(CRC32_TABLE[(c ^ frameEnd) & 0xff] ^ (c >>> 8)) >>> 0);
    } else {
      crc = Buffer.alloc(2);
      crc.writeUInt16BE(crc16Xmodem(Buffer.concat([data.subarray(start, end), Buffer.from([frameEnd])])));
    }
    o = this.put(out, o, crc, 0, crc.length);
    // The receiver owes a ZACK for a ZCRCW: as after hex headers, an XON frees it from a line-noise XOFF (lrzsz does the same).
    if (frameEnd === ZCRCW) out[o++] = XON;
    return out.subarray(0, o);
  }
}

// ---------------------------------------------------------------------------
// Reading the receiver's headers

interface Header {
  type: number;
  /** ZP0..ZP3 (ZF3..ZF0). */
  arg: Buffer;
  /** ZP0..ZP3 as a little-endian offset. */
  pos: number;
}

class ReceiverCancelled extends Error {}

const hexValue = (c: number) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1);

/** A header could not be read: the byte that broke it is read again (it may start the next one). */
class BadHeader {
  constructor(readonly breaker?: number) {}
}

/**
 * Headers out of the byte stream (hex, ZBIN and ZBIN32). What is not a
 * header is "noise", kept so that text read past the end of the session can
 * be put back and so that errors can show what came; XON/XOFF are neither.
 * Five CANs in a row are the receiver cancelling.
 */
class HeaderReader {
  private pending: Buffer = EMPTY;
  private cans = 0;
  private noise: number[] = [];

  constructor(private readonly link: ByteLink) {}

  private count(c: number): void {
    if (c !== ZDLE) this.cans = 0;
    else if (++this.cans >= 5) throw new ReceiverCancelled();
  }

  /** Move what the link has received into `pending` without waiting; true if anything is pending. */
  private fill(): boolean {
    const got = this.link.drain();
    for (const c of got) this.count(c);
    if (got.length) this.pending = this.pending.length ? Buffer.concat([this.pending, got]) : got;
    return this.pending.length > 0;
  }

  private async byte(deadline: number): Promise<number> {
    if (this.pending.length) {
      const c = this.pending[0];
      this.pending = this.pending.subarray(1);
      return c;
    }
    const c = await this.link.readByte(Math.max(0, deadline - Date.now()));
    this.count(c);
    return c;
  }

  private again(c: number): void {
    this.pending = Buffer.concat([Buffer.from([c]), this.pending]);
  }

  private addNoise(bytes: number[]): void {
    for (const c of bytes) if (!isFlowControl(c)) this.noise.push(c);
    if (this.noise.length > 8192) this.noise = this.noise.slice(-4096);
  }

  /**
   * The next header, or null: at `deadline`, when `stop` says so (checked
   * after noise), or with `poll` when nothing has arrived (a header already
   * under way is still read to its end).
   */
  async next(deadline: number, opts: { poll?: boolean; stop?: () => boolean } = {}): Promise<Header | null> {
    for (;;) {
      if (opts.poll && !this.pending.length && !this.fill()) return null;
      let c: number;
      try {
        c = await this.byte(deadline);
      } catch (e) {
        if (e instanceof LinkTimeout) return null;
        throw e;
      }
      if (c !== ZPAD) {
        this.addNoise([c]);
        if (opts.stop?.()) return null;
        continue;
      }
      const seen = [c];
      try {
        return await this.rest(opts.poll ? Date.now() + IN_HEADER_MS : deadline, seen);
      } catch (e) {
        if (e instanceof BadHeader) {
          if (e.breaker !== undefined) {
            seen.pop();
            this.again(e.breaker);
          }
        } else if (!(e instanceof LinkTimeout)) throw e;
        this.addNoise(seen);
        if (opts.stop?.()) return null;
      }
    }
  }

  /** After a ZPAD: the rest of a header, into `seen`. */
  private async rest(deadline: number, seen: number[]): Promise<Header> {
    const next = async () => {
      const c = await this.byte(deadline);
      seen.push(c);
      return c;
    };
    let c = await next();
    while (c === ZPAD) c = await next();
    if (c !== ZDLE) throw new BadHeader(c);
    const format = await next();
    let bytes: number[];
    if (format === ZHEX) {
      bytes = [];
      for (let i = 0; i < 7; i++) {
        const hi = await next();
        if (hexValue(hi) < 0) throw new BadHeader(hi);
        const lo = await next();
        if (hexValue(lo) < 0) throw new BadHeader(lo);
        bytes.push((hexValue(hi) << 4) | hexValue(lo));
      }
      if (crc16Xmodem(Buffer.from(bytes)) !== 0) throw new BadHeader();
      await this.lineEnd(bytes[0]);
    } else if (format === ZBIN || format === ZBIN32) {
      // Binary headers are escaped; raw XON/XOFF in them are flow control, not data.
      const unescaped = async () => {
        for (;;) {
          const c = await next();
          if (isFlowControl(c)) continue;
          if (c !== ZDLE) return c;
          const d = await next();
          if (d === ZRUB0) return 0x7f;
          if (d === ZRUB1) return 0xff;
          if ((d & 0x60) === 0x40) return d ^ 0x40;
          throw new BadHeader(d);
        }
      };
      bytes = [];
      for (let i = 0; i < (format === ZBIN ? 7 : 9); i++) bytes.push(await unescaped());
      const b = Buffer.from(bytes);
      const ok = format === ZBIN ? crc16Xmodem(b) === 0 : b.readUInt32LE(5) === crc32(b, 0, 5);
      if (!ok) throw new BadHeader();
    } else throw new BadHeader(format);
    const arg = Buffer.from(bytes.slice(1, 5));
    return { type: bytes[0], arg, pos: arg.readUInt32LE(0) };
  }

  /**
   * A hex header's CR LF (lrzsz sends CR, LF with the high bit) and XON.
   * Nothing more is read than belongs to the header: after a ZFIN the shell
   * may follow at once.
   */
  private async lineEnd(type: number): Promise<void> {
    const soon = Date.now() + 500;
    try {
      let c = await this.byte(soon);
      if ((c & 0x7f) === CR) c = await this.byte(soon);
      if ((c & 0x7f) !== LF) this.again(c);
    } catch (e) {
      if (!(e instanceof LinkTimeout)) throw e;
      return;
    }
    if (type !== ZACK && type !== ZFIN && this.fill() && (this.pending[0] & 0x7f) === XON) this.pending = this.pending.subarray(1);
  }

  /** Drop what has arrived and not been read (answers to data we are abandoning). */
  purge(): void {
    this.fill();
    this.pending = EMPTY;
  }

  /** Forget the noise so far (what came before the point where text must be kept). */
  markNoise(): void {
    this.noise = [];
  }

  noiseText(): string {
    return Buffer.from(this.noise).toString('latin1');
  }

  /** The last noise, for error messages. */
  recent(): string {
    return JSON.stringify(Buffer.from(this.noise.slice(-120)).toString('latin1'));
  }

  /** Put the noise since the mark and whatever was read ahead back on the link, in order. */
  giveBack(): void {
    this.link.unread(Buffer.concat([Buffer.from(this.noise), this.pending]));
    this.noise = [];
    this.pending = EMPTY;
  }
}

// ---------------------------------------------------------------------------
// Sender

const abortSequence = (link: ByteLink) => writeIfOpen(link, ABORT);

/** Send files as one ZMODEM session; resolves once the receiver has acknowledged the end (or the shell is back, see shellBack). */
export async function zmodemSend(link: ByteLink, files: ZmodemFile[], opts: ZmodemOptions = {}): Promise<ZmodemStats> {
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
