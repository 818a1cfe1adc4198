// Live events (issue 25 §2): what happens at the door shows as it happens,
// newest first, with time, user and how they verified; pause holds the list
// and keeps what comes; a dropped link says so and, once back, shows what
// happened meanwhile (Last-Event-ID); where the stream cannot pass, the
// console asks page by page; the stream is open only on this screen.
// Events come from the simulated terminal (a person at the reader,
// Simulator.events); on a terminal one test waits for a real one.
import { join } from 'node:path';
import type { Page, Request } from 'playwright/test';
import { readPo } from '../../build/po.ts';
import { test, expect, ADMIN, ON_TERMINAL, openSignedIn, expectAccessible, skipOnTerminal, shownTime, readDevice, signIn } from './fixtures.ts';
import { KIND } from '../../simulator/events.ts';

const PATH = '/advSetting/liveEvents';
const rows = (page: Page) => page.locator('table.grid tbody tr').filter({ hasNot: page.locator('td[colspan]') });
const status = (page: Page) => page.getByRole('status').filter({ hasText: /Live|Connection|Paused/ });
const NEEDS_READER = 'needs events on demand: the simulated terminal makes them (a bench terminal only when someone uses its reader; the test below waits for one)';

/** The EventStream requests the page makes, and whether each is still open. */
function streams(page: Page) {
  const open = new Set<Request>();
  const all: Request[] = [];
  page.on('request', (r) => {
    if (/\/goform\/EventStream/.test(r.url())) {
      all.push(r);
      open.add(r);
    }
  });
  const done = (r: Request) => open.delete(r);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return { all, open };
}

test('events as they happen: newest first, with the time, the user, the event and how they verified; forced and alarm marked in words', async ({ page, terminal, request }) => {
  skipOnTerminal(NEEDS_READER);
  const sim = terminal.sim!;
  const user = sim.store.get().users[0];
  await openSignedIn(page, PATH);
  await expect(status(page)).toHaveText('Live');
  await expect(page.getByText('No events yet')).toBeVisible();
  const verified = sim.events.present(user.UserID, 2);
  await expect(rows(page)).toHaveCount(1);
  const refused = sim.events.present('987654321', 3);
  sim.events.emit({ Kind: KIND.forced });
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).nth(0)).toContainText('⚠ Door forced open');
  await expect(rows(page).nth(1).locator('td')).toHaveText([await shownTime(page, refused.Time), 'Refused', '', '', 'Card']);
  await expect(rows(page).nth(2).locator('td')).toHaveText([await shownTime(page, verified.Time), 'Verified', user.UserID, user.UserName, 'Face']);
  // The device's clock: the time shown is the one the terminal stamped.
  const clock = await readDevice(request, terminal, 'SetDateTimeParam');
  expect(verified.Time.slice(0, 10)).toBe(clock.Date);
  await expectAccessible(page, 'live events');
});

test('pause holds the list; what came meanwhile is counted and shows on resume; the list keeps the newest 100', async ({ page, terminal }) => {
  skipOnTerminal(NEEDS_READER);
  const sim = terminal.sim!;
  await openSignedIn(page, PATH);
  await expect(status(page)).toHaveText('Live');
  sim.events.emit({ Kind: KIND.opened });
  await expect(rows(page)).toHaveCount(1);
  const pause = page.getByRole('button', { name: 'Pause' });
  await pause.click();
  await expect(pause).toHaveAttribute('aria-pressed', 'true');
  for (let i = 0; i < 2; i++) sim.events.emit({ Kind: KIND.alarm });
  await expect(status(page)).toHaveText('Live Paused: 2 new');
  await expect(rows(page)).toHaveCount(1);
  await pause.click();
  await expect(pause).toHaveAttribute('aria-pressed', 'false');
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).first()).toContainText('Alarm');
  for (let i = 0; i < 105; i++) sim.events.emit({ Kind: KIND.opened });
  await expect(rows(page).first()).toContainText('Door opened');
  await expect(rows(page)).toHaveCount(100);
});

