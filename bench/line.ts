// Section `line` (issue 31): the console behind the real web servers
// (lighttpd, nginx, civetweb), over HTTP and HTTPS, through a slow line
// modelled on the bytes that cross it (hil/web/line.ts: a relay that
// serializes and delays each direction, shared by every connection, charging
// TCP handshakes, TLS handshakes and certificates as a real line does).
//
// For each server, line and protocol: the cold login (fresh browser context,
// time to the password field usable, against its floor), the second visit
// (same context, the connections closed: the cache and TLS session resumption
// at work), sign-in to the user list's rows, and, over HTTPS, the address typed
// without https:// while RestParam.Protocol is 1 (the redirect paid for).
//
// The floor is what the line cannot beat: its round trips, plus the bytes that
// came down before the field was usable (headers, the certificate and the
// files) and the first flight up (the SYN and the ClientHello, or the first
// request: nothing comes down before it has arrived) at the line's rate. The
// rest of what went up may overlap what comes down, so it is counted apart.
// Round trips: HTTP 3 (TCP's handshake, the document, its files in parallel),
// HTTPS with TLS 1.3 4 (TLS's handshake besides); a redirect adds 2 (a
// connection to the HTTP port, the 301).
import { once } from 'node:events';
import { connect as tlsConnect } from 'node:tls';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { CHROMIUM_LAUNCH, VIEWPORT, signIn } from '../hil/browser.ts';
import { FRONT_KINDS, startFront, type Front, type FrontKind } from '../hil/web/servers.ts';
import { HEADER_BYTES, LINK_HOST, SEGMENT_BYTES, startLink, type Link, type LinkArrival, type LinkCounts } from '../hil/web/line.ts';
import { chromiumHome } from '../hil/web/pki.ts';
import { PROBE } from './browser.ts';
import { baseName, median, round, sleep, target, type Settings, type Target } from './lib.ts';

export interface Line {
  name: string;
  bits: number;
  rttMs: number;
}
export const LINES: Line[] = [
  { name: '256 kbit/s, 300 ms', bits: 256_000, rttMs: 300 },
  { name: '64 kbit/s, 600 ms', bits: 64_000, rttMs: 600 },
];
type Scheme = 'http' | 'https';
const ROUNDS: Record<Scheme, number> = { http: 3, https: 4 };
/** A redirect from HTTP: a connection to the HTTP port and the request the 301 answers. */
const REDIRECT_ROUNDS = 2;
/** Issue 31's bars on the 256 kbit/s line. */
const BARS = { http: 1.15, https: { lighttpd: 1.15, nginx: 1.15, civetweb: 1.25 } as Record<FrontKind, number>, signInMs: 1000 };

/** One request of a visit, as Chromium reported it (CDP). */
export interface LineRequest {
  file: string;
  status: number;
  protocol: string;
  connection: number;
  /** Served from the browser's cache (nothing crossed for it). */
  cached: boolean;
}

export interface Visit {
  /** From the navigation's start (the first connection, for a redirect) to the password field usable (or the rows), ms. */
  ms: number;
  floorMs: number;
  /** Bytes that crossed the line before then, each way, and the first flight up (before anything but the SYN-ACK came down). */
  up: number;
  down: number;
  firstUp: number;
  /** Connections the browser opened before then. */
  connections: number;
  /** How long the line carried nothing either way before then (lineIdleMs): the two ends' own time. */
  idleMs: number;
  /** Over TLS: the browser's side of the first connection's handshake on the line (ClientHello to Finished), bytes. */
  clientHandshake: number;
  requests: LineRequest[];
}

const floorOf = (line: Line, rounds: number, v: { firstUp: number; down: number }) => round(rounds * line.rttMs + ((v.firstUp + v.down) * 8 * 1000) / line.bits);

export interface Measured {
  runs: number;
  /** Medians. */
  ms: number;
  floorMs: number;
  ratio: number;
  up: number;
  down: number;
  firstUp: number;
  connections: number;
  idleMs: number;
  clientHandshake: number;
  all: Visit[];
  result?: Target;
}

export interface LineRow {
  server: FrontKind;
  scheme: Scheme;
  line: string;
  /** The protocol the login page's files came over (h2, http/1.1). */
  protocol: string;
  cold: Measured;
  /** The same context again, its connections closed; `crossed`: files of the set that came over the line again (none is the target). */
  second: Measured & { crossed: string[] };
  signIn: Measured;
  /** HTTPS only: http://<address>/login with Protocol 1. */
  redirect?: Measured;
  /**
   * HTTPS only: how much slower than HTTP, and what the issue allows: a round trip plus the time
   * of the handshake's bytes (the browser's side as it crossed, the server's flight and tickets).
   */
  overHttp?: { ms: number; allowedMs: number; handshakeBytes: number; result?: Target };
}

