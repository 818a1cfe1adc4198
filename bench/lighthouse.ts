// `npm run lighthouse`: Lighthouse's performance, accessibility and best
// practices scores of the console over HTTPS behind a real web server, as on
// a terminal (issue 31 §4). For each server:
//   - a navigation of /login (a cold load: Lighthouse clears the origin's storage and cache);
//   - a user flow in one page: the same navigation of /login, a timespan in
//     which the flow types the administrator's name and password and presses
//     Sign in until the user list shows rows, a snapshot of that signed-in
//     page, and a navigation of /user/userList with the session the sign-in
//     made (a flow keeps storage after its first navigation: no cookie is
//     handed to the browser from outside).
// It prints a table of the scores (0-100) with the failing audits of any
// category under 100, writes the JSON results (and Lighthouse's HTML reports)
// to --out, and exits 1 if a score is under 100 or Lighthouse failed.
//
//   npm run lighthouse                      # lighttpd, desktop configuration
//   npm run lighthouse -- --server nginx    # or civetweb; --all for the three
//   npm run lighthouse -- --mobile          # Lighthouse's default (mobile) configuration
//   npm run lighthouse -- --brand nice --out /tmp/lh
//
// About 25 s a server on this 2-core machine (75 s with --all; up to twice
// that beside other CPU-bound work). A snapshot has no performance score
// (no audit of it carries weight): the table shows its passed audits, a/b.
// Audits that fail with weight 0 (Lighthouse's diagnostics) are listed too,
// but do not make the run fail.
//
// Throttling is Lighthouse's default simulated throttling (the desktop or the
// mobile profile): the console's own slow link, byte by byte at 256 kbit/s
// and 300 ms, is measured by `npm run bench` (docs/PERFORMANCE.md), not here.
//
// The browser is Debian's Chromium (never a downloaded one) driven by
// puppeteer-core, the driver Lighthouse's user flows take (Lighthouse's own
// dependency). It trusts the tests' own CA through the NSS database of the
// home folder hil/web/pki.ts makes; certificate errors are never ignored.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import lighthouse, { startFlow, type Config, type Flags, type FlowResult, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { ensureBuilt } from '../build.ts';
import { argsOrExit, readArgs } from '../build/args.ts';
import { defaultBrand } from '../build/project.ts';
import { startSimulator } from '../simulator/server.ts';
import { loadModel } from '../simulator/model.ts';
import { FRONT_KINDS, isFrontKind, startFront, type FrontKind } from '../hil/web/servers.ts';
import { chromiumHome } from '../hil/web/pki.ts';
import { TEST_ADMIN } from '../hil/admin.ts';
import { CHROMIUM, CHROMIUM_LAUNCH } from '../hil/browser.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const LABEL: Record<(typeof CATEGORIES)[number], string> = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'best pr.' };

const USAGE = `usage: npm run lighthouse -- [--server ${FRONT_KINDS.join('|')} | --all] [--mobile] [--brand ${defaultBrand()}] [--out bench/lighthouse]
Lighthouse's scores of the console over HTTPS behind a web server (lighttpd unless said); bench/lighthouse.ts's header says more.`;

const OPTIONS = {
  brand: { type: 'string' },
  server: { type: 'string' },
  all: { type: 'boolean' },
  mobile: { type: 'boolean' },
  out: { type: 'string' },
} as const;

const a = argsOrExit('lighthouse', 2, () => {
  const { values } = readArgs(process.argv.slice(2), OPTIONS, USAGE);
  const server = values.server ?? 'lighttpd';
  if (!isFrontKind(server)) throw new Error(`--server ${server}: use ${FRONT_KINDS.join(', ')}`);
  return { ...values, server };
});
const brand = a.brand ?? defaultBrand();
const kinds: FrontKind[] = a.all ? [...FRONT_KINDS] : [a.server];
const mobile = a.mobile ?? false;
const out = resolve(ROOT, a.out ?? 'bench/lighthouse');

