// Settings screens (form engine): each loads the device's values, rejects an
// invalid value with the right message, saves a valid change, and the change
// is there after a reload and after the device restarts. What a test changes
// on the terminal is read first through the API and put back at the end.
import { test, expect, openSignedIn, sessionToken, restartAndSignIn, expectAccessible, deviceApi, keepSettings, ON_TERMINAL, RESTART_MS } from './fixtures.ts';

test('attendance: load, reject out-of-range values, save, keep across reload and restart', async ({ page, request, terminal }) => {
  test.setTimeout(ON_TERMINAL ? 60_000 + 2 * RESTART_MS : 60_000);
  const kept = await keepSettings(request, terminal, 'KaoqinParam');
  const [before] = kept.values;
  try {
    await openSignedIn(page, '/basicSetting/attendance');
    const repeat = page.getByLabel('Duplicate punch range');
    const alarm = page.getByLabel('Log alarm threshold');
    const save = page.getByRole('button', { name: 'Save' });
    await expect(repeat).toHaveValue(String(before.RepeatTime));
    await expect(alarm).toHaveValue(String(before.AlarmLogs));
    await expect(save).toBeDisabled();
    await expectAccessible(page, 'attendance');

    await repeat.fill('251');
    await expect(page.getByText('Enter a value from 0 to 250')).toBeVisible();
    await alarm.fill('5001');
    await expect(page.getByText('Enter a value from 0 to 5000')).toBeVisible();
    await save.click();
    await expect(page.getByText('Success')).toHaveCount(0);
    await expectAccessible(page, 'attendance with errors');

    const next = { RepeatTime: before.RepeatTime === 42 ? 43 : 42, AlarmLogs: before.AlarmLogs === 4000 ? 4001 : 4000 };
    await repeat.fill(String(next.RepeatTime));
    await alarm.fill(String(next.AlarmLogs));
    await expect(page.getByText('Enter a value from 0 to 250')).toHaveCount(0);
    await save.click();
    await expect(page.getByText('Success')).toBeVisible();
    await expect(save).toBeDisabled();
    const api = await deviceApi(request, terminal);
    expect(await api.call('SetKaoqinParam')).toEqual({ retvalue: 0, ...next });

    await page.reload();
    await expect(page.getByLabel('Duplicate punch range')).toHaveValue(String(next.RepeatTime));
    await expect(page.getByLabel('Log alarm threshold')).toHaveValue(String(next.AlarmLogs));

    await restartAndSignIn(page, terminal);
    await expect(page.getByLabel('Duplicate punch range')).toHaveValue(String(next.RepeatTime));
    await expect(page.getByLabel('Log alarm threshold')).toHaveValue(String(next.AlarmLogs));
  } finally {
    await kept.restore();
  }
});

test('a request that bypasses the form with an out-of-range value changes nothing', async ({ page, request, terminal }) => {
  const api = await deviceApi(request, terminal);
  const before = await api.call('SetKaoqinParam');
  expect(before.retvalue).toBe(0);
  await openSignedIn(page, '/basicSetting/attendance');
  await expect(page.getByLabel('Duplicate punch range')).toHaveValue(String(before.RepeatTime));
  const token = await sessionToken(page);
  const reply = await page.evaluate(async (token) => {
    const r = await fetch('/goform/GetKaoqinParam', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Token': token }, body: JSON.stringify({ RepeatTime: 999, AlarmLogs: 10 }) });
    return r.json();
  }, token);
  expect(reply).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'RepeatTime' });
  // Neither field changed: not the valid AlarmLogs either.
  expect(await api.call('SetKaoqinParam')).toEqual(before);
  await page.reload();
  await expect(page.getByLabel('Duplicate punch range')).toHaveValue(String(before.RepeatTime));
  await expect(page.getByLabel('Log alarm threshold')).toHaveValue(String(before.AlarmLogs));
});

test('unsaved changes: leaving asks first; staying keeps what was typed', async ({ page, request, terminal }) => {
  // Something other than what the device has, or there is nothing unsaved.
  const { RepeatTime } = await (await deviceApi(request, terminal)).call('SetKaoqinParam');
  const typed = RepeatTime === 7 ? '8' : '7';
  await openSignedIn(page, '/basicSetting/attendance');
  await expect(page.getByLabel('Duplicate punch range')).toHaveValue(String(RepeatTime));
  await page.getByLabel('Duplicate punch range').fill(typed);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  page.once('dialog', (d) => d.dismiss());
  await menu.getByRole('link', { name: 'Time', exact: true }).click();
  await expect(page).toHaveURL(/\/basicSetting\/attendance$/);
  await expect(page.getByLabel('Duplicate punch range')).toHaveValue(typed);
  page.once('dialog', (d) => d.accept());
  await menu.getByRole('link', { name: 'Time', exact: true }).click();
  await expect(page).toHaveURL(/\/basicSetting\/timeSetting$/);
});
