// Every route of the routes table (src/routing/routes.ts, hidden ones too), in
// one page by client-side navigation: each screen's structure for assistive
// technology (one main landmark, one h1: in the layout the route's title),
// checked with axe, and at a phone's width (375 px) no screen wider than the
// viewport. It only navigates and reads, so it runs against a real terminal
// too (TERMINAL_URL); routes the device's function list leaves out are
// skipped there.
import { join } from 'node:path';
import type { Page } from 'playwright/test';
import { readPo } from '../../build/po.ts';
import { MENU, STANDALONE, allowedBy } from '../../src/routing/routes.ts';
import { FUNS_COOKIE } from '../../src/state/keys.ts';
import { test, expect, openSignedIn, axeSource } from './fixtures.ts';

const PROBE = join(import.meta.dirname, '../../bench/probe.js');
const en = readPo(join(import.meta.dirname, '../../locales/en/messages.po'));

interface Walked {
  path: string;
  /** The route's title in English (the breadcrumb's and the document title's). */
  title: string;
  inLayout: boolean;
}

/** Screens inside the layout the device's function list allows (hidden ones too), then the standalone ones but the login page. */
async function routesOf(page: Page): Promise<Walked[]> {
  const cookie = (await page.context().cookies()).find((c) => c.name === FUNS_COOKIE);
  const funs = JSON.parse(decodeURIComponent(cookie?.value ?? '[]')) as string[];
  const out: Walked[] = [];
  for (const group of MENU)
    for (const r of group.children ?? []) if (allowedBy(group, funs) && allowedBy(r, funs)) out.push({ path: r.path, title: en.get(r.title)!, inLayout: true });
  for (const r of STANDALONE) if (r.path !== '/login') out.push({ path: r.path, title: en.get(r.title)!, inLayout: false });
  return out;
}

/**
 * Client-side navigation to `path` and the wait for the screen to settle, by
 * the bench's in-page probe (bench/probe.js, window.__bench.walk: main holding
 * content, nothing loading or busy, no call in flight, the DOM unchanged over
 * two frames). False if it does not settle in 10 s.
 */
const visit = (page: Page, path: string) =>
  page.evaluate(async (p) => {
    const bench = (window as unknown as { __bench: { walk(paths: string[], ms: number): Promise<{ unsettled: string[] }> } }).__bench;
    return (await bench.walk([p], 10_000)).unsettled.length === 0;
  }, path);

/** axe rules about a page's structure (moderate: expectAccessible() does not fail on them). */
const STRUCTURE = [
  'page-has-heading-one',
  'landmark-one-main',
  'region',
  'heading-order',
  'empty-heading',
  'landmark-no-duplicate-main',
  'landmark-main-is-top-level',
  'landmark-unique',
];

interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
}

/** What is wrong with the page now: axe's serious and critical findings and its structure rules, and the h1s. */
async function structureProblems(page: Page, r: Walked): Promise<string[]> {
  const { violations, h1 } = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (o: object) => Promise<AxeResult> } }).axe;
    const { violations } = await axe.run({ resultTypes: ['violations'] });
    return { violations, h1: [...document.querySelectorAll('h1, [role=heading][aria-level="1"]')].map((h) => h.textContent?.trim() ?? '') };
  });
  const out = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || STRUCTURE.includes(v.id))
    .map((v) => `${r.path}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  if (h1.length !== 1) out.push(`${r.path}: ${h1.length} h1 (${h1.join(' | ')})`);
  else if (r.inLayout ? h1[0] !== r.title : !h1[0]) out.push(`${r.path}: h1 "${h1[0]}", route title "${r.title}"`);
  return out;
}

/** The page wider than the viewport: the widths, and the outermost elements that reach past its edge. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const width = window.innerWidth;
    const scroll = document.documentElement.scrollWidth;
    if (scroll <= width) return '';
    const wide = [...document.querySelectorAll('body *')].filter((e) => {
      const b = e.getBoundingClientRect();
      return b.right > width + 0.5 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > width + 0.5);
    });
    const name = (e: Element) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') + (e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : '');
    return `scrollWidth ${scroll} > ${width} (${wide.slice(0, 3).map(name).join(', ')})`;
  });

/**
 * Check the login page with `check`, sign in, and walk every route with it, at
 * `width` (the sign-in itself at the desktop width openSignedIn expects); every
 * problem at the end.
 */
async function walk(page: Page, width: number, check: (r: Walked) => Promise<string[]>) {
  const desktop = page.viewportSize()!;
  const size = { width, height: 740 };
  await page.setViewportSize(size);
  // The probe counts the console's calls in flight from the first request (added by the browser, not by the page: the policy allows it).
  await page.addInitScript({ path: PROBE });
  await page.goto('/login');
  await expect(page.getByLabel('User name')).toBeVisible();
  await page.evaluate(axeSource());
  const problems = await check({ path: '/login', title: en.get('login.route')!, inLayout: false });
  await page.setViewportSize(desktop);
  await openSignedIn(page);
  await page.setViewportSize(size);
  // Phone mode at 850 px or less (SPEC §2): the sidebar a closed drawer.
  if (width <= 850) await expect(page.locator('body')).toHaveClass(/\bmobile\b/);
  await page.evaluate(axeSource());
  const routes = await routesOf(page);
  expect(routes.length).toBeGreaterThan(STANDALONE.length);
  for (const r of routes) {
    if (!(await visit(page, r.path))) problems.push(`${r.path}: did not settle in 10 s`);
    problems.push(...(await check(r)));
  }
  expect(problems).toEqual([]);
}

test('every route: one main landmark, one h1 (the route title inside the layout), axe structure rules', async ({ page }) => {
  await walk(page, 1280, (r) => structureProblems(page, r));
});

test('at 375 px no route makes the page wider than the viewport', async ({ page }) => {
  await walk(page, 375, async (r) => {
    const o = await overflow(page);
    return o ? [`${r.path}: ${o}`] : [];
  });
});
