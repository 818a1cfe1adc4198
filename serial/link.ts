// A byte link to a terminal's serial console: a serial port (serialport), a
// TCP socket (ser2net raw mode, the simulator), or any duplex stream, with
// buffered reads that time out. YMODEM and the shell driver both use it.
import { Socket, connect } from 'node:net';
import type { Duplex } from 'node:stream';

export class LinkTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`timed out after ${ms} ms waiting for ${what}`);
  }
}

export class LinkClosed extends Error {
  constructor() {
    super('serial link closed');
  }
}

export interface ByteLink {
  write(data: Buffer | string): Promise<void>;
  /** Next byte, or LinkTimeout. */
  readByte(timeoutMs: number): Promise<number>;
  /** Exactly n bytes, or LinkTimeout. */
  readExact(n: number, timeoutMs: number): Promise<Buffer>;
  /**
   * Read until `pattern` matches the text received so far; returns that text
   * (consumed). Terminal control sequences (cursor queries, colours, titles)
   * are taken out of the text before matching and from what is returned.
   */
  expect(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** Drop whatever has been received and not read yet; returns it. */
  drain(): Buffer;
  /** Put bytes back in front of what has been received, for the next reader (a protocol that read past its end). */
  unread(data: Buffer): void;
  /** Wait until nothing has arrived for `quietMs` (at most `maxMs`), then drain. */
  settle(quietMs: number, maxMs: number): Promise<Buffer>;
  /**
   * Make every read that is waiting, and every read from now on, fail with
   * `reason` (an interrupted run), until called with null. Writes still go
   * out: the caller cancels what the terminal is doing.
   */
  interrupt(reason: Error | null): void;
  /** Every byte received, for logs (tap). */
  onData(listener: (chunk: Buffer) => void): () => void;
  close(): Promise<void>;
  readonly closed: boolean;
}

/**
 * Terminal control sequences a shell or line editor sends around its prompt:
 * CSI (ESC [ ... final byte, e.g. busybox ash's cursor-position query ESC[6n,
 * colours ESC[1;32m), OSC (ESC ] ... BEL or ESC \, e.g. a window title),
 * other two-byte ESC sequences, a bell, NUL padding. Backspaces and the rest
 * stay: they are how a line editor echoes.
 */
const CONTROL = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x00\x07]/g;

/** `text` without terminal control sequences, and for each kept character its index in `text`. */
export function withoutControls(text: string): { text: string; at: number[] } {
  const at: number[] = [];
  let out = '';
  let from = 0;
  const keep = (end: number) => {
    for (let i = from; i < end; i++) at.push(i);
    out += text.slice(from, end);
  };
  for (const m of text.matchAll(CONTROL)) {
    keep(m.index);
    from = m.index + m[0].length;
  }
  keep(text.length);
  return { text: out, at };
}

/** Write if the link is still open, ignoring a failure: a cancel sent on the way out, when the link may be going away anyway. */
export async function writeIfOpen(link: ByteLink, data: Buffer): Promise<void> {
  if (link.closed) return;
  await link.write(data).catch(() => undefined);
}