// Desktop by default: the console is an administrator's page opened from a
// PC on the terminal's network (Lighthouse's desktop profile: 1350 x 940,
// simulated 40 ms and 10 Mbit/s, no CPU slowdown). --mobile: Lighthouse's
// default configuration (a mid-range phone, simulated slow 4G, 4x CPU slowdown).
const config: Config = mobile
  ? { extends: 'lighthouse:default', settings: { onlyCategories: [...CATEGORIES] } }
  : { ...desktopConfig, settings: { ...desktopConfig.settings, onlyCategories: [...CATEGORIES] } };
const configName = mobile ? 'mobile (lighthouse:default)' : 'desktop (lighthouse/core/config/desktop-config.js)';
const flags: Flags = { logLevel: 'error' };

// What the browser suites use (hil/browser.ts signIn: by label and role),
// as puppeteer's ARIA selectors; the rows are bench/probe.js's (a row of data, not "no users").
const USER_NAME = '::-p-aria([name="User name"][role="textbox"])';
const PASSWORD = '::-p-aria([name="Password"][role="textbox"])';
const SIGN_IN = '::-p-aria([name="Sign in"][role="button"])';
const ROWS = 'main table tbody tr td:not([colspan])';

interface Row {
  server: FrontKind;
  step: string;
  /**
   * Per category: the score, 0-100, or for a category no audit of which has
   * a weight in this step's mode (performance in a snapshot) the audits that
   * passed out of those that count, as Lighthouse's flow report shows it.
   */
  scores: Partial<Record<(typeof CATEGORIES)[number], number | { passed: number; of: number }>>;
  /** The audits that keep a category under 100: "category: id (title: value; score)". */
  failing: string[];
  /** Audits that did not pass but lower no score (weight 0: diagnostics, insights). */
  diagnostics: string[];
  /** Lighthouse's own errors and warnings for the step. */
  problems: string[];
  /** Lighthouse's version. */
  version: string;
}

/** 100, or every counted audit passed (a step with no score for the category). */
const full = (s: Row['scores'][keyof Row['scores']]) => (typeof s === 'number' ? s === 100 : !s || s.passed === s.of);

type AuditRef = Result['categories'][string]['auditRefs'][number];

/** Passed as Lighthouse's report says it (report-utils.js showAsPassed): 0.9 and up; not applicable and manual ones pass. */
const passed = (a: Result['audits'][string]) =>
  a.scoreDisplayMode === 'manual' || a.scoreDisplayMode === 'notApplicable' || (a.scoreDisplayMode !== 'error' && a.scoreDisplayMode !== 'informative' && Number(a.score) >= 0.9);
/** Whether an audit is counted in a category's fraction (report-utils.js calculateCategoryFraction). */
const counted = (ref: AuditRef, a: Result['audits'][string]) => ref.group !== 'hidden' && !['manual', 'notApplicable', 'informative'].includes(a.scoreDisplayMode);

/** A step's row: the scores, and for a category under 100 the audits in it that did not pass. */
function rowOf(kind: FrontKind, step: string, lhr: Result): Row {
  const row: Row = { server: kind, step, scores: {}, failing: [], diagnostics: [], problems: [], version: lhr.lighthouseVersion };
  if (lhr.runtimeError) row.problems.push(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  row.problems.push(...lhr.runWarnings);
  const named = (c: string, id: string) => {
    const audit = lhr.audits[id];
    return `${c}: ${id} (${audit.title}${audit.displayValue ? `: ${audit.displayValue}` : ''}; score ${audit.score ?? audit.scoreDisplayMode})`;
  };
  for (const c of CATEGORIES) {
    const cat = lhr.categories[c];
    if (!cat) continue; // this step's mode has no such category (a timespan has no accessibility)
    const refs = cat.auditRefs.filter((r) => counted(r, lhr.audits[r.id]));
    for (const r of cat.auditRefs) if (lhr.audits[r.id].errorMessage) row.problems.push(`${r.id}: ${lhr.audits[r.id].errorMessage}`);
    // Lighthouse scores a category with no weighted audit 0 (a snapshot's performance): that is no score.
    const weighted = cat.auditRefs.some((r) => r.weight > 0);
    row.scores[c] = weighted ? Math.round((cat.score ?? 0) * 100) : { passed: refs.filter((r) => passed(lhr.audits[r.id])).length, of: refs.length };
    // Under 100: the weighted audits short of 1 (a metric at 0.95 passes in the report, yet costs points),
    // or for a step with no score the counted audits that did not pass.
    const under = !full(row.scores[c]);
    for (const r of refs) {
      const audit = lhr.audits[r.id];
      const costs = weighted ? r.weight > 0 && audit.score !== null && audit.score < 1 : !passed(audit);
      if (under && costs) row.failing.push(named(c, r.id));
      else if (!passed(audit)) row.diagnostics.push(named(c, r.id));
    }
  }
  return row;
}

/** The brand's build, made first if there is none (without `lingui extract`: this run only reads locales/). */
async function siteDir(): Promise<string> {
  await ensureBuilt(brand, { extract: false, quiet: true, log: console.log });
  return join(ROOT, 'dist', brand);
}

let chromiumVersion = '';

async function launch(): Promise<Browser> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The browser suites' own flags (no sandbox as root, no GPU, no background traffic on a closed network).
    args: CHROMIUM_LAUNCH.args,
    // Chromium on Linux reads $HOME/.pki/nssdb: this one trusts the tests' CA.
    env: { ...process.env, HOME: chromiumHome() },
    // Lighthouse sets the screen (desktop 1350 x 940, or a phone) itself.
    defaultViewport: null,
  });
  chromiumVersion = await browser.version();
  return browser;
}

