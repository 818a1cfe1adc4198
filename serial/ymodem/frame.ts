// YMODEM's blocks: the control bytes, building and reading a block (data
// blocks, block 0 with a file's name and size, the empty block 0 that ends a
// batch), and what both ends take as options. No I/O here.
import { crc16Xmodem, type TransferProgress } from '../transfer.ts';

export class YmodemError extends Error {}

export const SOH = 0x01;
export const STX = 0x02;
export const EOT = 0x04;
export const ACK = 0x06;
export const NAK = 0x15;
export const CAN = 0x18;
/** 'C': the receiver asks for CRC-16 mode (and for the next block 0 / first data block). */
export const CRC_C = 0x43;
export const CPMEOF = 0x1a;

/** What the sender (ymodem-send.ts) and the receiver (ymodem-receive.ts) both take. */
export interface YmodemOptions {
  onProgress?: (p: TransferProgress) => void;
  /** Attempts per block before giving up and aborting with CAN CAN (default 10). */
  retries?: number;
  /** How long to wait for an expected byte from the peer, ms (default 10_000 for the receiver's first 'C', 5_000 otherwise). */
  timeoutMs?: number;
}

// ---------------------------------------------------------------------------
// Framing (exported for tests and for tools that build blocks).

/**
 * One framed block: SOH (128-byte payload) or STX (1024), block number mod
 * 256, its complement, the payload padded with `pad`, CRC-16 big-endian.
 */
export function frameBlock(num: number, payload: Uint8Array, size: 128 | 1024 = 1024, pad = CPMEOF): Buffer {
  if (payload.length > size) throw new RangeError(`YMODEM: ${payload.length} bytes do not fit a ${size}-byte block`);
  const b = Buffer.allocUnsafe(size + 5);
  b[0] = size === 1024 ? STX : SOH;
  b[1] = num & 0xff;
  b[2] = ~num & 0xff;
  b.set(payload, 3);
  b.fill(pad, 3 + payload.length, 3 + size);
  b.writeUInt16BE(crc16Xmodem(b, 3, 3 + size), 3 + size);
  return b;
}

/** Block 0 for a file: "name NUL decimal-size", zero-padded (SOH, or STX if it does not fit 128 bytes). */
export function headerBlock(name: string, size: number): Buffer {
  const text = Buffer.from(`${name}\0${size}`, 'utf8');
  if (text.length + 1 > 1024) throw new YmodemError(`YMODEM: file name too long for block 0: ${name}`);
  return frameBlock(0, text, text.length + 1 > 128 ? 1024 : 128, 0);
}

/** The empty block 0 that ends a batch. */
export function endOfBatchBlock(): Buffer {
  return frameBlock(0, new Uint8Array(0), 128, 0);
}

export interface Block0Info {
  /** Empty name: end of batch. */
  name: string;
  size?: number;
  mtime?: number;
}

/** Parse a block 0 payload: name NUL, then "size [mtime-octal [mode ...]]" (all optional). */
export function parseBlock0(payload: Uint8Array): Block0Info {
  const buf = Buffer.from(payload.buffer, payload.byteOffset, payload.length);
  const nul = buf.indexOf(0);
  const name = buf.toString('utf8', 0, nul < 0 ? buf.length : nul);
  if (!name || nul < 0) return { name: '' };
  let endInfo = buf.indexOf(0, nul + 1);
  if (endInfo < 0) endInfo = buf.length;
  const fields = buf.toString('latin1', nul + 1, endInfo).trim().split(/\s+/);
  const info: Block0Info = { name };
  if (/^\d+$/.test(fields[0] ?? '')) info.size = Number(fields[0]);
  if (/^[0-7]+$/.test(fields[1] ?? '')) info.mtime = parseInt(fields[1], 8);
  return info;
}
