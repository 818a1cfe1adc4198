// Signed-in sessions (issue 25 §4): the screen lists the sessions the device
// holds, this one marked in words; "Sign out" on another ends that session,
// and that browser's console shows the sign-in page saying the session ended
// at its next call. Two browser contexts, each signed in through the login
// form; the device is reached only through its API, so the same runs on a
// terminal, where other sessions (earlier tests, people) may be listed too:
// there the console is shown only the two of this test (narrowReplies).
import type { APIRequestContext, Browser, Page } from 'playwright/test';
import { test, expect, ADMIN, openSignedIn, expectAccessible, narrowReplies, shownTime, sessionToken, type Terminal } from './fixtures.ts';

type Entry = { Id: string; User: string; Address: string; Since: string; LastActive: string; Current: number };

/** Another browser signed in on its own; its session as the device lists it to that session. */
async function otherBrowser(browser: Browser, request: APIRequestContext, terminal: Terminal) {
  // A desktop's width whatever the test's: its menu is open, for openSignedIn.
  const context = await browser.newContext({ baseURL: terminal.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await openSignedIn(page, '/basicSetting/device');
  const token = await sessionToken(page);
  const r = await (await request.get(`${terminal.url}/goform/SetSessionList`, { headers: { 'X-Token': token } })).json();
  expect(r.retvalue, JSON.stringify(r)).toBe(0);
  const session = (r.List as Entry[]).find((s) => s.Current === 1)!;
  return { context, page, session };
}

/** The console sees this session and `other` only. */
const onlyThese = (page: Page, other: Entry) => narrowReplies(page, 'SetSessionList', (r) => ({ ...r, List: (r.List as Entry[]).filter((s) => s.Current || s.Id === other.Id) }));

test('the list marks this session; Sign out ends the other, whose console then shows the sign-in page saying the session ended', async ({ page, browser, request, terminal }) => {
  const them = await otherBrowser(browser, request, terminal);
  try {
    await onlyThese(page, them.session);
    await openSignedIn(page, '/advSetting/sessions');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signed-in sessions');
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(page.getByRole('columnheader')).toHaveText(['User name', 'IP address', 'Signed in', 'Last active', 'Operation']);
    // This one: said in words, no button.
    const mine = rows.filter({ hasText: 'This session' });
    await expect(mine).toHaveCount(1);
    await expect(mine.getByRole('button')).toHaveCount(0);
    await expect(mine.locator('td').first()).toHaveText(ADMIN.username);
    // The other: its account, address and sign-in time as the device gives them, the time in the page's language.
    const theirs = rows.filter({ has: page.getByRole('button', { name: 'Sign out' }) });
    await expect(theirs).toHaveCount(1);
    await expect(theirs.locator('td')).toHaveText([them.session.User, them.session.Address, await shownTime(page, them.session.Since), /\S/, 'Sign out']);
    await expectAccessible(page, 'signed-in sessions');

    const ended = page.waitForResponse(/\/goform\/GetSessionLogout/);
    await theirs.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
    expect(await (await ended).json()).toEqual({ retvalue: 0 });
    await expect(page.getByText('Success')).toBeVisible();
    // The list is read again: only this session.
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('This session');

    // Their console, at its next call: the sign-in page, saying why.
    await them.page.getByRole('button', { name: 'Device information' }).click();
    await expect(them.page).toHaveURL(/\/login/);
    await expect(them.page.getByRole('alert')).toHaveText('Session ended, please sign in again');
  } finally {
    await them.context.close();
  }
});

test.describe('at 375 px, in Arabic', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('the list fits the width, reads from the right, and is axe-clean', async ({ page, browser, request, terminal }) => {
    const them = await otherBrowser(browser, request, terminal);
    try {
      await onlyThese(page, them.session);
      await page.addInitScript(() => localStorage.setItem('language', 'ar'));
      // On a phone the menu is a closed drawer; the form's fields by their kind, in any language.
      await page.goto('/advSetting/sessions');
      await page.locator('input[autocomplete=username]').fill(ADMIN.username);
      await page.locator('input[type=password]').fill(ADMIN.password);
      await page.locator('button[type=submit]').click();
      await expect(page.locator('tbody tr')).toHaveCount(2);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      // The first column (the account) is the rightmost; the address stays as the device wrote it.
      const heads = await page.getByRole('columnheader').evaluateAll((hs) => hs.map((h) => h.getBoundingClientRect().x));
      expect(heads[0]).toBeGreaterThan(heads[1]);
      await expect(page.locator('tbody td bdi').filter({ hasText: them.session.Address }).first()).toHaveText(them.session.Address);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectAccessible(page, 'signed-in sessions at 375 px in Arabic');
    } finally {
      await them.context.close();
    }
  });
});
