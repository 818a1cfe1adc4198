// Basic setup screens (SPEC §2 Basic setup, §3, §4, §5): each loads the
// device's values, rejects an invalid value with the right message, saves a
// valid change, and keeps it after a reload and after the device restarts.
// Also: the device-language restart warning, Wiegand pairing with its waiting
// indicator, the Wiegand / Bluetooth authorization lists, and requests that
// bypass the forms.
import { test, expect, openSignedIn, signIn, expectAccessible, simulatorOnly, type Terminal } from './fixtures.ts';
import type { Page } from 'playwright/test';

const save = (page: Page) => page.getByRole('button', { name: 'Save' });

/** Save, and wait until the device has it (Success, nothing left to save). */
async function saved(page: Page): Promise<void> {
  await save(page).click();
  await expect(page.getByText('Success')).toBeVisible();
  await expect(save(page)).toBeDisabled();
}

/** The device restarts: the console signs in again and comes back to the page. */
async function restart(page: Page, terminal: Terminal): Promise<void> {
  await terminal.restart();
  // The old token is gone with the restart; without clearing it, its 10002 reply would reload the page mid-sign-in.
  await page.context().clearCookies();
  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}

/** POST a write straight to the device, as a script would (no form). */
function post(page: Page, call: string, body: unknown) {
  return page.evaluate(
    async ([call, body]) => {
      const token = document.cookie.match(/Admin-Token=([^;]+)/)![1];
      const r = await fetch(`/goform/${call}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Token': token }, body: JSON.stringify(body) });
      return r.json();
    },
    [call, body] as const,
  );
}

test('device and display: load, reject, save, keep across reload and restart', { tag: '@smoke' }, async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/device');
  const id = page.getByLabel('Device ID');
  const volume = page.getByLabel('Volume');
  const pwd = page.getByLabel('Admin password');
  await expect(id).toHaveValue('1');
  await expect(volume).toHaveValue('6');
  await expect(pwd).toHaveValue('1234');
  await expect(save(page)).toBeDisabled();
  await expectAccessible(page, 'device');
  await id.fill('0');
  await expect(page.getByText('Enter a value from 1 to 99999999')).toBeVisible();
  await volume.fill('11');
  await expect(page.getByText('Enter a value from 0 to 10')).toBeVisible();
  await pwd.fill('12ab');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await expectAccessible(page, 'device with errors');
  await id.fill('42');
  await volume.fill('3');
  await pwd.fill('87654321');
  await saved(page);

  await page.goto('/basicSetting/display');
  const interval = page.getByLabel('Screen interval');
  await expect(page.getByLabel('Device language')).toHaveValue('en');
  await expect(page.getByRole('radio', { name: 'Screen saver' })).toBeChecked();
  await expect(interval).toHaveValue('60');
  await expectAccessible(page, 'display');
  await interval.fill('5');
  await expect(page.getByText('Enter a value from 10 to 3600')).toBeVisible();
  // The interval shows only while power saving is on.
  await page.getByRole('radio', { name: 'Disabled' }).check();
  await expect(interval).toHaveCount(0);
  await page.getByRole('radio', { name: 'Screen off' }).check();
  await interval.fill('300');
  await page.getByLabel('Date format').selectOption({ label: 'DD/MM/YYYY' });
  await page.getByRole('radio', { name: '12-hour' }).check();
  await page.getByLabel('Keyboard lock').check();
  await saved(page); // no restart warning: the language did not change

  await page.reload();
  await expect(interval).toHaveValue('300');
  await expect(page.getByLabel('Date format')).toHaveValue('2');
  await expect(page.getByRole('radio', { name: '12-hour' })).toBeChecked();
  await expect(page.getByLabel('Keyboard lock')).toBeChecked();

  await restart(page, terminal);
  await expect(page.getByRole('radio', { name: 'Screen off' })).toBeChecked();
  await expect(interval).toHaveValue('300');
  await page.goto('/basicSetting/device');
  await expect(page.getByLabel('Device ID')).toHaveValue('42');
  await expect(page.getByLabel('Volume')).toHaveValue('3');
  await expect(page.getByLabel('Admin password')).toHaveValue('87654321');
});

test('display: a new device language asks first, then the device restarts and the console signs out', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/display');
  const language = page.getByLabel('Device language');
  await expect(language.locator('option')).toHaveText(['English', 'Español', 'Ελληνικά', 'Italiano', 'Português', '中文']);
  await language.selectOption('es');
  await save(page).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Changing the device language restarts the device. Continue?');
  await expectAccessible(page, 'language restart warning');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(terminal.sim!.store.get().settings.TimeParam.Language).toBe('en');
  await expect(language).toHaveValue('es'); // what was typed stays

  await save(page).click();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('The device and web page will restart')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  expect(terminal.sim!.store.get().settings.TimeParam.Language).toBe('es');
  await signIn(page);
  await expect(page.getByLabel('Device language')).toHaveValue('es');
});

test.describe('a device offering English and Spanish only', () => {
  test.use({ profileName: 'lite' });
  test('display: only the languages the device offers; another is refused', async ({ page, terminal }) => {
    simulatorOnly();
    await openSignedIn(page, '/basicSetting/display');
    await expect(page.getByLabel('Device language').locator('option')).toHaveText(['English', 'Español']);
    const display = terminal.sim!.store.get().settings.TimeParam;
    expect(await post(page, 'GetTimeParam', { ...display, Language: 'it' })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'Language' });
    expect(terminal.sim!.store.get().settings.TimeParam.Language).toBe('en');
  });
});

test('identify mode, fingerprint precision, work mode: save, reload, restart; out-of-range writes change nothing', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/identifyMode');
  const mode = page.getByLabel('Identify mode');
  await expect(mode).toHaveValue('0');
  await expectAccessible(page, 'identify mode');
  await mode.selectOption({ label: 'Card and fingerprint' });
  await saved(page);
  expect(await post(page, 'GetIdentifyParam', { IdentifyMode: 9 })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'IdentifyMode' });

  await page.goto('/basicSetting/fingerPrint');
  await expect(page.getByRole('radio', { name: 'Normal' })).toBeChecked();
  await expectAccessible(page, 'fingerprint precision');
  await page.getByRole('radio', { name: 'Advanced' }).check();
  await saved(page);
  expect(await post(page, 'GetFPCompareParam', { FPPrecision: 3 })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'FPPrecision' });
  expect(await post(page, 'GetFPCompareParam', {})).toEqual({ retvalue: 10003, msg: 'err.10003', field: 'FPPrecision' });

  await page.goto('/basicSetting/workMode');
  await expect(page.getByRole('radio', { name: 'Attendance and access control' })).toBeChecked();
  await expectAccessible(page, 'work mode');
  await page.getByRole('radio', { name: 'Access control', exact: true }).check();
  await saved(page);
  expect(await post(page, 'GetWorkModeSwitch', { WorkMode: -1 })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'WorkMode' });
  const s = terminal.sim!.store.get().settings;
  expect([s.IdentifyParam.IdentifyMode, s.FPCompareParam.FPPrecision, s.WorkModeSwitch]).toEqual([4, 2, { WorkMode: 1, WiegandAuth: 1, BluetoothAuth: 1 }]);

  await page.reload();
  await expect(page.getByRole('radio', { name: 'Access control', exact: true })).toBeChecked();
  await restart(page, terminal);
  await expect(page.getByRole('radio', { name: 'Access control', exact: true })).toBeChecked();
  await page.goto('/basicSetting/identifyMode');
  await expect(page.getByLabel('Identify mode')).toHaveValue('4');
  await page.goto('/basicSetting/fingerPrint');
  await expect(page.getByRole('radio', { name: 'Advanced' })).toBeChecked();
});

test('time: NTP server required, time zone format, manual date and time kept across reload and restart', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/timeSetting');
  const ntp = page.getByLabel('NTP server');
  const zone = page.getByLabel('Time zone (UTC offset, e.g. +08:00)');
  const date = page.getByLabel('Date', { exact: true });
  const time = page.getByLabel('Time', { exact: true });
  await expect(page.getByRole('radio', { name: 'Automatic (NTP)' })).toBeChecked();
  await expect(ntp).toHaveValue('pool.ntp.org');
  await expect(zone).toHaveValue('+01:00');
  await expect(date).toHaveCount(0);
  await expectAccessible(page, 'time');
  await ntp.fill('');
  await expect(page.getByText('Required')).toBeVisible();
  await ntp.fill('ntp.example.org');
  await zone.fill('+15:00');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await zone.fill('+08:00');
  await page.getByRole('radio', { name: 'Manual' }).check();
  await expect(ntp).toHaveCount(0);
  await date.fill('2027-03-04');
  await time.fill('10:30');
  await page.getByRole('radio', { name: '12-hour' }).check();
  await expectAccessible(page, 'time, manual');
  await saved(page);

  await page.reload();
  await expect(page.getByRole('radio', { name: 'Manual' })).toBeChecked();
  await expect(date).toHaveValue('2027-03-04');
  await expect(time).toHaveValue(/^10:3[01]$/);
  await expect(zone).toHaveValue('+08:00');
  // The formats are the display's own setting.
  await page.goto('/basicSetting/display');
  await expect(page.getByRole('radio', { name: '12-hour' })).toBeChecked();

  await restart(page, terminal);
  await page.goto('/basicSetting/timeSetting');
  await expect(date).toHaveValue('2027-03-04');
  await expect(time).toHaveValue(/^10:3[0-2]$/);
  // Back to NTP: the NTP server is required by the device too.
  expect(await post(page, 'GetDateTimeParam', { Mode: 1, Date: '2027-03-04', Time: '10:30', DateFormat: 0, TimeFormat: 0, TimeZone: '+08:00' })).toEqual({
    retvalue: 10003,
    msg: 'err.10003',
    field: 'NtpServer',
  });
});

test('dst: date and week formats show their own fields; a day the month lacks is refused', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/dst');
  const month = page.getByLabel('Start month');
  const day = page.getByLabel('Start day');
  const week = page.getByLabel('Start week', { exact: true });
  await expect(page.getByRole('radio', { name: 'Disabled' })).toBeChecked();
  await expect(month).toHaveCount(0);
  await expectAccessible(page, 'dst');

  await page.getByRole('radio', { name: 'Date format' }).check();
  await expect(month).toHaveValue('3');
  await expect(day).toHaveValue('29');
  await expect(week).toHaveCount(0);
  await page.getByLabel('Clock change').fill('4');
  await expect(page.getByText('Enter a value from 0 to 3')).toBeVisible();
  await page.getByLabel('Clock change').fill('2');
  await month.fill('13');
  await expect(page.getByText('Enter a value from 1 to 12')).toBeVisible();
  await month.fill('2');
  await day.fill('30');
  await save(page).click();
  // The device knows February has no 30th: 10005 on that field, nothing stored.
  await expect(page.getByText('Parameter Value Error')).toBeVisible();
  expect(terminal.sim!.store.get().settings.DSTParam.Mode).toBe(0);
  await expectAccessible(page, 'dst with a device error');
  await day.fill('29');
  await saved(page);

  await page.getByRole('radio', { name: 'Week format' }).check();
  await expect(day).toHaveCount(0);
  await week.selectOption({ label: 'Last week' });
  await page.getByLabel('Start weekday').selectOption({ label: 'Sunday' });
  await page.getByLabel('End week', { exact: true }).selectOption({ label: 'Penultimate week' });
  await page.getByLabel('End weekday').selectOption({ label: 'Saturday' });
  await saved(page);
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Week format' })).toBeChecked();
  await expect(week).toHaveValue('7');
  await expect(page.getByLabel('End week', { exact: true })).toHaveValue('8');
  await expect(page.getByLabel('End weekday')).toHaveValue('6');
  await restart(page, terminal);
  await expect(page.getByLabel('Start month')).toHaveValue('2');
  await expect(page.getByLabel('Clock change')).toHaveValue('2');
  await expect(week).toHaveValue('7');
});

test('status change and attendance status names: load, reject, save, reload, restart', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/statusChange');
  const monday = page.getByLabel('Monday');
  await expect(monday).toHaveValue('12:00');
  await expect(page.getByLabel('Sunday')).toHaveValue('11:00');
  await expectAccessible(page, 'status change');
  await monday.fill('');
  await expect(page.getByText('Required')).toBeVisible();
  await monday.fill('13:30');
  await page.getByLabel('Saturday').fill('09:15');
  await saved(page);

  await page.goto('/basicSetting/applyStatus');
  const s2 = page.getByLabel('Status 2');
  await expect(page.getByLabel('Status 0')).toHaveValue('IN');
  await expect(page.getByLabel('Status 1')).toHaveValue('OUT');
  await expect(s2).toHaveValue('status1');
  await expect(page.getByLabel('Status 7')).toHaveValue('status6');
  await expectAccessible(page, 'attendance status');
  await s2.fill('');
  await expect(page.getByText('Required')).toBeVisible();
  await s2.fill(' Break');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await s2.fill('Break');
  await saved(page);
  expect(await post(page, 'GetApplyParam', { ...terminal.sim!.store.get().settings.ApplyParam, Status3: 'x'.repeat(17) })).toEqual({
    retvalue: 10005,
    msg: 'err.10005',
    field: 'Status3',
  });

  await page.reload();
  await expect(s2).toHaveValue('Break');
  await restart(page, terminal);
  await expect(s2).toHaveValue('Break');
  await page.goto('/basicSetting/statusChange');
  await expect(monday).toHaveValue('13:30');
  await expect(page.getByLabel('Saturday')).toHaveValue('09:15');
});

test('print: the switch shows the receipt fields; save, reload, restart', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/print');
  const on = page.getByLabel('Print receipts');
  const tax = page.getByLabel('Tax number or telephone');
  await expect(on).not.toBeChecked();
  await expect(tax).toHaveCount(0);
  await expectAccessible(page, 'print');
  await on.check();
  await expect(page.getByLabel('Unit name')).toHaveValue('Example Ltd.');
  await expect(page.getByLabel('Baud rate')).toHaveValue('9600');
  await tax.fill('#123');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await page.getByLabel('Unit address').fill('');
  await expect(page.getByText('Required')).toBeVisible();
  await expectAccessible(page, 'print with errors');
  await tax.fill('B-12345678');
  await page.getByLabel('Unit address').fill('2 Market Square');
  await page.getByLabel('Baud rate').selectOption({ label: '115200' });
  await page.getByLabel('Encoding').selectOption({ label: 'GB18030' });
  await saved(page);
  await page.reload();
  await expect(on).toBeChecked();
  await expect(tax).toHaveValue('B-12345678');
  await restart(page, terminal);
  await expect(page.getByLabel('Baud rate')).toHaveValue('115200');
  await expect(page.getByLabel('Encoding')).toHaveValue('1');
  await expect(page.getByLabel('Unit address')).toHaveValue('2 Market Square');
});

test('system information: every field and count; Refresh recounts', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/systemInfo');
  const row = (label: string) => page.locator('.info-list div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');
  await expect(row('Firmware version')).toHaveText('V2.6.18.2026.11');
  await expect(row('Kernel version')).toHaveText('Linux 4.19.111');
  await expect(row('File system version')).toHaveText('FS-1.4.2');
  await expect(row('Serial number')).toHaveText('SIM0000000001');
  await expect(row('Ethernet MAC')).toHaveText('02:00:5e:10:00:01');
  await expect(row('Wi-Fi MAC')).toHaveText('02:00:5e:10:00:02');
  // The counts follow the users the device holds (seeded ones here).
  const counts = () => {
    const users = terminal.sim!.store.get().users;
    const bits = (m: number) => m.toString(2).replace(/0/g, '').length;
    return {
      users: users.length,
      fingers: users.reduce((n, u) => n + bits(Number(u.FPMask)), 0),
      faces: users.filter((u) => u.Face === 1).length,
      cards: users.filter((u) => u.CardNo).length,
    };
  };
  const c = counts();
  expect(c.users).toBeGreaterThan(100);
  await expect(row('Users')).toHaveText(`${c.users} / 3,000`);
  await expect(row('Fingerprints')).toHaveText(`${c.fingers} / 3,000`);
  await expect(row('Faces')).toHaveText(`${c.faces} / 1,000`);
  await expect(row('Cards')).toHaveText(String(c.cards));
  // The profile's 100,000 generated records (hil/simulator/areas/records.ts): the store is full.
  await expect(row('Records')).toHaveText('100,000 / 100,000');
  await expect(page.getByText('Iris', { exact: true })).toHaveCount(0); // not supported by this device
  await expectAccessible(page, 'system information');

  await terminal.sim!.store.update((s) => {
    s.users.push({ UserID: '301', UserName: 'New', Password: '', CardNo: '1004', CardType: 0, Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0, AccessBegin: '', AccessEnd: '', Face: 1, FPMask: 1, Photo: 0 });
  });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(row('Users')).toHaveText(`${c.users + 1} / 3,000`);
  await expect(row('Cards')).toHaveText(String(c.cards + 1));
  await expect(row('Fingerprints')).toHaveText(`${c.fingers + 1} / 3,000`);
});

test('wiegand pairing: waiting indicator, then the reader joins the authorization list', async ({ page }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/wiganPairing');
  await expectAccessible(page, 'wiegand pairing');
  await page.getByRole('radio', { name: 'Route 2' }).check();
  const pair = page.getByRole('button', { name: 'Pair' });
  await pair.click();
  await expect(page.getByRole('status').filter({ hasText: 'Wigan Pairing Waiting...' })).toBeVisible();
  await expect(pair).toBeDisabled();
  await expectAccessible(page, 'wiegand pairing, waiting');
  await expect(page.getByText('Paired: WR-20 reader, 02:00:5e:22:00:03, machine number 103')).toBeVisible({ timeout: 8000 });
  await expect(page.getByText('Wigan Pairing Waiting...')).toHaveCount(0);
  await expect(pair).toBeEnabled();

  await page.getByRole('main').getByRole('link', { name: 'Authorization mode' }).click();
  const wiegand = page.getByRole('region', { name: 'Wiegand readers' });
  const added = wiegand.getByRole('row').filter({ hasText: '02:00:5e:22:00:03' });
  await expect(added).toContainText('WR-20 reader');
  await expect(added).toContainText('Unauthorized');
  await expect(wiegand.getByRole('row')).toHaveCount(4); // header and three readers
});

test('authorization: modes, authorize, cancel authorization, delete with confirmation; bypassing writes change nothing', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/authorizationMode');
  const wiegand = page.getByRole('region', { name: 'Wiegand readers' });
  const bluetooth = page.getByRole('region', { name: 'Bluetooth devices' });
  const first = wiegand.getByRole('row').filter({ hasText: '02:00:5e:21:00:01' });
  const second = wiegand.getByRole('row').filter({ hasText: '02:00:5e:22:00:02' });
  await expect(first).toContainText('WR-10 reader');
  await expect(first).toContainText('101');
  await expect(first.getByRole('cell').nth(5)).toHaveText('Authorized');
  await expect(second.getByRole('cell').nth(5)).toHaveText('Unauthorized');
  await expect(bluetooth.getByRole('row')).toHaveCount(3);
  await expect(wiegand.getByRole('button', { name: 'Authorize selected' })).toBeDisabled();
  await expectAccessible(page, 'authorization mode');

  await second.getByRole('checkbox').check();
  await wiegand.getByRole('button', { name: 'Authorize selected' }).click();
  await expect(second.getByRole('cell').nth(5)).toHaveText('Authorized');
  await first.getByRole('checkbox').check();
  await wiegand.getByRole('button', { name: 'Cancel authorization' }).click();
  await expect(first.getByRole('cell').nth(5)).toHaveText('Unauthorized');
  await expect(second.getByRole('cell').nth(5)).toHaveText('Authorized');

  await bluetooth.getByRole('checkbox', { name: 'Select all' }).check();
  await bluetooth.getByRole('button', { name: 'Delete selected' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Are you Sure?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(bluetooth.getByRole('row')).toHaveCount(3);
  await bluetooth.getByRole('button', { name: 'Delete selected' }).click();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(bluetooth.getByText('No devices')).toBeVisible();

  // The modes (WorkModeSwitch): the work mode is left as it was.
  await page.getByRole('group', { name: 'Wiegand authorization' }).getByRole('radio', { name: 'Any paired device' }).check();
  await saved(page);
  expect(terminal.sim!.store.get().settings.WorkModeSwitch).toEqual({ WorkMode: 2, WiegandAuth: 0, BluetoothAuth: 1 });

  // Unknown or no devices: refused, nothing changes.
  expect(await post(page, 'DeleteSomeWiegand', { Macs: ['02:00:5e:99:99:99'] })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'Macs' });
  expect(await post(page, 'GetAnvizWiegandAuthorize', { Macs: [], Status: 1 })).toEqual({ retvalue: 10003, msg: 'err.10003', field: 'Macs' });
  expect(await post(page, 'GetAnvizWiegandAuthorize', { Macs: ['02:00:5e:21:00:01'], Status: 2 })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'Status' });
  await expect(wiegand.getByRole('row')).toHaveCount(3);

  await page.reload();
  await expect(first.getByRole('cell').nth(5)).toHaveText('Unauthorized');
  await restart(page, terminal);
  await expect(page.getByRole('group', { name: 'Wiegand authorization' }).getByRole('radio', { name: 'Any paired device' })).toBeChecked();
  await expect(second.getByRole('cell').nth(5)).toHaveText('Authorized');
  await expect(bluetooth.getByText('No devices')).toBeVisible();
});
