// Top-bar menu: modify password (SPEC §5) and language (SPEC §1). Against a
// terminal the password and the language-switch setting are put back at the
// end, through the API, whatever happened in between.
import type { APIRequestContext } from 'playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readPo } from '../../build/po.ts';
import { test, expect, ADMIN, signIn, openSignedIn, expectAccessible, deviceApi, type Terminal } from './fixtures.ts';

const ROOT = join(import.meta.dirname, '../..');
const en = readPo(join(ROOT, 'locales/en/messages.po'));

/** The administrator's password is `password` again: signed in with whichever works, changed back if need be. */
async function putPasswordBack(request: APIRequestContext, terminal: Terminal, password: string, other: string): Promise<void> {
  const tryPassword = async (pw: string) => (await (await request.post(`${terminal.url}/goform/chklogin`, { data: { username: ADMIN.username, password: pw } })).json()) as Record<string, unknown>;
  if ((await tryPassword(password)).retvalue === 0) return;
  const r = await tryPassword(other);
  expect(r.retvalue, 'the administrator password works as it was or as the test set it').toBe(0);
  const put = await (
    await request.post(`${terminal.url}/goform/EditPwd`, { headers: { 'X-Token': String(r.token) }, data: { userid: ADMIN.username, oldpwd: other, newpwd: password } })
  ).json();
  expect(put.retvalue, 'the administrator password is put back').toBe(0);
}

async function openPasswordDialog(page: import('playwright/test').Page) {
  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Modify password' }).click();
  return page.getByRole('dialog', { name: 'Modify password' });
}

test('modify password: the rules of SPEC §5, a refused change, then a real one', async ({ page, request, terminal }) => {
  const current = ADMIN.password;
  const next = current === '583920' ? '470213' : '583920';
  try {
    await modifyPassword(page, current, next);
  } finally {
    await putPasswordBack(request, terminal, current, next);
  }
});

async function modifyPassword(page: import('playwright/test').Page, current: string, next: string) {
  await openSignedIn(page);
  const dialog = await openPasswordDialog(page);
  await expect(dialog.getByLabel('User ID')).toHaveValue(ADMIN.username);
  await expect(dialog.getByLabel('User ID')).toHaveAttribute('readonly', '');
  await expectAccessible(page, 'modify password');

  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByText('Please enter the current password')).toBeVisible();
  await expect(dialog.getByText('Please enter a new password')).toBeVisible();
  await expect(dialog.getByText('Please enter the new password again')).toBeVisible();
  await expectAccessible(page, 'modify password with errors');

  const oldBox = dialog.getByLabel('Current password');
  const newBox = dialog.getByLabel('New password');
  const confirmBox = dialog.getByLabel('Confirm password');
  await oldBox.pressSequentially('1a2b3c4d5e6f7');
  await expect(oldBox).toHaveValue('123456');
  await newBox.pressSequentially(next.replace(/(\d\d)(?=\d)/g, '$1-'));
  await expect(newBox).toHaveValue(next);
  await confirmBox.pressSequentially(next.slice(0, 5) + '9');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByText('The two input passwords are inconsistent!')).toBeVisible();

  // Wrong current password: the device refuses, what was typed stays.
  await oldBox.fill(current === '000000' ? '111111' : '000000');
  await confirmBox.fill(next);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Password Error').first()).toBeVisible();
  await expect(newBox).toHaveValue(next);
  await expect(confirmBox).toHaveValue(next);

  await oldBox.fill(current);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Success')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The new password is the one that works now.
  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await signIn(page, ADMIN.username, current);
  await expect(page.getByRole('alert')).toHaveText('Password Error');
  await signIn(page, ADMIN.username, next);
  await expect(page).toHaveURL(/\/user\/userList$/);

  // Put it back.
  const again = await openPasswordDialog(page);
  await again.getByLabel('Current password').fill(next);
  await again.getByLabel('New password').fill(current);
  await again.getByLabel('Confirm password').fill(current);
  await again.getByRole('button', { name: 'OK' }).click();
  await expect(again).toHaveCount(0);
  await expect(page.getByText('Success')).toBeVisible();
}

test('language: switch to another language, kept across reload and sent to the device', async ({ page, request, terminal }) => {
  const api = await deviceApi(request, terminal);
  const { LanguageSettingItem } = await api.call('SetLanguageSettingItem');
  // The language menu shows only while the device setting allows it: allowed for this test, put back after.
  if (LanguageSettingItem !== 1) expect((await api.call('GetLanguageSettingItem', { LanguageSettingItem: 1 })).retvalue).toBe(0);
  try {
    // Languages the device offers (the dialog offers those the console has too): Spanish then Chinese where offered.
    const lans = ((await api.call('getLanList')).lans as string[]).map((l) => l.toLowerCase().split(/[-_]/)[0]);
    const ours = (l: string) => l !== 'en' && existsSync(join(ROOT, 'locales', l, 'messages.po'));
    const first = lans.includes('es') ? 'es' : lans.find(ours);
    expect(first, `the terminal offers a language besides English (getLanList: ${lans.join(', ')})`).toBeTruthy();
    const second = lans.includes('zh') && first !== 'zh' ? 'zh' : (lans.find((l) => ours(l) && l !== first) ?? 'en');
    await switchLanguage(page, first!, second);
  } finally {
    if (LanguageSettingItem !== 1) expect((await (await deviceApi(request, terminal)).call('GetLanguageSettingItem', { LanguageSettingItem })).retvalue).toBe(0);
  }
});

/** Switch the console from English to `first` (checked across a reload and in the requests), then from it to `second`. */
async function switchLanguage(page: import('playwright/test').Page, first: string, second: string) {
  const text = (locale: string) => {
    const catalog = readPo(join(ROOT, 'locales', locale, 'messages.po'));
    return (id: string) => catalog.get(id) || en.get(id)!;
  };
  const t1 = text(first);
  await openSignedIn(page, '/network/ethernet');
  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Language' }).click();
  const dialog = page.getByRole('dialog', { name: 'Language' });
  await expectAccessible(page, 'language dialog');
  await dialog.locator(`input[value="${first}"]`).check();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('navigation', { name: t1('layout.menu') })).toBeVisible();
  await expect(page.getByRole('navigation', { name: t1('layout.breadcrumb') })).toContainText(t1('route.network'));
  await expect(page.locator('html')).toHaveAttribute('lang', first);

  const sent = page.waitForRequest((r) => r.url().includes('/goform/'));
  await page.reload();
  expect((await sent).headers()['x-language']).toBe(first);
  await expect(page.getByRole('navigation', { name: t1('layout.menu') })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${t1('route.ethernet')} - `));
  await expectAccessible(page, `${first} layout`);

  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: t1('menu.language') }).click();
  const again = page.getByRole('dialog', { name: t1('menu.language') });
  await again.locator(`input[value="${second}"]`).check();
  await again.getByRole('button', { name: t1('action.ok') }).click();
  await expect(page.getByRole('navigation', { name: text(second)('layout.menu') })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', second);
}

test('a stored zh-TW choice shows Chinese; an unsupported one shows English', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('language', 'zh-TW'));
  await page.goto('/login');
  await expect(page.getByRole('button', { name: '登录' })).toBeVisible();
  await page.evaluate(() => localStorage.setItem('language', 'tlh'));
  await page.addInitScript(() => localStorage.setItem('language', 'tlh'));
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
