// The virtual board running: qemu-system-x86_64 with Debian's kernel, the
// board's initramfs and its /data disk (board/board.ts).
//   - Serial: ttyS0 on a unix socket QEMU listens on. This process stays
//     connected (so nothing the board prints is lost and the boot time is
//     read off the line), and offers the line on tcp://127.0.0.1:<port>
//     (every client sees the output, each one's input goes to the board) and,
//     through socat, as a pseudo-terminal, like the simulated console.
//   - Network: user networking with restrict=on (the guest reaches nothing
//     on the host or beyond), its port 80 and 443 forwarded to loopback
//     ports, and guestfwd from 10.0.2.100:8081 in the guest to the simulated
//     API on the host, through socat started per connection.
//   - Accelerator: KVM when /dev/kvm works (a quick probe), TCG otherwise;
//     BOARD_ACCEL=kvm|tcg decides.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BoardFiles } from './board.ts';
import { BOARD_LAYOUT } from './initramfs.ts';

export interface BoardOptions {
  files: BoardFiles;
  /** The simulated API on the host (127.0.0.1:<port>): the guest's lighttpd reaches it at 10.0.2.100:8081. */
  apiPort: number;
  /** The host's firmware feed (board/firmware-feed.ts): the guest's S70firmware reaches it at 10.0.2.100:8082. */
  firmwarePort?: number;
  /** Loopback ports for the guest's 80 and 443 (free ones by default). */
  httpPort?: number;
  httpsPort?: number;
  /** Loopback port of the serial line's TCP side (a free one by default). */
  serialPort?: number;
  /** Also offer the serial line as a pseudo-terminal (socat). */
  pty?: boolean;
  accel?: 'auto' | 'kvm' | 'tcg';
  memMiB?: number;
  /** Everything the board prints on ttyS0. */
  onSerial?: (chunk: Buffer) => void;
  log?: (line: string) => void;
}

export interface Board {
  accel: 'kvm' | 'tcg';
  /** tcp://127.0.0.1:<port>: the serial console, for --serial and openTcpLink. */
  serialUrl: string;
  /** The pseudo-terminal's path, with `pty`. */
  ptyPath?: string;
  /** http://127.0.0.1:<port> and https://127.0.0.1:<port>: the guest's lighttpd. */
  url: string;
  https: string;
  /** QEMU's process. */
  qemu: ChildProcess;
  /** Resolves with the ms from QEMU's start to the first login prompt on ttyS0. */
  booted: Promise<number>;
  /** Resolves at the next login prompt after now (a reboot), with the ms it took. */
  nextLogin(timeoutMs?: number): Promise<number>;
  /** Everything ttyS0 printed so far (the last 256 KiB). */
  output(): string;
  /** SIGKILL QEMU: the power is cut. */
  powerCut(): Promise<void>;
  /** Stop QEMU and everything around it. */
  close(): Promise<void>;
}

const QEMU = '/usr/bin/qemu-system-x86_64';
const SETPRIV = '/usr/bin/setpriv';
const LOGIN = /login: ?$/;

/**
 * A loopback port for one of QEMU's host forwards: free now, and below the kernel's ephemeral range
 * (/proc/sys/net/ipv4/ip_local_port_range), which every connect() and listen(0) on the machine draws
 * from. freePort()'s port is free only until it closes it: on a busy machine another connection may
 * take it before QEMU binds, and QEMU then exits at once (it did once in npm test, at a power cut's
 * restart). A port below that range is taken only by a program that names it.
 */
