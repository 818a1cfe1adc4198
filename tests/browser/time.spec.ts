// Time (issue 25 §1): the time zone is chosen from the browser's list of
// zones, each with its offset now, never typed; "Use this computer's time"
// fills the date and time with this computer's clock in the device's zone,
// not the browser's; the device refuses a name that is no zone; the DST
// screen says when the zone's own rules apply instead of its settings. The
// device's time settings are put back at the end (keepSettings), so these run
// on a terminal too.
import { test, expect, ADMIN, openSignedIn, expectAccessible, deviceApi, readDevice, other, keepSettings, type Terminal } from './fixtures.ts';
import type { APIRequestContext, Locator, Page } from 'playwright/test';
import { CALLS } from '../../contract/index.ts';

type Json = Record<string, unknown>;
const WRITES = CALLS.GetDateTimeParam.request;

/** Write the device's date and time settings through its API: what it has now, with `change` (sending back the time read keeps its clock). */
async function setClock(request: APIRequestContext, terminal: Terminal, change: Json): Promise<Json> {
  const api = await deviceApi(request, terminal);
  const now = await api.read('SetDateTimeParam');
  const body = Object.fromEntries(Object.entries({ ...now, ...change }).filter(([k]) => Object.hasOwn(WRITES, k)));
  expect(await api.call('GetDateTimeParam', body)).toMatchObject({ retvalue: 0 });
  return api.read('SetDateTimeParam');
}

const zoneBox = (page: Page) => page.getByRole('combobox', { name: 'Time zone' });
const save = (page: Page) => page.getByRole('button', { name: 'Save' });
async function saved(page: Page) {
  await save(page).click();
  await expect(page.getByText('Success')).toBeVisible();
  await expect(save(page)).toBeDisabled();
}
const minutes = (hhmm: unknown) => Number(String(hhmm).slice(0, 2)) * 60 + Number(String(hhmm).slice(3, 5));

test('the time zone is a list of zones with their offsets, sorted by offset then name; the choice is saved and read back', async ({ page, request, terminal }) => {
  const kept = await keepSettings(request, terminal, 'DateTimeParam');
  const [clock] = kept.values;
  const next = other(clock.TimeZone, 'Australia/Eucla', 'Asia/Tokyo');
  try {
    await openSignedIn(page, '/basicSetting/timeSetting');
    const zone = zoneBox(page);
    await expect(zone).toHaveValue(String(clock.TimeZone));
    expect(await zone.evaluate((e) => e.tagName), 'chosen, never typed').toBe('SELECT');
    await expect(zone).toHaveAttribute('dir', 'ltr');
    const labels = await zone.locator('option').allTextContents();
    await expect(zone.locator('option', { hasText: /^UTC\+08:45 Australia\/Eucla$/ })).toHaveCount(1);
    await expect(zone.locator('option', { hasText: /^UTC\+09:00 Asia\/Tokyo$/ })).toHaveCount(1);
    await expect(zone.locator('option', { hasText: /^UTC\+00:00 UTC$/ })).toHaveCount(1);
    // Every zone of the list in order: by offset, then by name (a stored zone the list lacks comes first).
    const listed = labels.map((l) => /^UTC([+-])(\d\d):(\d\d) (.+)$/.exec(l)).filter((m) => m !== null);
    expect(listed.length).toBeGreaterThan(300);
    const keyed = listed.map((m) => ({ offset: (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])), name: m[4] }));
    for (let i = 1; i < keyed.length; i++) {
      const [a, b] = [keyed[i - 1], keyed[i]];
      expect(a.offset < b.offset || (a.offset === b.offset && a.name < b.name), `${a.offset} ${a.name} before ${b.offset} ${b.name}`).toBe(true);
    }
    await expectAccessible(page, 'time, the zone list');

    await zone.selectOption(next);
    await saved(page);
    const after = await readDevice(request, terminal, 'SetDateTimeParam');
    expect(after).toMatchObject({ TimeZone: next, UtcOffset: next === 'Asia/Tokyo' ? '+09:00' : '+08:45' });
    await page.reload();
    await expect(zoneBox(page)).toHaveValue(next);

    // An offset a store from before names holds: shown as the device has it, first, selected; kept by a save of other fields.
    await setClock(request, terminal, { TimeZone: '+05:45' });
    await page.reload();
    await expect(zoneBox(page)).toHaveValue('+05:45');
    await expect(zoneBox(page).locator('option').first()).toHaveText('+05:45 (as the device has it)');
    await expect(save(page)).toBeDisabled();
    await zoneBox(page).selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: 'Undo changes' }).click();
    await expect(zoneBox(page)).toHaveValue('+05:45');
    await page.getByRole('radio', { name: clock.TimeFormat === 1 ? '24-hour' : '12-hour' }).check();
    await saved(page);
    expect((await readDevice(request, terminal, 'SetDateTimeParam')).TimeZone).toBe('+05:45');
  } finally {
    await kept.restore();
  }
});