export interface LineSection {
  model: string;
  floor: string;
  rows: LineRow[];
}

/** A page with the probe and CDP's record of its requests. */
async function openPage(ctx: BrowserContext): Promise<{ page: Page; requests: Map<string, LineRequest> }> {
  const page = await ctx.newPage();
  await page.addInitScript({ content: PROBE });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map<string, LineRequest>();
  cdp.on('Network.responseReceived', (e) => {
    if (!/^https?:/.test(e.response.url)) return;
    const r = e.response;
    requests.set(e.requestId, { file: baseName(r.url), status: r.status, protocol: r.protocol ?? '', connection: r.connectionId, cached: !!(r.fromDiskCache || r.fromPrefetchCache || r.fromServiceWorker) });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = true;
  });
  return { page, requests };
}

/** The page's moment `key` (probe.js) as epoch ms, and the navigation's start. */
async function stamps(page: Page, key: 'usable' | 'rowsFrame' | 'click'): Promise<{ at: number; origin: number }> {
  await page.waitForFunction((k) => window.__bench[k] > 0, key, { timeout: 120_000 });
  return page.evaluate((k) => ({ at: performance.timeOrigin + window.__bench[k], origin: performance.timeOrigin }), key);
}

/**
 * How long, between `from` and `to` (epoch ms), the line carried nothing in either direction: no
 * byte being sent, none on its way. Each arrival was on the line from its first bit going out
 * (bytes x 8 / rate before it left the sender's end, half the round trip before it arrived) to
 * its arrival. What is left is the ends' own time: the browser verifying a certificate, starting
 * a page or compiling code, a server answering. That, beside the round trips and the bytes the
 * floor counts, is what a visit takes.
 */
export function lineIdleMs(arrivals: readonly LinkArrival[], line: Pick<Line, 'bits' | 'rttMs'>, from: number, to: number): number {
  const busy = arrivals
    .map((a) => [a.at - line.rttMs / 2 - (a.bytes * 8 * 1000) / line.bits, a.at] as const)
    .filter(([start, end]) => end > from && start < to)
    .sort((a, b) => a[0] - b[0]);
  let idle = 0;
  let reached = from;
  for (const [start, end] of busy) {
    if (start > reached) idle += start - reached;
    reached = Math.max(reached, end);
  }
  return round(idle + Math.max(0, to - reached));
}

/** What crossed the line between `from` and `to` (epoch ms). */
function crossed(c: LinkCounts, line: Line, from: number, to: number) {
  const inside = c.arrivals.filter((a) => a.at >= from && a.at <= to);
  // The visit's first connection: a bare header down is its SYN-ACK; its first larger arrival down
  // answers its first flight up. (Other connections are not looked at: a context closed before this
  // visit may still send its TLS close_notify across the line.)
  const first = c.connections.find((x) => x.openedAt >= from - 1);
  const mine = inside.filter((a) => a.connection === first?.id);
  const answer = mine.findIndex((a) => !a.up && a.bytes > HEADER_BYTES);
  const hs = first?.clientHandshake ?? 0;
  return {
    clientHandshake: hs && hs + HEADER_BYTES * Math.ceil(hs / SEGMENT_BYTES),
    firstUp: mine.slice(0, answer < 0 ? mine.length : answer).filter((a) => a.up).reduce((n, a) => n + a.bytes, 0),
    up: inside.filter((a) => a.up).reduce((n, a) => n + a.bytes, 0),
    down: inside.filter((a) => !a.up).reduce((n, a) => n + a.bytes, 0),
    connections: c.connections.filter((x) => x.openedAt >= from - 1 && x.openedAt <= to).length,
    idleMs: lineIdleMs(c.arrivals, line, from, to),
  };
}

function summary(all: Visit[], result?: (m: Measured) => Target): Measured {
  const m: Measured = {
    runs: all.length,
    ms: round(median(all.map((v) => v.ms))),
    floorMs: round(median(all.map((v) => v.floorMs))),
    ratio: 0,
    up: median(all.map((v) => v.up)),
    down: median(all.map((v) => v.down)),
    firstUp: median(all.map((v) => v.firstUp)),
    connections: median(all.map((v) => v.connections)),
    idleMs: round(median(all.map((v) => v.idleMs))),
    clientHandshake: median(all.map((v) => v.clientHandshake)),
    all,
  };
  m.ratio = m.floorMs ? round(m.ms / m.floorMs, 2) : 0;
  if (result) m.result = result(m);
  return m;
}

