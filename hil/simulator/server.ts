// The simulated terminal's HTTP side: serves one brand's gzip set the way
// firmware would, and answers the /goform/ API from the contract.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { CALLS, GOFORM_PREFIX, HEADERS, TIMESTAMP_PARAM, type CallSpec } from '../../src/api/contract.ts';
import { SHEET_MAX_BYTES } from '../../src/api/users.ts';
import { FIRMWARE_MAX_BYTES } from '../../src/api/maintenance.ts';
import { IMPLEMENTED, failureOf, fail, isCall, notImplemented, seedState, type Context, type DeviceState, type Reply, type Session } from './api.ts';
import { isFileReply, type FileReply, type Upload } from './types.ts';
import { coerce, validate } from './validate.ts';
import { loadProfile, type DeviceProfile } from './profile.ts';
import { Store } from './store.ts';
import { LoginGuard } from './login-guard.ts';
import { REQUEST_MAX_BYTES } from '../../src/api/codes.ts';
import { cacheControl, contentType, etagOf, hostAllowed, originAllowed, securityHeaders, HOST_REFUSED, ORIGIN_REFUSED } from '../../build/serving.ts';
import { ACTIVATE_FIRST } from '../../src/api/codes.ts';
import { SEEDS } from './settings.ts';
import { ACTIVATION_CALLS } from './activation.ts';
import { enrolment } from './areas/users.ts';
import { upgradeUsers } from './areas/users/list.ts';
import { logCall } from './oplog.ts';
import { EventHub, isStreamReply } from './events.ts';
import { deviceTime } from './areas/basic.ts';

export interface SimulatorOptions {
  /** Folder holding one brand's build: manifest.json and *.gz (dist/<brand>). */
  siteDir?: string;
  profile?: DeviceProfile;
  /** Store file; it survives restarts. */
  storeFile: string;
  port?: number;
  host?: string;
  /** Log each request to stdout. */
  log?: boolean;
  /** The terminal's clock (ms); tests may drive it. Date.now by default. */
  now?: () => number;
  /**
   * A fresh store starts activated, with this administrator password (the
   * test fixtures: tests/admin.ts). Without it a fresh store is in the
   * factory state, as a terminal new from production is. Initialization
   * always goes back to the factory state.
   */
  activated?: string;
  /** A folder where the HTTPS certificate and key are written, cert.pem and key.pem (mode 0600), as a terminal's web server reads them. */
  certDir?: string;
  /**
   * The brand the terminal is for: it holds that brand's firmware keys
   * (profile firmwareKeys). Left out: the brand in the site's manifest.json
   * when it starts, else none (the profile's default keys).
   */
  brand?: string;
  /** Live events at random, one every this many ms on average (npm start); none by default: tests make their own (Simulator.events). */
  randomEventsMs?: number;
}

export interface Simulator {
  url: string;
  server: Server;
  profile: DeviceProfile;
  store: Store<DeviceState>;
  /** Stop serving; also during a restart (it then does not come back). */
  close(): Promise<void>;
  /** Serve another site folder from now on (the harness's "restart the web server"). */
  setSite(dir: string | undefined): void;
  /** Restart the terminal now, as RestartMachine does; resolves once it answers again. */
  restart(): Promise<void>;
  /** The restart under way (resolves when the terminal answers again), or null. */
  readonly restarting: Promise<void> | null;
  /** Resolves once the terminal answers: at once, or when the restart under way is over. */
  whenUp(): Promise<void>;
  /** What happens at the door: a person at the reader (present), a schedule, any event (emit). */
  events: EventHub;
}

interface Site {
  files: Map<string, { sha256: string }>;
  dir: string;
  /** The set's Content-Security-Policy header (manifest.json's csp; a set built before it has none). */
  csp?: string;
  /** The set's brand (manifest.json's brand). */
  brand?: string;
}

