// Records, the report and temperature records (SPEC §2 Advanced, §3 Record,
// Report row, Temperature filter): a search that pages through 100,000
// records, both downloads opened with a spreadsheet package and checked,
// the report's hand-computed week, the temperature filter, and axe.
//
// Against a physical terminal (TERMINAL_URL) the list and download tests
// compare the screen with what the device's API answers for the same
// search; only what needs the simulator's own data (its 100,000 records, the
// report's fixture week) is asserted there alone, and says so.
import type { Download, Page } from 'playwright/test';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { test, expect, openSignedIn, expectAccessible, simulatorOnly, deviceApi, entries, shownTime } from './fixtures.ts';

type Json = Record<string, unknown>;

/** A downloaded workbook's first sheet as rows of text (row 1 the header), and whether every cell is a string with the Text format. */
async function sheet(d: Download): Promise<{ rows: string[][]; allText: boolean; name: string }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync((await d.path())!) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const rows: string[][] = [];
  let allText = true;
  ws.eachRow((row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (c) => {
      if (c.value !== null && c.value !== '' && (typeof c.value !== 'string' || c.numFmt !== '@')) allText = false;
      cells.push(c.value === null ? '' : String(c.value));
    });
    rows.push(cells);
  });
  return { rows, allText, name: d.suggestedFilename() };
}

/** The table's body rows as cell texts. */
const tableRows = (page: Page) =>
  page.locator('table.grid tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));

test('the record list pages through every record, searches by user and dates, and downloads the search', { tag: '@smoke' }, async ({ page, request, terminal }) => {
  test.setTimeout(90_000);
  const api = await deviceApi(request, terminal);
  const first = await api.call('searchrecord', { Page: 1, PageSize: 10 });
  const total = first.Total as number;
  if (terminal.sim) expect(total).toBe(100_000);
  expect(total).toBeGreaterThan(0);
  const names = await api.call('SetApplyParam');

  await openSignedIn(page, '/advSetting/recordList');
  await expect(page.getByText(entries(total))).toBeVisible();
  await expect(page.locator('table.grid tbody tr')).toHaveCount(Math.min(20, total));
  // The newest first, with the device's status names; the time as English writes it (the device sends YYYY-MM-DD HH:MM:SS).
  const top = (first.List as Json[])[0];
  const row1 = (await tableRows(page))[0];
  expect(row1).toEqual([await shownTime(page, String(top.Time)), String(top.UserID), String(top.UserName), String(names[`Status${top.Status}`])]);

  // The last page, asked of the device directly: it answers fast however deep.
  await page.getByRole('combobox', { name: 'Per page' }).selectOption('100');
  // The pager comes back with the new page size once its first page has arrived.
  await expect(page.locator('table.grid tbody tr')).toHaveCount(Math.min(100, total));
  const pages = Math.ceil(total / 100);
  const asked = page.waitForResponse((r) => r.url().includes('/goform/searchrecord') && r.url().includes(`Page=${pages}&`));
  const t0 = Date.now();
  await page.getByRole('spinbutton', { name: 'Page' }).fill(String(pages));
  await asked;
  await expect(page.locator('table.grid tbody tr')).toHaveCount(total - (pages - 1) * 100);
  expect(Date.now() - t0).toBeLessThan(3000);
  const last = await api.call('searchrecord', { Page: pages, PageSize: 100 });
  const lastRow = (last.List as Json[]).at(-1)!;
  expect((await tableRows(page)).at(-1)!.slice(0, 2)).toEqual([await shownTime(page, String(lastRow.Time)), String(lastRow.UserID)]);

  // Search one user over the days of the newest record's month.
  const month = String(top.Time).slice(0, 7);
  const query = { UserID: String(top.UserID), Start: `${month}-01`, End: `${month}-28` };
  const want = await api.call('searchrecord', { ...query, Page: 1, PageSize: 100 });
  await page.getByLabel('User ID').fill(query.UserID);
  await page.getByLabel('Start time').fill(query.Start);
  await page.getByLabel('End time').fill(query.End);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(entries(want.Total as number))).toBeVisible();
  const found = (want.List as Json[]).slice(0, 20);
  for (const r of found) expect(String(r.UserID) === query.UserID && String(r.Time) >= query.Start && String(r.Time) <= `${query.End} 23:59:59`).toBe(true);
  expect((await tableRows(page)).map((r) => r.slice(0, 2))).toEqual(await Promise.all(found.map(async (r) => [await shownTime(page, String(r.Time)), query.UserID])));

  // The download holds exactly that search, as text cells.
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  const got = await sheet(d);
  expect(got.name).toMatch(/\.xlsx$/);
  expect(got.rows[0]).toEqual(['Time', 'UserID', 'UserName', 'Status']);
  expect(got.rows.length - 1).toBe(want.Total);
  // In the device's formats, whatever the console's language.
  expect(got.rows[1]).toEqual([String(found[0].Time), query.UserID, String(found[0].UserName), String(names[`Status${found[0].Status}`])]);
  expect(got.allText).toBe(true);
});

