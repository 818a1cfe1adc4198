// The browser that drives a terminal's console: Debian's Chromium (never a
// downloaded one), launched the same way by the browser suites the harness
// runs on a terminal (tests/browser/playwright.config.ts) and by the bench,
// so what the bench measures is the browser the suites check; and the
// sign-in through the console's login form, as an administrator does it.
import type { Page } from 'playwright';
import { TEST_ADMIN } from './admin.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium's path and flags: no sandbox (Chromium will not start one as root), no GPU,
 * and none of its own traffic (updates, sync, first-run pages) on a closed network.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** The window the console is driven in: a PC's screen (the suites' phone widths set their own). */
export const VIEWPORT = { width: 1280, height: 800 };

/** Sign in through the login form on the page: by the fields' labels and the button's name, as a person finds them. */
export async function signIn(page: Page, user = TEST_ADMIN.username, password = TEST_ADMIN.password): Promise<void> {
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
