// Users (SPEC §2 User group, §3, §4, §5, §8): the list paged by the device,
// both searches, delete selected, add with the required-field messages and
// the add-again question, edit that persists, face and finger enrolment,
// photo upload, spreadsheet import and export, the phone's add button, a
// name that looks like markup, and axe on every users screen.
//
// Against a physical terminal (TERMINAL_URL) each test makes its own users
// through the API (IDs 9876xxxxx) and removes them, and restarts it where a
// test restarts the simulator. Only the enrolments that end with a person at
// the reader (a face or finger enrolled, or refused) skip there, saying why;
// the one that times out runs: no one comes, and the terminal gives up.
import type { Page } from 'playwright/test';
import ExcelJS from 'exceljs';
import { encodePng } from '../../simulator/png.ts';
import { readFileSync } from 'node:fs';
import { test, expect, openSignedIn, signIn, expectAccessible, deviceApi, entries, ON_TERMINAL, RESTART_MS } from './fixtures.ts';

type Json = Record<string, unknown>;

/** IDs no seeded user has, and that a test removes again. */
const ID = (n: number) => String(987650000 + n);

/** A real PNG: 2x2 pixels (red, green; blue, white). */
const png = () => encodePng(2, 2, Uint8Array.of(255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255));

const table = (page: Page) => page.getByRole('table', { name: 'User list' });
const row = (page: Page, id: string) => table(page).getByRole('row').filter({ has: page.getByRole('cell', { name: id, exact: true }) });

test.describe('a terminal at full capacity', () => {
  // The simulator holds 10,000 users; a physical terminal pages whatever it holds (at least 41, added here if need be).
  test.use({ profileOverrides: { MaxUser: 10000, seedUsers: 10000 } as never });
  test('the list pages through every user, one page from the device at a time', async ({ page, terminal, request }) => {
    const api = await deviceApi(request, terminal);
    const ids = async (Page: number, PageSize = 20) => ((await api.call('userlist', { Page, PageSize })).List as Json[]).map((u) => String(u.UserID));
    let total = Number((await api.call('userlist', { Page: 1, PageSize: 10 })).Total);
    if (terminal.sim) expect(total).toBe(10000);
    const made: string[] = [];
    for (let i = 0; total < 41; i++, total++) {
      await api.add(ID(100 + i), `Page Filler ${i}`);
      made.push(ID(100 + i));
    }
    try {
      const pages: string[] = [];
      page.on('request', (r) => r.url().includes('/goform/userlist') && pages.push(new URL(r.url()).search));
      await openSignedIn(page, '/user/userList');
      await expect(page.getByText(entries(total))).toBeVisible();
      await expect(table(page).getByRole('row')).toHaveCount(21); // header + 20
      await expect(row(page, (await ids(1))[0])).toBeVisible();
      await expectAccessible(page, 'user list');
      await page.getByRole('button', { name: 'Next' }).click();
      const second = await ids(2);
      await expect(row(page, second[0])).toBeVisible();
      await expect(row(page, (await ids(1))[0])).toHaveCount(0);
      const last = Math.ceil(total / 20);
      await page.getByRole('spinbutton').fill(String(last));
      const lastIds = await ids(last);
      await expect(row(page, lastIds[lastIds.length - 1])).toBeVisible();
      await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
      await page.getByLabel('Per page').selectOption('100');
      await expect(table(page).getByRole('row')).toHaveCount(Math.min(100, total) + 1);
      // Every request asked for one page, never the whole list.
      for (const q of pages) expect(Number(new URLSearchParams(q).get('PageSize'))).toBeLessThanOrEqual(100);
      // A page deep in the list has the users a larger page has there, in user ID order (how fast it answers is
      // npm run bench's to measure, not a test's: that would test this machine).
      const deep = Math.max(1, Math.floor(total / 40));
      const got = await ids(deep);
      const at = (deep - 1) * 20;
      expect(got).toEqual((await ids(Math.floor(at / 100) + 1, 100)).slice(at % 100, (at % 100) + 20));
      expect(got.map(Number)).toEqual(got.map(Number).sort((a, b) => a - b));
      if (terminal.sim) expect(got[0]).toBe(String(at + 1));
    } finally {
      await api.remove(made);
    }
  });
});

