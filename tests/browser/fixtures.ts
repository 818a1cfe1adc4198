// Test fixtures: each test gets its own simulated terminal (fresh store,
// chosen device profile) serving the built console, and an axe-core check.
import { test as base, expect, type APIRequestContext, type Page } from 'playwright/test';
import { CALLS, type CallName } from '../../contract/index.ts';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel, type DeviceModel } from '../../simulator/model.ts';
import { frontOf, startFront, type Front } from '../../hil/web/servers.ts';
import { chromiumHome, extraCaFile } from '../../hil/web/pki.ts';
import { signIn } from '../../hil/browser.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { callGoform } from '../support/goform.ts';
import { FUNS_COOKIE, NAME_KEY, TOKEN_COOKIE } from '../../src/state/keys.ts';

// The sign-in through the login form is the harness's, the bench's too; the specs take it from here with the rest.
export { signIn };

const ROOT = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
export const BRAND = process.env.BRAND ?? 'ia';
/** The console administrator; a real terminal's may differ (CONSOLE_USER / CONSOLE_PASSWORD). */
export const ADMIN = TEST_ADMIN;

/** The suites run against a real terminal (TERMINAL_URL): tests share it and must put back what they change. */
export const ON_TERMINAL = !!process.env.TERMINAL_URL;

export interface Terminal {
  url: string;
  /** The in-process simulator; undefined against real hardware. Tests use the device's API instead. */
  sim?: Simulator;
  /** RestartMachine through the API; resolves once the terminal answers again and has forgotten its sessions. */
  restart(): Promise<void>;
}

interface Options {
  profileName: string;
  profileOverrides: Partial<DeviceModel>;
  /** false: the simulated terminal starts in its factory state (not activated; docs/API.md, "Activation"). */
  activated: boolean;
}

/**
 * FRONT_TLS=1 (with FRONT_SERVER): the console over HTTPS, trusting the tests' own CA
 * (hil/web/pki.ts), made here in the runner before it starts the workers: they inherit
 * it, and Node's own calls (the request fixture, fetch) trust it by NODE_EXTRA_CA_CERTS
 * (with any certificates that already named), which Node reads only when a process starts. Chromium trusts it through its NSS database.
 */
export const FRONT_TLS = !!process.env.FRONT_TLS && !!process.env.FRONT_SERVER;
if (FRONT_TLS && !process.env.TERMINAL_URL) process.env.NODE_EXTRA_CA_CERTS = extraCaFile(process.env.NODE_EXTRA_CA_CERTS);

