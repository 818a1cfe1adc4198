// A slow line to the device, modelled on the bytes that cross it: a TCP relay
// between the browser and a web server that carries every connection over
// one shared line with a rate and a delay in each direction, as one modem,
// cellular router or VPN to a terminal does. The browser's own throttling
// (CDP) delays each response; it charges nothing for a new connection, a TLS
// handshake or the bytes of a certificate. This line charges all three:
//
// - each direction is a queue: a chunk waits until the line is free, takes
//   bytes x 8 / rate to go out, then arrives half a round trip later;
// - every connection pays its TCP handshake (SYN up, SYN-ACK down: a round
//   trip) before its first byte goes up, and its close goes through the line
//   after its last byte;
// - the IP and TCP headers are charged too (40 bytes for each segment of up to
//   1,460 bytes of payload), and each segment arrives on its own. Over TLS the
//   browser's Finished crosses as a segment of its own, ahead of a request the
//   relay read in the same chunk, as its two writes do on a real line. ACKs are
//   not modelled, nor TCP's slow start: at 256 kbit/s and 300 ms a round trip
//   holds 9.6 KB, less than the 14.6 KB of a first congestion window, so the
//   line, not the window, sets the pace.
//
// Linux's `tc qdisc ... netem rate ... delay ...` does the same in the kernel
// where it has netem (this machine's kernel does not; docs/PERFORMANCE.md). The
// relay listens on LINK_HOST (127.0.0.3) on the same port numbers as the server
// it fronts on 127.0.0.1, so the addresses a server writes into a redirect
// (https://<Host>:<its port>) lead through the line again. With rate Infinity
// and no delay it is a plain relay that counts connections and bytes (tests).
import { createServer, connect, type Server, type Socket } from 'node:net';

/** Where the line's far end listens: a loopback address of its own, so that its ports can be the server's. */
export const LINK_HOST = '127.0.0.3';
/** IPv4 and TCP headers (no options) for each segment; the payload of a full segment on Ethernet. */
export const HEADER_BYTES = 40;
export const SEGMENT_BYTES = 1460;

export interface LinkOptions {
  /** Bits per second in each direction (1 kbit = 1,000 bits); Infinity: no limit. */
  bitsPerSecond: number;
  /** The round trip: half of it in each direction. */
  rttMs: number;
  /** Ports to relay: LINK_HOST:port -> target:port. */
  ports: number[];
  /** Where the server listens (default 127.0.0.1). */
  target?: string;
}

/** One connection through the line, as the browser opened it. */
export interface LinkConnection {
  /** Counts from 1 for the life of the line (a reset does not start it again). */
  id: number;
  /** The port the browser connected to. */
  port: number;
  /** When the browser connected (epoch ms, as the arrivals). */
  openedAt: number;
  /**
   * Over TLS: the payload bytes of the browser's side of the handshake, its records up to its
   * Finished (TLS 1.3's first encrypted record from the client; the ClientHello and the
   * ChangeCipherSpec before it). Absent until it has gone up, and on plain HTTP.
   */
  clientHandshake?: number;
  /**
   * Over TLS: each record either side sent, as its header gives it, in the order the relay read them
   * (a side's record is read as it leaves that side: an answer's records follow the request's); none on
   * plain HTTP.
   */
  records: TlsRecord[];
}

/** One TLS record on a connection: which side sent it (`up`: the browser), its type and its length (the header's). */
export interface TlsRecord {
  up: boolean;
  type: number;
  length: number;
}

/** One arrival at the far side: when (epoch ms, as a page's performance.timeOrigin + now()), which way, bytes on the line. */
export interface LinkArrival {
  at: number;
  up: boolean;
  bytes: number;
  /** The connection's id (LinkConnection.id). */
  connection: number;
}

export interface LinkCounts {
  connections: LinkConnection[];
  /** Every arrival, in order: what crossed the line, headers and handshakes included. */
  arrivals: LinkArrival[];
}