test('a dropped link shows, and once back the events of the meantime come, none twice', async ({ page, terminal, context }) => {
  skipOnTerminal("cuts the open connection at the simulated terminal: the browser's offline mode does not end a stream already open, and nothing else in a test can cut a terminal's link");
  const sim = terminal.sim!;
  await openSignedIn(page, PATH);
  await expect(status(page)).toHaveText('Live');
  sim.events.emit({ Kind: KIND.opened });
  await expect(rows(page)).toHaveCount(1);
  // The link goes: the open stream is cut and nothing gets through until it is back.
  await context.setOffline(true);
  sim.server.closeAllConnections();
  await expect(status(page)).toHaveText('Connection lost: reconnecting…');
  sim.events.emit({ Kind: KIND.opened });
  sim.events.emit({ Kind: KIND.alarm });
  await context.setOffline(false);
  await expect(status(page)).toHaveText('Live');
  await expect(rows(page)).toHaveCount(3);
  sim.events.emit({ Kind: KIND.forced });
  await expect(rows(page)).toHaveCount(4);
  await expect(rows(page).locator('td:nth-child(2)')).toHaveText(['⚠ Door forced open', '⚠ Alarm', 'Door opened', 'Door opened']);
});

test('where the stream cannot pass (the device answers 10001), the console asks page by page and says so', async ({ page, terminal }) => {
  await page.route(/\/goform\/EventStream/, (route) => route.fulfill({ json: { retvalue: 10001 } }));
  await openSignedIn(page, PATH);
  await expect(status(page)).toHaveText('Live (checked every few seconds)');
  if (terminal.sim) {
    terminal.sim.events.emit({ Kind: KIND.opened });
    await expect(rows(page)).toHaveCount(1);
  }
});

test('the stream is open only on this screen: none before, one on it, none once the administrator leaves', async ({ page }) => {
  const s = streams(page);
  await openSignedIn(page, '/advSetting/recordList');
  await expect(page.getByRole('heading', { name: 'Record', exact: false }).first()).toBeVisible();
  expect(s.all).toHaveLength(0);
  await page.getByRole('link', { name: 'Live events' }).click();
  await expect(status(page)).toHaveText('Live');
  expect(s.all).toHaveLength(1);
  await page.getByRole('link', { name: 'Record' }).first().click();
  await expect(page).toHaveURL(/recordList/);
  await expect.poll(() => s.open.size).toBe(0);
  expect(s.all).toHaveLength(1);
});

test('a restart drops the stream; the console finds the session gone and shows the sign-in page', async ({ page, terminal }) => {
  skipOnTerminal('restarts through the simulated terminal; on a terminal maintenance.spec.ts restarts it');
  await openSignedIn(page, PATH);
  await expect(status(page)).toHaveText('Live');
  terminal.sim!.restart();
  await expect(page).toHaveURL(/\/login/, { timeout: 30_000 });
  await signIn(page);
});

for (const locale of ['ar']) {
  test(`${locale}: the screen right to left at 375 px, its words translated`, async ({ page, terminal }) => {
    skipOnTerminal(NEEDS_READER);
    const po = readPo(join(import.meta.dirname, `../../locales/${locale}/messages.po`));
    await page.setViewportSize({ width: 375, height: 740 });
    await page.addInitScript((l) => localStorage.setItem('language', l), locale);
    // Signed in in Arabic: the form's fields by what they are, not by their English labels.
    await page.goto(PATH);
    await page.locator('input[autocomplete=username]').fill(ADMIN.username);
    await page.locator('input[type=password]').fill(ADMIN.password);
    await page.locator('button[type=submit]').click();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('status').filter({ hasText: po.get('live.on')! })).toBeVisible();
    terminal.sim!.events.emit({ Kind: KIND.forced });
    await expect(rows(page).first()).toContainText(po.get('live.k4')!);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling of the page at 375 px').toBeLessThanOrEqual(0);
    await expectAccessible(page, `${locale}: live events`);
  });
}

test('on a terminal: a real event at the reader shows, or the test says why it could not wait for one', async ({ page }) => {
  test.skip(!ON_TERMINAL, 'the simulated terminal is covered by the tests above');
  const waitMs = Number(process.env.LIVE_EVENT_WAIT_MS ?? 60_000);
  // The wait, and time besides it to sign in and to say why it skips (found on the virtual board: with the
  // test's own 60 s it timed out instead of skipping).
  test.setTimeout(waitMs + 60_000);
  await openSignedIn(page, PATH);
  await expect(status(page)).toHaveText('Live');
  const came = await rows(page)
    .first()
    .waitFor({ timeout: waitMs })
    .then(() => true, () => false);
  test.skip(!came, `no one used the reader within ${waitMs / 1000} s (LIVE_EVENT_WAIT_MS); present a card or finger during the run to prove this on the terminal`);
  await expect(rows(page).first().locator('td').nth(1)).not.toHaveText('');
});
