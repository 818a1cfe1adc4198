// The operation log (issue 25 §3, /advSetting/operationLog): what a test did
// through the device's API (a sign-in, a setting written) is listed with its
// time, kind, account and address; the search by kind; the download holds
// the same entries; axe; Arabic right to left; 375 px. Everything goes
// through the API, so it runs on a terminal too (its log may hold more).
import type { Download, Page } from 'playwright/test';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { test, expect, openSignedIn, expectAccessible, deviceApi, keepSettings, other, entries, shownTime, ADMIN } from './fixtures.ts';

type Json = Record<string, unknown>;

async function sheet(d: Download): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync((await d.path())!) as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return rows;
}

/** The table's body rows as cell texts (read once: for expect.poll, which reads again until the page has them). */
const tableRows = (page: Page) =>
  page.locator('table.grid tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));

test('lists a sign-in and a setting written through the API, searches by kind, downloads the search', async ({ page, request, terminal }) => {
  const kept = await keepSettings(request, terminal, 'KaoqinParam');
  try {
    const api = await deviceApi(request, terminal);
    const kaoqin = await api.read('SetKaoqinParam');
    expect((await api.call('GetKaoqinParam', { ...kaoqin, RepeatTime: other(kaoqin.RepeatTime, 5, 6) })).retvalue).toBe(0);
    await openSignedIn(page, '/advSetting/operationLog');
    const newest = ((await api.call('searchOperationLog', { Page: 1, PageSize: 20, Kind: 0 })).List as Json[])[0];
    // The console's own sign-in is the newest; the write before it.
    expect([newest.Kind, newest.User]).toEqual([1, ADMIN.username]);
    const write = page.locator('table.grid tbody tr').filter({ has: page.getByRole('cell', { name: 'GetKaoqinParam: RepeatTime', exact: true }) }).first();
    await expect(write.locator('td:nth-child(2), td:nth-child(3)'), 'the write, by kind and account').toHaveText(['Settings written', ADMIN.username]);
    await expect(page.locator('table.grid tbody tr').first().locator('td:nth-child(-n+4)')).toHaveText([await shownTime(page, String(newest.Time)), 'Sign in', ADMIN.username, String(newest.Address)]);

    // Only settings written.
    const want = await api.call('searchOperationLog', { Page: 1, PageSize: 20, Kind: 5 });
    await page.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Settings written' });
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText(entries(want.Total as number))).toBeVisible();
    await expect.poll(async () => (await tableRows(page)).map((r) => [r[1], r[4]])).toEqual((want.List as Json[]).map((e) => ['Settings written', String(e.Detail)]));

    const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(d.suggestedFilename()).toMatch(/\.xlsx$/);
    const got = await sheet(d);
    expect(got[0]).toEqual(['Time', 'Kind', 'User', 'Address', 'Detail']);
    expect(got.length - 1).toBe(want.Total);
    expect(got.slice(1, 21)).toEqual((want.List as Json[]).map((e) => [String(e.Time), 'Settings written', String(e.User), String(e.Address), String(e.Detail)]));
    await expectAccessible(page, 'operation log');
  } finally {
    await kept.restore();
  }
});

/** Sign in on the login page the screen leads to, in any language and at any width (a phone's menu is a closed drawer). */
async function signInAt(page: Page): Promise<void> {
  await page.goto('/advSetting/operationLog');
  await page.locator('input[autocomplete=username]').fill(ADMIN.username);
  await page.locator('input[type=password]').fill(ADMIN.password);
  await page.locator('button[type=submit]').click();
  await expect(page.locator('table.grid tbody tr').first()).toBeVisible();
}

test('Arabic: the search and the table read right to left', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('language', 'ar'));
  await signInAt(page);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const heads = page.locator('table.grid thead th');
  expect((await heads.first().boundingBox())!.x).toBeGreaterThan((await heads.last().boundingBox())!.x);
  const form = (await page.locator('form.search').boundingBox())!;
  const kind = (await page.locator('form.search select').first().boundingBox())!;
  expect(form.x + form.width - (kind.x + kind.width), 'the first field at the right edge').toBeLessThan(kind.x - form.x);
  await expectAccessible(page, 'operation log in Arabic');
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('the screen fits the width (the table scrolls inside its frame)', async ({ page }) => {
    await signInAt(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const b of await page.locator('form.search button, form.search select').all()) {
      const box = (await b.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
  });
});
