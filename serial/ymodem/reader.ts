// Reading a YMODEM peer: one-byte reads for answers, and whole blocks with an
// inter-byte (idle) timeout rather than one deadline for the block, so a block
// with a byte lost on the way is recognised quickly. Also how a transfer is
// cancelled (CAN CAN) and how a link error is told.
import { LinkClosed, LinkTimeout, writeIfOpen, type ByteLink } from '../link.ts';
import { CAN, YmodemError } from './frame.ts';

const CANCEL = Buffer.from([CAN, CAN, CAN, CAN, CAN]);

export class Reader {
  private pending: Buffer = Buffer.alloc(0);
  constructor(private readonly link: ByteLink) {}

  async byte(timeoutMs: number): Promise<number> {
    if (this.pending.length) {
      const b = this.pending[0];
      this.pending = this.pending.subarray(1);
      return b;
    }
    return this.link.readByte(Math.max(1, timeoutMs));
  }

  /** n bytes; LinkTimeout if nothing at all arrives for idleMs (to 2 x idleMs). */
  async exact(n: number, idleMs: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let have = 0;
    if (this.pending.length) {
      const take = Math.min(n, this.pending.length);
      chunks.push(this.pending.subarray(0, take));
      this.pending = this.pending.subarray(take);
      have = take;
    }
    while (have < n) {
      try {
        const rest = await this.link.readExact(n - have, idleMs);
        chunks.push(rest);
        have += rest.length;
      } catch (e) {
        // Slow but moving (a low baud rate) is fine; nothing new is not.
        const partial = isTimeout(e) ? this.link.drain() : Buffer.alloc(0);
        if (!partial.length) {
          this.pending = Buffer.concat([...chunks, this.pending]);
          throw e;
        }
        chunks.push(partial);
        have += partial.length;
      }
    }
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, have);
  }

  drain(): Buffer {
    const out = this.pending.length ? Buffer.concat([this.pending, this.link.drain()]) : this.link.drain();
    this.pending = Buffer.alloc(0);
    return out;
  }

  /** Wait for a quiet line, then throw away what came. */
  async purge(quietMs: number, maxMs: number): Promise<Buffer> {
    const before = this.drain();
    const rest = await this.link.settle(quietMs, maxMs);
    return Buffer.concat([before, rest]);
  }
}

export const hasCanCan = (b: Buffer) => {
  for (let i = 1; i < b.length; i++) if (b[i] === CAN && b[i - 1] === CAN) return true;
  return false;
};

export const isTimeout = (e: unknown) => e instanceof LinkTimeout;

/** The next byte before `deadline`, or null when the line stays quiet that long. */
export async function byteBefore(rx: Reader, deadline: number): Promise<number | null> {
  try {
    return await rx.byte(deadline - Date.now());
  } catch (e) {
    if (isTimeout(e)) return null;
    throw e;
  }
}

export function wrap(e: unknown, doing: string): YmodemError {
  if (e instanceof YmodemError) return e;
  const msg = e instanceof LinkClosed ? 'link closed' : e instanceof Error ? e.message : String(e);
  return new YmodemError(`YMODEM: ${msg} while ${doing}`, { cause: e });
}

export const cancel = (link: ByteLink) => writeIfOpen(link, CANCEL);
