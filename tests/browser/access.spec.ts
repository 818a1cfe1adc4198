// Access control screens: each loads the device's values, rejects an invalid
// value with the right message, saves a valid change, and the change is there
// after a reload and after the device restarts. Periods and work groups: add,
// delete after "Are you Sure?", "Please select ..." with nothing selected.
import type { Page } from 'playwright/test';
import { test, expect, openSignedIn, signIn, expectAccessible, simulatorOnly, type Terminal } from './fixtures.ts';
// After the fixtures: the simulator's modules load in their own order.
import { factoryAccess } from '../../hil/simulator/areas/access.ts';

const saveButton = (page: Page) => page.getByRole('button', { name: 'Save' });

async function saved(page: Page) {
  await saveButton(page).click();
  await expect(page.getByText('Success')).toBeVisible();
  await expect(saveButton(page)).toBeDisabled();
}

/**
 * Reload, then restart the simulated terminal and sign in again: `check` runs
 * after each. The restart ends the session; coming back without the old
 * cookie avoids racing the console's delayed forced-logout reload.
 */
async function survives(page: Page, terminal: Terminal, check: () => Promise<void>) {
  await page.reload();
  await check();
  if (!terminal.sim) return;
  const url = page.url();
  await terminal.restart();
  await page.context().clearCookies();
  await page.goto(url);
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);
  await expect(page).toHaveURL(url);
  await check();
}