export interface Link {
  host: string;
  /** Counts since the line was made or since reset(). */
  counts(): LinkCounts;
  /** Start counting again (the connections open stay open). */
  reset(): void;
  /** Close every connection (idle browser sockets too): the next visit opens new ones. */
  dropConnections(): Promise<void>;
  /** Resolves once nothing is queued on the line in either direction. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads the TLS record headers (type, version, length: 5 bytes) of one direction of a connection,
 * across chunks, and calls `record(type, length, end)` as each header has been read, `end` being
 * where that record ends in the direction's bytes; it stops reading when `record` returns false.
 * What does not start with a handshake record (22), plain HTTP, is left alone.
 */
function tlsRecords(record: (type: number, length: number, end: number) => boolean): (chunk: Buffer) => void {
  let seen = 0;
  let header: number[] = [];
  let bodyLeft = 0;
  let done = false;
  return (chunk) => {
    if (done) return;
    if (seen === 0 && chunk[0] !== 22) {
      done = true;
      return;
    }
    for (let i = 0; i < chunk.length && !done; ) {
      if (bodyLeft > 0) {
        const take = Math.min(bodyLeft, chunk.length - i);
        bodyLeft -= take;
        i += take;
        seen += take;
      } else {
        header.push(chunk[i++]);
        seen++;
        if (header.length < 5) continue;
        bodyLeft = (header[3] << 8) | header[4];
        done = !record(header[0], bodyLeft, seen + bodyLeft);
        header = [];
      }
    }
  };
}

/** One direction of the line: chunks go out one after another at the rate, and arrive after the delay. */
class Direction {
  private freeAt = 0;
  private queue: Array<{ at: number; deliver: () => void }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bitsPerSecond: number,
    private readonly delayMs: number,
    private readonly now: () => number,
    private readonly arrived: (bytes: number, connection: number) => void,
  ) {}

  /**
   * Send `payload` bytes (0 for a bare SYN, SYN-ACK or FIN: one header) segment by segment, each
   * with its header, and call `deliver(from, to)` as each segment arrives: the far side reads the
   * start of a long answer before its end has crossed, as on a real line (a browser parses the
   * document's head while its body is still on the way).
   */
  send(connection: number, payload: number, deliver: (from: number, to: number) => void): void {
    const segments = Math.max(1, Math.ceil(payload / SEGMENT_BYTES));
    for (let i = 0; i < segments; i++) {
      const from = i * SEGMENT_BYTES;
      const to = Math.min(payload, from + SEGMENT_BYTES);
      const onLine = to - from + HEADER_BYTES;
      const start = Math.max(this.now(), this.freeAt);
      this.freeAt = start + (Number.isFinite(this.bitsPerSecond) ? (onLine * 8 * 1000) / this.bitsPerSecond : 0);
      this.queue.push({
        at: this.freeAt + this.delayMs,
        deliver: () => {
          this.arrived(onLine, connection);
          deliver(from, to);
        },
      });
    }
    this.arm();
  }

  get busy(): boolean {
    return this.queue.length > 0;
  }

  /** One timer for the head of the queue: arrivals keep the order they were sent in, across connections. */
  private arm(): void {
    if (this.timer || !this.queue.length) return;
    const wait = Math.max(0, this.queue[0].at - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const t = this.now();
      while (this.queue.length && this.queue[0].at <= t + 0.5) this.queue.shift()!.deliver();
      this.arm();
    }, wait);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
  }
}