export const test = base.extend<Options & { terminal: Terminal; recordReplies: void; failureScreenshots: void; routesEnd: void }>({
  // Over TLS, Chromium gets a home folder whose NSS database trusts the test CA: nothing is ignored.
  launchOptions: [
    async ({ launchOptions }, use) => use(FRONT_TLS ? { ...launchOptions, env: { ...process.env, ...launchOptions.env, HOME: chromiumHome() } } : launchOptions),
    { scope: 'worker' },
  ],
  profileName: ['default', { option: true }],
  profileOverrides: [{}, { option: true }],
  activated: [true, { option: true }],
  terminal: async ({ profileName, profileOverrides, activated }, use, testInfo) => {
    if (process.env.TERMINAL_URL) {
      const url = process.env.TERMINAL_URL.replace(/\/+$/, '');
      await use({ url, restart: () => restartThroughApi(url) });
      return;
    }
    const storeFile = join(mkdtempSync(join(tmpdir(), 'console-e2e-')), 'store.json');
    // SITE_DIR: a build elsewhere than dist/<brand> (parallel work on one checkout).
    const siteDir = process.env.SITE_DIR ?? join(ROOT, 'dist', BRAND);
    const profile = loadModel(profileName, profileOverrides);
    const sim = await startSimulator({ activated: activated ? TEST_ADMIN.password : undefined, siteDir, model: profile, storeFile });
    // FRONT_SERVER=lighttpd|nginx|civetweb (or several): the browser talks to that real web server, which hands /goform/ to the simulator.
    const kind = frontOf(process.env.FRONT_SERVER ?? '', testInfo.titlePath);
    if (kind) testInfo.annotations.push({ type: 'web server', description: kind });
    // Where several are named, the log says which one this test went through.
    if (kind && (process.env.FRONT_SERVER ?? '').includes(',')) console.log(`${testInfo.titlePath.join(' › ')}: through ${kind}`);
    // It follows RestParam as firmware does: a name added through the API is written to its access file.
    const front: Front | undefined = kind ? await startFront(kind, siteDir, new URL(sim.url).host, { follow: sim }) : undefined;
    const url = (FRONT_TLS ? front?.https : front?.url) ?? sim.url;
    const terminal: Terminal = { url, sim, restart: () => restartThroughApi(url) };
    await use(terminal);
    await sim.close();
    await front?.close();
  },
  baseURL: async ({ terminal }, use) => use(terminal.url),
  // For the harness's conformance report: every /goform/ reply the tests see.
  recordReplies: [
    async ({ page }, use) => {
      const file = process.env.GOFORM_CONFORMANCE_FILE;
      if (file) {
        page.on('response', async (res) => {
          const m = /\/goform\/([^/?#]+)/.exec(new URL(res.url()).pathname);
          if (!m) return;
          // A page that navigates away can drop a body before it is read: nothing to judge then.
          const body = await res.text().catch(() => null);
          if (body === null) return;
          appendFileSync(file, JSON.stringify({ call: m[1], status: res.status(), body }) + '\n');
        });
      }
      await use();
    },
    { auto: true },
  ],
  // A screenshot of every open page when a test has failed, saved as test-failed-N.png in its output folder and
  // attached (the harness's report shows them). Playwright's own screenshot: 'only-on-failure' draws and encodes
  // every page of every test as its context closes, in case the test fails later: the suite took 8 % more CPU
  // with it (docs/DEVELOPING.md, "Tests"). This one draws only after a failure.
  failureScreenshots: [
    async ({ page }, use, testInfo) => {
      await use();
      if (testInfo.status === testInfo.expectedStatus) return;
      const pages = page.context().browser()?.contexts().flatMap((c) => c.pages()) ?? page.context().pages();
      for (const [i, open] of pages.entries()) {
        const path = testInfo.outputPath(`test-failed-${i + 1}.png`);
        // A page that is gone (or hangs) has no screenshot: the failure itself is already reported.
        const taken = await open.screenshot({ path, timeout: 10_000 }).then(() => true, () => false);
        if (taken) testInfo.attachments.push({ name: 'screenshot', path, contentType: 'image/png' });
      }
    },
    { auto: true },
  ],
  // A reply narrowReplies is still rewriting when the test ends is dropped, not an error in the next test.
  routesEnd: [
    async ({ page }, use) => {
      await use();
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    },
    { auto: true },
  ],
});

/**
 * Skipped against a real terminal, with the reason the harness's report
 * prints: only for what a bench terminal cannot do unattended (a reader wired
 * to it that answers, a radio network nearby) or must not do (wipe itself).
 * A person at its reader is not among them: the factory test stands in for
 * one (deviceApi's `event` and `sample`).
 */
export const skipOnTerminal = (reason: string) => test.skip(ON_TERMINAL, reason);

type Reply = Record<string, unknown>;

/** The edits narrowReplies made to each call's replies for a page: openSignedIn's sign-in goes through them too. */
const replyEdits = new WeakMap<Page, Map<CallName, (reply: Reply) => Reply>>();
const editsOf = (page: Page) => replyEdits.get(page) ?? replyEdits.set(page, new Map()).get(page)!;

/**
 * The console sees `call`'s replies changed by `edit` (the browser rewrites
 * them; the terminal is untouched). For what a bench terminal cannot be made
 * to be: a model without a function (funs), fewer languages (getLanList), a
 * device setting that hides a menu. On the simulator and on a device alike.
 */
export async function narrowReplies(page: Page, call: CallName, edit: (reply: Reply) => Reply): Promise<void> {
  const edits = editsOf(page);
  const before = edits.get(call);
  edits.set(call, before ? (r) => edit(before(r)) : edit);
  // One route a call, with every edit made to it so far: the page and openSignedIn see the same replies.
  if (before) return;
  await page.route(new RegExp(`/goform/${call}(\\?|$)`), async (route) => {
    const res = await route.fetch();
    const reply = (await res.json()) as Reply;
    await route.fulfill({ response: res, json: reply.retvalue === 0 ? edits.get(call)!(reply) : reply });
  });
}

/** The console sees a model without these functions: chklogin and GetDeviceFunList answer `funs` without them. */
export async function withoutFunctions(page: Page, ...names: string[]): Promise<void> {
  const drop = (r: Reply) => ({ ...r, funs: (r.funs as string[]).filter((f) => !names.includes(f)) });
  await narrowReplies(page, 'chklogin', drop);
  await narrowReplies(page, 'GetDeviceFunList', drop);
}

/** How long a terminal may take to restart (DEVICE_RESTART_MS, default 120 s). */
export const RESTART_MS = Number(process.env.DEVICE_RESTART_MS ?? 120_000);

/**
 * Restart the terminal the way the console does (RestartMachine) and wait
 * until it answers again: the old session's token refused (a restart forgets
 * sessions) and a new sign-in accepted. The same on the simulator and on a
 * device; a lab with a slow-booting model sets DEVICE_RESTART_MS.
 */
export async function restartThroughApi(url: string): Promise<void> {
  const first = await callGoform(url, 'chklogin', '', { username: ADMIN.username, password: ADMIN.password });
  if (first.retvalue !== 0) throw new Error(`restart: the terminal refused the administrator's sign-in: ${JSON.stringify(first)}`);
  const old = String(first.token);
  const asked = await callGoform(url, 'RestartMachine', old);
  if (asked.retvalue !== 0) throw new Error(`restart: RestartMachine answered ${JSON.stringify(asked)}`);
  await untilBack(url, old);
}

/**
 * Restart the terminal (RestartMachine) and come back signed in to the page
 * that was open. The restart ends the session, so its cookie goes first: a
 * reply to the stale token (10002) would otherwise reload the page while the
 * test signs in.
 */
export async function restartAndSignIn(page: Page, terminal: Terminal): Promise<void> {
  const url = page.url();
  await terminal.restart();
  await page.context().clearCookies();
  await page.goto(url);
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}

/**
 * Open the console signed in at `path`: the administrator signs in through the device's API (chklogin, as
 * narrowReplies has the console see it), the session goes where the console keeps one (its cookies and the
 * name in local storage, src/state/keys.ts), then the page loads. The sign-in form is the subject of the
 * tests that sign in with signIn (auth.spec.ts, activation.spec.ts and more); here it would cost every test
 * a page and a form first (0.25 s of CPU a test, measured alone; docs/DEVELOPING.md, "Tests").
 */
export async function openSignedIn(page: Page, path = '/'): Promise<void> {
  // The page's own request context: the test's terminal as its base, the context's cookies.
  const res = await page.request.post('/goform/chklogin', { data: { username: ADMIN.username, password: ADMIN.password } });
  const edit = editsOf(page).get('chklogin') ?? ((r: Reply) => r);
  const reply = edit((await res.json()) as Reply);
  if (reply.retvalue !== 0 || typeof reply.token !== 'string' || reply.activate) throw new Error(`openSignedIn: chklogin answered ${JSON.stringify(reply)}`);
  const origin = new URL(res.url()).origin;
  const cookie = (name: string, value: string) => ({ name, value: encodeURIComponent(value), url: origin, sameSite: 'Strict' as const, secure: origin.startsWith('https:') });
  await page.context().addCookies([cookie(TOKEN_COOKIE, reply.token), cookie(FUNS_COOKIE, JSON.stringify(Array.isArray(reply.funs) ? reply.funs : []))]);
  const name = typeof reply.name === 'string' && reply.name ? reply.name : ADMIN.username;
  await page.context().addInitScript(([key, value]) => {
    if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
  }, [NAME_KEY, name]);
  await page.goto(path);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}

/** The session's token, from the cookie the console keeps it in (TOKEN_COOKIE): for calls a test makes itself. */
export async function sessionToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === TOKEN_COOKIE);
  if (!cookie) throw new Error(`sessionToken: no ${TOKEN_COOKIE} cookie, the page is not signed in`);
  return decodeURIComponent(cookie.value);
}

