// ser2net (Debian's ser2net 4) in front of a serial device, as a lab runs it
// to share a bench's serial ports over TCP (docs/HIL.md, "Sharing bench ports
// between CI runners"): one connection, a raw tcp accepter, a serialdev
// connector. ser2netYaml() is the configuration that section shows;
// tests/hil/ser2net.test.ts holds the page to it, and the virtual board's
// test flashes through ser2net started here on the board's pty.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../board/qemu.ts';

const SER2NET = '/usr/sbin/ser2net';
const SETPRIV = '/usr/bin/setpriv';

export interface Ser2netConnection {
  /** The connection's alias (ser2net requires one; its admin interface names the port by it). */
  name: string;
  /** The serial device: /dev/ttyUSB0, a /dev/serial/by-id/ name, or a pty. */
  device: string;
  /** Line speed, 8 data bits, no parity, 1 stop bit. */
  speed: number;
  /** TCP port of the raw accepter. */
  port: number;
  /** The address to listen on; every address when left out. */
  host?: string;
}

/**
 * The YAML for one connection. `tcp` (not `telnet`) passes bytes unchanged: no negotiation and no
 * doubled 0xFF, which YMODEM and ZMODEM need. `local` ignores the modem lines (a UART header has
 * none). `kickolduser`: a runner's new connection takes the port from one a killed job left open.
 */
export function ser2netYaml(c: Ser2netConnection): string {
  return [
    `connection: &${c.name}`,
    `  accepter: tcp,${c.host === undefined ? '' : `${c.host},`}${c.port}`,
    `  connector: serialdev,${c.device},${c.speed}n81,local`,
    '  options:',
    '    kickolduser: true',
    '',
  ].join('\n');
}

export interface Ser2net {
  /** tcp://host:port, for the harness's --serial. */
  url: string;
  /** What ser2net printed (its log, with -d). */
  output(): string;
  close(): Promise<void>;
}

/** Is something listening on 127.0.0.1:port? Read from /proc/net/tcp, so no connection opens the device meanwhile. */
function listening(port: number): boolean {
  const hex = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'latin1')
    .split('\n')
    .some((line) => {
      const f = line.trim().split(/\s+/);
      return f[1] === hex && f[3] === '0A';
    });
}

/** ser2net in the foreground on a configuration file of its own, serving `device` on a loopback port; resolves once the port listens. */
export async function startSer2net(o: { name?: string; device: string; speed?: number; port?: number }): Promise<Ser2net> {
  if (!existsSync(SER2NET)) throw new Error('ser2net is not installed (apt-get install ser2net)');
  const port = o.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'ser2net-'));
  // ser2net reads a file as YAML only when its name ends in .yaml.
  const config = join(dir, 'ser2net.yaml');
  writeFileSync(config, ser2netYaml({ name: o.name ?? 'board', device: o.device, speed: o.speed ?? 115200, port, host: '127.0.0.1' }));
  // -n: stay in the foreground; -d: and log to stdout. setpriv --pdeathsig: ser2net goes when this process does.
  const args = ['-n', '-d', '-c', config];
  const child = existsSync(SETPRIV) ? spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', SER2NET, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(SER2NET, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString('latin1')).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(kill);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!listening(port)) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`ser2net did not listen on 127.0.0.1:${port}: ${out.trim() || `exit ${child.exitCode ?? child.signalCode}`}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url: `tcp://127.0.0.1:${port}`, output: () => out, close };
}