test('search by user ID and by start and end time', async ({ page, terminal, request }) => {
  const api = await deviceApi(request, terminal);
  await api.add(ID(1), 'Search One', { AccessBegin: '2031-01-01', AccessEnd: '2031-06-30' });
  await api.add(ID(2), 'Search Two', { AccessBegin: '2032-01-01', AccessEnd: '2032-12-31' });
  await api.add(ID(3), 'Search Three');
  try {
    await openSignedIn(page, '/user/userList');
    await page.getByLabel('User ID').fill('98765000');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('3 entries')).toBeVisible();
    await expect(row(page, ID(1))).toContainText('Search One');
    // By time: only users whose access period reaches into 2031 (and those with no limit).
    await page.getByLabel('Start time').fill('2031-03-01');
    await page.getByLabel('End time').fill('2031-12-31');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('2 entries')).toBeVisible();
    await expect(row(page, ID(1))).toBeVisible();
    await expect(row(page, ID(3))).toBeVisible();
    await expect(row(page, ID(2))).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page.getByLabel('User ID')).toHaveValue('');
    await expect(row(page, ID(1))).toHaveCount(0);
  } finally {
    await api.remove([ID(1), ID(2), ID(3)]);
  }
});

test('delete selected: "Please select user!", cancel at "Are you Sure?", then delete', async ({ page, terminal, request }) => {
  const api = await deviceApi(request, terminal);
  await api.add(ID(11), 'Delete One');
  await api.add(ID(12), 'Delete Two');
  try {
    await openSignedIn(page, '/user/userList');
    await page.getByLabel('User ID').fill('9876500');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(row(page, ID(12))).toBeVisible();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await expect(page.getByText('Please select user!')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Select Delete One' }).check();
    await page.getByRole('checkbox', { name: 'Select Delete Two' }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('Are you Sure?');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await api.info(ID(11))).retvalue).toBe(0);
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Success')).toBeVisible();
    await expect(row(page, ID(11))).toHaveCount(0);
    expect((await api.info(ID(11))).retvalue).toBe(40401);
    expect((await api.info(ID(12))).retvalue).toBe(40401);
  } finally {
    await api.remove([ID(11), ID(12)]);
  }
});

test('add: required messages, the add-again question, a card another user has, then the edit page', { tag: '@smoke' }, async ({ page, terminal, request }) => {
  const api = await deviceApi(request, terminal);
  await api.add(ID(21), 'Already Here', { CardNo: '3000000021' });
  try {
    await openSignedIn(page, '/user/addUser');
    await expectAccessible(page, 'add user');
    const save = page.getByRole('button', { name: 'Save' });
    await save.click();
    await expect(page.getByText('Please input User ID')).toBeVisible();
    await expect(page.getByText('Please input User Name')).toBeVisible();
    await page.getByLabel('User ID').fill(ID(22));
    await page.getByLabel('User Name').fill('New Person');
    await page.getByLabel('Card number').fill('3000000021');
    await save.click();
    await expect(page.getByText('User Card Already Exists')).toBeVisible();
    await expect(page.getByLabel('User Name')).toHaveValue('New Person');
    await page.getByLabel('Card number').fill('');
    // The ID exists: asked; Cancel changes nothing and keeps what was typed.
    await page.getByLabel('User ID').fill(ID(21));
    await save.click();
    await expect(page.getByRole('alertdialog')).toContainText('The user already exists, do you want to add it again?');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByLabel('User ID')).toHaveValue(ID(21));
    expect((await api.info(ID(21))).UserName).toBe('Already Here');
    await save.click();
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(new RegExp(`/user/userEdit\\?UserID=${ID(21)}$`));
    await expect(page.getByLabel('User Name')).toHaveValue('New Person');
    expect((await api.info(ID(21))).UserName).toBe('New Person');
  } finally {
    await api.remove([ID(21), ID(22)]);
  }
});

