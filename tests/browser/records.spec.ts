// Records, the report and temperature records (SPEC §2 Advanced, §3 Record,
// Report row, Temperature filter): a search that pages through 100,000
// records, both downloads opened with a spreadsheet package and checked,
// the report's hand-computed week, the temperature filter, and axe.
//
// Against a physical terminal (TERMINAL_URL) the list and download tests
// compare the screen with what the device's API answers for the same
// search, and the report with a week computed here from the device's own
// records; only what is the simulator's own data (its 100,000 records, the
// report's hand-computed fixture week) is asserted with the simulator alone.
import type { Download, Page } from 'playwright/test';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { test, expect, openSignedIn, expectAccessible, deviceApi, withoutFunctions, entries, shownTime, ON_TERMINAL } from './fixtures.ts';

type Json = Record<string, unknown>;
type Api = Awaited<ReturnType<typeof deviceApi>>;

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

/** The table's body rows as cell texts (read once: for expect.poll, which reads again until the page has them). */
const tableRows = (page: Page) =>
  page.locator('table.grid tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));

test('the record list pages through every record, searches by user and dates, and downloads the search', { tag: '@smoke' }, async ({ page, request, terminal }) => {
  test.setTimeout(90_000);
  const api = await deviceApi(request, terminal);
  const first = await api.call('searchrecord', { Page: 1, PageSize: 10 });
  const total = first.Total as number;
  // Every record the device holds; the simulated terminal is seeded with 100,000.
  expect(total).toBe((await api.call('SetInfoParam')).RecordCount);
  if (terminal.sim) expect(total).toBe(100_000);
  expect(total).toBeGreaterThan(0);
  const names = await api.call('SetApplyParam');

  await openSignedIn(page, '/advSetting/recordList');
  await expect(page.getByText(entries(total))).toBeVisible();
  await expect(page.locator('table.grid tbody tr')).toHaveCount(Math.min(20, total));
  // The newest first, with the device's status names; the time as English writes it (the device sends YYYY-MM-DD HH:MM:SS).
  // Waited for, not read once: a row must never show the status code in place of its name, even for a moment.
  const top = (first.List as Json[])[0];
  await expect(page.locator('table.grid tbody tr').first().locator('td')).toHaveText([await shownTime(page, String(top.Time)), String(top.UserID), String(top.UserName), String(names[`Status${top.Status}`])]);

  // The last page, asked of the device directly: one request for that page alone (how fast it answers is
  // npm run bench's to measure, not a test's).
  await page.getByRole('combobox', { name: 'Per page' }).selectOption('100');
  // The pager comes back with the new page size once its first page has arrived.
  await expect(page.locator('table.grid tbody tr')).toHaveCount(Math.min(100, total));
  const pages = Math.ceil(total / 100);
  const asked = page.waitForResponse((r) => r.url().includes('/goform/searchrecord') && r.url().includes(`Page=${pages}&`));
  await page.getByRole('spinbutton', { name: 'Page' }).fill(String(pages));
  const reply = await asked;
  expect(new URL(reply.url()).searchParams.get('PageSize')).toBe('100');
  await expect(page.locator('table.grid tbody tr')).toHaveCount(total - (pages - 1) * 100);
  const last = await api.call('searchrecord', { Page: pages, PageSize: 100 });
  const lastRow = (last.List as Json[]).at(-1)!;
  await expect(page.locator('table.grid tbody tr').last().locator('td:nth-child(-n+2)')).toHaveText([await shownTime(page, String(lastRow.Time)), String(lastRow.UserID)]);

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
  const shown = await Promise.all(found.map(async (r) => [await shownTime(page, String(r.Time)), query.UserID]));
  await expect.poll(async () => (await tableRows(page)).map((r) => r.slice(0, 2))).toEqual(shown);

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
  test('shows and downloads a week worked out from the device\'s records (on the simulator: user 1\'s hand-computed week)', async ({ page, request, terminal }) => {
    const api = await deviceApi(request, terminal);
    // The simulated terminal: user 1's fixture week, whose rows were also worked out by hand (REPORT_WEEK).
    // A terminal: the week up to its newest record, of the user who punched it.
    let query = { UserID: '1', Start: '2026-11-02', End: '2026-11-06' };
    if (ON_TERMINAL) {
      const newest = ((await api.call('searchrecord', { Page: 1, PageSize: 10 })).List as Json[])[0];
      expect(newest, 'the terminal holds attendance records').toBeDefined();
      const end = String(newest.Time).slice(0, 10);
      query = { UserID: String(newest.UserID), Start: new Date(Date.parse(`${end}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10), End: end };
    }
    const want = await reportOf(api, query.UserID, query.Start, query.End);
    expect(want.length).toBeGreaterThan(0);
    if (!ON_TERMINAL) expect(want.map((r) => r.slice(2))).toEqual(REPORT_WEEK);
    await openSignedIn(page, '/advSetting/report');
    await page.getByLabel('User ID').fill(query.UserID);
    await page.getByLabel('Start time').fill(query.Start);
    await page.getByLabel('End time').fill(query.End);
    await page.getByRole('button', { name: 'Search' }).click();
    // Dates and times on the screen as English writes them; the download keeps the device's.
    const shown = await Promise.all(want.map(async (r) => [...r.slice(0, 2), ...(await Promise.all(r.slice(2, 7).map((v) => shownTime(page, v)))), ...r.slice(7)]));
    if (!ON_TERMINAL) expect(shown[0][2]).toBe('Nov 2, 2026');
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
  const temperatures = page.locator('table.grid tbody tr td:nth-child(4)');
  await expect(temperatures).toHaveText(Array(Math.min(20, abnormal)).fill(/^⚠ \d\d\.\d °C Abnormality$/));
  await page.getByLabel('Filter').selectOption({ label: 'Normal' });
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(entries(normal))).toBeVisible();
  await expect(temperatures).toHaveText(Array(Math.min(20, normal)).fill(/^\d\d\.\d °C$/));
  await expectAccessible(page, 'thermometry');
});

test('a terminal without thermometry does not list temperature records', async ({ page }) => {
  // The console is shown a model without the thermometry function (the device's replies rewritten in the browser).
  await withoutFunctions(page, 'thermometry');
  await openSignedIn(page, '/advSetting/recordList');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Records' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Temperature records' })).toHaveCount(0);
});

test('axe finds nothing serious on the record list and the report', async ({ page }) => {
  await openSignedIn(page, '/advSetting/recordList');
  await expect(page.locator('table.grid tbody tr').first()).toBeVisible();
  await expectAccessible(page, 'record list');
  await page.goto('/advSetting/report');
  await expect(page.locator('.pager')).toBeVisible();
  await expectAccessible(page, 'report');
});

/** Minutes since midnight of "HH:MM". */
const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/**
 * The report rows (UserID, UserName, Date, FirstIn, LastOut, InTime, OutTime,
 * Late, Early) of one user from `start` to `end`, worked out here from the
 * device's own data by the rules docs/API.md gives for GetReportFormInfo,
 * independently of the device's (and the simulator's) code: the user's
 * records of the period (searchrecord, every page), their name and shift now
 * (GetUserInfo, SetShiftsInfo) and the duplicate punch range (SetKaoqinParam
 * RepeatTime). Per day with a punch, oldest first: the first punch counts; a
 * later one counts unless it is less than RepeatTime minutes after the last
 * counted one. FirstIn is the first punch, LastOut the last counted one when
 * two or more count; both HH:MM, seconds dropped. Late: minutes FirstIn is
 * after OnDuty when more than LateGrace, else 0; Early: minutes LastOut is
 * before OffDuty when more than EarlyGrace, else 0 (also without LastOut). No
 * shift (Shift 0, or the user deleted): no InTime or OutTime, Late and Early 0.
 */
async function reportOf(api: Api, userId: string, start: string, end: string): Promise<string[][]> {
  const punches: string[] = [];
  for (let p = 1; ; p++) {
    const r = await api.call('searchrecord', { UserID: userId, Start: start, End: end, Page: p, PageSize: 100 });
    punches.push(...(r.List as Json[]).map((x) => String(x.Time)));
    if (punches.length >= (r.Total as number) || !(r.List as Json[]).length) break;
  }
  const user = await api.info(userId);
  const name = user.retvalue === 0 ? String(user.UserName) : '';
  const shift = user.retvalue === 0 && Number(user.Shift) ? await api.call('SetShiftsInfo', { ShiftNum: Number(user.Shift) }) : null;
  const repeat = Number((await api.call('SetKaoqinParam')).RepeatTime) * 60;
  const seconds = (t: string) => Date.parse(`${t.replace(' ', 'T')}Z`) / 1000;
  const days = new Map<string, string[]>();
  for (const t of punches.sort()) days.set(t.slice(0, 10), [...(days.get(t.slice(0, 10)) ?? []), t]);
  return [...days].map(([day, times]) => {
    const counted = [times[0]];
    for (const t of times.slice(1)) if (seconds(t) - seconds(counted.at(-1)!) >= repeat) counted.push(t);
    const firstIn = times[0].slice(11, 16);
    const lastOut = counted.length > 1 ? counted.at(-1)!.slice(11, 16) : '';
    const [inTime, outTime] = shift ? [String(shift.OnDuty), String(shift.OffDuty)] : ['', ''];
    const late = shift && minutes(firstIn) - minutes(inTime) > Number(shift.LateGrace) ? minutes(firstIn) - minutes(inTime) : 0;
    const early = shift && lastOut && minutes(outTime) - minutes(lastOut) > Number(shift.EarlyGrace) ? minutes(outTime) - minutes(lastOut) : 0;
    return [userId, name, day, firstIn, lastOut, inTime, outTime, String(late), String(early)];
  });
}

/** Date, FirstIn, LastOut, InTime, OutTime, Late, Early of user 1, 2 to 6 November 2026, computed by hand (see the fixture in simulator/areas/records.ts). */
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