test.describe('a browser in another time zone than the device', () => {
  // The computer is in UTC, its clock stopped at 23:30:00 UTC on 2 November 2026; the device is in Tokyo (UTC+09:00, no DST).
  test.use({ timezoneId: 'UTC' });
  const INSTANT = new Date('2026-11-02T23:30:00Z');

  test("\"Use this computer's time\" fills the device zone's date and time (Tokyo's, not the browser's), and Save sets the clock", async ({ page, request, terminal }) => {
    const kept = await keepSettings(request, terminal, 'DateTimeParam');
    try {
      await setClock(request, terminal, { TimeZone: 'Asia/Tokyo' });
      await page.clock.setFixedTime(INSTANT);
      await openSignedIn(page, '/basicSetting/timeSetting');
      expect(await page.evaluate(() => `${new Date().getHours()}:${new Date().getMinutes()}`), "the browser's own wall clock").toBe('23:30');
      const button = page.getByRole('button', { name: "Use this computer's time" });
      const manual = page.getByRole('radio', { name: 'Manual' });
      const auto = page.getByRole('radio', { name: 'Automatic (NTP)' });
      if (await auto.isChecked()) {
        await expect(button, 'only in manual mode').toHaveCount(0);
        await manual.check();
      }
      const date = page.getByLabel('Date', { exact: true });
      const time = page.getByLabel('Time', { exact: true });
      await button.click();
      await expect(date).toHaveValue('2026-11-03');
      await expect(time).toHaveValue('08:30');
      await expectAccessible(page, "time, the computer's time");
      // A zone chosen on the form, not saved yet, is the one the button uses: Los Angeles is on PST (UTC-08:00) by then.
      await zoneBox(page).selectOption('America/Los_Angeles');
      await button.click();
      await expect(date).toHaveValue('2026-11-02');
      await expect(time).toHaveValue('15:30');
      await zoneBox(page).selectOption('Asia/Tokyo');
      await button.click();
      await expect(time).toHaveValue('08:30');
      await saved(page);
      const now = await readDevice(request, terminal, 'SetDateTimeParam');
      expect(now).toMatchObject({ Mode: 0, Date: '2026-11-03', TimeZone: 'Asia/Tokyo', UtcOffset: '+09:00' });
      // The clock runs on from 08:30 (a minute may have passed).
      expect(minutes(now.Time) - minutes('08:30')).toBeGreaterThanOrEqual(0);
      expect(minutes(now.Time) - minutes('08:30')).toBeLessThanOrEqual(1);
    } finally {
      await kept.restore();
    }
  });
});

test('a name that is no time zone is refused through the API, naming the field, and changes nothing', async ({ request, terminal }) => {
  const api = await deviceApi(request, terminal);
  const before = await api.read('SetDateTimeParam');
  const body = Object.fromEntries(Object.entries(before).filter(([k]) => Object.hasOwn(WRITES, k)));
  for (const bad of ['Mars/Olympus_Mons', 'Europe/Berlinn', 'UTC+9', '+15:00', 'europe/berlin']) {
    expect(await api.call('GetDateTimeParam', { ...body, TimeZone: bad }), bad).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'TimeZone' });
  }
  expect(await api.call('GetDateTimeParam', { ...body, UtcOffset: '+09:00' }), 'the offset is read only').toEqual({ retvalue: 10005, msg: 'err.10005', field: 'UtcOffset' });
  const after = await api.read('SetDateTimeParam');
  expect(after.TimeZone).toBe(before.TimeZone);
  expect(after.Mode).toBe(before.Mode);
});

test("the DST screen says when the zone's own rules apply instead of its settings", async ({ page, request, terminal }) => {
  const kept = await keepSettings(request, terminal, 'DateTimeParam');
  try {
    await setClock(request, terminal, { TimeZone: 'Europe/Berlin' });
    await openSignedIn(page, '/basicSetting/dst');
    const note = page.getByRole('note');
    await expect(note).toContainText('The time zone Europe/Berlin has daylight saving rules of its own');
    await expectAccessible(page, 'dst with a region zone');
    await setClock(request, terminal, { TimeZone: 'Etc/GMT-1' });
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Disabled' })).toBeVisible();
    await expect(note).toHaveCount(0);
  } finally {
    await kept.restore();
  }
});

test.describe('at 375 px, right to left', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('the time screen in manual mode fits, and its list and button sit on the inline start', async ({ page, request, terminal }) => {
    const kept = await keepSettings(request, terminal, 'DateTimeParam');
    try {
      await setClock(request, terminal, { Mode: 0, TimeZone: 'America/Argentina/Buenos_Aires' });
      // On a phone the menu is a closed drawer: signed in, the form is what shows.
      await page.goto('/basicSetting/timeSetting');
      await page.locator('input[autocomplete=username]').fill(ADMIN.username);
      await page.locator('input[type=password]').fill(ADMIN.password);
      await page.locator('button[type=submit]').click();
      const button = page.getByRole('button', { name: "Use this computer's time" });
      await expect(button).toBeVisible();
      const fits = async () => {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        for (const e of [zoneBox(page), button]) expect(((await e.boundingBox())!.x + (await e.boundingBox())!.width)).toBeLessThanOrEqual(375);
      };
      await fits();
      // Right to left (the layout's logical properties; the new texts are not translated yet): the list and the button start at the right.
      await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
      await fits();
      const form = (await page.locator('form.settings').boundingBox())!;
      const edge = async (e: Locator) => {
        const b = (await e.boundingBox())!;
        return form.x + form.width - (b.x + b.width);
      };
      const label = page.locator('label', { hasText: /^Time zone$/ });
      expect(Math.abs((await edge(zoneBox(page))) - (await edge(label)))).toBeLessThan(4);
      expect(Math.abs((await edge(button)) - (await edge(label)))).toBeLessThan(4);
      await expect(zoneBox(page)).toHaveAttribute('dir', 'ltr');
      await expectAccessible(page, 'time at 375 px, right to left');
    } finally {
      await kept.restore();
    }
  });
});
