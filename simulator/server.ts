// The simulated terminal's HTTP side: serves one brand's gzip set the way
// firmware would, and answers the /goform/ API from the contract. This file
// only wires the parts, each a module of its own: the site (site.ts), body
// decoding (body.ts), the sessions (sessions.ts), dispatch of a call to its
// handler (dispatch.ts), the restart (restart.ts) and the clock (clock.ts);
// the calls themselves are api.ts and areas/.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { GOFORM_PREFIX } from '../contract/index.ts';
import { KEEP_ALIVE_SECONDS } from '../build/access.ts';
import { hostAllowed, originAllowed, HOST_REFUSED, ORIGIN_REFUSED } from '../build/serving.ts';
import { seedState } from './api.ts';
import { deviceTime } from './clock.ts';
import { dispatch, sendAnswer, sendJson, type Terminal } from './dispatch.ts';
import { EventHub } from './events.ts';
import { Door } from './door.ts';
import { loadModel, type DeviceModel } from './model.ts';
import { Power } from './restart.ts';
import { Sessions } from './sessions.ts';
import { webSettings } from './settings.ts';
import { loadSite, serveSite } from './site.ts';
import { Store } from './store.ts';
import { fail, type DeviceState } from './types.ts';
import { endEnrolment } from './areas/users.ts';
import { upgradeUsers } from './areas/users/list.ts';

export interface SimulatorOptions {
  /** Folder holding one brand's build: manifest.json and *.gz (dist/<brand>). */
  siteDir?: string;
  /** The device model (simulator/models; loadModel()): the default one when left out. */
  model?: DeviceModel;
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
   * tests and the bench: hil/admin.ts). Without it a fresh store is in the
   * factory state, as a terminal new from production is. Initialization
   * always goes back to the factory state.
   */
  activated?: string;
  /** A folder where the HTTPS certificate and key are written, cert.pem and key.pem (mode 0600), as a terminal's web server reads them. */
  certDir?: string;
  /**
   * The brand the terminal is for: it holds that brand's firmware keys
   * (the model's firmwareKeys). Left out: the brand in the site's manifest.json
   * when it starts, else none (the model's default keys).
   */
  brand?: string;
  /** Live events at random, one every this many ms on average (npm start); none by default: tests make their own (Simulator.events). */
  randomEventsMs?: number;
}

export interface Simulator {
  url: string;
  server: Server;
  model: DeviceModel;
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
  /** The door itself: a person going through (pass), forcing it, holding it open, shutting it (door.ts). */
  door: Door;
}

/** A refusal before any call is read or file served: its status and short text page. */
function refusePage(res: ServerResponse, what: { status: number; body: string }): void {
  res.writeHead(what.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(what.body), 'X-Content-Type-Options': 'nosniff' });
  res.end(what.body);
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const model = options.model ?? loadModel();
  const store = new Store<DeviceState>(options.storeFile, () => {
    const seed = seedState(model);
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
  let site = loadSite(options.siteDir);
  // A terminal's brand is set when it is made: another site served later does not change it.
  const brand = options.brand ?? site?.brand;
  const sessions = new Sessions(model, store, now);
  const events = new EventHub(store, () => deviceTime({ store, now }));
  const door = new Door(model, store, now, (Kind) => void events.emit({ Kind }));
  if (options.randomEventsMs) events.random(options.randomEventsMs, door);

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://terminal');
    try {
      // Only a Host the terminal answers to (build/serving.ts): a rebound name gets nothing, not even index.html.
      if (!hostAllowed(req.headers.host, webSettings(store.get()).HostNames.split(' ').filter(Boolean))) return refusePage(res, HOST_REFUSED);
      if (!url.pathname.startsWith(GOFORM_PREFIX)) return serveSite(site, req, res, url);
      // A call from another site's page (its Origin is not this Host) is refused before it is read.
      if (!originAllowed(req.headers.origin, req.headers.host)) return refusePage(res, ORIGIN_REFUSED);
      const after = { restart: false };
      const answer = await dispatch(terminal, req, url, after);
      if (options.log) console.log(`${req.method} ${url.pathname} -> ${answer.file ? `file ${answer.file.name}` : answer.stream ? 'stream' : answer.reply.retvalue}`);
      // The reply goes out first; the restart begins once it has been handed to the network (or the client left).
      if (after.restart) res.once('close', () => void power.restart());
      sendAnswer(terminal, res, answer);
    } catch (err) {
      console.error('simulator:', err);
      if (!res.headersSent) sendJson(res, 500, fail(10001));
      else res.destroy();
    }
  });
  // An idle connection is kept as long as the real servers keep one (a minute), not Node's 5 s: a client
  // whose process was busy for longer reused a connection the terminal closed at that moment (a reset no
  // real server gives). A restart or close() still drops every connection at once (Power).
  server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000;
  const power = new Power(server, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    restartMs: model.restartMs,
    log: options.log,
    now,
    // What a restart ends: it lives in memory, as on the terminal.
    forget: () => {
      sessions.clear();
      events.reset();
      door.reset();
      endEnrolment(store);
    },
  });
  const terminal: Terminal = { model, store, sessions, events, door, now, bootedAt: () => power.bootedAt, factory: () => seedState(model), brand, certDir: options.certDir };
  const url = await power.on();

  return {
    url,
    server,
    model,
    store,
    setSite(dir) {
      site = loadSite(dir);
    },
    restart: () => power.restart(),
    get restarting() {
      return power.restarting;
    },
    whenUp: async () => {
      await power.restarting;
    },
    events,
    door,
    async close() {
      events.stop();
      door.stop();
      await power.off();
    },
  };
}