test('access and card settings: load, reject, save, keep across reload and restart', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/advSetting/access');
  const relay = page.getByLabel('Relay output');
  const delay = page.getByLabel('Relay delay');
  await expect(relay).toHaveValue('2');
  await expect(delay).toHaveValue('5');
  await expect(page.getByLabel('Wiegand output format')).toHaveValue('0');
  await expect(page.getByLabel('Wiegand output format').locator('option')).toHaveText([
    'Wiegand 26',
    'Vendor Wiegand',
    'Fixed Wiegand 26',
    'Card 26, big end',
    'Card 26, little end',
    'Card 34, big end',
    'Card 34, little end',
    'Card 66, big end',
    'Card 66, little end',
  ]);
  await expect(page.getByRole('radio', { name: '4 bytes' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Tamper alarm' })).toBeChecked();
  await expect(saveButton(page)).toBeDisabled();
  await expectAccessible(page, 'access');

  await delay.fill('256');
  await expect(page.getByText('Enter a value from 1 to 255')).toBeVisible();
  await saveButton(page).click();
  await expect(page.getByText('Success')).toHaveCount(0);
  await expectAccessible(page, 'access with an error');
  await delay.fill('12');
  await page.getByLabel('Wiegand output format').selectOption({ label: 'Card 34, little end' });
  await page.getByRole('radio', { name: '3 bytes' }).check();
  await page.getByRole('radio', { name: 'Little end' }).check();
  await page.getByRole('switch', { name: '12 V power supply' }).uncheck();
  await saved(page);
  // Relay output "None" hides the delay.
  await relay.selectOption({ label: 'None' });
  await expect(delay).toHaveCount(0);
  await relay.selectOption({ label: 'Door open' });

  await page.goto('/advSetting/card');
  const sector = page.getByLabel('Sector', { exact: true });
  await expect(page.getByRole('switch', { name: 'Show card number' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Card serial number' })).toBeChecked();
  await expect(sector).toHaveCount(0);
  await expectAccessible(page, 'card');
  await page.getByRole('radio', { name: 'Encrypted sector' }).check();
  await sector.fill('16');
  await expect(page.getByText('Enter a value from 0 to 15')).toBeVisible();
  await sector.fill('7');
  await page.getByRole('switch', { name: 'Identify by card' }).uncheck();
  await saved(page);

  await survives(page, terminal, async () => {
    await expect(page.getByLabel('Sector', { exact: true })).toHaveValue('7');
    await expect(page.getByRole('switch', { name: 'Identify by card' })).not.toBeChecked();
  });
  await page.goto('/advSetting/access');
  await expect(page.getByLabel('Relay delay')).toHaveValue('12');
  await expect(page.getByLabel('Wiegand output format')).toHaveValue('6');
  await expect(page.getByRole('radio', { name: '3 bytes' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Little end' })).toBeChecked();
  await expect(page.getByRole('switch', { name: '12 V power supply' })).not.toBeChecked();
});

test('time groups, time zones and shifts: one number at a time, checked, saved, kept', { tag: '@smoke' }, async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/AccSetting/zoneSetting');
  const num = page.getByLabel('Time group number');
  await expect(num.locator('option')).toHaveCount(16);
  await expect(page.getByLabel('Time 1')).toHaveValue('1');
  await expect(page.getByLabel('Time 2')).toHaveValue('2');
  await expectAccessible(page, 'time groups');
  await num.selectOption('3');
  await expect(page.getByLabel('Time 1')).toHaveValue('0');
  await page.getByLabel('Time 4').fill('33');
  await expect(page.getByText('Enter a value from 0 to 32')).toBeVisible();
  await page.getByLabel('Time 4').fill('2');
  await page.getByLabel('Time 1').fill('1');
  // Another number with unsaved changes asks first; staying keeps them.
  page.once('dialog', (d) => d.dismiss());
  await num.selectOption('4');
  await expect(num).toHaveValue('3');
  await expect(page.getByLabel('Time 4')).toHaveValue('2');
  await saved(page);
  await num.selectOption('1');
  await expect(page.getByLabel('Time 1')).toHaveValue('1');

  // The same time groups under Advanced.
  await page.goto('/advSetting/group');
  await page.getByLabel('Time group number').selectOption('3');
  await expect(page.getByLabel('Time 4')).toHaveValue('2');
  await expectAccessible(page, 'groups');

  await page.goto('/advSetting/timezone');
  const zone = page.getByLabel('Time zone number');
  await expect(zone.locator('option')).toHaveCount(32);
  await expect(page.getByLabel('Monday Start')).toHaveValue('08:00');
  await expect(page.getByLabel('Sunday End')).toHaveValue('00:00');
  await expect(page.getByRole('columnheader', { name: 'Day' })).toBeVisible();
  await expectAccessible(page, 'time zones');
  await zone.selectOption('5');
  await expect(page.getByLabel('Monday Start')).toHaveValue('00:00');
  await page.getByLabel('Tuesday Start').fill('10:00');
  await page.getByLabel('Tuesday End').fill('09:00');
  await expect(page.getByText('The end is before the start')).toBeVisible();
  await saveButton(page).click();
  await expect(page.getByText('Success')).toHaveCount(0);
  await expectAccessible(page, 'time zones with an error');
  await page.getByLabel('Tuesday End').fill('17:30');
  await expect(page.getByText('The end is before the start')).toHaveCount(0);
  await saved(page);

  await page.goto('/advSetting/shifts');
  const shift = page.getByLabel('Shift number');
  await expect(page.getByLabel('Name')).toHaveValue('Day');
  await expect(page.getByLabel('On duty')).toHaveValue('09:00');
  await expect(page.getByLabel('Late allowance')).toHaveValue('5');
  await expectAccessible(page, 'shifts');
  await shift.selectOption('2');
  await expect(page.getByLabel('Name')).toHaveValue('Night');
  await page.getByLabel('Name').fill('');
  await expect(page.getByText('Required')).toBeVisible();
  await page.getByLabel('Late allowance').fill('121');
  await expect(page.getByText('Enter a value from 0 to 120')).toBeVisible();
  await page.getByLabel('Name').fill('Late night');
  await page.getByLabel('Late allowance').fill('15');
  await page.getByLabel('Off duty').fill('07:00');
  await saved(page);

  await survives(page, terminal, async () => {
    await page.getByLabel('Shift number').selectOption('2');
    await expect(page.getByLabel('Name')).toHaveValue('Late night');
    await expect(page.getByLabel('Off duty')).toHaveValue('07:00');
    await expect(page.getByLabel('Late allowance')).toHaveValue('15');
  });
  await page.goto('/advSetting/timezone');
  await page.getByLabel('Time zone number').selectOption('5');
  await expect(page.getByLabel('Tuesday Start')).toHaveValue('10:00');
  await expect(page.getByLabel('Tuesday End')).toHaveValue('17:30');
  await page.goto('/AccSetting/zoneSetting');
  await page.getByLabel('Time group number').selectOption('3');
  await expect(page.getByLabel('Time 1')).toHaveValue('1');
  await expect(page.getByLabel('Time 4')).toHaveValue('2');
});

test('always-open and always-closed periods: add, check, delete after confirming', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/AccSetting/alwaysOpen');
  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: /Office hours/ })).toContainText('Every day');
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
  const lunch = table.getByRole('row', { name: /Lunch/ });
  await expect(lunch).toContainText('2');
  await expect(lunch).toContainText('2026-06-01 12:00');
  await expect(lunch).toContainText('2026-06-01 13:30');
  await expect(lunch).toContainText('Every week');

  await survives(page, terminal, async () => {
    await expect(page.getByRole('row', { name: /Lunch/ })).toContainText('Every week');
  });

  // Delete asks first; Cancel keeps the period.
  await page.getByRole('checkbox', { name: 'Select Office hours' }).check();
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you Sure?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('row', { name: /Office hours/ })).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Success')).toBeVisible();
  await expect(page.getByRole('row', { name: /Office hours/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Lunch/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('row', { name: /Office hours/ })).toHaveCount(0);

  // Always closed is its own list.
  await page.goto('/AccSetting/alwaysClose');
  await expect(page.getByRole('row', { name: /Holidays/ })).toContainText('Every year');
  await expect(page.getByRole('row', { name: /Lunch/ })).toHaveCount(0);
  await expectAccessible(page, 'always closed');
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).click();
  const add = page.getByRole('dialog', { name: 'Add period' });
  await add.getByLabel('Name').fill('Inventory');
  await add.getByLabel('Start').fill('2026-03-31T18:00');
  await add.getByLabel('End').fill('2026-04-01T06:00');
  await add.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row', { name: /Inventory/ })).toContainText('Once');
  await page.reload();
  await expect(page.getByRole('row', { name: /Inventory/ })).toContainText('2026-04-01 06:00');
});

test('work groups: add, check, delete after confirming, kept across restart', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/AccSetting/workGroup');
  await expect(page.getByRole('row', { name: /Staff/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Cleaning/ })).toBeVisible();
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
  await expect(page.getByRole('row', { name: /Night guards/ })).toContainText('3');

  await page.getByRole('checkbox', { name: 'Select Staff' }).check();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row', { name: /Staff/ })).toHaveCount(0);

  await survives(page, terminal, async () => {
    await expect(page.getByRole('row', { name: /Night guards/ })).toContainText('4');
    await expect(page.getByRole('row', { name: /Staff/ })).toHaveCount(0);
  });
  // The lowest free number is given again.
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Visitors');
  await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row', { name: /Visitors/ }).getByRole('cell').nth(1)).toHaveText('1');
});

test('requests that bypass the screens with bad values get an error and change nothing', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/AccSetting/zoneSetting');
  await expect(page.getByLabel('Time 1')).toHaveValue('1');
  const replies = await page.evaluate(async () => {
    const token = document.cookie.match(/Admin-Token=([^;]+)/)![1];
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
      await post('DelSomeGroup', 'Type=1&Nums=1,9', form),
      await post('GetUniversalGroup', 'Name=+++&TimeGroup=1', form),
    ];
  });
  expect(replies).toEqual([
    { retvalue: 10005, msg: 'err.10005', field: 'Time1' },
    { retvalue: 10005, msg: 'err.10005', field: 'GroupNum' },
    { retvalue: 10005, msg: 'err.10005', field: 'WiegandFormat' },
    { retvalue: 10005, msg: 'err.10005', field: 'Cycle' },
    { retvalue: 10005, msg: 'err.10005', field: 'End' },
    { retvalue: 10005, msg: 'err.10005', field: 'Nums' },
    { retvalue: 10005, msg: 'err.10005', field: 'Name' },
  ]);
  const settings = terminal.sim!.store.get().settings;
  expect(settings.access).toBeUndefined();
  expect(settings.AccessControl.WiegandFormat).toBe(0);
  await page.reload();
  await expect(page.getByLabel('Time 1')).toHaveValue('1');
});

