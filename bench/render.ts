// Section 5: how long the user list and the record list take to render a
// page of 100 rows, scripting only, on unthrottled Chromium. The probe
// (probe.js) reads the list call's reply in full before the console gets it
// and marks t0 there; a MutationObserver marks t1 when the new table body
// holds the page's rows; performance.measure(t0, t1) is the render (parsing
// the reply, the console's code, Preact, the DOM), without the network.
import type { Page } from 'playwright';
import { CALLS, type CallName } from '../contract/index.ts';
import { freshPage, signedIn, type Lab } from './browser.ts';
import { spread, target, type Settings, type Target } from './lib.ts';

const TARGET_MS = 16;
const LISTS: { name: string; path: string; call: CallName }[] = [
  { name: 'user list', path: '/user/userList', call: 'userlist' },
  { name: 'record list', path: '/advSetting/recordList', call: 'searchrecord' },
];

export interface RenderList {
  list: string;
  path: string;
  call: string;
  rows: number;
  /** The renders timed (after the switch to the page size, whose render is `first`). */
  renders: number;
  median: number;
  min: number;
  max: number;
  all: number[];
  first: number;
  result: Target;
}

export interface RenderSection {
  method: string;
  lists: RenderList[];
}

/** The largest page the call takes (its contract's PageSize values). */
function largestPage(call: CallName): number {
  const field = (CALLS[call].request as Record<string, { values?: readonly (number | string)[] }>).PageSize;
  const sizes = (field?.values ?? []).map(Number);
  if (!sizes.length) throw new Error(`${call} has no PageSize values in the contract`);
  return Math.max(...sizes);
}

const rendered = (page: Page, n: number) => page.waitForFunction((k) => window.__bench.renders.length >= k, n, { timeout: 30_000 });

async function timeList(page: Page, l: (typeof LISTS)[number], cycles: number): Promise<RenderList> {
  const rows = largestPage(l.call);
  await page.evaluate(([call, n]) => window.__bench.timeList(call, n), [CALLS[l.call].path, rows] as const);
  const moved = await page.evaluate((path) => window.__bench.walk([path], 15_000), l.path);
  if (moved.unsettled.length) throw new Error(`${l.path} did not settle`);
  const pager = page.getByRole('navigation', { name: 'Page' });
  // As a user does: the page size, then the next page and back again.
  await pager.getByLabel('Per page').selectOption(String(rows));
  await rendered(page, 1);
  for (let i = 0; i < cycles; i++) {
    await pager.getByRole('button', { name: 'Next', exact: true }).click();
    await rendered(page, 2 + 2 * i);
    await pager.getByRole('button', { name: 'Previous', exact: true }).click();
    await rendered(page, 3 + 2 * i);
  }
  const all = await page.evaluate(() => window.__bench.renders);
  const s = spread(all.slice(1));
  return { list: l.name, path: l.path, call: l.call, rows, renders: all.length - 1, ...s, first: spread(all.slice(0, 1)).median, result: target(`<= ${TARGET_MS} ms`, s.median <= TARGET_MS) };
}

export async function measureRender(s: Settings, lab: Lab): Promise<RenderSection> {
  // Each cycle is two renders (next page, previous page).
  const cycles = s.short ? 1 : 5;
  const p = await freshPage(lab);
  try {
    await signedIn(p.page);
    const lists: RenderList[] = [];
    for (const l of LISTS) {
      s.log(`render: ${l.name}, ${2 * cycles} renders of a full page`);
      lists.push(await timeList(p.page, l, cycles));
    }
    return {
      method: "performance.measure in the page: t0 when the list call's reply has been read in full (wrapped fetch), t1 when a MutationObserver sees the new table body holding the page's rows",
      lists,
    };
  } finally {
    await p.close();
  }
}
