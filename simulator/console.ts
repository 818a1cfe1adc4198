// The simulated terminal's serial console: a TCP server on 127.0.0.1 that
// speaks like a tty with getty/login and busybox's ash behind it (the shell
// is SandboxShell over a sandbox folder; nothing runs on the host). With
// `pty`, socat bridges it to a pseudo-terminal, so the console also appears
// as a serial device path, as a USB serial adapter would.
//
// Each connection is its own session (socat's bridge is one connection), the
// way a serial console and a telnet login coexist on a terminal.
import { createServer, type Server, type Socket } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { LinkClosed, LinkTimeout, streamLink, type ByteLink } from '../serial/link.ts';
import { SandboxShell } from './shell.ts';
import { prepareSandbox } from './shell/sandbox.ts';
import type { ShellIO } from './shell/command.ts';

/** The simulated terminal's console login (the harness profile uses the same). */
export const CONSOLE_CREDENTIALS = { user: 'root', password: 'terminal' } as const;

export interface ConsoleOptions {
  /** Sandbox folder: the terminal's /. Laid out by prepareSandbox if empty. */
  root: string;
  user?: string;
  password?: string;
  hostname?: string;
  /** `/etc/init.d/S80httpd restart`: serve this host folder (/www resolved inside the sandbox). */
  onRestartHttp?: (siteDir: string) => void | Promise<void>;
  /** TCP port (0 = any free one, the default). */
  port?: number;
  /** Also offer the console as a pseudo-terminal through socat. */
  pty?: boolean;
  /** socat binary (default: socat from PATH). */
  socat?: string;
  /** Copied into /www.d/factory when the sandbox has none yet. */
  factorySite?: string;
  /** Largest file rb accepts. */
  maxReceiveBytes?: number;
  /** Passed to ymodemReceive. */
  ymodem?: { timeoutMs?: number; retries?: number };
  /** Diagnostics (socat restarts, session errors). */
  log?: (line: string) => void;
}

export interface ConsoleServer {
  port: number;
  /** tcp://127.0.0.1:<port>, for openTcpLink / --serial. */
  tcpUrl: string;
  /** The pseudo-terminal's path (a symlink socat keeps), with `pty`. */
  ptyPath?: string;
  close(): Promise<void>;
}

const IDLE_READ_MS = 60_000;
const MAX_LINE = 4096;

/** Reads console lines the way a tty in canonical mode with echo would. */
class LineReader {
  /** The last line ended with CR: a LF right after it belongs to that line (CR LF). */
  private afterCR = false;

  constructor(
    private readonly link: ByteLink,
    private readonly write: (data: string | Buffer) => Promise<void>,
  ) {}

  private async byte(): Promise<number> {
    for (;;) {
      try {
        return await this.link.readByte(IDLE_READ_MS);
      } catch (e) {
        if (!(e instanceof LinkTimeout)) throw e;
      }
    }
  }

  /** One line; null for ^D on an empty line. */
  async line(echo: boolean): Promise<string | null> {
    const bytes: number[] = [];
    let esc = 0; // 1: after ESC, 2: inside a CSI/SS3 sequence
    for (;;) {
      const b = await this.byte();
      const afterCR = this.afterCR;
      this.afterCR = false;
      if (esc === 1) {
        esc = b === 0x5b || b === 0x4f ? 2 : 0;
        continue;
      }
      if (esc === 2) {
        if (b >= 0x40 && b <= 0x7e) esc = 0;
        continue;
      }
      if (b === 0x0a && afterCR) continue;
      if (b === 0x0d || b === 0x0a) {
        this.afterCR = b === 0x0d;
        await this.write('\r\n');
        return Buffer.from(bytes).toString('utf8');
      }
      if (b === 0x08 || b === 0x7f) {
        if (bytes.length) {
          let last: number;
          do last = bytes.pop()!;
          while (bytes.length && (last & 0xc0) === 0x80);
          if (echo) await this.write('\b \b');
        }
        continue;
      }
      if (b === 0x03) {
        if (echo) await this.write('^C\r\n');
        return '';
      }
      if (b === 0x15) {
        // ^U: drop the line typed so far
        if (echo && bytes.length) await this.write('\b \b'.repeat(Buffer.from(bytes).toString('utf8').length));
        bytes.length = 0;
        continue;
      }
      if (b === 0x04) {
        if (!bytes.length) return null;
        continue;
      }
      if (b === 0x1b) {
        esc = 1;
        continue;
      }
      if (b < 0x20 && b !== 0x09) continue;
      if (bytes.length >= MAX_LINE) continue;
      bytes.push(b === 0x09 ? 0x20 : b);
      if (echo) await this.write(Buffer.from([b === 0x09 ? 0x20 : b]));
    }
  }
}

