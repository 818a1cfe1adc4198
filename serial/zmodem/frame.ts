// ZMODEM's bytes: the protocol constants (zmodem.txt), CRC-32, and building
// hex and binary headers and data subpackets (ZDLE escapes). No I/O here.
import { crc16Xmodem } from '../transfer.ts';

// ---------------------------------------------------------------------------
// Protocol constants (zmodem.txt)

export const ZPAD = 0x2a; // '*'
export const ZDLE = 0x18; // also CAN
export const ZBIN = 0x41; // 'A': binary header, CRC-16
export const ZHEX = 0x42; // 'B': hex header, CRC-16
export const ZBIN32 = 0x43; // 'C': binary header, CRC-32
export const XON = 0x11;
const XOFF = 0x13;
export const CR = 0x0d;
export const LF = 0x0a;
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
export const frameName = (t: number) => FRAME_NAMES[t] ?? `frame type ${t}`;

/** Subpacket ends: frame ends (a header follows) / goes on / goes on, ZACK wanted / ends, ZACK wanted. */
export const ZCRCE = 0x68;
export const ZCRCG = 0x69;
export const ZCRCQ = 0x6a;
export const ZCRCW = 0x6b;
/** Escaped 0x7f and 0xff, which a receiver must understand (we never send them). */
export const ZRUB0 = 0x6c;
export const ZRUB1 = 0x6d;

/** ZRINIT ZF0 flags. */
export const CANFDX = 0x01;
export const CANOVIO = 0x02;
export const CANFC32 = 0x20;
export const ESCCTL = 0x40;
/** ZFILE ZF0: binary, no conversion. */
export const ZCBIN = 1;

/** The abort sequence: 8 CAN (5 make a ZMODEM receiver quit), then 8 backspaces to rub them out of a line editor. */
export const ABORT = Buffer.from([...Array(8).fill(ZDLE), ...Array(8).fill(BS)]);
export const EMPTY = Buffer.alloc(0);

export const isFlowControl = (c: number) => (c & 0x7f) === XON || (c & 0x7f) === XOFF;

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
