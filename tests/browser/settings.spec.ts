// Settings screens (form engine): each loads the device's values, rejects an
// invalid value with the right message, saves a valid change, and the change
// is there after a reload and after the device restarts.
import { test, expect, openSignedIn, signIn, expectAccessible, simulatorOnly } from './fixtures.ts';

test('attendance: load, reject out-of-range values, save, keep across reload and restart', async ({ page, terminal }) => {
  await openSignedIn(page, '/basicSetting/attendance');
  const repeat = page.getByLabel('Duplicate punch range');
  const alarm = page.getByLabel('Log alarm threshold');
  const save = page.getByRole('button', { name: 'Save' });
  if (terminal.sim) await expect(repeat).toHaveValue('3');
  const before = await repeat.inputValue();
  await expect(save).toBeDisabled();
  await expectAccessible(page, 'attendance');

  await repeat.fill('251');
  await expect(page.getByText('Enter a value from 0 to 250')).toBeVisible();
  await alarm.fill('5001');
  await expect(page.getByText('Enter a value from 0 to 5000')).toBeVisible();
  await save.click();
  await expect(page.getByText('Success')).toHaveCount(0);
  await expectAccessible(page, 'attendance with errors');

  const next = before === '42' ? '43' : '42';
  await repeat.fill(next);
  await alarm.fill('4000');
  await expect(page.getByText('Enter a value from 0 to 250')).toHaveCount(0);
  await save.click();
  await expect(page.getByText('Success')).toBeVisible();
  await expect(save).toBeDisabled();

  await page.reload();
  await expect(page.getByLabel('Duplicate punch range')).toHaveValue(next);
  await expect(page.getByLabel('Log alarm threshold')).toHaveValue('4000');

  if (terminal.sim) {
    await terminal.restart(); // the device forgets its sessions: sign in afresh
    await page.context().clearCookies();
    await page.reload();
    await expect(page).toHaveURL(/\/login/);
    await signIn(page);
    await expect(page.getByLabel('Duplicate punch range')).toHaveValue(next);
  }
});

test('a request that bypasses the form with an out-of-range value changes nothing', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/basicSetting/attendance');
  await expect(page.getByLabel('Duplicate punch range')).toHaveValue('3');
  const reply = await page.evaluate(async () => {
    const token = document.cookie.match(/Admin-Token=([^;]+)/)![1];
    const r = await fetch('/goform/GetKaoqinParam', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Token': token }, body: JSON.stringify({ RepeatTime: 999, AlarmLogs: 10 }) });
    return r.json();
  });
  expect(reply).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'RepeatTime' });
  expect(terminal.sim!.store.get().settings.KaoqinParam.RepeatTime).toBe(3);
});

test('unsaved changes: leaving asks first; staying keeps what was typed', async ({ page }) => {
  await openSignedIn(page, '/basicSetting/attendance');
  await page.getByLabel('Duplicate punch range').fill('7');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  page.once('dialog', (d) => d.dismiss());
  await menu.getByRole('link', { name: 'Time', exact: true }).click();
  await expect(page).toHaveURL(/\/basicSetting\/attendance$/);
  await expect(page.getByLabel('Duplicate punch range')).toHaveValue('7');
  page.once('dialog', (d) => d.accept());
  await menu.getByRole('link', { name: 'Time', exact: true }).click();
  await expect(page).toHaveURL(/\/basicSetting\/timeSetting$/);
});