test('edit and save: kept after a reload and after the terminal restarts', async ({ page, terminal, request }) => {
  test.setTimeout(60_000 + (ON_TERMINAL ? RESTART_MS : 15_000));
  const api = await deviceApi(request, terminal);
  await api.add(ID(31), 'Before Edit');
  try {
    await openSignedIn(page, `/user/userEdit?UserID=${ID(31)}`);
    await expect(page.getByLabel('User ID')).toHaveJSProperty('readOnly', true);
    await page.getByLabel('User Name').fill('Ивана Петрова');
    await page.getByLabel('Admin').selectOption({ label: '3-Admin' });
    await page.getByLabel('Time zone group').selectOption({ label: '1-NO' });
    await page.getByLabel('Access begins').fill('2030-01-01');
    await page.getByLabel('Access ends').fill('2029-01-01');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Ends before it begins')).toBeVisible();
    await page.getByLabel('Access ends').fill('2030-12-31');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Success')).toBeVisible();
    await expectAccessible(page, 'edit user');
    const check = async () => {
      await expect(page.getByLabel('User Name')).toHaveValue('Ивана Петрова');
      await expect(page.getByLabel('Admin')).toHaveValue('3');
      await expect(page.getByLabel('Access ends')).toHaveValue('2030-12-31');
    };
    await page.reload();
    await check();
    await terminal.restart();
    await page.context().clearCookies();
    await openSignedIn(page, `/user/userEdit?UserID=${ID(31)}`);
    await check();
    expect(await (await deviceApi(request, terminal)).info(ID(31))).toMatchObject({ UserName: 'Ивана Петрова', Admin: 3, AccessBegin: '2030-01-01', AccessEnd: '2030-12-31' });
  } finally {
    const again = await deviceApi(request, terminal);
    await again.remove([ID(31)]);
  }
});

