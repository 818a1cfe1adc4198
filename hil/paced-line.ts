// A serial line paced like a 115200 baud UART, for measuring what the
// product's YMODEM sender achieves on it: two socat pty pairs joined by the
// fault shim (hil/fault-shim.ts) pacing each byte as a UART would, the real
// lrzsz tools or our own receiver at the far end, seeded data, and a scope
// that owns every process, port and folder of a run and always cleans up
// (child processes by pid) and stops a run that hangs. The rates over it
// (rateToRb, rateToOurs) are what `npm run bench` reports and what the
// YMODEM and ZMODEM tests (tests/hil) hold to their bars; the tests also use
// the line and the scope for their own transfers.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { openSerialLink, type ByteLink } from '../serial/link.ts';
import { ymodemReceive } from '../serial/ymodem-receive.ts';
import { ymodemSend } from '../serial/ymodem-send.ts';
import type { TransferFile, TransferProgress } from '../serial/transfer.ts';
import { CRC_C } from '../serial/ymodem/frame.ts';
import { startFaultShim, type FaultShim } from './fault-shim.ts';

export const BAUD = 115200;

/** Cleanups run in reverse order, each bounded in time, whatever happened. */
export class Scope {
  private cleanups: { what: string; fn: () => Promise<void> | void }[] = [];
  private notes: (() => string)[] = [];
  private closed = false;

  /** Something worth printing if the test fails (a traffic trace, a tool's stderr). */
  note(fn: () => string): void {
    this.notes.push(fn);
  }

  report(): string {
    return this.notes.map((n) => n()).join('\n');
  }

  /**
   * Register a cleanup. A test body that goes on after its time limit closed
   * the scope gets its new resource cleaned up at once, and an error.
   */
  defer(what: string, fn: () => Promise<void> | void): void {
    if (this.closed) {
      Promise.resolve().then(fn).catch(() => {});
      throw new Error(`test already ended (${what})`);
    }
    this.cleanups.push({ what, fn });
  }

  tmpdir(prefix = 'ymodem-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.defer(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  async close(): Promise<void> {
    this.closed = true;
    const errors: string[] = [];
    for (const { what, fn } of this.cleanups.reverse()) {
      let t: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(fn),
          new Promise((_, reject) => (t = setTimeout(() => reject(new Error('cleanup timed out')), 3000))),
        ]);
      } catch (e) {
        errors.push(`${what}: ${(e as Error).message}`);
      } finally {
        clearTimeout(t);
      }
    }
    this.cleanups = [];
    if (errors.length) console.warn(`cleanup problems: ${errors.join('; ')}`);
  }
}

/** A run's body (a uvu test's, or a bench section's) with a scope and a hard time limit. */
export function guarded(limitMs: number, body: (scope: Scope) => Promise<void>): () => Promise<void> {
  return async () => {
    const scope = new Scope();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        body(scope),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`test did not finish within ${limitMs} ms`)), limitMs);
        }),
      ]);
    } catch (e) {
      if (process.env.YMODEM_TRACE) console.error(scope.report());
      throw e;
    } finally {
      clearTimeout(timer);
      await scope.close();
    }
  };
}

export interface Proc {
  proc: ChildProcess;
  /** Resolves with the exit code (or the signal name) once the process ends. */
  exited: Promise<number | string>;
  stderr(): string;
}

/** Start a process we own; the scope kills it (by pid) if it is still running. */
export function startProcess(scope: Scope, cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Proc {
  const proc = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.setEncoding('latin1');
  proc.stderr!.on('data', (s: string) => {
    err += s;
    if (err.length > 200_000) err = err.slice(-100_000);
  });
  scope.note(() => `${cmd} ${args.join(' ')} (pid ${proc.pid}) stderr: ${JSON.stringify(err.slice(-600))}`);
  const exited = new Promise<number | string>((resolve) => {
    proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1));
    proc.once('error', (e) => {
      err += String(e);
      resolve(-1);
    });
  });
  scope.defer(`stop ${cmd} (pid ${proc.pid})`, async () => {
    if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return;
    proc.kill('SIGTERM');
    const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 1000))]);
    if (!done) {
      proc.kill('SIGKILL');
      await exited;
    }
  });
  return { proc, exited, stderr: () => err };
}

