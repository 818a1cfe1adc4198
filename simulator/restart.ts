// The simulated terminal's power: it listens, it restarts, it stops.
//
// The restart (RestartMachine, InitMachine, a firmware upgrade): the
// listening socket closes, so connections are refused, and every open
// connection is dropped; what lives in memory ends (`forget`: sessions, a
// running enrolment, live events, as on the terminal); after restartMs the
// same address answers again. The store is untouched: it is what survives a
// restart.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PowerOptions {
  host: string;
  /** 0: the system chooses; a restart listens on the same port again. */
  port: number;
  /** How long a restart keeps the terminal from answering (the model's restartMs). */
  restartMs: number;
  /** Say when a restart begins and ends. */
  log?: boolean;
  now: () => number;
  /** Drop what lives in memory only. */
  forget: () => void;
}

export class Power {
  /** When the terminal last started or restarted (ms, now()'s clock): uptime (ExecuteCommand 100) counts from it. */
  bootedAt: number;
  private port: number;
  private closed = false;
  private current: Promise<void> | null = null;
  /** Ends the restart's wait early (off()). */
  private wake: (() => void) | null = null;

  constructor(
    private readonly server: Server,
    private readonly o: PowerOptions,
  ) {
    this.bootedAt = o.now();
    this.port = o.port;
  }

  /** Start listening; resolves with the address it answers on. */
  async on(): Promise<string> {
    await this.listen();
    const addr = this.server.address() as AddressInfo;
    // A restart listens on the same port again, also when the first one was chosen by the system (port 0).
    this.port = addr.port;
    return `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`;
  }

  /** The restart under way (resolves when the terminal answers again), or null. */
  get restarting(): Promise<void> | null {
    return this.current;
  }

  private listen(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      this.server.once('error', failed);
      this.server.listen(this.port, this.o.host, () => {
        this.server.off('error', failed);
        resolve();
      });
    });
  }

  /** Stop listening and drop every connection, idle or busy (a power cycle does not finish replies). */
  private stop(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Restart now; resolves once the terminal answers again (at once after off()). */
  restart(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const { o } = this;
    this.current ??= (async () => {
      if (o.log) console.log(`restart: not answering for ${o.restartMs} ms`);
      o.forget();
      await this.stop();
      // A call that was still running when the connections dropped may have signed in since.
      o.forget();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, o.restartMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
      // The port may be taken for a moment by another program: try again for up to 5 s.
      for (let tries = 0; !this.closed; tries++) {
        try {
          await this.listen();
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 50) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      this.bootedAt = o.now();
      if (o.log && !this.closed) console.log('restart: answering again');
    })()
      .catch((err) => console.error('simulator: the restart could not listen again:', err))
      .finally(() => {
        this.current = null;
      });
    return this.current;
  }

  /** Stop for good, also during a restart (it then does not come back). */
  async off(): Promise<void> {
    this.closed = true;
    this.wake?.();
    // A restart under way sees `closed` and does not listen again.
    await this.current;
    if (this.server.listening) await this.stop();
  }
}