function loadSite(dir: string | undefined): Site | null {
  if (!dir || !existsSync(join(dir, 'manifest.json'))) return null;
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { csp?: string; brand?: string; files: { path: string; sha256: string }[] };
  return { dir, csp: manifest.csp, brand: manifest.brand, files: new Map(manifest.files.map((f) => [f.path, { sha256: f.sha256 }])) };
}

/** Body limit of JSON and form calls; a larger body is read to its end, thrown away and answered 10101. */
const MAX_BODY = REQUEST_MAX_BYTES;
/** UTF-8 or nothing: a body or query with bytes that are not UTF-8 is refused (10005), never stored as U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** A body or query that cannot be read as the call's encoding (not UTF-8, not JSON, no form): 10005 naming no field. */
const notReadable = (): Answer => ({ status: 200, reply: fail(10005, 'err.10005', { field: '' }) });
/** Whether %-escapes in a query or form body decode to UTF-8 text. */
function decodable(encoded: string): boolean {
  try {
    decodeURIComponent(encoded.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}
/**
 * Body limit of a multipart call: the largest file it takes (a firmware
 * package for UpdateMachine, else a spreadsheet, the largest of the others)
 * with room for the parts' headers and text fields. A larger body is read to
 * its end and thrown away, then answered 10101, so the sender gets a reply
 * rather than a reset; past MAX_DISCARD the connection is reset after all.
 * A file within the body limit but over its call's own limit is the
 * handler's to refuse (10101 as well).
 */
const FILE_LIMITS = new Map<string, number>([['UpdateMachine', FIRMWARE_MAX_BYTES]]);
const multipartLimit = (name: string) => (FILE_LIMITS.get(name) ?? SHEET_MAX_BYTES) + (64 << 10);
const MAX_DISCARD = 64 << 20;

/** The body, or null when it was over `limit` and `discard` was asked for (read and thrown away). */
function readBody(req: IncomingMessage, limit: number, discard: boolean): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
      else if (discard && size <= MAX_DISCARD) {
        over = true;
        chunks = [];
      } else {
        reject(new Error('body too large'));
        req.destroy();
      }
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A multipart/form-data (or URL-encoded) body, parsed by the platform's own
 * parser: file parts become Upload objects, text parts stay text for
 * coerce(). A part sent twice is refused (its name), a body that does not
 * parse answers null. An empty file part with no name is what a browser
 * sends for "no file chosen": left out.
 */
async function multipart(body: Buffer, type: string | undefined): Promise<{ params: Record<string, unknown> } | { twice: string } | null> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': type ?? '' } }).formData();
  } catch {
    return null;
  }
  const params: Record<string, unknown> = Object.create(null);
  for (const [k, v] of form) {
    if (Object.prototype.hasOwnProperty.call(params, k)) return { twice: k };
    if (typeof v === 'string') params[k] = v;
    else if (v.name || v.size) params[k] = { filename: v.name, type: v.type, data: Buffer.from(await v.arrayBuffer()) } satisfies Upload;
  }
  return { params };
}

/** The file fields of a call, for a 10101 about a body too large to read. */
const fileField = (spec: CallSpec) => Object.keys(spec.request).find((k) => spec.request[k].kind === 'file') ?? '';

/** A name safe inside a quoted Content-Disposition filename. */
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_') || 'file';

