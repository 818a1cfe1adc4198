// Sign-in, route guard, logout, 404 (SPEC §2, §4, §5).
import { FUN_REFRESH_MS, FUN_REFRESH_TIMES } from '../../contract/index.ts';
import { test, expect, ADMIN, signIn, openSignedIn, expectAccessible, withoutFunctions, ON_TERMINAL, RESTART_MS, keepSettings, deviceApi, shownBeforeReload, sessionToken } from './fixtures.ts';
import { TOKEN_COOKIE } from '../../src/state/keys.ts';


test('sign in: required fields, wrong password, then the right one', { tag: '@smoke' }, async ({ page }) => {
  await page.goto('/login');
  await expectAccessible(page, 'login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Please input User Name')).toBeVisible();
  await expect(page.getByText('Please Input Password')).toBeVisible();
  await expectAccessible(page, 'login with errors');

  await signIn(page, ADMIN.username, 'wrong-1');
  await expect(page.getByRole('alert')).toHaveText('Password Error');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('User name')).toHaveValue(ADMIN.username);

  await signIn(page, 'nobody', ADMIN.password);
  await expect(page.getByRole('alert')).toHaveText('User Name does not Exist');

  await signIn(page);
  await expect(page).toHaveURL(/\/user\/userList$/);
  await expect(page.getByRole('button', { name: ADMIN.username })).toBeVisible();
  // The cookies' names are SPEC §3's and §9's, written out here (the other tests take them from src/state/keys.ts).
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'Admin-Token')?.value).toMatch(/\w{8,}/);
  // Over HTTPS the session cookies never travel in clear (Secure); over HTTP a browser would drop a Secure cookie.
  const https = new URL(page.url()).protocol === 'https:';
  for (const name of ['Admin-Token', 'sever-role']) expect(cookies.find((c) => c.name === name)?.secure, name).toBe(https);
  expect(JSON.parse(decodeURIComponent(cookies.find((c) => c.name === 'sever-role')!.value))).toContain('user');
  await expectAccessible(page, 'user list');
});

test('wrong passwords again and again: sign-in closes for a while and says how long, keeping what was typed', async ({ page }) => {
  // docs/API.md, "Sign-in attempts": a few free tries, then a growing wait (the simulator: 3, then 1 s).
  await page.goto('/login');
  const alert = page.getByRole('alert');
  // Until the terminal answers that sign-in is closed (40303): its reply, not the alert, which still shows the last try's words for a moment.
  for (let i = 0; i < 12; i++) {
    const reply = page.waitForResponse((r) => new URL(r.url()).pathname === '/goform/chklogin');
    await signIn(page, ADMIN.username, `wrong-${i}`);
    if (((await (await reply).json()) as { retvalue: unknown }).retvalue === 40303) break;
    await expect(alert).toBeVisible();
  }
  await expect(alert).toHaveText(/^Too many failed sign-ins\. Try again in \d+ min\.$/);
  await expect(page.getByLabel('User name')).toHaveValue(ADMIN.username);
  await expectAccessible(page, 'sign-in closed');
  // The wait is over on its own (1 s here; on a terminal it may be longer): the right password gets in.
  await expect(async () => {
    await signIn(page);
    await expect(page).toHaveURL(/\/user\/userList$/, { timeout: 1000 });
  }).toPass({ timeout: 20_000, intervals: [1500] });
});

test('the guard sends a visitor to sign in and back to the page they wanted', { tag: '@smoke' }, async ({ page }) => {
  await page.goto('/basicSetting/dst?tab=2');
  await expect(page).toHaveURL(/\/login\?redirect=%2FbasicSetting%2Fdst%3Ftab%3D2$/);
  await signIn(page);
  await expect(page).toHaveURL(/\/basicSetting\/dst\?tab=2$/);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Daylight saving time');
  await expect(page).toHaveTitle(/^Daylight saving time - /);
});

test('signed in, /login goes home; / -> /user -> /user/userList; unknown -> /404', { tag: '@smoke' }, async ({ page }) => {
  await openSignedIn(page);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/user\/userList$/);
  await page.goto('/user');
  await expect(page).toHaveURL(/\/user\/userList$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expectAccessible(page, '404');
  await page.getByRole('link', { name: 'Back to the console' }).click();
  await expect(page).toHaveURL(/\/user\/userList$/);
});