interface Place {
  front: Front;
  link: Link;
  line: Line;
  browser: Browser;
  /** The server's side of a TLS handshake on the line (serverHandshake()), bytes. */
  serverHandshake: number;
}

/**
 * The server's side of a TLS handshake as it crosses the line, headers included: its flight
 * (ServerHello to Finished, the certificate in it) and the session tickets it sends after the
 * client's Finished. Node's TLS does the handshake through a line with no limit and sends nothing
 * after it (ALPN http/1.1: no server preface either), so all that comes down is the handshake's.
 */
async function serverHandshake(front: Front): Promise<number> {
  const port = Number(new URL(front.https).port);
  const link = await startLink({ bitsPerSecond: Infinity, rttMs: 0, ports: [port] });
  try {
    const socket = tlsConnect({ host: LINK_HOST, port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], minVersion: 'TLSv1.3' });
    await once(socket, 'secureConnect');
    // The tickets come once the server has the client's Finished; then the connection is quiet.
    await sleep(500);
    socket.destroy();
    await link.idle();
    return link
      .counts()
      .arrivals.filter((a) => !a.up && a.bytes > HEADER_BYTES)
      .reduce((n, a) => n + a.bytes, 0);
  } finally {
    await link.close();
  }
}

const address = (p: Place, scheme: Scheme) => `${scheme}://${p.link.host}:${new URL(scheme === 'http' ? p.front.url : p.front.https).port}`;

/** A cold visit of /login in `ctx` (a fresh one: nothing cached, no TLS session). */
async function visit(p: Place, ctx: BrowserContext, url: string, rounds: number): Promise<Visit & { page: Page }> {
  p.link.reset();
  const { page, requests } = await openPage(ctx);
  const start = performance.timeOrigin + performance.now();
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  const { at, origin } = await stamps(page, 'usable');
  await p.link.idle();
  const counts = p.link.counts();
  const first = Math.min(origin, ...counts.connections.map((c) => c.openedAt).filter((t) => t >= start));
  const v = crossed(counts, p.line, first, at);
  return { page, ms: round(at - first), floorMs: floorOf(p.line, rounds, v), ...v, requests: [...requests.values()] };
}

