// A faulty cable between two byte streams, for testing serial protocols.
//
//   const shim = startFaultShim(portA, portB, { dropRate: 5e-5, corruptRate: 5e-5, seed: 1, baud: 115200 });
//   ... run a transfer between the far ends ...
//   console.log(shim.counters); await shim.close();
//
// Bytes read from `a` are written to `b` and the other way round (any Duplex:
// serialport ports on two socat pty pairs, sockets, ...). On the way, each
// byte is dropped with probability `dropRate` or has some bits flipped (xor
// with a random non-zero mask) with probability `corruptRate`, drawn from a
// seeded PRNG per direction, so a failing run can be replayed with its seed.
//
// `baud` paces each direction like a UART at that rate: 10 bit times per byte
// (start, 8 data, stop), a byte is delivered when its last bit would have
// left the wire, the line is serial (an idle line gives no credit), and when
// timers run late the backlog delivered at once is limited to `burstMs` of
// line time (the line time lost that way is counted in `lateMs`). Dropped
// and corrupted bytes use line time too.
//
// `cutAfterBytes` pulls the cable: once that many bytes have passed from A
// to B, nothing more is delivered in either direction (input is still read
// and thrown away, so writers never block).
//
// The shim does not own the streams: close() detaches from them and stops
// forwarding; closing the streams is up to the caller.
import type { Duplex } from 'node:stream';
import { prng } from '../simulator/prng.ts';

export interface FaultShimOptions {
  /** Probability per byte of losing it (e.g. 1e-4: one in 10,000). */
  dropRate?: number;
  /** Probability per byte of flipping some of its bits. */
  corruptRate?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** Pace each direction to baud/10 bytes per second. */
  baud?: number;
  /** Most line time delivered in one go when catching up after a late timer, ms (default 5). */
  burstMs?: number;
  /** Stop forwarding both ways once this many bytes have passed from A to B. */
  cutAfterBytes?: number;
  /** Called once when the cut happens. */
  onCut?: () => void;
  /**
   * A targeted fault: called for every byte, in order, as it reaches the
   * line; true drops it (e.g. lose the one answer a test is about). Counted
   * as dropped.
   */
  dropIf?: (direction: 'aToB' | 'bToA', byte: number) => boolean;
}

export interface DirectionCounters {
  /** Bytes read from the source. */
  read: number;
  /** Bytes that reached the line position (delivered, dropped or corrupted). */
  passed: number;
  /** Bytes written to the destination (corrupted ones included). */
  delivered: number;
  dropped: number;
  corrupted: number;
  /** Bytes read but thrown away because the cable was cut or the shim closed. */
  discarded: number;
  /** Pacing: line time lost because timers ran later than burstMs (a busy machine), ms. */
  lateMs: number;
}

export interface FaultShimCounters {
  aToB: DirectionCounters;
  bToA: DirectionCounters;
  /** Totals over both directions. */
  dropped: number;
  corrupted: number;
}

export interface FaultShim {
  readonly counters: FaultShimCounters;
  /** True once cutAfterBytes has been reached. */
  readonly cut: boolean;
  /** Stop forwarding, drop queued bytes, detach from both streams. */
  close(): Promise<void>;
}


const HIGH_WATER = 64 * 1024;

class Direction {
  readonly counters: DirectionCounters = { read: 0, passed: 0, delivered: 0, dropped: 0, corrupted: 0, discarded: 0, lateMs: 0 };
  private queue: Buffer[] = [];
  private queued = 0;
  /** Pacing: virtual time (ms) at which the line finishes the bytes handed out so far. */
  private lineFreeAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private paused = false;
  private readonly random: () => number;
  private readonly onData = (chunk: Buffer) => this.input(chunk);

  constructor(
    private readonly name: 'aToB' | 'bToA',
    private readonly src: Duplex,
    private readonly dst: Duplex,
    seed: number,
    private readonly opts: FaultShimOptions,
    private readonly byteMs: number,
    /** Returns how many of n bytes may still pass (cut), and notes them. */
    private readonly allowance: (n: number) => number,
    private readonly isStopped: () => boolean,
  ) {
    this.random = prng(seed);
    src.on('data', this.onData);
  }