/** Start the line in front of `target` (127.0.0.1) for each port of `ports`. */
export async function startLink(o: LinkOptions): Promise<Link> {
  const target = o.target ?? '127.0.0.1';
  const now = () => performance.now();
  let arrivals: LinkArrival[] = [];
  const epoch = () => performance.timeOrigin + performance.now();
  const up = new Direction(o.bitsPerSecond, o.rttMs / 2, now, (bytes, connection) => arrivals.push({ at: epoch(), up: true, bytes, connection }));
  const down = new Direction(o.bitsPerSecond, o.rttMs / 2, now, (bytes, connection) => arrivals.push({ at: epoch(), up: false, bytes, connection }));
  let lastId = 0;
  let connections: LinkConnection[] = [];
  const open = new Set<Socket>();

  const relay = (client: Socket, port: number) => {
    const id = ++lastId;
    const connection: LinkConnection = { id, port, openedAt: epoch(), records: [] };
    connections.push(connection);
    // With TLS 1.3 the browser's first application-data record (23) is its Finished.
    const readRecords = (up: boolean) =>
      tlsRecords((type, length, end) => {
        connection.records.push({ up, type, length });
        if (up && type === 23) connection.clientHandshake ??= end;
        return true;
      });
    const readClientRecords = readRecords(true);
    const readServerRecords = readRecords(false);
    const server = connect({ host: target, port });
    open.add(client);
    open.add(server);
    client.setNoDelay(true);
    server.setNoDelay(true);
    // Bytes from the browser wait for the handshake: SYN up, SYN-ACK down.
    let established = false;
    const held: Buffer[] = [];
    let clientEnded = false;
    const toServer = (chunk: Buffer) => {
      up.send(id, chunk.length, (from, to) => server.writable && server.write(chunk.subarray(from, to)));
    };
    const endServer = () => up.send(id, 0, () => server.writable && server.end());
    up.send(id, 0, () =>
      down.send(id, 0, () => {
        established = true;
        for (const chunk of held.splice(0)) toServer(chunk);
        if (clientEnded) endServer();
      }),
    );
    // The browser's TLS stack writes its Finished as the handshake ends and its first request after it:
    // two writes, two segments on a real line (Chromium sets TCP_NODELAY), so the server has the Finished,
    // and answers it (TLS 1.3's session tickets), while the request is still crossing. A read here can find
    // both; they are cut apart at the Finished's end, or the tickets would wait for the request and then
    // delay its answer, in some runs and not others (as this relay's reads fell).
    let upRead = 0;
    client.on('data', (chunk: Buffer) => {
      readClientRecords(chunk);
      const cut = (connection.clientHandshake ?? 0) - upRead;
      upRead += chunk.length;
      for (const part of cut > 0 && cut < chunk.length ? [chunk.subarray(0, cut), chunk.subarray(cut)] : [chunk]) {
        if (established) toServer(part);
        else held.push(part);
      }
    });
    client.on('end', () => (established ? endServer() : (clientEnded = true)));
    server.on('data', (chunk: Buffer) => {
      readServerRecords(chunk);
      down.send(id, chunk.length, (from, to) => client.writable && client.write(chunk.subarray(from, to)));
    });
    server.on('end', () => down.send(id, 0, () => client.writable && client.end()));
    // A reset or an error ends both sides at once.
    const fail = () => {
      client.destroy();
      server.destroy();
    };
    client.on('error', fail);
    server.on('error', fail);
    client.on('close', () => open.delete(client));
    server.on('close', () => open.delete(server));
  };

  const listeners: Server[] = [];
  for (const port of o.ports) {
    const srv = createServer({ noDelay: true }, (s) => relay(s, port));
    await new Promise<void>((res, rej) => {
      srv.once('error', rej);
      srv.listen(port, LINK_HOST, () => res());
    });
    listeners.push(srv);
  }

  return {
    host: LINK_HOST,
    counts: () => ({ connections: connections.map((c) => ({ ...c, records: [...c.records] })), arrivals: [...arrivals] }),
    reset() {
      connections = [];
      arrivals = [];
    },
    async dropConnections() {
      for (const s of open) s.destroy();
      await new Promise((r) => setTimeout(r, 50));
    },
    async idle() {
      while (up.busy || down.busy) await new Promise((r) => setTimeout(r, 10));
    },
    async close() {
      up.stop();
      down.stop();
      for (const s of open) s.destroy();
      await Promise.all(listeners.map((l) => new Promise((r) => l.close(() => r(undefined)))));
    },
  };
}
