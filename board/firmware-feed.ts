// The firmware's part of a terminal, for the board. On a terminal the
// firmware writes the web server's access file (build/access.ts) whenever
// RestParam's HostNames or Protocol change (docs/EMBEDDING.md, "Host names
// and HTTPS"), restarts the whole terminal on RestartMachine (also
// InitMachine and an upgrade), and drives the door's relay and reads its
// sensor (docs/API.md, "The door"). The board's API is the simulator on the host,
// so the work is split: this server, on the host's loopback, says what the
// simulator has done, and the board's /etc/init.d/S70firmware (reached
// through guestfwd) does the terminal's side.
//
// GET /access?have=<sha256 of the board's file>: the file's text, at once
//   when it differs from `have`, else when the settings change, or after
//   HOLD_MS with the same text.
// GET /door?have=<sha256 of the board's door file>: the door as the
//   terminal's relay and sensor lines stand (doorText), held as /access is.
// GET /restarts?seen=<n>: how many restarts the simulator has begun, at once
//   when it differs from `seen` (or `seen` is missing), else when the next
//   begins, or after HOLD_MS.
// GET /api: 200 once the simulated API answers (at once when it does, else
//   when its restart is over), so the board waits for the device's API.
// Long polls: one connection a minute from the board when nothing changes.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accessFile, accessOf } from '../build/access.ts';
import type { Simulator } from '../simulator/server.ts';

const HOLD_MS = 60_000;
const LOOK_MS = 100;

export interface FirmwareFeed {
  port: number;
  /** Restarts of the simulated API begun so far. */
  restarts(): number;
  close(): Promise<void>;
}

/** The access file for the simulator's settings now. */
export function accessText(sim: Simulator): string {
  return accessFile('plain', accessOf(sim.store.get().settings.RestParam ?? {}));
}

/**
 * The door as the firmware drives it: the relay (1 energised, the lock
 * released), the sensor (none, closed, open, fault) and the mode it keeps:
 * what the board's door file holds, a terminal's GPIO lines.
 */
export function doorText(sim: Simulator): string {
  const d = sim.door.state();
  return `relay ${d.Relay}\nsensor ${['none', 'closed', 'open', 'fault'][d.Sensor]}\nmode ${d.Mode}\n`;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export async function startFirmwareFeed(sim: Simulator): Promise<FirmwareFeed> {
  const waiting = new Set<() => void>();
  let restarts = 0;
  let wasRestarting = false;
  let access = sha256(accessText(sim));
  let door = sha256(doorText(sim));
  // The simulator has no change events: look at it, and wake every waiter on a change (each checks its own).
  const look = setInterval(() => {
    const now = sha256(accessText(sim));
    const doorNow = sha256(doorText(sim));
    const restarting = sim.restarting !== null;
    let changed = now !== access || doorNow !== door;
    access = now;
    door = doorNow;
    if (restarting !== wasRestarting) {
      // Begun: one more restart; over: the API answers again.
      if (restarting) restarts++;
      changed = true;
    }
    wasRestarting = restarting;
    if (changed) for (const w of [...waiting]) w();
  }, LOOK_MS);
  const send = (res: ServerResponse, text: string) => {
    if (res.writableEnded) return;
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
    res.end(text);
  };
  /** Answer with `text()` once `ready()` holds, or after HOLD_MS whatever it is. */
  const hold = (res: ServerResponse, ready: () => boolean, text: () => string) => {
    if (ready()) return send(res, text());
    const check = () => {
      if (!ready()) return;
      stop();
      send(res, text());
    };
    const timer = setTimeout(() => {
      stop();
      send(res, text());
    }, HOLD_MS);
    const stop = () => {
      clearTimeout(timer);
      waiting.delete(check);
    };
    waiting.add(check);
    // The board went away (a reboot, a power cut): nothing to answer.
    res.on('close', stop);
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://board');
    const q = (k: string) => url.searchParams.get(k);
    if (req.method === 'GET' && url.pathname === '/access') return hold(res, () => q('have') !== access, () => accessText(sim));
    if (req.method === 'GET' && url.pathname === '/door') return hold(res, () => q('have') !== door, () => doorText(sim));
    if (req.method === 'GET' && url.pathname === '/restarts') return hold(res, () => q('seen') !== String(restarts), () => String(restarts));
    if (req.method === 'GET' && url.pathname === '/api') return hold(res, () => sim.restarting === null, () => 'up');
    res.writeHead(404).end();
  });
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(0, '127.0.0.1', () => res());
  });
  return {
    port: (server.address() as AddressInfo).port,
    restarts: () => restarts,
    close: async () => {
      clearInterval(look);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