  private input(chunk: Buffer): void {
    this.counters.read += chunk.length;
    if (this.isStopped()) {
      this.counters.discarded += chunk.length;
      return;
    }
    if (!this.byteMs) {
      this.forward(chunk);
      return;
    }
    const now = performance.now();
    if (this.queued === 0 && this.lineFreeAt < now) this.lineFreeAt = now; // idle line: no credit
    this.queue.push(chunk);
    this.queued += chunk.length;
    if (this.queued > HIGH_WATER && !this.paused) {
      this.paused = true;
      this.src.pause();
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || !this.queued) return;
    // Wake when ~2 ms of bytes are done (fewer, slightly larger writes), or the queue is.
    const bytes = Math.min(this.queued, Math.max(1, Math.round(2 / this.byteMs)));
    const wait = this.lineFreeAt + bytes * this.byteMs - performance.now();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.max(1, Math.ceil(wait)));
  }

  private pump(): void {
    if (this.isStopped()) return this.clear();
    const now = performance.now();
    const burst = this.opts.burstMs ?? 5;
    if (this.lineFreeAt < now - burst) {
      // Late timer: catch up at most burstMs, the rest of the line time is lost.
      this.counters.lateMs += now - burst - this.lineFreeAt;
      this.lineFreeAt = now - burst;
    }
    let n = Math.min(this.queued, Math.floor((now - this.lineFreeAt) / this.byteMs));
    if (n > 0) {
      this.lineFreeAt += n * this.byteMs;
      const parts: Buffer[] = [];
      while (n > 0) {
        const head = this.queue[0];
        if (head.length <= n) {
          parts.push(head);
          this.queue.shift();
          n -= head.length;
          this.queued -= head.length;
        } else {
          parts.push(head.subarray(0, n));
          this.queue[0] = head.subarray(n);
          this.queued -= n;
          n = 0;
        }
      }
      this.forward(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    }
    if (this.paused && this.queued < HIGH_WATER / 2) {
      this.paused = false;
      this.src.resume();
    }
    this.schedule();
  }

  /** The bytes reach the line position: cut, faults, delivery. */
  private forward(chunk: Buffer): void {
    const allowed = this.allowance(chunk.length);
    if (allowed < chunk.length) {
      this.counters.discarded += chunk.length - allowed;
      chunk = chunk.subarray(0, allowed);
    }
    if (!chunk.length) return;
    this.counters.passed += chunk.length;
    const dropIf = this.opts.dropIf;
    if (dropIf) {
      const kept = chunk.filter((b) => !dropIf(this.name, b));
      this.counters.dropped += chunk.length - kept.length;
      chunk = Buffer.from(kept.buffer, kept.byteOffset, kept.length);
      if (!chunk.length) return;
    }
    const drop = this.opts.dropRate ?? 0;
    const bad = drop + (this.opts.corruptRate ?? 0);
    let out = chunk;
    if (bad > 0) {
      out = Buffer.allocUnsafe(chunk.length);
      let j = 0;
      for (let i = 0; i < chunk.length; i++) {
        const r = this.random();
        if (r >= bad) out[j++] = chunk[i];
        else if (r < drop) this.counters.dropped++;
        else {
          out[j++] = chunk[i] ^ (1 + Math.floor(this.random() * 255));
          this.counters.corrupted++;
        }
      }
      out = out.subarray(0, j);
    }
    if (!out.length || this.dst.destroyed || this.dst.writableEnded) return;
    this.counters.delivered += out.length;
    this.dst.write(out);
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.counters.discarded += this.queued;
    this.queue = [];
    this.queued = 0;
    if (this.paused) {
      this.paused = false;
      this.src.resume();
    }
  }

  detach(): void {
    this.clear();
    this.src.off('data', this.onData);
  }
}

/** Relay bytes between a and b through a faulty, optionally paced, cable. */
export function startFaultShim(a: Duplex, b: Duplex, opts: FaultShimOptions = {}): FaultShim {
  const seed = opts.seed ?? 1;
  const byteMs = opts.baud ? 10_000 / opts.baud : 0;
  let cut = false;
  let closed = false;
  let passedAtoB = 0;
  const stopped = () => cut || closed;
  const noLimit = (n: number) => (stopped() ? 0 : n);
  const doCut = () => {
    if (cut) return;
    cut = true;
    ab.clear();
    ba.clear();
    opts.onCut?.();
  };
  const limitAtoB = (n: number) => {
    if (stopped()) return 0;
    const limit = opts.cutAfterBytes;
    if (limit === undefined) return n;
    const ok = Math.max(0, Math.min(n, limit - passedAtoB));
    passedAtoB += ok;
    if (passedAtoB >= limit) queueMicrotask(doCut);
    return ok;
  };
  const ab: Direction = new Direction('aToB', a, b, seed, opts, byteMs, limitAtoB, stopped);
  const ba: Direction = new Direction('bToA', b, a, (seed ^ 0x9e3779b9) >>> 0 || 1, opts, byteMs, noLimit, stopped);
  if (opts.cutAfterBytes !== undefined && opts.cutAfterBytes <= 0) doCut();
  return {
    get counters() {
      return {
        aToB: { ...ab.counters },
        bToA: { ...ba.counters },
        dropped: ab.counters.dropped + ba.counters.dropped,
        corrupted: ab.counters.corrupted + ba.counters.corrupted,
      };
    },
    get cut() {
      return cut;
    },
    async close() {
      closed = true;
      ab.detach();
      ba.detach();
    },
  };
}
