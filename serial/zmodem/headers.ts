// Reading the receiver's headers out of the byte stream (hex, ZBIN and
// ZBIN32), keeping what is not a header so that it can be put back on the
// link; five CANs in a row are the receiver cancelling.
import { LinkTimeout, type ByteLink } from '../link.ts';
import { crc16Xmodem } from '../transfer.ts';
import { CR, EMPTY, LF, XON, ZACK, ZBIN, ZBIN32, ZDLE, ZFIN, ZHEX, ZPAD, ZRUB0, ZRUB1, crc32, isFlowControl } from './frame.ts';

/** Inside a header, the next byte must come within this (the rest of a header started in a poll). */
const IN_HEADER_MS = 1000;

export interface Header {
  type: number;
  /** ZP0..ZP3 (ZF3..ZF0). */
  arg: Buffer;
  /** ZP0..ZP3 as a little-endian offset. */
  pos: number;
}

export class ReceiverCancelled extends Error {}

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
export class HeaderReader {
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