test('a user named like markup is shown as text everywhere and runs nothing', async ({ page, terminal, request }) => {
  const api = await deviceApi(request, terminal);
  const name = '<img src=x onerror=alert(1)>';
  await api.add(ID(41), name);
  const dialogs: string[] = [];
  page.on('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
  try {
    await openSignedIn(page, '/user/userList');
    await page.getByLabel('User ID').fill(ID(41));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(row(page, ID(41)).getByRole('cell', { name, exact: true })).toBeVisible();
    await page.goto(`/user/userEdit?UserID=${ID(41)}`);
    await expect(page.getByLabel('User Name')).toHaveValue(name);
    await page.goto(`/user/identify?UserID=${ID(41)}`);
    await expect(page.getByRole('heading', { name: `${ID(41)} ${name}` })).toBeVisible();
    await expect(page.locator('main img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  } finally {
    await api.remove([ID(41)]);
  }
});

// The person at the reader is the factory test's (test_enroll, through the API): a good or a poor sample,
// presented once the console waits, on the simulator and on a terminal alike. The simulated terminal here
// has no one at its reader, as a bench terminal has none: an enrolment ends only by the sample, or times out.
test.describe('enrolment (the sample presented through the API)', () => {
  test.use({ profileOverrides: { enroll: { outcome: 'timeout', timeoutMs: 30_000 } } as never });
  test('face enrolment succeeds, with the waiting indicator and its countdown', async ({ page, terminal, request }) => {
    const api = await deviceApi(request, terminal);
    await api.add(ID(71), 'Enrol Person');
    try {
      await openSignedIn(page, `/user/identify?UserID=${ID(71)}`);
      await expect(page.getByText('No face enrolled')).toBeVisible();
      await expectAccessible(page, 'identify');
      await page.getByRole('button', { name: 'Enrol face' }).click();
      await expect(page.getByText('Face Enrolling Waiting...')).toBeVisible();
      await expect(page.getByRole('timer')).toHaveText(/^(30|29)$/);
      await api.sample(ID(71), true);
      await expect(page.getByText('Enrolled', { exact: true })).toBeVisible();
      await expect(page.getByText('Face enrolled')).toBeVisible();
      expect((await api.info(ID(71))).Face).toBe(1);
    } finally {
      await api.remove([ID(71)]);
    }
  });

  test('finger enrolment on the drawing of two hands; then delete the finger', async ({ page, terminal, request }) => {
    const api = await deviceApi(request, terminal);
    await api.add(ID(72), 'Finger Person');
    try {
      await openSignedIn(page, `/user/fingerprint?UserID=${ID(72)}`);
      const group = page.getByRole('radiogroup', { name: 'Fingers' });
      await expectAccessible(page, 'fingerprint');
      await group.getByRole('radio', { name: /^Right middle finger/ }).click();
      await expect(group.getByRole('radio', { name: /^Right middle finger/ })).toHaveAttribute('aria-checked', 'true');
      await page.getByRole('button', { name: 'Enrol finger' }).click();
      await expect(page.getByText('Finger Enrolling Waiting...')).toBeVisible();
      await api.sample(ID(72), true);
      await expect(page.getByText('Enrolled', { exact: true })).toBeVisible();
      await expect(group.getByRole('radio', { name: 'Right middle finger, enrolled' })).toBeVisible();
      expect((Number((await api.info(ID(72))).FPMask) >> 7) & 1).toBe(1);
      await page.getByRole('button', { name: 'Delete finger' }).click();
      await page.getByRole('button', { name: 'OK' }).click();
      await expect(group.getByRole('radio', { name: 'Right middle finger', exact: true })).toBeVisible();
      expect((Number((await api.info(ID(72))).FPMask) >> 7) & 1).toBe(0);
    } finally {
      await api.remove([ID(72)]);
    }
  });
});

test.describe('enrolment that fails (a poor sample presented through the API)', () => {
  test.use({ profileOverrides: { enroll: { outcome: 'timeout', timeoutMs: 30_000 } } as never });
  test('face and finger enrolment failures are said', async ({ page, terminal, request }) => {
    const api = await deviceApi(request, terminal);
    await api.add(ID(73), 'Fail Person');
    try {
      await openSignedIn(page, `/user/identify?UserID=${ID(73)}`);
      await page.getByRole('button', { name: 'Enrol face' }).click();
      await expect(page.getByText('Face Enrolling Waiting...')).toBeVisible();
      await api.sample(ID(73), false);
      await expect(page.getByText('Enrolment failed')).toBeVisible();
      await page.goto(`/user/fingerprint?UserID=${ID(73)}`);
      await page.getByRole('button', { name: 'Enrol finger' }).click();
      await expect(page.getByText('Finger Enrolling Waiting...')).toBeVisible();
      await api.sample(ID(73), false);
      await expect(page.getByText('Enrolment failed')).toBeVisible();
      expect(await api.info(ID(73))).toMatchObject({ Face: 0, FPMask: 0 });
    } finally {
      await api.remove([ID(73)]);
    }
  });
});

test.describe('enrolment that times out', () => {
  // The simulator gives up after 1.5 s; a terminal after its own 30 s (or the console's countdown reaching 0), as no one comes to its reader.
  test.use({ profileOverrides: { enroll: { ms: 500, outcome: 'timeout', timeoutMs: 1500 } } as never });
  test('a finger chosen by keyboard on the drawing of two hands; no one comes and the terminal gives up: timed out', async ({ page, terminal, request }) => {
    test.setTimeout(ON_TERMINAL ? 120_000 : 60_000);
    const api = await deviceApi(request, terminal);
    await api.add(ID(74), 'Slow Person');
    try {
      await openSignedIn(page, `/user/fingerprint?UserID=${ID(74)}`);
      const group = page.getByRole('radiogroup', { name: 'Fingers' });
      await expect(group.getByRole('radio')).toHaveCount(10);
      await expectAccessible(page, 'fingerprint');
      await group.getByRole('radio', { name: /^Right forefinger/ }).focus();
      await page.keyboard.press('ArrowRight');
      await expect(group.getByRole('radio', { name: /^Right middle finger/ })).toBeFocused();
      await expect(group.getByRole('radio', { name: /^Right middle finger/ })).toHaveAttribute('aria-checked', 'true');
      await page.getByRole('button', { name: 'Enrol finger' }).click();
      await expect(page.getByText('Finger Enrolling Waiting...')).toBeVisible();
      await expect(page.getByRole('timer')).toBeVisible();
      await expect(page.getByText('Enrolment timed out')).toBeVisible({ timeout: ON_TERMINAL ? 60_000 : 10_000 });
      await expect(page.getByRole('timer')).toHaveCount(0);
      await expect(group.getByRole('radio', { name: 'Right middle finger', exact: true })).toBeVisible();
      expect(Number((await api.info(ID(74))).FPMask)).toBe(0);
    } finally {
      await api.remove([ID(74)]);
    }
  });
});

test('the administrator cancels a face enrolment', async ({ page, terminal, request }) => {
  const api = await deviceApi(request, terminal);
  await api.add(ID(75), 'Cancel Person');
  try {
    await openSignedIn(page, `/user/identify?UserID=${ID(75)}`);
    await page.getByRole('button', { name: 'Enrol face' }).click();
    await expect(page.getByText('Face Enrolling Waiting...')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText('Enrolment cancelled')).toBeVisible();
    await expect(page.getByRole('timer')).toHaveCount(0);
    expect((await api.info(ID(75))).Face).toBe(0);
  } finally {
    await api.remove([ID(75)]);
  }
});

test('photo: a PNG is previewed and accepted; a text file named .jpg is refused by its bytes', async ({ page, terminal, request }) => {
  const api = await deviceApi(request, terminal);
  await api.add(ID(51), 'Photo Person');
  try {
    await openSignedIn(page, '/user/identify');
    // From the sidebar, with no user given: asked which user first.
    await page.getByLabel('User ID').fill(ID(59));
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByText('Invalid User ID')).toBeVisible();
    await page.getByLabel('User ID').fill(ID(51));
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page).toHaveURL(new RegExp(`UserID=${ID(51)}$`));
    const pick = page.getByLabel('Choose a JPEG or PNG photo');
    await pick.setInputFiles({ name: 'face.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('this is not an image at all') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByText('Upload file format Error')).toBeVisible();
    await pick.setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: png() });
    await expect(page.getByRole('img', { name: 'Photo to upload' })).toBeVisible();
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByText('Success')).toBeVisible();
    expect((await api.info(ID(51))).Photo).toBe(1);
    await page.reload();
    await expect(page.getByRole('img', { name: 'Stored photo' })).toBeVisible();
    await expectAccessible(page, 'identify with a photo');
  } finally {
    await api.remove([ID(51)]);
  }
});

