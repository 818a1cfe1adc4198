// A terminal in its factory state (docs/API.md, "Activation"; issue 23 §1, §2):
// the factory credential signs in only to choose the administrator password,
// a weak one is refused at the field with what was typed kept, and then the
// visitor goes on to the page they wanted; the factory password is gone.
// /test is open without a session only until then.
import { test, expect, ADMIN, signIn, expectAccessible, skipOnTerminal } from './fixtures.ts';
import { loadModel } from '../../simulator/model.ts';

const FACTORY = loadModel('default').admin;
const CHOSEN = '583920';

test.use({ activated: false });
test.beforeEach(() => skipOnTerminal('needs a terminal in its factory state: only initialization brings one back, and it would wipe the bench terminal (QA runs this on a unit new from production)'));

test('the factory credential leads to one step and nothing else: choose the password, with its rules; then the page wanted', async ({ page }) => {
  await page.goto('/network/ethernet');
  await signIn(page, FACTORY.username, FACTORY.password);
  await expect(page).toHaveURL(/\/activate\?redirect=%2Fnetwork%2Fethernet$/);
  // The session reaches nothing else: a screen opened by hand says to choose the password first.
  await page.goto('/basicSetting/device');
  await expect(page.getByText('Choose the administrator password first').first()).toBeVisible();
  await expect(page.getByLabel('Device ID')).toHaveCount(0);
  await page.goto('/activate?redirect=%2Fnetwork%2Fethernet');
  await expect(page.getByRole('heading', { name: 'Choose the administrator password' })).toBeVisible();
  const newBox = page.getByLabel('New password');
  const confirmBox = page.getByLabel('Confirm password');
  // The rules are said at the field, and announced with it.
  await expect(newBox).toHaveAccessibleDescription(/^Six digits, not easy to guess/);
  await expectAccessible(page, 'activation');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please enter a new password')).toBeVisible();
  await expect(page.getByText('Please enter the new password again')).toBeVisible();

  // The device refuses what a brute-force list tries first; the field says so and keeps what was typed.
  for (const weak of [FACTORY.password, '000000', '987654']) {
    await newBox.fill(weak);
    await confirmBox.fill(weak);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(newBox).toHaveAccessibleDescription('This password is too easy to guess: choose another');
    await expect(newBox).toHaveValue(weak);
    await expect(confirmBox).toHaveValue(weak);
  }
  await expectAccessible(page, 'activation refused');
  await newBox.fill(CHOSEN);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The two input passwords are inconsistent!')).toBeVisible();
  await confirmBox.fill(CHOSEN);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/network\/ethernet$/);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Ethernet');

  // Signed out, the factory password no longer opens anything; the chosen one does, with no further step.
  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, FACTORY.username, FACTORY.password);
  await expect(page.getByRole('alert')).toHaveText('Password Error');
  await signIn(page, FACTORY.username, CHOSEN);
  await expect(page).toHaveURL(/\/user\/userList$/);
});

test('/test: open without a session in the factory state; once activated, sign in first and come back', async ({ page }) => {
  await page.goto('/test');
  await page.getByRole('button', { name: 'Take photo' }).click();
  await expect(page.getByRole('img', { name: 'Take photo' })).toBeVisible();

  await page.goto('/login');
  await signIn(page, FACTORY.username, FACTORY.password);
  await page.getByLabel('New password').fill(CHOSEN);
  await page.getByLabel('Confirm password').fill(CHOSEN);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/user\/userList$/);
  await page.context().clearCookies();

  await page.goto('/test');
  await expect(page).toHaveURL(/\/login\?redirect=%2Ftest$/);
  await expect(page.getByRole('button', { name: 'Take photo' })).toHaveCount(0);
  await signIn(page, FACTORY.username, CHOSEN);
  await expect(page).toHaveURL(/\/test$/);
  await page.getByRole('button', { name: 'Take photo' }).click();
  await expect(page.getByRole('img', { name: 'Take photo' })).toBeVisible();
});