async function session(socket: Socket, opts: Required<Pick<ConsoleOptions, 'user' | 'password' | 'hostname'>> & ConsoleOptions): Promise<void> {
  const link = streamLink(socket);
  const write = (data: string | Buffer) => link.write(data);
  const reader = new LineReader(link, write);
  const shell = new SandboxShell({
    root: opts.root,
    hostname: opts.hostname,
    onRestartHttp: opts.onRestartHttp,
    maxReceiveBytes: opts.maxReceiveBytes,
    ymodem: opts.ymodem,
  });
  const io: ShellIO = { link, write };
  try {
    for (;;) {
      await write(`\r\nWelcome to ${opts.hostname} (simulated access terminal, serial console)\r\n\r\n`);
      // getty + login
      for (;;) {
        await write(`${opts.hostname} login: `);
        const user = await reader.line(true);
        if (!user) continue;
        await write('Password: ');
        const password = await reader.line(false);
        if (user === opts.user && password === opts.password) break;
        await write('\r\nLogin incorrect\r\n');
      }
      shell.reset();
      await write(`\r\n\r\nBusyBox v1.36.1 (simulated) built-in shell (ash)\r\nEnter 'help' for a list of built-in commands.\r\n\r\n`);
      for (;;) {
        // As Debian's busybox ash does: the prompt, then a cursor-position query (ESC [ 6 n) no one answers.
        await write(`${shell.prompt()}\x1b[6n`);
        const line = await reader.line(true);
        if (line === null) break; // ^D
        if (!line.trim()) continue;
        let result;
        try {
          result = await shell.run(line, io);
        } catch (e) {
          if (e instanceof LinkClosed || link.closed) throw e;
          opts.log?.(`console: "${line}" failed: ${(e as Error).stack ?? e}`);
          await write(`sh: internal error: ${(e as Error).message}\r\n`);
          continue;
        }
        if (result.exit) break;
      }
    }
  } catch (e) {
    if (!(e instanceof LinkClosed) && !link.closed) opts.log?.(`console: session ended: ${(e as Error).message}`);
  } finally {
    socket.destroy();
  }
}

/** socat between a pty (a symlink in a temp folder) and the console's TCP port, restarted whenever it exits. */
class PtyBridge {
  readonly dir = mkdtempSync(join(tmpdir(), 'console-pty-'));
  readonly path = join(this.dir, 'console-tty');
  private child: ChildProcess | undefined;
  private closing = false;
  private timer: NodeJS.Timeout | undefined;
  private quickExits = 0;

  constructor(
    private readonly socat: string,
    private readonly port: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Start socat and wait for the pty to appear. */
  async start(): Promise<void> {
    const child = this.spawn();
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    await new Promise<void>((resolve, reject) => {
      let done = false;
      const finish = (err?: Error) => {
        if (done) return;
        done = true;
        clearInterval(poll);
        child.off('error', onError);
        child.off('exit', onExit);
        if (err) reject(err);
        else resolve();
      };
      const onError = (e: NodeJS.ErrnoException) =>
        finish(new Error(e.code === 'ENOENT' ? `socat not found (${this.socat}): the console's pseudo-terminal needs it: apt-get install socat` : `cannot start socat: ${e.message}`));
      const onExit = () => finish(new Error(`socat exited at once: ${stderr.trim().split('\n').pop() ?? ''}`));
      child.once('error', onError);
      child.once('exit', onExit);
      const started = Date.now();
      const poll = setInterval(() => {
        if (existsSync(this.path)) finish();
        else if (Date.now() - started > 10_000) finish(new Error(`socat did not create ${this.path} within 10 s`));
      }, 20);
    });
  }

  private spawn(): ChildProcess {
    const started = Date.now();
    // A socat that was killed leaves its link behind; the new one makes a new link.
    rmSync(this.path, { force: true });
    const child = spawn(this.socat, [`pty,raw,echo=0,link=${this.path}`, `tcp:127.0.0.1:${this.port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    child.stderr?.resume();
    child.on('error', () => undefined); // reported by start(); a restart's failure shows as exit
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (this.closing) return;
      // socat ends when its console connection closes; bring the pty back.
      this.quickExits = Date.now() - started < 1000 ? this.quickExits + 1 : 0;
      const delay = Math.min(50 * 2 ** this.quickExits, 5000);
      this.log(`console: socat exited (${signal ?? code}); restarting it in ${delay} ms`);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (!this.closing) this.spawn();
      }, delay);
    });
    return child;
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function startConsole(options: ConsoleOptions): Promise<ConsoleServer> {
  const opts = {
    ...options,
    user: options.user ?? CONSOLE_CREDENTIALS.user,
    password: options.password ?? CONSOLE_CREDENTIALS.password,
    hostname: options.hostname ?? 'terminal',
  };
  const log = opts.log ?? (() => undefined);
  prepareSandbox(opts.root, { factorySite: opts.factorySite });

  const sockets = new Set<Socket>();
  const sessions = new Set<Promise<void>>();
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const s = session(socket, opts).finally(() => sessions.delete(s));
    sessions.add(s);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  let pty: PtyBridge | undefined;
  const close = async () => {
    await pty?.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
    await Promise.race([Promise.allSettled([...sessions]), new Promise((r) => setTimeout(r, 2000))]);
  };
  if (opts.pty) {
    pty = new PtyBridge(opts.socat ?? 'socat', port, log);
    try {
      await pty.start();
    } catch (e) {
      await close();
      throw e;
    }
  }
  return { port, tcpUrl: `tcp://127.0.0.1:${port}`, ptyPath: pty?.path, close };
}