test('import a spreadsheet with good and bad rows; export every user to a real .xlsx', async ({ page, terminal, request }) => {
  const api = await deviceApi(request, terminal);
  await api.add(ID(61), 'Exists Already');
  await api.add(ID(62), '=HYPERLINK("x","y")');
  try {
    await openSignedIn(page, '/user/userList');
    await page.getByRole('button', { name: 'Import' }).click();
    const csv = ['UserID,UserName,CardNo,Admin', `${ID(63)},Imported One,,0`, `${ID(61)},Duplicate,,0`, `${ID(64)},,,0`, `${ID(65)},Imported Two,,99`, `${ID(66)},"Imported, Three",4000000066,1`].join('\r\n');
    await page.getByLabel('Spreadsheet (.xlsx or .csv)').setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await expect(dialog.getByText('2 users added')).toBeVisible();
    await expect(dialog.getByText('3 rows refused')).toBeVisible();
    const refused = dialog.getByRole('row');
    await expect(refused.nth(1)).toHaveText(['3', 'UserID', 'User ID Already Exists'].join(''));
    await expect(refused.nth(2)).toContainText(/4\s*UserName/);
    await expect(refused.nth(3)).toContainText(/5\s*Admin/);
    await expectAccessible(page, 'import report');
    await dialog.getByRole('button', { name: 'Close' }).click(); // the dialog's own close button
    expect((await api.info(ID(63))).UserName).toBe('Imported One');
    expect((await api.info(ID(66))).UserName).toBe('Imported, Three');
    expect((await api.info(ID(61))).UserName).toBe('Exists Already');
    expect((await api.info(ID(64))).retvalue).toBe(40401);
    expect((await api.info(ID(65))).retvalue).toBe(40401);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export all' }).click()]);
    expect(download.suggestedFilename()).toBe('users.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync((await download.path())!) as never);
    const sheet = book.worksheets[0];
    const head = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(head).toContain('UserID');
    expect(head).not.toContain('Password');
    const col = (name: string) => head.indexOf(name) + 1;
    const rows = new Map<string, ExcelJS.Row>();
    sheet.eachRow((r, n) => n > 1 && rows.set(String(r.getCell(col('UserID')).value), r));
    const total = (await api.call('userlist', { Page: 1, PageSize: 10 })).Total;
    expect(rows.size).toBe(total);
    for (const id of [ID(61), ID(62), ID(63), ID(66)]) {
      const info = await api.info(id);
      const r = rows.get(id)!;
      expect(r.getCell(col('UserName')).value).toBe(info.UserName);
      expect(String(r.getCell(col('CardNo')).value ?? '')).toBe(info.CardNo ?? '');
    }
    // The formula-looking name is text, never a formula.
    const risky = rows.get(ID(62))!.getCell(col('UserName'));
    expect(risky.type).toBe(ExcelJS.ValueType.String);
    expect(risky.formula).toBeUndefined();
    expect(risky.value).toBe('=HYPERLINK("x","y")');
  } finally {
    await api.remove([ID(61), ID(62), ID(63), ID(64), ID(65), ID(66)]);
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('the list stays usable at 375 px with no sideways scroll, and the circle-plus button adds a user', async ({ page }) => {
    // On a phone the menu is a closed drawer: signed in is the list showing.
    await page.goto('/user/userList');
    await signIn(page);
    await expect(table(page)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expect(page.getByRole('link', { name: 'Add user' })).toHaveCount(1);
    await page.getByRole('link', { name: 'Add user' }).click();
    await expect(page).toHaveURL(/\/user\/addUser$/);
    await expect(page.getByLabel('User ID')).toBeVisible();
    await expectAccessible(page, 'user list on a phone');
  });
});