/** Wait for a process to end within ms; its exit code (or signal name). */
export async function exitOf(p: Proc, ms: number, what: string): Promise<number | string> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p.exited,
      new Promise<never>((_, reject) => {
        t = setTimeout(() => reject(new Error(`${what} did not exit within ${ms} ms; stderr: ${p.stderr().slice(-500)}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(t);
  }
}

/**
 * How long a helper program (socat) may take to say it has started: a guard against a hang, not a
 * claim of speed. A clean-clone npm test (load average 15 on two cores) once waited over 5 s for
 * socat's first line.
 */
export const START_GUARD_MS = 30_000;

/** Two linked ptys from socat: bytes written to one come out of the other. */
export async function ptyPair(scope: Scope, dir: string, tag: string): Promise<{ a: string; b: string }> {
  const a = join(dir, `${tag}a`);
  const b = join(dir, `${tag}b`);
  const p = startProcess(scope, 'socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`]);
  const deadline = Date.now() + START_GUARD_MS;
  while (!/starting data transfer loop/.test(p.stderr())) {
    if (p.proc.exitCode !== null) throw new Error(`socat exited: ${p.stderr()}`);
    if (Date.now() > deadline) throw new Error(`socat did not start within ${START_GUARD_MS} ms: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { a, b };
}

/** A ByteLink on a pty (or serial device), closed by the scope; with YMODEM_TRACE set, its last traffic is noted. */
export async function serialLink(scope: Scope, path: string): Promise<ByteLink> {
  const link = await openSerialLink(path, BAUD);
  scope.defer(`close link ${path}`, () => link.close());
  if (!process.env.YMODEM_TRACE) return link;
  const t0 = performance.now();
  const events: string[] = [];
  const log = (dir: string, b: Buffer) => {
    events.push(`${(performance.now() - t0).toFixed(1).padStart(9)} ${dir} ${b.length > 6 ? `${b.length} bytes ${b.subarray(0, 3).toString('hex')}..` : b.toString('hex')}`);
    if (events.length > 80) events.shift();
  };
  link.onData((c) => log('in ', c));
  const write = link.write.bind(link);
  link.write = (d) => {
    log('out', Buffer.from(d));
    return write(d);
  };
  scope.note(() => `traffic on ${path}:\n${events.join('\n')}`);
  return link;
}

/** A raw serialport Duplex (for the fault shim), closed by the scope. */
export async function serialStream(scope: Scope, path: string): Promise<Duplex> {
  const { SerialPort } = await import('serialport');
  const port = new SerialPort({ path, baudRate: BAUD, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  scope.defer(`close port ${path}`, () => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())));
  return port as unknown as Duplex;
}

/** An lrzsz tool: `lrb`/`lsb`/`lrz` where installed that way, else `rb`/`sb`/`rz`. */
export function lrzsz(tool: 'rb' | 'sb' | 'rz'): string {
  for (const name of [`l${tool}`, tool]) {
    const r = spawnSync(name, ['--version'], { encoding: 'latin1' });
    if (!r.error && /lrzsz/i.test(`${r.stdout}${r.stderr}`)) return name;
  }
  throw new Error(`lrzsz ${tool} not found (install the lrzsz package)`);
}

/** Run an lrzsz tool with stdin and stdout on a tty. */
export function startOnTty(scope: Scope, tool: string, args: string[], tty: string, cwd: string): Proc {
  return startProcess(scope, 'sh', ['-c', 'tty="$1"; shift; exec "$@" <"$tty" >"$tty"', 'sh', tty, tool, ...args], { cwd });
}

/** Deterministic pseudo-random bytes (mulberry32). */
export function seededBytes(n: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i += 4) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const v = (t ^ (t >>> 14)) >>> 0;
    for (let k = 0; k < 4 && i + k < n; k++) out[i + k] = (v >>> (8 * k)) & 0xff;
  }
  return out;
}

export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        t = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(t);
  }
}

/**
 * Our sender's answer timeout with rb. rb flushes its input right after each
 * ACK and 'C'; on a busy machine our next block can get there first and be
 * thrown away, and then only our timeout resends it (rb itself waits 5-10 s).
 * rb answers within ~1 s otherwise (its EOT check), so 2 s keeps those
 * incidents cheap. The default (5 s) is exercised with our own receiver.
 */
export const RB_TIMEOUT = 2000;

export const filesOf = (sizes: number[], seed: number): TransferFile[] =>
  sizes.map((n, i) => ({ name: `f${seed}-${i}-${n}.bin`, data: seededBytes(n, seed * 100 + i) }));

/** Resolves when the link has received a 'C' (without consuming it). */
export function seenC(link: ByteLink, ms: number): Promise<void> {
  return withTimeout(
    new Promise<void>((resolve) => {
      const off = link.onData((chunk) => {
        if (chunk.includes(CRC_C)) {
          off();
          resolve();
        }
      });
    }),
    ms,
    "the receiver's first 'C'",
  );
}

/** Two pty pairs joined by the fault shim: near end (our side) and far end (a path for rb/sb or our link). */
export async function shimmed(scope: Scope, dir: string, opts: Parameters<typeof startFaultShim>[2]): Promise<{ near: string; far: string; shim: FaultShim }> {
  const p1 = await ptyPair(scope, dir, 'near-');
  const p2 = await ptyPair(scope, dir, 'far-');
  const shim = startFaultShim(await serialStream(scope, p1.b), await serialStream(scope, p2.a), opts);
  scope.defer('close the fault shim', () => shim.close());
  return { near: p1.a, far: p2.b, shim };
}

/**
 * The files arrived whole, or an error naming the first that did not: a rate
 * is only worth reporting for a transfer that delivered every byte.
 */
function checkReceived(got: TransferFile[], want: TransferFile[]): void {
  const names = (fs: TransferFile[]) => fs.map((f) => f.name).join(', ');
  if (names(got) !== names(want)) throw new Error(`received ${names(got)}, sent ${names(want)}`);
  for (let i = 0; i < want.length; i++) if (!got[i].data.equals(want[i].data)) throw new Error(`${want[i].name} arrived changed (${got[i].data.length} bytes of ${want[i].data.length})`);
}

/** The same for files a receiver wrote to `dir`. */
function checkOnDisk(dir: string, want: TransferFile[]): void {
  checkReceived(want.map((f) => ({ name: f.name, data: readFileSync(join(dir, f.name)) })), want);
}

// ---------------------------------------------------------------------------
// Throughput, paced by the shim like a 115200 baud line

/** The payload the throughput tests send (the bench's full run too). */
export const THROUGHPUT_PAYLOAD = 128 * 1024;

/** `bytes` in `ms` as a percentage of the line rate (10 bits a byte at BAUD). */
export const pct = (bytes: number, ms: number) => ((bytes * 10) / BAUD / (ms / 1000)) * 100;

/**
 * The rate as measured, and the same with the line time the shim itself lost
 * to late timers taken out (a busy machine runs the simulated line slower
 * than 115200 baud, which is not the sender's doing).
 */
export const lineRate = (bytes: number, ms: number, lateMs: number) => ({ raw: pct(bytes, ms), fair: pct(bytes, Math.max(1, ms - lateMs)) });

export interface Rate {
  /** Payload bytes sent. */
  bytes: number;
  /** From block 0's ACK to the last data block's ACK, ms. */
  dataMs: number;
  /** From the start of ymodemSend to the end of the batch, ms. */
  allMs: number;
  /** Line time the shim lost to late timers on a busy machine, ms (both directions). */
  lateMs: number;
}

/** Times for onProgress: block 0 acknowledged, last data block acknowledged. */
function phases() {
  const t = { d0: 0, d1: 0 };
  const onProgress = (p: TransferProgress) => {
    if (p.bytes === 0) t.d0 = performance.now();
    if (p.bytes === p.total) t.d1 = performance.now();
  };
  return { t, onProgress };
}

/** Our sender -> the shim at 115200 baud -> lrzsz rb: one file of `payload` seeded bytes, checked on disk. */
export async function rateToRb(scope: Scope, seed: number, payload = THROUGHPUT_PAYLOAD): Promise<Rate> {
  const dir = scope.tmpdir();
  const recv = join(dir, 'recv');
  mkdirSync(recv);
  const { near, far, shim } = await shimmed(scope, dir, { baud: BAUD });
  const link = await serialLink(scope, near);
  const files = filesOf([payload], seed);
  const ready = seenC(link, 10_000);
  const rb = startOnTty(scope, lrzsz('rb'), ['-y'], far, recv);
  await ready; // rb takes a second to start; that is not ours to measure
  const { t, onProgress } = phases();
  const t0 = performance.now();
  await ymodemSend(link, files, { timeoutMs: RB_TIMEOUT, onProgress });
  const t1 = performance.now();
  const code = await exitOf(rb, 10_000, 'rb');
  if (code !== 0) throw new Error(`rb exited with ${code}: ${rb.stderr().slice(-500)}`);
  checkOnDisk(recv, files);
  const c = shim.counters;
  return { bytes: payload, dataMs: t.d1 - t.d0, allMs: t1 - t0, lateMs: c.aToB.lateMs + c.bToA.lateMs };
}

/** Our sender -> the shim at 115200 baud -> our receiver: one file of `payload` seeded bytes, compared. */
export async function rateToOurs(scope: Scope, seed: number, payload = THROUGHPUT_PAYLOAD): Promise<Rate> {
  const dir = scope.tmpdir();
  const { near, far, shim } = await shimmed(scope, dir, { baud: BAUD });
  const slink = await serialLink(scope, near);
  const rlink = await serialLink(scope, far);
  const files = filesOf([payload], seed);
  const receiving = ymodemReceive(rlink);
  receiving.catch(() => {});
  const { t, onProgress } = phases();
  const t0 = performance.now();
  await ymodemSend(slink, files, { onProgress });
  const got = await receiving;
  const t1 = performance.now();
  checkReceived(got, files);
  const c = shim.counters;
  return { bytes: payload, dataMs: t.d1 - t.d0, allMs: t1 - t0, lateMs: c.aToB.lateMs + c.bToA.lateMs };
}
