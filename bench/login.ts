// Sections 2 and 3: the cold login page against its floor on slow links,
// and sign-in to a user list with rows on a 256 kbit/s link.
import { signIn } from '../hil/browser.ts';
import { Requests, freshPage, probed, type Lab, type Link, type TimelineRow } from './browser.ts';
import { median, round, sleep, spread, target, type Settings, type Target } from './lib.ts';

export const SLOW: Link = { name: '256 kbit/s, 300 ms', bits: 256_000, latencyMs: 300 };
const LINKS: Link[] = [SLOW, { name: '1 Mbit/s, 100 ms', bits: 1_000_000, latencyMs: 100 }, { name: '64 kbit/s, 600 ms', bits: 64_000, latencyMs: 600 }];
/** The bars for the 256 kbit/s link (issue 25, "Budgets and tests": 1.15 x the floor, sign-in to rows 1,000 ms; issue 11 had 1.25 and 1,500); the others are reported only. */
const FLOOR_TARGET = 1.15;
const SIGN_IN_TARGET_MS = 1000;

interface LoginRun {
  /** The password field visible and enabled (the frame that shows it), ms from navigation start. */
  ms: number;
  /** The same moment as the DOM had it (before that frame). */
  domMs: number;
  /** Bytes of the requests the login page needs (headers included), made before it was usable. */
  bytes: number;
  floorMs: number;
  timeline: (TimelineRow & { counted: boolean })[];
}

export interface LoginLink {
  link: string;
  bitsPerSecond: number;
  latencyMs: number;
  runs: number;
  /** Medians of the runs. */
  ms: number;
  floorMs: number;
  ratio: number;
  bytes: number;
  /** Every run: time, floor and its request timeline (ms from navigation start). */
  all: LoginRun[];
  result?: Target;
}

export interface LoginSection {
  /** The floor: 2 x latency (the document, then its files in parallel) + bytes x 8 / rate. */
  floor: string;
  /** What counts as needed by the login page: the build's critical path files and the logo. */
  counted: string[];
  links: LoginLink[];
}

/** The login page's files: the build's critical path (index.html, its CSS and JS, the English catalogue) and the brand's logo. */
const needed = (critical: Set<string>) => (file: string, type: string) => type === 'Document' || critical.has(file) || /^logo-/.test(file);

async function coldLogin(lab: Lab, link: Link, isNeeded: (file: string, type: string) => boolean): Promise<LoginRun> {
  const s = await freshPage(lab, link);
  try {
    const requests = new Requests(s.cdp);
    await s.page.goto('/login', { waitUntil: 'commit' });
    const usable = await probed(s.page, 'usable', 120_000);
    const domMs = await s.page.evaluate(() => window.__bench.seen);
    // Usable: it takes a character.
    const field = s.page.locator('input[type=password]');
    await field.pressSequentially('x');
    if ((await field.inputValue()) !== 'x') throw new Error('the password field did not take a character');
    const at = await requests.clock(s.page);
    await requests.settled((r) => at(r.start) <= usable, 60_000);
    const timeline = requests.timeline(at).map((r) => ({ ...r, counted: r.start <= usable && !r.failed && isNeeded(r.file, r.type) }));
    const bytes = timeline.reduce((n, r) => n + (r.counted ? r.bytes : 0), 0);
    const floorMs = 2 * link.latencyMs + (bytes * 8 * 1000) / link.bits;
    return { ms: round(usable), domMs: round(domMs), bytes, floorMs: round(floorMs), timeline };
  } finally {
    await s.close();
  }
}

export async function measureLogin(s: Settings, lab: Lab, critical: string[]): Promise<LoginSection> {
  const isNeeded = needed(new Set(critical));
  const links = s.short ? [SLOW] : LINKS;
  const n = s.short ? 1 : 3;
  const out: LoginLink[] = [];
  for (const link of links) {
    const all: LoginRun[] = [];
    for (let i = 0; i < n; i++) {
      s.log(`cold login at ${link.name}, run ${i + 1} of ${n}`);
      all.push(await coldLogin(lab, link, isNeeded));
    }
    const ms = median(all.map((r) => r.ms));
    const floorMs = median(all.map((r) => r.floorMs));
    // The ratio of the medians, as the table shows them.
    const ratio = round(ms / floorMs, 2);
    const row: LoginLink = { link: link.name, bitsPerSecond: link.bits, latencyMs: link.latencyMs, runs: n, ms: round(ms), floorMs: round(floorMs), ratio, bytes: median(all.map((r) => r.bytes)), all };
    if (link === SLOW) row.result = target(`<= ${FLOOR_TARGET} x floor`, ratio <= FLOOR_TARGET);
    out.push(row);
  }
  return {
    floor: '2 x latency + bytes x 8 / rate',
    counted: ['the document', ...critical.filter((f) => f !== 'index.html'), ...(critical.some((f) => /^logo-/.test(f)) ? [] : ['the logo'])],
    links: out,
  };
}

export interface SignInSection {
  link: string;
  /** Pause on the login page before signing in (typing the password). */
  waitMs: number;
  runs: number;
  /**
   * From pressing Sign in to the user list with a row on screen: the frame
   * after the probe's MutationObserver saw the row (median; page-side
   * performance.now()). domMs: when the observer saw it.
   */
  ms: number;
  all: { ms: number; domMs: number; requests: TimelineRow[] }[];
  result: Target;
}

export async function measureSignIn(s: Settings, lab: Lab): Promise<SignInSection> {
  const n = s.short ? 1 : 3;
  const waitMs = s.short ? 1000 : 5000;
  const all: SignInSection['all'] = [];
  for (let i = 0; i < n; i++) {
    s.log(`sign-in to the user list at ${SLOW.name}, run ${i + 1} of ${n}`);
    const p = await freshPage(lab, SLOW);
    try {
      const requests = new Requests(p.cdp);
      await p.page.goto('/login', { waitUntil: 'commit' });
      await probed(p.page, 'usable', 120_000);
      await sleep(waitMs);
      await signIn(p.page);
      const rows = await probed(p.page, 'rowsFrame', 120_000);
      const { click, rows: dom } = await p.page.evaluate(() => ({ click: window.__bench.click, rows: window.__bench.rows }));
      if (!click) throw new Error('the Sign in click was not seen');
      const at = await requests.clock(p.page);
      const after = requests.timeline(at, (r) => at(r.start) >= click && at(r.start) <= rows).map((r) => ({ ...r, start: round(r.start - click), end: r.end === null ? null : round(r.end - click) }));
      all.push({ ms: round(rows - click), domMs: round(dom - click), requests: after });
    } finally {
      await p.close();
    }
  }
  const ms = spread(all.map((r) => r.ms)).median;
  return { link: SLOW.name, waitMs, runs: n, ms, all, result: target(`<= ${SIGN_IN_TARGET_MS} ms`, ms <= SIGN_IN_TARGET_MS) };
}