/**
 * Resolves once `text` shows in an element `within` matches, looked for by the page itself at every frame it
 * draws. For a notice the console shows for a second before it reloads the page (SPEC §8: a restart, a refused
 * token), which the test's own polls can miss on a busy machine. Start it before the action that shows it.
 */
export function shownBeforeReload(page: Page, text: string, within = 'body'): Promise<unknown> {
  return page.waitForFunction(
    (o) => [...document.querySelectorAll<HTMLElement>(o.within)].some((e) => e.innerText.includes(o.text)),
    { text, within },
    { polling: 'raf', timeout: 60_000 },
  );
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

let axeText = '';
/** axe-core's source, read once a worker, to evaluate in a page: not added as a <script>, which the console's Content-Security-Policy blocks. */
export const axeSource = () => (axeText ||= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

/** axe-core on the page as it is now: serious or critical violations fail the test. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Evaluated, not added as a <script>: the console's Content-Security-Policy blocks inline scripts (page.addScriptTag).
  // Once a document: the console is one page, so a test's later checks find axe there (its source is half a megabyte).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  // Only what is judged comes back: axe's whole result (every rule's passes and descriptions) would cross to Node each time.
  const result = (await page.evaluate(async () => {
    const all = (await (window as unknown as { axe: { run: (o: object) => Promise<AxeResult> } }).axe.run({ resultTypes: ['violations'] })).violations;
    return { violations: all.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })) };
  })) as AxeResult;
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${what}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

export type Json = Record<string, unknown>;

const ENVELOPE = new Set(['retvalue', 'msg', 'field', 'reboot']);
const withoutEnvelope = (r: Json) => Object.fromEntries(Object.entries(r).filter(([k]) => !ENVELOPE.has(k))) as Json;

/** A live event as the terminal announces it (EventStream, SetEventList, test_event's answer). */
export type LiveEvent = { Id: number; Time: string; Kind: number; UserID: string; UserName: string; Mode: number };

/**
 * The device's API, signed in as the administrator (what a script or QA
 * tool would do): each call travels as the contract says (GET query, JSON
 * or URL-encoded body). `raw` answers the HTTP response (files). `event` and
 * `sample` are the factory test's person at the reader (test_event,
 * test_enroll; docs/API.md, "Live events"), so that what needs someone at
 * the terminal runs on one no one stands at.
 */
export async function deviceApi(request: APIRequestContext, terminal: Terminal) {
  const login = (await (await request.post(`${terminal.url}/goform/chklogin`, { data: ADMIN })).json()) as Json;
  const token = String(login.token);
  const raw = (name: CallName, body: Json = {}) => {
    const spec = CALLS[name];
    const text = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]));
    const headers = { 'X-Token': token };
    if (spec.method === 'GET' || spec.encoding === 'query') return request.fetch(`${terminal.url}/goform/${name}?${text}`, { method: spec.method, headers });
    if (spec.encoding === 'form') return request.post(`${terminal.url}/goform/${name}`, { headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, data: text.toString() });
    return request.post(`${terminal.url}/goform/${name}`, { headers, data: body });
  };
  const call = async (name: CallName, body: Json = {}) => (await (await raw(name, body)).json()) as Json;
  /** A read that must succeed: the values it answers, without the envelope. */
  const read = async (name: CallName, body: Json = {}) => {
    const r = await call(name, body);
    expect(r.retvalue, `${name}: ${JSON.stringify(r)}`).toBe(0);
    return withoutEnvelope(r);
  };
  const user = (id: string, name: string, extra: Json = {}) => ({ UserID: id, UserName: name, Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0, ...extra });
  return {
    token,
    raw,
    call,
    read,
    add: async (id: string, name: string, extra: Json = {}) => expect((await call('adduser', { ...user(id, name, extra), Replace: 1 })).retvalue).toBe(0),
    info: (id: string) => call('GetUserInfo', { UserID: id }),
    remove: (ids: string[]) => call('deletsomeuser', { UserIDs: ids }),
    /** An event at the reader or the door (test_event): the event as the terminal announced it. */
    event: async (e: { Kind: number; UserID?: string; Mode?: number }) => {
      const r = await call('test_event', e);
      expect(r.retvalue, `test_event ${JSON.stringify(e)}: ${JSON.stringify(r)}`).toBe(0);
      return withoutEnvelope(r) as LiveEvent;
    },
    /** The person presents a good sample, or a poor one, to the enrolment running for `id` (test_enroll). */
    sample: async (id: string, good: boolean) => {
      const r = await call('test_enroll', { UserID: id, Good: good ? 1 : 0 });
      expect(r.retvalue, `test_enroll ${id}: ${JSON.stringify(r)}`).toBe(0);
    },
  };
}