export async function forwardPort(avoid: readonly number[] = []): Promise<number> {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // Not Linux: the usual start of the range.
  }
  const from = Math.min(10_000, Math.floor(low / 2));
  for (let tries = 0; tries < 200; tries++) {
    const port = from + Math.floor(Math.random() * (low - from));
    if (avoid.includes(port)) continue;
    const free = await new Promise<boolean>((res) => {
      const s = createServer();
      s.once('error', () => res(false));
      s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free loopback port between ${from} and ${low - 1}`);
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
  });
}

/**
 * KVM when it works here: QEMU with -accel kvm -cpu host, held with -S, gets through its start (the vCPU's
 * registers and MSRs set at reset) to its main loop, answers QMP on stdin and quits with status 0. A host
 * whose KVM cannot take the CPU's state aborts first (nested KVM here: "failed to set MSR 0x10a"). Judged by
 * the answer, never by how long QEMU stayed up: a busy machine took more than a second and a half to abort.
 */
export function kvmUsable(): boolean {
  if (!existsSync('/dev/kvm')) return false;
  const r = spawnSync(QEMU, ['-accel', 'kvm', '-cpu', 'host', '-display', 'none', '-nodefaults', '-no-user-config', '-S', '-monitor', 'none', '-qmp', 'stdio'], {
    input: '{"execute":"qmp_capabilities"}\n{"execute":"quit"}\n',
    timeout: 60_000, // a hang guard: no answer within it counts as no KVM, and TCG always works
    encoding: 'utf8',
  });
  return r.status === 0 && /"event": ?"SHUTDOWN"/.test(r.stdout);
}

export function chooseAccel(want: BoardOptions['accel'] = (process.env.BOARD_ACCEL as BoardOptions['accel']) ?? 'auto'): 'kvm' | 'tcg' {
  if (want === 'kvm' || want === 'tcg') return want;
  return kvmUsable() ? 'kvm' : 'tcg';
}

export function qemuArgs(o: { files: BoardFiles; accel: 'kvm' | 'tcg'; serialSock: string; httpPort: number; httpsPort: number; apiPort: number; firmwarePort?: number; memMiB?: number }): string[] {
  const net = [
    'user',
    'id=n0',
    'restrict=on',
    `hostfwd=tcp:127.0.0.1:${o.httpPort}-:80`,
    `hostfwd=tcp:127.0.0.1:${o.httpsPort}-:443`,
    // One socat per connection the guest opens to the API's address.
    `guestfwd=tcp:${BOARD_LAYOUT.apiIp}:${BOARD_LAYOUT.apiPort}-cmd:socat - TCP:127.0.0.1:${o.apiPort}`,
    ...(o.firmwarePort ? [`guestfwd=tcp:${BOARD_LAYOUT.apiIp}:${BOARD_LAYOUT.firmwarePort}-cmd:socat - TCP:127.0.0.1:${o.firmwarePort}`] : []),
  ].join(',');
  return [
    '-nodefaults', '-no-user-config', '-display', 'none', '-monitor', 'none',
    '-accel', o.accel, '-cpu', o.accel === 'kvm' ? 'host' : 'max', '-smp', '1', '-m', String(o.memMiB ?? 256),
    '-kernel', o.files.kernel, '-initrd', o.files.initrd,
    '-append', 'console=ttyS0,115200 quiet panic=1',
    '-chardev', `socket,id=s0,path=${o.serialSock},server=on,wait=off`, '-serial', 'chardev:s0',
    '-drive', `file=${o.files.disk},if=virtio,format=raw,cache=writeback`,
    '-netdev', net, '-device', 'virtio-net-pci,netdev=n0',
  ];
}

/**
 * Why QEMU stopped, in one line: the last line it wrote under its own name ("qemu-system-x86_64: -m -1:
 * Parameter 'size' expects…", "…: terminating on signal 15 from pid …"), which an explanation of several
 * lines may follow; else its last line.
 */
export function lastWords(said: string): string {
  const lines = said.trim().split('\n');
  return [...lines].reverse().find((l) => /^qemu-system[^:\s]*: /.test(l)) ?? lines.at(-1) ?? '';
}

async function connectUnix(path: string, alive: () => boolean, timeoutMs = 10_000): Promise<Socket> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error('QEMU exited before its serial socket was up');
    if (existsSync(path)) {
      const s = await new Promise<Socket | null>((res) => {
        const c = connect(path);
        c.once('connect', () => res(c));
        c.once('error', () => res(null));
      });
      if (s) return s;
    }
    if (Date.now() > deadline) throw new Error(`QEMU's serial socket ${path} did not come up within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** socat between a pty (a link in `dir`) and the serial line's TCP side. */
async function ptyBridge(dir: string, port: number): Promise<{ path: string; child: ChildProcess }> {
  const path = join(dir, 'ttyS0');
  const child = spawn('socat', [`pty,raw,echo=0,link=${path}`, `tcp:127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.resume();
  const deadline = Date.now() + 10_000;
  while (!existsSync(path)) {
    if (child.exitCode !== null) throw new Error('socat exited at once (apt-get install socat)');
    if (Date.now() > deadline) throw new Error(`socat did not make ${path} within 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { path, child };
}

async function stop(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

export async function startBoard(o: BoardOptions): Promise<Board> {
  const log = o.log ?? (() => undefined);
  const accel = chooseAccel(o.accel);
  const dir = mkdtempSync(join(tmpdir(), 'board-'));
  const serialSock = join(dir, 'serial.sock');
  const httpPort = o.httpPort ?? (await forwardPort());
  const httpsPort = o.httpsPort ?? (await forwardPort([httpPort]));
  const args = qemuArgs({ files: o.files, accel, serialSock, httpPort, httpsPort, apiPort: o.apiPort, firmwarePort: o.firmwarePort, memMiB: o.memMiB });
  log(`board: ${QEMU} ${args.map((a) => (/[\s,]/.test(a) ? `'${a}'` : a)).join(' ')}`);

  const started = Date.now();
  // setpriv (util-linux) --pdeathsig: QEMU goes when this process does, however it ends (it execs QEMU: same pid).
  const qemu = existsSync(SETPRIV) ? spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', QEMU, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(QEMU, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let qemuErr = '';
  qemu.stdout!.on('data', (d: Buffer) => (qemuErr = (qemuErr + d).slice(-4000)));
  qemu.stderr!.on('data', (d: Buffer) => (qemuErr = (qemuErr + d).slice(-4000)));
  // 'close', not 'exit': by then QEMU's last words on stderr (why it stopped) have been read.
  const exited = new Promise<void>((r) => qemu.once('close', () => r()));
  const alive = () => qemu.exitCode === null && qemu.signalCode === null;

  // The serial line, and who is listening to it.
  let text = '';
  let line = '';
  const waiters = new Set<{ since: number; resolve: (ms: number) => void }>();
  const clients = new Set<Socket>();
  let serial: Socket;
  try {
    serial = await connectUnix(serialSock, alive);
  } catch (e) {
    const gone = !alive();
    qemu.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
    // As before the login prompt below: QEMU's status and why it stopped on the first line.
    if (gone) throw new Error(`QEMU exited (${qemu.exitCode ?? qemu.signalCode}) before its serial socket was up: ${lastWords(qemuErr)}\n${qemuErr.trim()}`);
    throw new Error(`${(e as Error).message}\n${qemuErr.trim()}`);
  }
  serial.on('error', () => undefined);
  serial.on('data', (d: Buffer) => {
    o.onSerial?.(d);
    for (const c of clients) c.write(d);
    const s = d.toString('latin1');
    text = (text + s).slice(-256 * 1024);
    line = (line + s).split(/\r|\n/).pop()!.slice(-200);
    if (LOGIN.test(line)) {
      const now = Date.now();
      for (const w of waiters) {
        waiters.delete(w);
        w.resolve(now - w.since);
      }
    }
  });
  const hub: Server = createServer((c) => {
    c.setNoDelay(true);
    clients.add(c);
    c.on('data', (d: Buffer) => serial.write(d));
    c.on('error', () => undefined);
    c.on('close', () => clients.delete(c));
  });
  await new Promise<void>((res, rej) => {
    hub.once('error', rej);
    hub.listen(o.serialPort ?? 0, '127.0.0.1', () => res());
  });
  const serialPort = (hub.address() as AddressInfo).port;
  const pty = o.pty ? await ptyBridge(dir, serialPort) : undefined;

  const nextLogin = (timeoutMs = 120_000, since = Date.now()) =>
    new Promise<number>((resolve, reject) => {
      const w = {
        since,
        resolve: (ms: number) => {
          clearTimeout(timer);
          resolve(ms);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(w);
        reject(new Error(`no login prompt on ttyS0 within ${timeoutMs} ms; it printed:\n${text.slice(-2000)}\n${qemuErr.trim()}`));
      }, timeoutMs);
      waiters.add(w);
      void exited.then(() => {
        if (!waiters.has(w)) return;
        waiters.delete(w);
        clearTimeout(timer);
        // QEMU's last line (why it stopped) on the first line, which callers that keep one line show.
        reject(new Error(`QEMU exited (${qemu.exitCode ?? qemu.signalCode}) before the login prompt: ${lastWords(qemuErr)}\n${qemuErr.trim()}\n${text.slice(-2000)}`));
      });
    });
  // A hang guard, not a claim of speed: under TCG the boot takes about 10 s alone and took 60 to 90 s
  // beside npm test's other lanes (a clean-clone run once lost the whole board suite to the 120 s
  // this was).
  const booted = nextLogin(300_000, started);
  booted.catch(() => undefined);

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await stop(qemu, 'SIGTERM');
    await stop(pty?.child, 'SIGTERM');
    serial.destroy();
    for (const c of clients) c.destroy();
    await new Promise<void>((r) => hub.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    accel,
    serialUrl: `tcp://127.0.0.1:${serialPort}`,
    ptyPath: pty?.path,
    url: `http://127.0.0.1:${httpPort}`,
    https: `https://127.0.0.1:${httpsPort}`,
    qemu,
    booted,
    nextLogin: (ms) => nextLogin(ms),
    output: () => text,
    powerCut: () => stop(qemu, 'SIGKILL'),
    close,
  };
}