/** `fn` in a fresh browser context (nothing cached, no TLS session), closed after. */
async function inContext<T>(p: Place, fn: (ctx: BrowserContext) => Promise<T>): Promise<T> {
  const ctx = await p.browser.newContext({ viewport: VIEWPORT });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

const coldLogin = (p: Place, scheme: Scheme): Promise<Visit> =>
  inContext(p, async (ctx) => {
    const { page, ...v } = await visit(p, ctx, `${address(p, scheme)}/login`, ROUNDS[scheme]);
    await page.close();
    return v;
  });

/** A cold visit, everything it fetches settled, its connections closed; then /login again in the same context. */
const secondVisit = (p: Place, scheme: Scheme): Promise<Visit & { crossed: string[] }> =>
  inContext(p, async (ctx) => {
    const first = await visit(p, ctx, `${address(p, scheme)}/login`, ROUNDS[scheme]);
    // The prefetch of the signed-in part ends too: a second visit finds it cached.
    await first.page.waitForLoadState('networkidle', { timeout: 120_000 });
    await first.page.close();
    await p.link.idle();
    await p.link.dropConnections();
    const { page, ...v } = await visit(p, ctx, `${address(p, scheme)}/login`, ROUNDS[scheme]);
    await page.close();
    const set = (f: string) => f !== 'login' && !f.startsWith('goform');
    return { ...v, crossed: v.requests.filter((r) => set(r.file) && !r.cached && r.status === 200).map((r) => r.file) };
  });

/** Cold login page, a pause to type the password, Sign in, rows of the user list. */
const signInToRows = (p: Place, scheme: Scheme, waitMs: number): Promise<Visit> =>
  inContext(p, async (ctx) => {
    const { page } = await visit(p, ctx, `${address(p, scheme)}/login`, ROUNDS[scheme]);
    await sleep(waitMs);
    p.link.reset();
    await signIn(page);
    const { at: click } = await stamps(page, 'click');
    const { at } = await stamps(page, 'rowsFrame');
    await p.link.idle();
    const v = crossed(p.link.counts(), p.line, click, at);
    // No floor for this one: its bar is a time (issue 31: 1,000 ms).
    return { ms: round(at - click), floorMs: 0, ...v, requests: [] };
  });

const redirected = (p: Place): Promise<Visit> =>
  inContext(p, async (ctx) => {
    const { page, ...v } = await visit(p, ctx, `${address(p, 'http')}/login`, ROUNDS.https + REDIRECT_ROUNDS);
    if (!page.url().startsWith('https:')) throw new Error(`Protocol 1 did not redirect to https: ${page.url()}`);
    return v;
  });

/** One server, line and protocol: each visit `runs` times; over HTTPS also the redirect, and how it compares with `http`'s row. */
async function measureRow(s: Settings, p: Place, server: FrontKind, scheme: Scheme, http?: LineRow): Promise<LineRow> {
  // Medians of 3; the cold login, which two bars judge (one of them a difference of two medians,
  // where one run's noise is a few ms against a margin of a few ms), of 5.
  const runs = async <T>(what: string, fn: () => Promise<T>, n = s.short ? 1 : 3) => {
    const out: T[] = [];
    for (let i = 0; i < n; i++) {
      s.log(`${server} ${scheme} at ${p.line.name}: ${what}, run ${i + 1} of ${n}`);
      out.push(await fn());
    }
    return out;
  };
  const slow = p.line === LINES[0];
  const bar = scheme === 'http' ? BARS.http : BARS.https[server];
  const cold = summary(await runs('cold login', () => coldLogin(p, scheme), s.short ? 1 : 5), slow ? (m) => target(`<= ${bar} x floor`, m.ratio <= bar) : undefined);
  const secondAll = await runs('second visit', () => secondVisit(p, scheme));
  const crossedFiles = [...new Set(secondAll.flatMap((v) => v.crossed))];
  const second = { ...summary(secondAll, () => target('no file of the set again', crossedFiles.length === 0)), crossed: crossedFiles };
  const signInAll = await runs('sign-in to rows', () => signInToRows(p, scheme, s.short ? 1000 : 5000));
  const signIn = summary(signInAll, slow && scheme === 'https' ? (m) => target(`<= ${BARS.signInMs} ms`, m.ms <= BARS.signInMs) : undefined);
  const protocol = cold.all[0].requests.find((r) => r.file === 'login')?.protocol ?? '';
  const row: LineRow = { server, scheme, line: p.line.name, protocol, cold, second, signIn };
  if (scheme === 'http') return row;
  await p.front.setAccess({ names: [], protocol: 1 });
  try {
    row.redirect = summary(await runs('typed without https://, Protocol 1', () => redirected(p)));
  } finally {
    await p.front.setAccess({ names: [], protocol: 0 });
  }
  if (http) {
    const handshakeBytes = cold.clientHandshake + p.serverHandshake;
    const allowedMs = round(p.line.rttMs + (handshakeBytes * 8 * 1000) / p.line.bits);
    const ms = round(cold.ms - http.cold.ms);
    row.overHttp = { ms, allowedMs, handshakeBytes, ...(slow && { result: target('<= a round trip + the handshake bytes', ms <= allowedMs) }) };
  }
  return row;
}

/** The set in `siteDir` behind each server, its /goform/ handed to the simulated terminal at `apiHost` (host:port). */
export async function measureLine(s: Settings, siteDir: string, apiHost: string): Promise<LineSection> {
  const servers = (s.servers ?? (s.short ? ['lighttpd'] : [...FRONT_KINDS])) as FrontKind[];
  const lines = s.short ? [LINES[0]] : LINES.filter((l) => !s.lines || s.lines.includes(l.name));
  const browser = await chromium.launch({ ...CHROMIUM_LAUNCH, env: { ...process.env, HOME: chromiumHome() } });
  const rows: LineRow[] = [];
  try {
    for (const server of servers) {
      const front = await startFront(server, siteDir, apiHost);
      try {
        const handshake = await serverHandshake(front);
        const ports = [front.url, front.https].map((u) => Number(new URL(u).port));
        for (const line of lines) {
          const link = await startLink({ bitsPerSecond: line.bits, rttMs: line.rttMs, ports });
          const p: Place = { front, link, line, browser, serverHandshake: handshake };
          try {
            // The quick setting (the bench's test) takes HTTPS alone: what a terminal in service uses.
            const http = s.short ? undefined : await measureRow(s, p, server, 'http');
            rows.push(...(http ? [http] : []), await measureRow(s, p, server, 'https', http));
          } finally {
            await link.close();
          }
        }
      } finally {
        await front.close();
      }
    }
  } finally {
    await browser.close();
  }
  return {
    model: 'a relay on 127.0.0.3 in front of each server: each direction serialized at the rate and delayed half the round trip, shared by every connection; TCP handshakes, IP and TCP headers (40 B a segment) charged (hil/web/line.ts; no tc netem on this kernel)',
    floor: 'round trips x RTT + (bytes down before usable + the first flight up) x 8 / rate; round trips: HTTP 3, HTTPS (TLS 1.3) 4, a redirect 2 more',
    rows,
  };
}
