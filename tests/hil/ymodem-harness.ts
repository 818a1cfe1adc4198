// Helpers for the YMODEM tests: socat pty pairs, lrzsz processes, serial
// ports, seeded data, and a per-test scope that always cleans up (child
// processes by pid, ports, temp dirs) and fails a test that hangs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { openSerialLink, type ByteLink } from '../../hil/link.ts';

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

/** A uvu test body with a scope and a hard time limit. */
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

/** Two linked ptys from socat: bytes written to one come out of the other. */
export async function ptyPair(scope: Scope, dir: string, tag: string): Promise<{ a: string; b: string }> {
  const a = join(dir, `${tag}a`);
  const b = join(dir, `${tag}b`);
  const p = startProcess(scope, 'socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`]);
  const deadline = Date.now() + 5000;
  while (!/starting data transfer loop/.test(p.stderr())) {
    if (p.proc.exitCode !== null) throw new Error(`socat exited: ${p.stderr()}`);
    if (Date.now() > deadline) throw new Error(`socat did not start: ${p.stderr()}`);
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

/** lrzsz's receiver or sender: `lrb`/`lsb` where installed that way, else `rb`/`sb`. */
export function lrzsz(tool: 'rb' | 'sb'): string {
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