function sendFile(res: ServerResponse, file: FileReply['file']): void {
  res.writeHead(200, {
    'Content-Type': file.type,
    'Content-Disposition': `attachment; filename="${safeName(file.name)}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': file.data.length,
  });
  res.end(file.data);
}

/** `allow`: the method the call takes, for a 405's Allow header. */
type Answer =
  | { status: number; reply: Reply; file?: undefined; allow?: string; stream?: undefined }
  | { status: 200; file: FileReply['file']; reply?: undefined; allow?: undefined; stream?: undefined }
  | { status: 200; stream: { after: number; session: Session }; reply?: undefined; file?: undefined; allow?: undefined };

/** A refusal before any call is read or file served: its status and short text page. */
function refuse(res: ServerResponse, what: { status: number; body: string }): void {
  res.writeHead(what.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(what.body), 'X-Content-Type-Options': 'nosniff' });
  res.end(what.body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, allow?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
    ...(allow && { Allow: allow }),
  });
  res.end(text);
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const profile = options.profile ?? loadProfile();
  const store = new Store<DeviceState>(options.storeFile, () => {
    const seed = seedState(profile);
    if (options.activated !== undefined) seed.admin = { ...seed.admin, password: options.activated, activated: true };
    return seed;
  });
  // A store written before users had the contract's shape is brought up to it.
  const upgraded = upgradeUsers(store.get().users);
  if (upgraded) {
    await store.update((s) => {
      s.users = upgraded;
    });
  }
  // Date.now read at each call: tests may replace it.
  const now = options.now ?? (() => Date.now());
  const sessions = new Map<string, Session>();
  const ended = new Set<string>();
  // Failed sign-ins per address and user name: memory only, like sessions.
  let logins = new LoginGuard();
  let site = loadSite(options.siteDir);
  // A terminal's brand is set when it is made: another site served later does not change it.
  const brand = options.brand ?? site?.brand;
  const factory = () => seedState(profile);
  // When the terminal last (re)started: uptime (ExecuteCommand 100) counts from it.
  let bootedAt = now();
  /** The administrator's web settings (RestParam over its factory values). */
  const rest = () => ({ ...SEEDS.RestParam, ...store.get().settings.RestParam }) as { HostNames: string; IdleMinutes: number };
  const hostNames = () => rest().HostNames.split(' ').filter(Boolean);
  /** How long a session may be unused: RestParam.IdleMinutes, or the profile's sessionIdleMs when a test sets one. */
  const idleMs = () => profile.sessionIdleMs ?? rest().IdleMinutes * 60_000;
  /** Whether a session still holds: not ended, not idle past the limit. */
  const holds = (s: Session) => sessions.get(s.token) === s && now() - s.lastUsed <= idleMs();
  const events = new EventHub(store, () => deviceTime({ store, now }));
  if (options.randomEventsMs) events.random(options.randomEventsMs);

  /** `after.restart`: a handler asked for a restart once its reply is sent (ctx.restart()). */
  async function api(req: IncomingMessage, url: URL, after: { restart: boolean }): Promise<Answer> {
    const name = url.pathname.slice(GOFORM_PREFIX.length);
    if (!isCall(name)) return { status: 404, reply: fail(10001, `No such call: ${name}`) };
    const spec: CallSpec = CALLS[name];
    if (req.method !== spec.method) return { status: 405, reply: fail(10001, `${name} takes ${spec.method}`), allow: spec.method };

    const ctx: Context = { profile, store, sessions, ended, idleMs, now, bootedAt, factory, peer: req.socket.remoteAddress ?? '', logins, certDir: options.certDir, brand, events, restart: () => (after.restart = true) };
    // The factory test's calls (auth 'factory') are open only while the terminal is in its factory state.
    if (spec.auth === true || (spec.auth === 'factory' && store.get().admin.activated)) {
      const token = req.headers[HEADERS.token.toLowerCase()];
      const s = typeof token === 'string' ? sessions.get(token) : undefined;
      // A token GetSessionLogout ended answers 40104 once, then it is unknown.
      if (!s) return { status: 200, reply: fail(typeof token === 'string' && ended.delete(token) ? 40104 : 10002) };
      if (ctx.now() - s.lastUsed > idleMs()) {
        sessions.delete(s.token);
        return { status: 200, reply: fail(40104) };
      }
      s.lastUsed = ctx.now();
      ctx.session = s;
      // A session of the factory credential may only choose the password (docs/API.md, "Activation").
      if (s.activation && !ACTIVATION_CALLS.has(name)) return { status: 200, reply: fail(ACTIVATE_FIRST, 'msg.activateFirst') };
    }

    // No prototype: a request's names (`__proto__`) land on nothing.
    let params: Record<string, unknown> = Object.create(null);
    let fromText = true;
    if (!decodable(url.search.slice(1))) return notReadable();
    if (spec.method === 'GET' || spec.encoding === 'query') {
      for (const [k, v] of url.searchParams) params[k] = v;
      // A reconnecting EventSource says where it was in Last-Event-ID; it goes before After.
      const lastId = req.headers['last-event-id'];
      if (spec.reply === 'stream' && typeof lastId === 'string' && lastId) params.After = lastId;
    } else if (spec.encoding === 'multipart') {
      const body = await readBody(req, multipartLimit(name), true);
      if (!body) return { status: 200, reply: fail(10101, 'err.10101', { field: fileField(spec) }) };
      const parsed = await multipart(body, req.headers['content-type']);
      if (!parsed) return notReadable();
      if ('twice' in parsed) return { status: 200, reply: fail(10005, 'err.10005', { field: parsed.twice }) };
      params = parsed.params;
      for (const [k, v] of url.searchParams) if (k === TIMESTAMP_PARAM) params[k] = v;
    } else {
      const raw = await readBody(req, MAX_BODY, true);
      if (!raw) return { status: 200, reply: fail(10101, 'err.10101', { field: '' }) };
      let body: string;
      try {
        body = utf8.decode(raw);
      } catch {
        return notReadable();
      }
      if (spec.encoding === 'form' && !decodable(body)) return notReadable();
      if (spec.encoding === 'json') {
        fromText = false;
        try {
          params = body ? JSON.parse(body) : {};
        } catch {
          return notReadable();
        }
        if (typeof params !== 'object' || params === null || Array.isArray(params)) return notReadable();
      } else {
        for (const [k, v] of new URLSearchParams(body)) params[k] = v;
      }
      for (const [k, v] of url.searchParams) if (k === TIMESTAMP_PARAM) params[k] = v;
    }
    delete params[TIMESTAMP_PARAM];

    const impl = IMPLEMENTED[name];
    if (!impl) return { status: 200, reply: notImplemented(name) };
    const values = coerce(params, spec.request, fromText);
    const invalid = validate(values, spec.request);
    if (invalid) {
      const own = impl.invalidCodes && Object.prototype.hasOwnProperty.call(impl.invalidCodes, invalid.field);
      const code = invalid.code === 10005 ? (own ? impl.invalidCodes![invalid.field] : 10005) : 10003;
      return { status: 200, reply: fail(code, `err.${code}`, { field: invalid.field }) };
    }
    // The operation log (oplog.ts) compares the store before and after the call.
    const before = store.get();
    try {
      const fields = await impl.handle(ctx, values);
      await logCall(ctx, name, values, before, fields);
      if (isStreamReply(fields) && spec.reply === 'stream') return { status: 200, stream: { ...fields.stream, session: ctx.session! } };
      if (isFileReply(fields)) {
        if (spec.reply === 'file') return { status: 200, file: fields.file };
        throw new Error(`${name} answered a file, but the contract says it answers JSON`);
      }
      return { status: 200, reply: { retvalue: 0, ...fields } };
    } catch (err) {
      const reply = failureOf(err);
      if (reply) return (await logCall(ctx, name, values, before, reply), { status: 200, reply });
      console.error(`simulator: ${name} failed:`, err);
      return { status: 500, reply: fail(10001) };
    }
  }

  function serveFile(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (!site) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('No console is installed on this terminal.\n');
      return;
    }
    let path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    // Unknown non-API paths get index.html: the console routes in the browser.
    if (!site.files.has(path)) path = 'index.html';
    const entry = site.files.get(path);
    if (!entry) {
      res.writeHead(404).end();
      return;
    }
    const etag = etagOf(entry.sha256);
    // build/serving.ts: hashed names never change content; index.html is revalidated every time;
    // every file carries the security headers (nosniff, X-Frame-Options, the set's policy).
    const headers: Record<string, string> = {
      'Content-Type': contentType(path),
      'Content-Encoding': 'gzip',
      Vary: 'Accept-Encoding',
      ETag: etag,
      'Cache-Control': cacheControl(path),
      ...Object.fromEntries(securityHeaders(site.csp)),
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    const body = readFileSync(join(site.dir, `${path}.gz`));
    headers['Content-Length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://terminal');
    try {
      // Only a Host the terminal answers to (build/serving.ts): a rebound name gets nothing, not even index.html.
      if (!hostAllowed(req.headers.host, hostNames())) return refuse(res, HOST_REFUSED);
      if (url.pathname.startsWith(GOFORM_PREFIX)) {
        // A call from another site's page (its Origin is not this Host) is refused before it is read.
        if (!originAllowed(req.headers.origin, req.headers.host)) return refuse(res, ORIGIN_REFUSED);
        const after = { restart: false };
        const answer = await api(req, url, after);
        if (options.log) console.log(`${req.method} ${url.pathname} -> ${answer.file ? `file ${answer.file.name}` : answer.stream ? 'stream' : answer.reply.retvalue}`);
        // The reply goes out first; the restart begins once it has been handed to the network (or the client left).
        if (after.restart) res.once('close', () => void restart());
        if (answer.stream) {
          const { after, session } = answer.stream;
          events.open(res, after, () => holds(session));
        } else if (answer.file) sendFile(res, answer.file);
        else sendJson(res, answer.status, answer.reply, answer.allow);
      } else if (req.method === 'GET' || req.method === 'HEAD') {
        // A path whose %-escapes are not UTF-8 (/%zz, /%e0%a4%a) names nothing: the request is bad, not the server.
        if (decodable(url.pathname)) serveFile(req, res, url);
        else res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request: the path is not valid percent-encoded UTF-8.\n');
      } else {
        res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      }
    } catch (err) {
      console.error('simulator:', err);
      if (!res.headersSent) sendJson(res, 500, fail(10001));
      else res.destroy();
    }
  });
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      server.once('error', failed);
      server.listen(port, host, () => {
        server.off('error', failed);
        resolve();
      });
    });
  /** Stop listening and drop every connection, idle or busy (a power cycle does not finish replies). */
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen();
  const addr = server.address() as AddressInfo;
  // A restart listens on the same port again, also when the first one was chosen by the system (port 0).
  port = addr.port;

  // The restart (RestartMachine, InitMachine, a firmware upgrade): the
  // listening socket closes, so connections are refused, and every open
  // connection is dropped; sessions and a running enrolment end (they live in
  // memory, as on the terminal); after restartMs the same address answers
  // again. The store is untouched: it is what survives a restart.
  let restarting: Promise<void> | null = null;
  let closed = false;
  /** Ends the restart's wait early (close()). */
  let wake: (() => void) | null = null;
  const forget = () => {
    sessions.clear();
    ended.clear();
    logins = new LoginGuard();
    events.reset();
    const e = enrolment(store);
    e.run = null;
    e.result = null;
  };
  function restart(): Promise<void> {
    if (closed) return Promise.resolve();
    restarting ??= (async () => {
      if (options.log) console.log(`restart: not answering for ${profile.restartMs} ms`);
      forget();
      await stop();
      // A call that was still running when the connections dropped may have signed in since.
      forget();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, profile.restartMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
      // The port may be taken for a moment by another program: try again for up to 5 s.
      for (let tries = 0; !closed; tries++) {
        try {
          await listen();
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 50) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      bootedAt = now();
      if (options.log && !closed) console.log('restart: answering again');
    })()
      .catch((err) => console.error('simulator: the restart could not listen again:', err))
      .finally(() => {
        restarting = null;
      });
    return restarting;
  }

  return {
    url: `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`,
    server,
    profile,
    store,
    setSite(dir) {
      site = loadSite(dir);
    },
    restart,
    get restarting() {
      return restarting;
    },
    whenUp: async () => {
      await restarting;
    },
    events,
    async close() {
      closed = true;
      events.stop();
      wake?.();
      // A restart under way sees `closed` and does not listen again.
      await restarting;
      if (server.listening) await stop();
    },
  };
}
