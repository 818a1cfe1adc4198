// Top-bar menu: modify password (SPEC §5) and language (SPEC §1).
import { test, expect, ADMIN, signIn, openSignedIn, expectAccessible } from './fixtures.ts';

async function openPasswordDialog(page: import('playwright/test').Page) {
  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Modify password' }).click();
  return page.getByRole('dialog', { name: 'Modify password' });
}

test('modify password: the rules of SPEC §5, a refused change, then a real one', async ({ page }) => {
  // Against a real terminal the password is put back at the end.
  const current = ADMIN.password;
  const next = current === '654321' ? '123456' : '654321';
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
});

test('language: switch to Spanish, kept across reload and sent to the device', async ({ page }) => {
  await openSignedIn(page, '/network/ethernet');
  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Language' }).click();
  const dialog = page.getByRole('dialog', { name: 'Language' });
  await expectAccessible(page, 'language dialog');
  await dialog.getByLabel('Español').check();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Ruta de navegación' })).toContainText('Red');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');

  const sent = page.waitForRequest((r) => r.url().includes('/goform/'));
  await page.reload();
  expect((await sent).headers()['x-language']).toBe('es');
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible();
  await expect(page).toHaveTitle(/^Ethernet - /);
  await expectAccessible(page, 'Spanish layout');

  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Idioma' }).click();
  await page.getByRole('dialog', { name: 'Idioma' }).getByLabel('中文').check();
  await page.getByRole('dialog', { name: 'Idioma' }).getByRole('button', { name: 'Aceptar' }).click();
  await expect(page.getByRole('navigation', { name: '主菜单' })).toBeVisible();
});

test('a stored zh-TW choice shows Chinese; an unsupported one shows English', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('language', 'zh-TW'));
  await page.goto('/login');
  await expect(page.getByRole('button', { name: '登录' })).toBeVisible();
  await page.evaluate(() => localStorage.setItem('language', 'tlh'));
  await page.addInitScript(() => localStorage.setItem('language', 'tlh'));
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