test('a device without a user menu: signed in, /login goes to /network', async ({ page }) => {
  // The console sees a model without the user menu (an iris terminal): the terminal itself is untouched.
  await withoutFunctions(page, 'user');
  await openSignedIn(page, '/login');
  await expect(page).toHaveURL(/\/network\/internet$/);
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('button', { name: 'Users' })).toHaveCount(0);
});

test('logout asks "Are you Sure?", and ends the session', async ({ page, terminal }) => {
  await openSignedIn(page, '/network/ethernet');
  const token = await sessionToken(page);
  const tokenWorks = async () => ((await (await page.request.get(`${terminal.url}/goform/GetDeviceFunList`, { headers: { 'X-Token': token } })).json()) as { retvalue: number }).retvalue;
  expect(await tokenWorks()).toBe(0);
  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Are you Sure?');
  await expectAccessible(page, 'logout confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/network\/ethernet$/);

  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.context().cookies()).find((c) => c.name === TOKEN_COOKIE)).toBeUndefined();
  // The device ended the session too: its token is refused now.
  expect(await tokenWorks()).toBe(10002);
  await page.goto('/network/ethernet');
  await expect(page).toHaveURL(/\/login\?redirect=/);
});

test.describe('a device that ends idle sessions', () => {
  // The simulator ends sessions idle 1.5 s (a test-only profile value); a terminal the shortest the setting allows, 1 minute.
  const IDLE_MS = ON_TERMINAL ? 60_000 : 1500;
  test.use({ profileOverrides: { sessionIdleMs: IDLE_MS } });
  test('the next request after the device ends the session signs out (40104), says why, and comes back after sign-in', async ({ page, request, terminal }) => {
    test.setTimeout(60_000 + 2 * IDLE_MS);
    const { restore } = ON_TERMINAL ? await keepSettings(request, terminal, 'RestParam') : { restore: async () => undefined };
    try {
      if (ON_TERMINAL) {
        const api = await deviceApi(request, terminal);
        expect((await api.call('GetRestParam', { ...(await api.read('SetRestParam')), IdleMinutes: 1 })).retvalue).toBe(0);
      }
      // The layout refreshes the function list every 30 s, 10 times (SPEC §9), which keeps a session in use for 5 minutes:
      // the page's clock runs those 5 minutes refresh by refresh, each answered, so the session is idle from then on.
      await page.clock.install();
      await openSignedIn(page, '/network/ethernet');
      for (let i = 0; i < FUN_REFRESH_TIMES; i++) await Promise.all([page.waitForResponse(/\/goform\/GetDeviceFunList/), page.clock.runFor(FUN_REFRESH_MS)]);
      // The session's idle time counts from the device's last request: wait for the page's own calls to end
      // (no request for 500 ms), then longer than the idle time. A slow machine only makes the idle time longer.
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(IDLE_MS + 200);
      // The console signs out and reloads the page a second later (SPEC §8): signed in again after that reload,
      // not on the page it replaces.
      const reloaded = page.waitForEvent('load');
      await page.getByRole('button', { name: 'Device information' }).click();
      await expect(page).toHaveURL(/\/login\?redirect=%2Fnetwork%2Fethernet/);
      await reloaded;
      await expect(page.getByRole('alert')).toHaveText('Session ended, please sign in again');
      await signIn(page);
      await expect(page).toHaveURL(/\/network\/ethernet$/);
    } finally {
      await restore();
    }
  });
});

test('a token the device no longer knows signs out with "Token Failed" (10002)', async ({ page, terminal }) => {
  test.setTimeout(ON_TERMINAL ? 60_000 + RESTART_MS : 60_000);
  await openSignedIn(page, '/basicSetting/device');
  await page.waitForLoadState('networkidle'); // the layout's own first calls are done
  await terminal.restart(); // the device forgets its sessions
  const reloaded = page.waitForEvent('load');
  const told = shownBeforeReload(page, 'Token Failed', '[role=status]');
  await page.getByRole('button', { name: 'Device information' }).click();
  await told;
  await expect(page).toHaveURL(/\/login\?redirect=%2FbasicSetting%2Fdevice/);
  // After the reload the sign-in page still says why (before it, the same words were on the page being replaced).
  await reloaded;
  await expect(page.getByRole('alert')).toHaveText('Token Failed');
});