test('adding past the limit says "Add up to limit !"', async ({ page, terminal }) => {
  simulatorOnly();
  await terminal.sim!.store.update((s) => {
    s.settings.access = { ...factoryAccess(), work: Array.from({ length: 16 }, (_, i) => ({ Num: i + 1, Name: `G${i + 1}`, TimeGroup: 1 })) };
  });
  await openSignedIn(page, '/AccSetting/workGroup');
  await expect(page.getByRole('row', { name: /G16/ })).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('One more');
  await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Add up to limit !')).toBeVisible();
  await expect(page.getByRole('dialog').getByLabel('Name')).toHaveValue('One more');
});

test('a failed read says so and offers to try again', async ({ page }) => {
  await openSignedIn(page, '/AccSetting/zoneSetting');
  await expect(page.getByLabel('Time 1')).toHaveValue('1');
  await page.route('**/goform/SetGroupInfo*', (r) => r.abort());
  await page.getByLabel('Time group number').selectOption('2');
  await expect(page.getByRole('alert').getByText('Network Error')).toBeVisible();
  await page.unroute('**/goform/SetGroupInfo*');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByLabel('Time 1')).toHaveValue('0');

  await page.route('**/goform/SetGroupTime*', (r) => r.abort());
  await page.goto('/AccSetting/alwaysOpen');
  await expect(page.getByRole('alert').getByText('Network Error')).toBeVisible();
  await page.unroute('**/goform/SetGroupTime*');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('row', { name: /Office hours/ })).toBeVisible();
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