/**
 * The login form's fields, found before the timespan starts: the administrator sees the form, then
 * types; and puppeteer's own in-page script ("pptr:internal" in Lighthouse's tables) runs now, not
 * as blocking time counted against the console in the timespan.
 */
async function loginForm(page: Page) {
  const [user, password, submit] = await Promise.all([USER_NAME, PASSWORD, SIGN_IN].map((s) => page.waitForSelector(s, { visible: true, timeout: 30_000 })));
  if (!user || !password || !submit) throw new Error('the login form is not on screen');
  return { user, password, submit };
}

/** The sign-in, as an administrator does it: type the name and password key by key, press Sign in, wait for the list's rows. */
async function signIn(page: Page, form: Awaited<ReturnType<typeof loginForm>>): Promise<void> {
  await form.user.type(TEST_ADMIN.username);
  await form.password.type(TEST_ADMIN.password);
  await form.submit.click();
  await page.waitForSelector(ROWS, { timeout: 30_000 });
  if (new URL(page.url()).pathname !== '/user/userList') throw new Error(`after signing in: ${page.url()}, not /user/userList`);
}

/** One server: the simulated terminal, the server in front of it over HTTPS, a browser; the navigation, then the flow. */
async function runServer(kind: FrontKind, site: string): Promise<Row[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'console-lighthouse-'));
  const sim = await startSimulator({ activated: TEST_ADMIN.password, siteDir: site, storeFile: join(tmp, 'store.json'), model: loadModel('default'), host: '127.0.0.1' });
  const rows: Row[] = [];
  let front: Awaited<ReturnType<typeof startFront>> | undefined;
  let browser: Browser | undefined;
  try {
    front = await startFront(kind, site, new URL(sim.url).host);
    const base = front.https;
    browser = await launch();
    const write = (name: string, json: unknown, html?: string) => {
      writeFileSync(join(out, `${kind}-${name}.json`), JSON.stringify(json, null, 1));
      if (html) writeFileSync(join(out, `${kind}-${name}.html`), html);
    };

    // The login page alone, in a page of its own.
    const page1 = await browser.newPage();
    const login = await lighthouse(`${base}/login`, { ...flags, output: 'html' }, config, page1);
    if (!login) throw new Error('Lighthouse gave no result for /login');
    write('login', login.lhr, String(login.report));
    rows.push(rowOf(kind, 'login (navigation)', login.lhr));
    await page1.close();

    // The user flow in another page: a fresh session, signed in by the flow.
    const page = await browser.newPage();
    const flow = await startFlow(page, { name: `Sign in (${kind}, ${mobile ? 'mobile' : 'desktop'})`, config, flags });
    await flow.navigate(`${base}/login`, { name: 'login (navigation)' });
    const form = await loginForm(page);
    await flow.startTimespan({ name: 'sign in to the user list (timespan)' });
    await signIn(page, form);
    await flow.endTimespan();
    await flow.snapshot({ name: 'user list, signed in (snapshot)' });
    await flow.navigate(`${base}/user/userList`, { name: 'user list, signed in (navigation)' });
    // Signed in still: the navigation found the list, not the login page.
    if (new URL(page.url()).pathname !== '/user/userList') throw new Error(`the signed-in navigation ended on ${page.url()}`);
    const result: FlowResult = await flow.createFlowResult();
    write('flow', result, await flow.generateReport());
    for (const step of result.steps) rows.push(rowOf(kind, `flow: ${step.name}`, step.lhr));
  } finally {
    await browser?.close();
    await front?.close();
    await sim.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

function table(rows: Row[]): string {
  const cell = (s: Row['scores'][keyof Row['scores']]) => (s === undefined ? '-' : typeof s === 'number' ? String(s) : `${s.passed}/${s.of}`);
  const head = ['server', 'page / step', ...CATEGORIES.map((c) => LABEL[c])];
  const body = rows.map((r) => [r.server, r.step, ...CATEGORIES.map((c) => cell(r.scores[c]))]);
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ');
  const text = [line(head), ...body.map(line)];
  if (rows.some((r) => Object.values(r.scores).some((s) => typeof s === 'object'))) {
    text.push('', 'a/b: Lighthouse gives this step no score for the category (none of its audits has a weight in this mode): a of its b audits passed.');
  }
  const notes = rows.flatMap((r) => [...r.failing, ...r.problems].map((f) => `  ${r.server}, ${r.step}: ${f}`));
  if (notes.length) text.push('', 'Under 100, or Lighthouse reported:', ...notes);
  // Weight 0: Lighthouse's diagnostics, counted in no score; one line each, with the steps (and servers, unless all).
  const diag = new Map<string, Map<string, FrontKind[]>>();
  for (const r of rows) for (const d of r.diagnostics) diag.set(d, (diag.get(d) ?? new Map()).set(r.step, [...(diag.get(d)?.get(r.step) ?? []), r.server]));
  const where = (steps: Map<string, FrontKind[]>) => [...steps].map(([step, servers]) => (servers.length === kinds.length ? step : `${step} (${servers.join(', ')})`)).join('; ');
  if (diag.size) text.push('', 'Not passed, in no score (weight 0):', ...[...diag].map(([d, steps]) => `  ${d}\n    in ${where(steps)}`));
  return text.join('\n');
}

const t0 = performance.now();
// The tests' CA is made for this run (unless a parent process shares its own): removed at the end.
const ownPki = !process.env.CONSOLE_TEST_PKI;
mkdirSync(out, { recursive: true });
const site = await siteDir();
console.log(`Lighthouse on ${relative(ROOT, site)} over HTTPS behind ${kinds.join(', ')}; configuration: ${configName}; Chromium ${CHROMIUM}.`);
const rows: Row[] = [];
let failed = false;
for (const kind of kinds) {
  const t = performance.now();
  try {
    rows.push(...(await runServer(kind, site)));
  } catch (e) {
    failed = true;
    console.error(`${kind}: Lighthouse failed: ${(e as Error).stack ?? e}`);
  }
  console.log(`${kind}: ${((performance.now() - t) / 1000).toFixed(0)} s`);
}
// testPki() named its folder in the environment (for child processes) when it made it.
if (ownPki && process.env.CONSOLE_TEST_PKI) rmSync(process.env.CONSOLE_TEST_PKI, { recursive: true, force: true });
console.log(`\n${table(rows)}\n`);
const under = rows.some((r) => !Object.values(r.scores).every(full));
const problems = rows.some((r) => r.problems.length > 0);
const outName = out.startsWith(`${ROOT}/`) ? relative(ROOT, out) : out;
const verdict = rows.length === 0 ? 'No scores' : under ? 'Scores under 100' : 'All scores 100';
console.log(`${verdict}${failed || problems ? '; Lighthouse failed or reported problems' : ''}. ${chromiumVersion}, Lighthouse ${rows[0]?.version ?? '?'}. Results in ${outName}/ (JSON and HTML). ${((performance.now() - t0) / 1000).toFixed(0)} s.`);
process.exit(under || failed || problems ? 1 : 0);