test('a bad search is said at its field and keeps what was typed', async ({ page }) => {
  await openSignedIn(page, '/advSetting/recordList');
  await page.getByLabel('User ID').fill('12ab');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByLabel('User ID')).toHaveValue('12ab');
  await expect(page.getByLabel('User ID')).toHaveAttribute('aria-invalid', 'true');
});

test.describe('the report', () => {
  test("shows and downloads the hand-computed week of user 1", async ({ page, terminal }) => {
    simulatorOnly(); // The week is the simulated terminal's own fixture (hil/simulator/areas/records.ts).
    await openSignedIn(page, '/advSetting/report');
    await page.getByLabel('User ID').fill('1');
    await page.getByLabel('Start time').fill('2026-11-02');
    await page.getByLabel('End time').fill('2026-11-06');
    await page.getByRole('button', { name: 'Search' }).click();
    // Shift 1 "Day": 09:00 to 18:00, 5 minutes' grace either way; duplicate punch range 3 minutes.
    // The name from the device, not from the table (which may still show the search before).
    const name = String(terminal.sim!.store.get().users.find((u) => String(u.UserID) === '1')?.UserName);
    const want = REPORT_WEEK.map((r) => ['1', name, ...r]);
    // Dates and times on the screen as English writes them; the download keeps the device's.
    const shown = await Promise.all(want.map(async (r) => [...r.slice(0, 2), ...(await Promise.all(r.slice(2, 7).map((v) => shownTime(page, v)))), ...r.slice(7)]));
    expect(shown[0][2]).toBe('Nov 2, 2026');
    await expect.poll(() => tableRows(page)).toEqual(shown);
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    const got = await sheet(d);
    expect(got.rows[0]).toEqual(['UserID', 'UserName', 'Date', 'FirstIn', 'LastOut', 'InTime', 'OutTime', 'Late', 'Early']);
    expect(got.rows.slice(1)).toEqual(want);
    expect(got.allText).toBe(true);
  });

  test('a period longer than 31 days is refused at End', async ({ page }) => {
    await openSignedIn(page, '/advSetting/report');
    await page.getByLabel('Start time').fill('2026-01-01');
    await page.getByLabel('End time').fill('2026-03-01');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByLabel('End time')).toHaveValue('2026-03-01');
  });
});

test('temperature records: the filter, and abnormal values marked by more than colour', async ({ page, request, terminal }) => {
  const api = await deviceApi(request, terminal);
  const count = async (Type: number) => (await api.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type })).Total as number;
  const [all, abnormal, normal] = [await count(0), await count(1), await count(2)];
  expect(abnormal + normal).toBe(all);
  await openSignedIn(page, '/advSetting/thermometry');
  await expect(page.getByText(entries(all))).toBeVisible();
  await page.getByLabel('Filter').selectOption({ label: 'Abnormality' });
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(entries(abnormal))).toBeVisible();
  for (const r of await tableRows(page)) expect(r[3]).toMatch(/^⚠ \d\d\.\d °C Abnormality$/);
  await page.getByLabel('Filter').selectOption({ label: 'Normal' });
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(entries(normal))).toBeVisible();
  for (const r of await tableRows(page)) expect(r[3]).toMatch(/^\d\d\.\d °C$/);
  await expectAccessible(page, 'thermometry');
});

test.describe('a terminal without thermometry', () => {
  test.use({ profileName: 'lite' });
  test('does not list temperature records', async ({ page }) => {
    simulatorOnly(); // Needs a device profile without the thermometry function.
    await openSignedIn(page, '/advSetting/recordList');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu.getByRole('link', { name: 'Records' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Temperature records' })).toHaveCount(0);
  });
});

test('axe finds nothing serious on the record list and the report', async ({ page }) => {
  await openSignedIn(page, '/advSetting/recordList');
  await expect(page.locator('table.grid tbody tr').first()).toBeVisible();
  await expectAccessible(page, 'record list');
  await page.goto('/advSetting/report');
  await expect(page.locator('.pager')).toBeVisible();
  await expectAccessible(page, 'report');
});

/** Date, FirstIn, LastOut, InTime, OutTime, Late, Early of user 1, 2 to 6 November 2026, computed by hand (see the fixture in hil/simulator/areas/records.ts). */
const REPORT_WEEK: string[][] = [
  // 08:57 and 18:04: on time, and not early.
  ['2026-11-02', '08:57', '18:04', '09:00', '18:00', '0', '0'],
  // 09:17: 17 minutes late (more than 5).
  ['2026-11-03', '09:17', '18:02', '09:00', '18:00', '17', '0'],
  // Left at 16:45: 75 minutes early (lunch punches in between do not count).
  ['2026-11-04', '08:49', '16:45', '09:00', '18:00', '0', '75'],
  // A single punch: no last out; 3 minutes late is within the grace.
  ['2026-11-05', '09:03', '', '09:00', '18:00', '0', '0'],
  // 08:58 and 09:00, two minutes apart inside the 3-minute duplicate range: one punch, so no last out (not 09:00 with 540 minutes early).
  ['2026-11-06', '08:58', '', '09:00', '18:00', '0', '0'],
];