/** Wrap any duplex byte stream. */
export function streamLink(stream: Duplex, onClose?: () => Promise<void>): ByteLink {
  let buf = Buffer.alloc(0);
  let waiter: (() => void) | null = null;
  let closed = false;
  let failure: Error | null = null;
  const taps = new Set<(c: Buffer) => void>();
  const wake = () => {
    const w = waiter;
    waiter = null;
    w?.();
  };
  stream.on('data', (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : Buffer.from(chunk);
    for (const t of taps) t(chunk);
    wake();
  });
  const end = () => {
    closed = true;
    wake();
  };
  stream.on('close', end);
  stream.on('end', end);
  stream.on('error', end);

  /** Wait for more data or the deadline. */
  const more = (deadline: number, what: string, ms: number) =>
    new Promise<void>((resolve, reject) => {
      if (failure) return reject(failure);
      if (closed) return reject(new LinkClosed());
      const left = deadline - Date.now();
      if (left <= 0) return reject(new LinkTimeout(what, ms));
      const t = setTimeout(() => {
        waiter = null;
        reject(new LinkTimeout(what, ms));
      }, left);
      waiter = () => {
        clearTimeout(t);
        if (failure) reject(failure);
        else resolve();
      };
    });

  const link: ByteLink = {
    get closed() {
      return closed;
    },
    write(data) {
      if (closed) return Promise.reject(new LinkClosed());
      return new Promise((resolve, reject) => stream.write(data, (err) => (err ? reject(err) : resolve())));
    },
    async readByte(timeoutMs) {
      return (await link.readExact(1, timeoutMs))[0];
    },
    async readExact(n, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      if (failure) throw failure;
      while (buf.length < n) await more(deadline, `${n} bytes`, timeoutMs);
      const out = buf.subarray(0, n);
      buf = buf.subarray(n);
      return Buffer.from(out);
    },
    async expect(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      if (failure) throw failure;
      for (;;) {
        const raw = buf.toString('latin1');
        const { text, at } = withoutControls(raw);
        const m = pattern.exec(text);
        if (m) {
          const endAt = m.index + m[0].length;
          // Consume through the last matched character (or, for an empty match, up to where it stands).
          const rawEnd = endAt > 0 ? at[endAt - 1] + 1 : 0;
          buf = buf.subarray(rawEnd);
          return text.slice(0, endAt);
        }
        await more(deadline, String(pattern), timeoutMs).catch((e) => {
          if (e instanceof LinkTimeout) e.message += `; received: ${JSON.stringify(raw.slice(-200))}`;
          throw e;
        });
      }
    },
    drain() {
      const out = buf;
      buf = Buffer.alloc(0);
      return out;
    },
    unread(data) {
      if (!data.length) return;
      buf = buf.length ? Buffer.concat([data, buf]) : Buffer.from(data);
      wake();
    },
    async settle(quietMs, maxMs) {
      const stop = Date.now() + maxMs;
      let seen = buf.length;
      while (Date.now() < stop) {
        await new Promise((r) => setTimeout(r, quietMs));
        if (buf.length === seen) break;
        seen = buf.length;
      }
      return link.drain();
    },
    interrupt(reason) {
      failure = reason;
      wake();
    },
    onData(listener) {
      taps.add(listener);
      return () => taps.delete(listener);
    },
    async close() {
      if (onClose) await onClose();
      else stream.destroy();
      closed = true;
      wake();
    },
  };
  return link;
}

/** tcp://host:port (a serial server in raw mode, or the simulator's console port). */
export function openTcpLink(target: string, timeoutMs = 10_000): Promise<ByteLink> {
  const u = new URL(target);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: u.hostname, port: Number(u.port) });
    socket.setNoDelay(true);
    const t = setTimeout(() => {
      socket.destroy();
      reject(new Error(`cannot reach ${target} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(t);
      resolve(streamLink(socket));
    });
    socket.once('error', (err) => {
      clearTimeout(t);
      reject(new Error(`cannot reach ${target}: ${err.message}`));
    });
  });
}

/** A serial device (/dev/ttyUSB0, a pty) at a baud rate, through serialport. */
export async function openSerialLink(path: string, baudRate: number): Promise<ByteLink> {
  const { SerialPort } = await import('serialport');
  const port = new SerialPort({ path, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(new Error(`cannot open ${path}: ${err.message}`)) : resolve())));
  return streamLink(port as unknown as Duplex, () => new Promise((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())));
}

/** --serial value: tcp://host:port or a device path. */
export function openLink(target: string, baud: number): Promise<ByteLink> {
  return target.startsWith('tcp://') ? openTcpLink(target) : openSerialLink(target, baud);
}
