// Access control screens: each loads the device's values, rejects an invalid
// value with the right message, saves a valid change, and the change is there
// after a reload and after the device restarts. Periods and work groups: add,
// delete after "Are you Sure?", "Please select ..." with nothing selected.
// The values come from the device's API, the changes are ones from what it
// has, and what a test changes (settings, periods, work groups) is put back.
import type { APIRequestContext, Page } from 'playwright/test';
import { test, expect, openSignedIn, sessionToken, restartAndSignIn, expectAccessible, deviceApi, readDevice, other, keepSettings, ON_TERMINAL, RESTART_MS, type Terminal } from './fixtures.ts';

type Rec = Record<string, unknown>;
type Api = Awaited<ReturnType<typeof deviceApi>>;

/** A test that restarts the terminal: a real one may take RESTART_MS for each restart. */
const RESTARTING = ON_TERMINAL ? 60_000 + 2 * RESTART_MS : 60_000;
const CYCLES = ['Once', 'Every day', 'Every week', 'Every month', 'Every year'];
const RELAY = ['None', 'Ring', 'Door open'];
const WIEGAND = [
  'Wiegand 26',
  'Vendor Wiegand',
  'Fixed Wiegand 26',
  'Card 26, big end',
  'Card 26, little end',
  'Card 34, big end',
  'Card 34, little end',
  'Card 66, big end',
  'Card 66, little end',
];

const saveButton = (page: Page) => page.getByRole('button', { name: 'Save' });

async function saved(page: Page) {
  await saveButton(page).click();
  await expect(page.getByText('Success')).toBeVisible();
  await expect(saveButton(page)).toBeDisabled();
}