/** The first of `choices` that differs from `now` (as text): a value a test can change a setting to, whatever the terminal has. */
export const other = <T,>(now: unknown, ...choices: T[]): T => choices.find((c) => String(c) !== String(now))!;

/** What the terminal answers to a read now (it must succeed), without the envelope; signed in afresh (a test may have restarted it). */
export async function readDevice(request: APIRequestContext, terminal: Terminal, name: CallName, body: Json = {}): Promise<Json> {
  return (await deviceApi(request, terminal)).read(name, body);
}

/** How many entries a paged list says it has, in English ("1 entry", "100,000 entries"). */
export const entries = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'entry' : 'entries'}`;

/**
 * What a device date or time ("YYYY-MM-DD HH:MM:SS", "YYYY-MM-DD", "HH:MM")
 * should look like on the page in its language (html lang): the browser's own
 * Intl, Gregorian, as the wall-clock time it names. "" stays "".
 */
export const shownTime = (page: Page, s: string) =>
  page.evaluate((v) => {
    const [, d, t, sec] = /^(\d{4}-\d\d-\d\d)? ?(\d\d:\d\d(:\d\d)?)?$/.exec(v)!;
    if (!v) return v;
    const f = new Intl.DateTimeFormat(document.documentElement.lang, {
      timeZone: 'UTC',
      calendar: 'gregory',
      ...(d && { dateStyle: 'medium' as const }),
      ...(t && { timeStyle: sec ? ('medium' as const) : ('short' as const) }),
    });
    return f.format(new Date(`${d ?? '2000-01-01'}T${t ?? '00:00'}Z`));
  }, s);

export { expect };

/**
 * Wait until a terminal that is restarting (RestartMachine, or a write whose
 * reply carried `reboot`, such as a new device language) answers again:
 * `staleToken`, a session from before the restart, is refused and the
 * administrator can sign in. Within RESTART_MS, as restartThroughApi.
 */
export async function untilBack(url: string, staleToken: string): Promise<void> {
  const deadline = Date.now() + RESTART_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    try {
      const r = await callGoform(url, 'GetDeviceFunList', staleToken, {}, 3000);
      last = JSON.stringify(r);
      if (r.retvalue !== 0) {
        const again = await callGoform(url, 'chklogin', '', { username: ADMIN.username, password: ADMIN.password });
        if (again.retvalue === 0) return;
        last = JSON.stringify(again);
      }
    } catch (e) {
      last = (e as Error).message; // down: restarting
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the terminal did not come back within ${RESTART_MS} ms (last: ${last})`);
}

