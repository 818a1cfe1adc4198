// The browser side of the bench: Debian's Chromium (never a downloaded one)
// launched as the browser suites launch it (hil/browser.ts), the simulated terminal serving the
// Preact build in this process, a fresh context per measurement with the
// in-page probe (probe.js), network conditions through CDP, and the request
// timeline from CDP's Network events.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright';
import { CHROMIUM_LAUNCH, VIEWPORT, signIn } from '../hil/browser.ts';
import { TEST_ADMIN } from '../hil/admin.ts';
import { startSimulator, type Simulator } from '../simulator/server.ts';
import { loadModel } from '../simulator/model.ts';
import { baseName, round } from './lib.ts';

/** The in-page probe, added to every page the bench opens (the slow line's too: line.ts). */
export const PROBE = readFileSync(join(import.meta.dirname, 'probe.js'), 'utf8');

/** What probe.js keeps in the page (window.__bench). */
export interface Probe {
  seen: number;
  usable: number;
  click: number;
  rows: number;
  rowsFrame: number;
  inflight: number;
  renders: number[];
  timeList(call: string, rows: number): void;
  walk(paths: string[], limitMs: number): Promise<{ ms: number; unsettled: string[] }>;
}
declare global {
  interface Window {
    __bench: Probe;
  }
}

/** A link the browser is held to: throughput in bits per second (1 kbit = 1000 bits) and latency per request. */
export interface Link {
  name: string;
  bits: number;
  latencyMs: number;
}

export interface Lab {
  browser: Browser;
  sim: Simulator;
  url: string;
  chromium: string;
  close(): Promise<void>;
}

/** Chromium and a simulated terminal (default profile, fresh store) serving `siteDir`, on loopback. */
export async function openLab(siteDir: string, tmp: string): Promise<Lab> {
  const sim = await startSimulator({ activated: TEST_ADMIN.password, siteDir, storeFile: join(tmp, 'store.json'), model: loadModel('default'), host: '127.0.0.1' });
  let browser: Browser;
  try {
    browser = await chromium.launch(CHROMIUM_LAUNCH);
  } catch (e) {
    await sim.close();
    throw e;
  }
  return {
    browser,
    sim,
    url: sim.url,
    chromium: browser.version(),
    async close() {
      await browser.close();
      await sim.close();
    },
  };
}

export interface Session {
  ctx: BrowserContext;
  page: Page;
  cdp: CDPSession;
  close(): Promise<void>;
}

/** A fresh context and page with the probe, the cache off and, given a link, its network conditions. */
export async function freshPage(lab: Lab, link?: Link): Promise<Session> {
  const ctx = await lab.browser.newContext({ viewport: VIEWPORT, baseURL: lab.url });
  const page = await ctx.newPage();
  await page.addInitScript({ content: PROBE });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (link) {
    const bytes = link.bits / 8;
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: link.latencyMs, downloadThroughput: bytes, uploadThroughput: bytes });
  }
  return { ctx, page, cdp, close: () => ctx.close() };
}

/** Sign in through the login form (as the browser suites do) and wait for the signed-in layout. */
export async function signedIn(page: Page): Promise<void> {
  await page.goto('/login');
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main menu' }).waitFor({ timeout: 30_000 });
}

/** The probe's value of `key` once it is set (non-zero), waiting up to `ms`. */
export async function probed<K extends 'usable' | 'rows' | 'rowsFrame'>(page: Page, key: K, ms: number): Promise<number> {
  await page.waitForFunction((k) => window.__bench[k] > 0, key, { timeout: ms });
  return page.evaluate((k) => window.__bench[k], key);
}

export interface Request {
  url: string;
  type: string;
  /** CDP monotonic seconds. */
  start: number;
  end?: number;
  bytes?: number;
  failed?: boolean;
}

/** One row of a request timeline: ms from the start of the navigation. */
export interface TimelineRow {
  file: string;
  type: string;
  start: number;
  end: number | null;
  /** Bytes received (encodedDataLength: headers and gzip body). */
  bytes: number;
  failed?: boolean;
}

/** Every request of a page from CDP's Network events. */
export class Requests {
  readonly all = new Map<string, Request>();

  constructor(cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (e) => {
      if (/^https?:/.test(e.request.url) && !this.all.has(e.requestId)) this.all.set(e.requestId, { url: e.request.url, type: e.type ?? '', start: e.timestamp });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = this.all.get(e.requestId);
      if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength });
    });
    cdp.on('Network.loadingFailed', (e) => {
      const r = this.all.get(e.requestId);
      if (r) Object.assign(r, { end: e.timestamp, failed: true });
    });
  }

  /**
   * CDP's clock to the page's (ms from the start of the navigation): the
   * document's request is taken to start at the navigation entry's fetchStart.
   */
  async clock(page: Page): Promise<(t: number) => number> {
    const doc = [...this.all.values()].find((r) => r.type === 'Document');
    if (!doc) throw new Error('no document request seen');
    const fetchStart = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).fetchStart);
    return (t) => round(fetchStart + (t - doc.start) * 1000);
  }

  /** Resolves once every request that `which` picks has ended (up to ms). */
  async settled(which: (r: Request) => boolean, ms: number): Promise<void> {
    const until = Date.now() + ms;
    while ([...this.all.values()].some((r) => which(r) && r.end === undefined)) {
      if (Date.now() > until) throw new Error('requests did not finish in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  timeline(at: (t: number) => number, which: (r: Request) => boolean = () => true): TimelineRow[] {
    return [...this.all.values()]
      .filter(which)
      .sort((a, b) => a.start - b.start)
      .map((r) => ({ file: baseName(r.url), type: r.type, start: at(r.start), end: r.end === undefined ? null : at(r.end), bytes: r.bytes ?? 0, ...(r.failed && { failed: true }) }));
  }
}