/** A table row whose text holds `name` (a device's name, taken literally). */
const rowNamed = (page: Page, name: unknown) => page.getByRole('row', { name: new RegExp(String(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });

/**
 * Reload, then restart the terminal and sign in again: `check` runs after
 * each. The restart ends the session; coming back without the old cookie
 * avoids racing the console's delayed forced-logout reload.
 */
async function survives(page: Page, terminal: Terminal, check: () => Promise<void>) {
  await page.reload();
  await check();
  const url = page.url();
  await restartAndSignIn(page, terminal);
  await expect(page).toHaveURL(url);
  await check();
}

// The numbered lists: always-closed periods (type 0), always-open ones (1), work groups (2).
type ListType = 0 | 1 | 2;
const TYPES: ListType[] = [1, 0, 2];
const listOf = async (api: Api, type: ListType) =>
  (type === 2 ? (await api.read('SetUniversalGroup')).Groups : (await api.read('SetGroupTime', { Type: type })).Periods) as Rec[];
/** Add to a list; the device answers the number it gave. */
async function addTo(api: Api, type: ListType, item: Rec): Promise<number> {
  const { Num: _, ...fields } = item;
  const r = type === 2 ? await api.call('GetUniversalGroup', fields) : await api.call('AddGroupTime', { Type: type, ...fields });
  expect(r.retvalue, `adding to list ${type}: ${JSON.stringify(r)}`).toBe(0);
  return r.Num as number;
}
const removeFrom = async (api: Api, type: ListType, nums: unknown[]) => expect((await api.call('DelSomeGroup', { Type: type, Nums: nums.join(',') })).retvalue).toBe(0);
const FILLER: Record<ListType, Rec> = {
  0: { Name: 'filler', Start: '2026-01-01 00:00', End: '2026-01-01 01:00', Cycle: 0 },
  1: { Name: 'filler', Start: '2026-01-01 00:00', End: '2026-01-01 01:00', Cycle: 0 },
  2: { Name: 'filler', TimeGroup: 1 },
};
const lowestFree = (taken: Set<number>) => [...Array(16).keys()].map((i) => i + 1).find((n) => !taken.has(n));

/**
 * The periods of both types and the work groups as the terminal has them, and
 * `restore`, which puts them back with their own numbers: what a test added
 * or changed is deleted, what it deleted is added again (the device gives the
 * lowest free number, so fillers hold the gaps below one and are deleted after).
 */
async function keepLists(request: APIRequestContext, terminal: Terminal) {
  const readAll = async (api: Api) => Object.fromEntries(await Promise.all(TYPES.map(async (t) => [t, await listOf(api, t)]))) as Record<ListType, Rec[]>;
  const before = await readAll(await deviceApi(request, terminal));
  const same = (a: Rec, b: Rec) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
  const restore = async () => {
    const api = await deviceApi(request, terminal);
    for (const type of TYPES) {
      const want = before[type];
      const have = await listOf(api, type);
      const extra = have.filter((h) => !want.some((w) => same(w, h)));
      if (extra.length) await removeFrom(api, type, extra.map((e) => e.Num));
      const taken = new Set(have.filter((h) => !extra.includes(h)).map((h) => h.Num as number));
      const fillers: number[] = [];
      for (const missing of want.filter((w) => !taken.has(w.Num as number))) {
        while (lowestFree(taken)! < (missing.Num as number)) {
          const n = await addTo(api, type, FILLER[type]);
          fillers.push(n);
          taken.add(n);
        }
        expect(await addTo(api, type, missing)).toBe(missing.Num);
        taken.add(missing.Num as number);
      }
      if (fillers.length) await removeFrom(api, type, fillers);
    }
    expect(await readAll(api), 'the periods and work groups are back as the test found them').toEqual(before);
  };
  return { before, restore };
}

test('access and card settings: load, reject, save, keep across reload and restart', async ({ page, request, terminal }) => {
  test.setTimeout(RESTARTING);
  const kept = await keepSettings(request, terminal, 'AccessControl', 'CardInfo');
  const [access, card] = kept.values;
  // Relay "None" hides the delay: a relay that does something is chosen first then.
  const relayMode = access.RelayMode === 0 ? 2 : (access.RelayMode as number);
  const want = {
    ...access,
    RelayMode: relayMode,
    RelayDelay: other(access.RelayDelay, 12, 13),
    WiegandFormat: other(access.WiegandFormat, 6, 5),
    CardLength: access.CardLength === 3 ? 4 : 3,
    CardDisplay: access.CardDisplay === 1 ? 0 : 1,
    Power12V: access.Power12V === 1 ? 0 : 1,
  };
  const cardWant = { ...card, ReadMode: 1, Sector: other(card.Sector, 7, 8), CardIdentify: card.CardIdentify === 1 ? 0 : 1 };
  try {
    await openSignedIn(page, '/advSetting/access');
    const relay = page.getByLabel('Relay output');
    const delay = page.getByLabel('Relay delay');
    await expect(relay).toHaveValue(String(access.RelayMode));
    if (access.RelayMode === 0) await expect(delay).toHaveCount(0);
    else await expect(delay).toHaveValue(String(access.RelayDelay));
    await expect(page.getByLabel('Wiegand output format')).toHaveValue(String(access.WiegandFormat));
    await expect(page.getByLabel('Wiegand output format').locator('option')).toHaveText(WIEGAND);
    await expect(page.getByRole('radio', { name: `${access.CardLength} bytes` })).toBeChecked();
    await expect(page.getByRole('radio', { name: access.CardDisplay ? 'Little end' : 'Big end' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'Tamper alarm' })).toBeChecked({ checked: access.TamperAlarm === 1 });
    await expect(page.getByRole('switch', { name: '12 V power supply' })).toBeChecked({ checked: access.Power12V === 1 });
    await expect(saveButton(page)).toBeDisabled();
    await expectAccessible(page, 'access');

    await relay.selectOption({ label: RELAY[relayMode] });
    await delay.fill('256');
    await expect(page.getByText('Enter a value from 1 to 255')).toBeVisible();
    await saveButton(page).click();
    await expect(page.getByText('Success')).toHaveCount(0);
    await expectAccessible(page, 'access with an error');
    await delay.fill(String(want.RelayDelay));
    await page.getByLabel('Wiegand output format').selectOption({ label: WIEGAND[want.WiegandFormat] });
    await page.getByRole('radio', { name: `${want.CardLength} bytes` }).check();
    await page.getByRole('radio', { name: want.CardDisplay ? 'Little end' : 'Big end' }).check();
    await page.getByRole('switch', { name: '12 V power supply' }).setChecked(want.Power12V === 1);
    await saved(page);
    expect(await readDevice(request, terminal, 'SetAccessControl')).toEqual(want);
    // Relay output "None" hides the delay.
    await relay.selectOption({ label: 'None' });
    await expect(delay).toHaveCount(0);
    await relay.selectOption({ label: RELAY[relayMode] });

    await page.goto('/advSetting/card');
    const sector = page.getByLabel('Sector', { exact: true });
    await expect(page.getByRole('switch', { name: 'Show card number' })).toBeChecked({ checked: card.ShowCard === 1 });
    await expect(page.getByRole('switch', { name: 'Identify by card' })).toBeChecked({ checked: card.CardIdentify === 1 });
    await expect(page.getByRole('radio', { name: card.ReadMode ? 'Encrypted sector' : 'Card serial number' })).toBeChecked();
    if (card.ReadMode === 0) await expect(sector).toHaveCount(0);
    else await expect(sector).toHaveValue(String(card.Sector));
    await expectAccessible(page, 'card');
    await page.getByRole('radio', { name: 'Card serial number' }).check();
    await expect(sector).toHaveCount(0);
    await page.getByRole('radio', { name: 'Encrypted sector' }).check();
    await sector.fill('16');
    await expect(page.getByText('Enter a value from 0 to 15')).toBeVisible();
    await sector.fill(String(cardWant.Sector));
    await page.getByRole('switch', { name: 'Identify by card' }).setChecked(cardWant.CardIdentify === 1);
    await saved(page);
    expect(await readDevice(request, terminal, 'SetCardInfo')).toEqual(cardWant);

    await survives(page, terminal, async () => {
      await expect(page.getByLabel('Sector', { exact: true })).toHaveValue(String(cardWant.Sector));
      await expect(page.getByRole('switch', { name: 'Identify by card' })).toBeChecked({ checked: cardWant.CardIdentify === 1 });
    });
    await page.goto('/advSetting/access');
    await expect(page.getByLabel('Relay delay')).toHaveValue(String(want.RelayDelay));
    await expect(page.getByLabel('Wiegand output format')).toHaveValue(String(want.WiegandFormat));
    await expect(page.getByRole('radio', { name: `${want.CardLength} bytes` })).toBeChecked();
    await expect(page.getByRole('radio', { name: want.CardDisplay ? 'Little end' : 'Big end' })).toBeChecked();
    await expect(page.getByRole('switch', { name: '12 V power supply' })).toBeChecked({ checked: want.Power12V === 1 });
  } finally {
    await kept.restore();
  }
});

test('time groups, time zones and shifts: one number at a time, checked, saved, kept', { tag: '@smoke' }, async ({ page, request, terminal }) => {
  test.setTimeout(RESTARTING);
  const kept = await keepSettings(request, terminal, ['GroupInfo', { GroupNum: 3 }], ['TimeIntervalInfo', { ZoneNum: 5 }], ['ShiftsInfo', { ShiftNum: 2 }]);
  const [group3, zone5, shift2] = kept.values;
  const api = await deviceApi(request, terminal);
  const group1 = await api.read('SetGroupInfo', { GroupNum: 1 });
  const zone1 = await api.read('SetTimeIntervalInfo', { ZoneNum: 1 });
  const shift1 = await api.read('SetShiftsInfo', { ShiftNum: 1 });
  const group = { ...group3, Time1: other(group3.Time1, 1, 2), Time4: other(group3.Time4, 2, 3) };
  const zone = { ...zone5, TueStart: '10:00', TueEnd: other(zone5.TueStart === '10:00' && zone5.TueEnd, '17:30', '17:45') };
  const shift = { ...shift2, Name: other(shift2.Name, 'Late night', 'Late shift'), LateGrace: other(shift2.LateGrace, 15, 16), OffDuty: other(shift2.OffDuty, '07:00', '07:15') };
  try {
    await openSignedIn(page, '/AccSetting/zoneSetting');
    const num = page.getByLabel('Time group number');
    await expect(num.locator('option')).toHaveCount(16);
    await expect(page.getByLabel('Time 1')).toHaveValue(String(group1.Time1));
    await expect(page.getByLabel('Time 2')).toHaveValue(String(group1.Time2));
    await expectAccessible(page, 'time groups');
    await num.selectOption('3');
    await expect(page.getByLabel('Time 1')).toHaveValue(String(group3.Time1));
    await page.getByLabel('Time 4').fill('33');
    await expect(page.getByText('Enter a value from 0 to 32')).toBeVisible();
    await page.getByLabel('Time 4').fill(String(group.Time4));
    await page.getByLabel('Time 1').fill(String(group.Time1));
    // Another number with unsaved changes asks first; staying keeps them.
    page.once('dialog', (d) => d.dismiss());
    await num.selectOption('4');
    await expect(num).toHaveValue('3');
    await expect(page.getByLabel('Time 4')).toHaveValue(String(group.Time4));
    await saved(page);
    expect(await api.read('SetGroupInfo', { GroupNum: 3 })).toEqual(group);
    await num.selectOption('1');
    await expect(page.getByLabel('Time 1')).toHaveValue(String(group1.Time1));

    // The same time groups under Advanced.
    await page.goto('/advSetting/group');
    await page.getByLabel('Time group number').selectOption('3');
    await expect(page.getByLabel('Time 4')).toHaveValue(String(group.Time4));
    await expectAccessible(page, 'groups');

    await page.goto('/advSetting/timezone');
    const zoneNum = page.getByLabel('Time zone number');
    await expect(zoneNum.locator('option')).toHaveCount(32);
    await expect(page.getByLabel('Monday Start')).toHaveValue(String(zone1.MonStart));
    await expect(page.getByLabel('Sunday End')).toHaveValue(String(zone1.SunEnd));
    await expect(page.getByRole('columnheader', { name: 'Day' })).toBeVisible();
    await expectAccessible(page, 'time zones');
    await zoneNum.selectOption('5');
    await expect(page.getByLabel('Monday Start')).toHaveValue(String(zone5.MonStart));
    await page.getByLabel('Tuesday Start').fill('10:00');
    await page.getByLabel('Tuesday End').fill('09:00');
    await expect(page.getByText('The end is before the start')).toBeVisible();
    await saveButton(page).click();
    await expect(page.getByText('Success')).toHaveCount(0);
    await expectAccessible(page, 'time zones with an error');
    await page.getByLabel('Tuesday End').fill(zone.TueEnd);
    await expect(page.getByText('The end is before the start')).toHaveCount(0);
    await saved(page);
    expect(await api.read('SetTimeIntervalInfo', { ZoneNum: 5 })).toEqual(zone);

    await page.goto('/advSetting/shifts');
    const shiftNum = page.getByLabel('Shift number');
    await expect(page.getByLabel('Name')).toHaveValue(String(shift1.Name));
    await expect(page.getByLabel('On duty')).toHaveValue(String(shift1.OnDuty));
    await expect(page.getByLabel('Late allowance')).toHaveValue(String(shift1.LateGrace));
    await expectAccessible(page, 'shifts');
    await shiftNum.selectOption('2');
    await expect(page.getByLabel('Name')).toHaveValue(String(shift2.Name));
    await page.getByLabel('Name').fill('');
    await expect(page.getByText('Required')).toBeVisible();
    await page.getByLabel('Late allowance').fill('121');
    await expect(page.getByText('Enter a value from 0 to 120')).toBeVisible();
    await page.getByLabel('Name').fill(shift.Name);
    await page.getByLabel('Late allowance').fill(String(shift.LateGrace));
    await page.getByLabel('Off duty').fill(shift.OffDuty);
    await saved(page);
    expect(await api.read('SetShiftsInfo', { ShiftNum: 2 })).toEqual(shift);

    await survives(page, terminal, async () => {
      await page.getByLabel('Shift number').selectOption('2');
      await expect(page.getByLabel('Name')).toHaveValue(shift.Name);
      await expect(page.getByLabel('Off duty')).toHaveValue(shift.OffDuty);
      await expect(page.getByLabel('Late allowance')).toHaveValue(String(shift.LateGrace));
    });
    await page.goto('/advSetting/timezone');
    await page.getByLabel('Time zone number').selectOption('5');
    await expect(page.getByLabel('Tuesday Start')).toHaveValue('10:00');
    await expect(page.getByLabel('Tuesday End')).toHaveValue(zone.TueEnd);
    await page.goto('/AccSetting/zoneSetting');
    await page.getByLabel('Time group number').selectOption('3');
    await expect(page.getByLabel('Time 1')).toHaveValue(String(group.Time1));
    await expect(page.getByLabel('Time 4')).toHaveValue(String(group.Time4));
  } finally {
    await kept.restore();
  }
});

test('always-open and always-closed periods: add, check, delete after confirming', async ({ page, request, terminal }) => {
  test.setTimeout(RESTARTING);
  const lists = await keepLists(request, terminal);
  try {
    let api = await deviceApi(request, terminal);
    // A period of each type to delete: seeded through the API where the device has none.
    if (!lists.before[1].length) await addTo(api, 1, { Name: 'Office hours', Start: '2026-01-05 08:00', End: '2026-01-05 18:00', Cycle: 1 });
    if (!lists.before[0].length) await addTo(api, 0, { Name: 'Holidays', Start: '2026-12-25 00:00', End: '2026-12-27 00:00', Cycle: 4 });
    const open = await listOf(api, 1);
    const closed = await listOf(api, 0);
    const first = open[0];

    await openSignedIn(page, '/AccSetting/alwaysOpen');
    for (const p of open) {
      await expect(rowNamed(page, p.Name)).toContainText(CYCLES[p.Cycle as number]);
      await expect(rowNamed(page, p.Name)).toContainText(String(p.Start));
    }
    await expectAccessible(page, 'always open');

    // Nothing selected.
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Please select period!')).toBeVisible();

    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add period' });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog.getByText('Required')).toHaveCount(3);
    await dialog.getByLabel('Name').fill('Lunch');
    await dialog.getByLabel('Start').fill('2026-06-01T12:00');
    await dialog.getByLabel('End').fill('2026-06-01T11:00');
    await expect(dialog.getByText('The end is before the start')).toBeVisible();
    await expectAccessible(page, 'add period with errors');
    await dialog.getByLabel('End').fill('2026-06-01T13:30');
    await dialog.getByLabel('Cycle').selectOption({ label: 'Every week' });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Success')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const lunch = (await listOf(api, 1)).find((p) => !open.some((o) => o.Num === p.Num))!;
    expect(lunch).toEqual({ Num: lunch.Num, Name: 'Lunch', Start: '2026-06-01 12:00', End: '2026-06-01 13:30', Cycle: 2 });
    const lunchRow = rowNamed(page, 'Lunch');
    await expect(lunchRow.getByRole('cell').nth(1)).toHaveText(String(lunch.Num));
    await expect(lunchRow).toContainText('2026-06-01 12:00');
    await expect(lunchRow).toContainText('2026-06-01 13:30');
    await expect(lunchRow).toContainText('Every week');

    await survives(page, terminal, async () => {
      await expect(rowNamed(page, 'Lunch')).toContainText('Every week');
    });
    api = await deviceApi(request, terminal); // the restart ended the API's session too

    // Delete asks first; Cancel keeps the period.
    await page.getByRole('checkbox', { name: `Select ${first.Name}` }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Are you Sure?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(rowNamed(page, first.Name)).toBeVisible();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Success')).toBeVisible();
    await expect(rowNamed(page, first.Name)).toHaveCount(0);
    await expect(rowNamed(page, 'Lunch')).toBeVisible();
    await page.reload();
    await expect(rowNamed(page, first.Name)).toHaveCount(0);
    expect(await listOf(api, 1)).toEqual([...open.filter((p) => p.Num !== first.Num), lunch].sort((a, b) => (a.Num as number) - (b.Num as number)));

    // Always closed is its own list.
    await page.goto('/AccSetting/alwaysClose');
    for (const p of closed) await expect(rowNamed(page, p.Name)).toContainText(CYCLES[p.Cycle as number]);
    await expect(rowNamed(page, 'Lunch')).toHaveCount(0);
    await expectAccessible(page, 'always closed');
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Nothing here yet.')).toBeVisible();
    expect(await listOf(api, 0)).toEqual([]);
    await page.getByRole('button', { name: 'Add' }).click();
    const add = page.getByRole('dialog', { name: 'Add period' });
    await add.getByLabel('Name').fill('Inventory');
    await add.getByLabel('Start').fill('2026-03-31T18:00');
    await add.getByLabel('End').fill('2026-04-01T06:00');
    await add.getByRole('button', { name: 'OK' }).click();
    await expect(rowNamed(page, 'Inventory')).toContainText('Once');
    await page.reload();
    await expect(rowNamed(page, 'Inventory')).toContainText('2026-04-01 06:00');
    expect(await listOf(api, 0)).toEqual([{ Num: 1, Name: 'Inventory', Start: '2026-03-31 18:00', End: '2026-04-01 06:00', Cycle: 0 }]);
  } finally {
    await lists.restore();
  }
});

test('work groups: add, check, delete after confirming, kept across restart', async ({ page, request, terminal }) => {
  test.setTimeout(RESTARTING);
  const lists = await keepLists(request, terminal);
  try {
    let api = await deviceApi(request, terminal);
    // A work group to delete: seeded through the API where the device has none.
    if (!lists.before[2].length) await addTo(api, 2, { Name: 'Staff', TimeGroup: 1 });
    const groups = await listOf(api, 2);
    const first = groups[0];
    await openSignedIn(page, '/AccSetting/workGroup');
    for (const g of groups) await expect(rowNamed(page, g.Name).getByRole('cell').nth(1)).toHaveText(String(g.Num));
    await expectAccessible(page, 'work groups');
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Please select group!')).toBeVisible();

    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add work group' });
    await dialog.getByLabel('Time group').fill('17');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog.getByText('Required')).toBeVisible();
    await expect(dialog.getByText('Enter a value from 1 to 16')).toBeVisible();
    await expectAccessible(page, 'add work group');
    await dialog.getByLabel('Name').fill('Night guards');
    await dialog.getByLabel('Time group').fill('4');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Success')).toBeVisible();
    const guards = (await listOf(api, 2)).find((g) => !groups.some((o) => o.Num === g.Num))!;
    expect(guards).toEqual({ Num: lowestFree(new Set(groups.map((g) => g.Num as number))), Name: 'Night guards', TimeGroup: 4 });
    await expect(rowNamed(page, 'Night guards').getByRole('cell').nth(1)).toHaveText(String(guards.Num));

    await page.getByRole('checkbox', { name: `Select ${first.Name}` }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
    await expect(rowNamed(page, first.Name)).toHaveCount(0);

    await survives(page, terminal, async () => {
      await expect(rowNamed(page, 'Night guards').getByRole('cell').nth(3)).toHaveText('4');
      await expect(rowNamed(page, first.Name)).toHaveCount(0);
    });
    api = await deviceApi(request, terminal); // the restart ended the API's session too
    // The lowest free number is given again.
    const free = lowestFree(new Set((await listOf(api, 2)).map((g) => g.Num as number)));
    expect(free).toBeLessThanOrEqual(first.Num as number);
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Visitors');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await expect(rowNamed(page, 'Visitors').getByRole('cell').nth(1)).toHaveText(String(free));
  } finally {
    await lists.restore();
  }
});

test('requests that bypass the screens with bad values get an error and change nothing', async ({ page, request, terminal }) => {
  const api = await deviceApi(request, terminal);
  const state = async () => ({
    group1: await api.read('SetGroupInfo', { GroupNum: 1 }),
    access: await api.read('SetAccessControl'),
    open: await listOf(api, 1),
    work: await listOf(api, 2),
  });
  const before = await state();
  // A period that exists and one that does not: nothing is deleted.
  const nums = [before.open[0]?.Num, lowestFree(new Set(before.open.map((p) => p.Num as number)))].filter(Boolean).join(',');
  await openSignedIn(page, '/AccSetting/zoneSetting');
  await expect(page.getByLabel('Time 1')).toHaveValue(String(before.group1.Time1));
  const token = await sessionToken(page);
  const replies = await page.evaluate(async ([nums, token]) => {
    const post = async (path: string, body: string, type: string) =>
      (await fetch(`/goform/${path}`, { method: 'POST', headers: { 'Content-Type': type, 'X-Token': token }, body })).json();
    const json = 'application/json';
    const form = 'application/x-www-form-urlencoded';
    return [
      await post('GetGroupInfo', JSON.stringify({ GroupNum: 1, Time1: 99, Time2: 0, Time3: 0, Time4: 0 }), json),
      await post('GetGroupInfo', JSON.stringify({ GroupNum: 17, Time1: 0, Time2: 0, Time3: 0, Time4: 0 }), json),
      await post('GetAccessControl', JSON.stringify({ RelayMode: 2, DoorSensor: 0, RelayDelay: 5, WiegandFormat: 9, CardDisplay: 0, CardLength: 4, TamperAlarm: 1, Power12V: 1 }), json),
      await post('AddGroupTime', 'Type=1&Name=X&Start=2026-01-01+08:00&End=2026-01-01+09:00&Cycle=9', form),
      await post('AddGroupTime', 'Type=1&Name=X&Start=2026-01-01+08:00&End=2026-01-01+07:00&Cycle=0', form),
      await post('DelSomeGroup', `Type=1&Nums=${nums}`, form),
      await post('GetUniversalGroup', 'Name=+++&TimeGroup=1', form),
    ];
  }, [nums, token] as const);
  expect(replies).toEqual([
    { retvalue: 10005, msg: 'err.10005', field: 'Time1' },
    { retvalue: 10005, msg: 'err.10005', field: 'GroupNum' },
    { retvalue: 10005, msg: 'err.10005', field: 'WiegandFormat' },
    { retvalue: 10005, msg: 'err.10005', field: 'Cycle' },
    { retvalue: 10005, msg: 'err.10005', field: 'End' },
    { retvalue: 10005, msg: 'err.10005', field: 'Nums' },
    { retvalue: 10005, msg: 'err.10005', field: 'Name' },
  ]);
  expect(await state()).toEqual(before);
  await page.reload();
  await expect(page.getByLabel('Time 1')).toHaveValue(String(before.group1.Time1));
});

test('adding past the limit says "Add up to limit !"', async ({ page, request, terminal }) => {
  const lists = await keepLists(request, terminal);
  try {
    // Every one of the 16 work groups taken, through the API.
    const api = await deviceApi(request, terminal);
    let last = lists.before[2].at(-1)?.Name;
    for (let n = lists.before[2].length + 1; n <= 16; n++) {
      last = `G${n}`;
      await addTo(api, 2, { Name: last, TimeGroup: 1 });
    }
    expect(await listOf(api, 2)).toHaveLength(16);
    await openSignedIn(page, '/AccSetting/workGroup');
    await expect(rowNamed(page, last)).toBeVisible();
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('One more');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Add up to limit !')).toBeVisible();
    await expect(page.getByRole('dialog').getByLabel('Name')).toHaveValue('One more');
    expect(await listOf(api, 2)).toHaveLength(16);
  } finally {
    await lists.restore();
  }
});

test('a failed read says so and offers to try again', async ({ page, request, terminal }) => {
  const api = await deviceApi(request, terminal);
  const [group1, group2] = [await api.read('SetGroupInfo', { GroupNum: 1 }), await api.read('SetGroupInfo', { GroupNum: 2 })];
  const open = await listOf(api, 1);
  await openSignedIn(page, '/AccSetting/zoneSetting');
  await expect(page.getByLabel('Time 1')).toHaveValue(String(group1.Time1));
  await page.route('**/goform/SetGroupInfo*', (r) => r.abort());
  await page.getByLabel('Time group number').selectOption('2');
  await expect(page.getByRole('alert').getByText('Network Error')).toBeVisible();
  await page.unroute('**/goform/SetGroupInfo*');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByLabel('Time 1')).toHaveValue(String(group2.Time1));

  await page.route('**/goform/SetGroupTime*', (r) => r.abort());
  await page.goto('/AccSetting/alwaysOpen');
  await expect(page.getByRole('alert').getByText('Network Error')).toBeVisible();
  await page.unroute('**/goform/SetGroupTime*');
  await page.getByRole('button', { name: 'Try again' }).click();
  if (open.length) await expect(rowNamed(page, open[0].Name)).toBeVisible();
  else await expect(page.getByText('Nothing here yet.')).toBeVisible();
});

test('weekday tables name the days in the console language, Monday first', async ({ page }) => {
  await openSignedIn(page, '/advSetting/timezone');
  await expect(page.getByRole('rowheader').first()).toHaveText('Monday');
  await page.evaluate(() => localStorage.setItem('language', 'es'));
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Día' })).toBeVisible();
  await expect(page.getByRole('rowheader')).toHaveText(['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo']);
  await expect(page.getByLabel('lunes Inicio')).toHaveValue(/^\d\d:\d\d$/);
  await page.goto('/basicSetting/statusChange');
  await expect(page.getByRole('rowheader').first()).toHaveText('lunes');
});