/** A settings pair by name (read Set<name>, write Get<name>), with the read's parameters for a numbered one ({ GroupNum: 3 }). */
export type PairRef = string | [name: string, params: Json];

/**
 * Settings pairs as the terminal has them now, and `restore`, which writes
 * them back through the API and reads them again to be sure: a test that
 * changes settings on a shared terminal calls it in a `finally`. It signs in
 * afresh (the test may have restarted the terminal) and waits if a write
 * restarts the device (a new device language). The date and time go back as
 * the clock would be now (a manual clock the test moved is put right, then
 * NTP again if the terminal had it).
 */
export async function keepSettings(request: APIRequestContext, terminal: Terminal, ...pairs: PairRef[]) {
  const refs = pairs.map((p): [string, Json] => (typeof p === 'string' ? [p, {}] : p));
  const read = async (api: Awaited<ReturnType<typeof deviceApi>>) => {
    const out: Json[] = [];
    for (const [name, params] of refs) out.push(await api.read(`Set${name}` as CallName, params));
    return out;
  };
  const readAt = Date.now();
  const values = await read(await deviceApi(request, terminal));
  const restore = async () => {
    let api = await deviceApi(request, terminal);
    const write = async (name: string, body: Json) => {
      const r = await api.call(`Get${name}` as CallName, body);
      if (r.reboot === true || r.reboot === 1) {
        await untilBack(terminal.url, api.token);
        api = await deviceApi(request, terminal);
      }
      if (r.retvalue !== 0) throw new Error(`putting back ${name}: Get${name} answered ${JSON.stringify(r)}`);
    };
    for (const [i, [name]] of refs.entries()) {
      // What the write takes: a read may answer more (SetDateTimeParam's UtcOffset).
      const takes = CALLS[`Get${name}` as CallName].request;
      const v = Object.fromEntries(Object.entries(values[i]).filter(([k]) => Object.hasOwn(takes, k))) as Json;
      if (name !== 'DateTimeParam') {
        await write(name, v);
        continue;
      }
      const clock = new Date(Date.parse(`${v.Date}T${v.Time}:00Z`) + (Date.now() - readAt)).toISOString();
      const now = { Date: clock.slice(0, 10), Time: clock.slice(11, 16) };
      await write(name, { ...v, ...now, Mode: 0 });
      if (v.Mode !== 0) await write(name, { ...v, ...now });
    }
    const after = await read(api);
    const timeless = (r: Json[]) => r.map((x, i) => (refs[i][0] === 'DateTimeParam' ? { ...x, Date: '', Time: '' } : x));
    expect(timeless(after), 'the settings are back as the test found them').toEqual(timeless(values));
  };
  return { values, restore };
}
