// Layout (SPEC §2): sidebar gated by the function list, info dialog, mobile
// mode, breadcrumb, titles, sidebar cookie, route-load errors.
import type { Page } from 'playwright/test';
import { test, expect, ADMIN, signIn, openSignedIn, expectAccessible, deviceApi, narrowReplies, withoutFunctions } from './fixtures.ts';


const menu = (page: import('playwright/test').Page) => page.getByRole('navigation', { name: 'Main menu' });

test('the sidebar shows every group the full device lists', { tag: '@smoke' }, async ({ page }) => {
  await openSignedIn(page);
  for (const name of ['Users', 'Network', 'Basic setup', 'Access control', 'Advanced']) await expect(menu(page).getByRole('button', { name })).toBeVisible();
  await menu(page).getByRole('button', { name: 'Network' }).click();
  await expect(menu(page).getByRole('link', { name: 'Bluetooth' })).toBeVisible();
  await menu(page).getByRole('link', { name: 'MQTT' }).click();
  await expect(page).toHaveURL(/\/network\/mqtt$/);
  await expect(menu(page).getByRole('link', { name: 'MQTT' })).toHaveAttribute('aria-current', 'page');
  await expectAccessible(page, 'layout');
});

// A reduced device (a card-and-face model without access control, fingerprint, Wi-Fi or Bluetooth): the console
// sees the terminal's replies narrowed in the browser, on the simulator and on a terminal alike.
const REDUCED = ['AccSetting', 'fingerprint', 'wifi', 'bluetooth', 'mqtt', 'cloud', 'wiegand', 'print', 'thermometry'];
const GROUPS: [key: string, name: string][] = [
  ['user', 'Users'],
  ['network', 'Network'],
  ['basicSetting', 'Basic setup'],
  ['AccSetting', 'Access control'],
  ['advSetting', 'Advanced'],
];

test.describe('a reduced device', () => {
  test('the sidebar follows its function list', async ({ page, request, terminal }) => {
    const { funs } = (await (await deviceApi(request, terminal)).call('GetDeviceFunList')) as { funs: string[] };
    expect(funs).toContain('network');
    await withoutFunctions(page, ...REDUCED);
    await openSignedIn(page, '/network/ethernet');
    for (const [key, name] of GROUPS) await expect(menu(page).getByRole('button', { name }), name).toHaveCount(funs.includes(key) && !REDUCED.includes(key) ? 1 : 0);
    await expect(menu(page).getByRole('link', { name: 'Ethernet' })).toBeVisible();
    await expect(menu(page).getByRole('link', { name: 'Bluetooth' })).toHaveCount(0);
    await expect(menu(page).getByRole('link', { name: 'Wi-Fi' })).toHaveCount(0);
    await expect(menu(page).getByRole('link', { name: 'MQTT' })).toHaveCount(0);
  });

  test('the info dialog leaves out what the device does not support', async ({ page, request, terminal }) => {
    const info = await (await deviceApi(request, terminal)).call('SetInfoParam');
    const { FACE } = info.funOption as Record<string, number>;
    // No fingerprint and no iris: the face capacity shows as the terminal says it supports face.
    await narrowReplies(page, 'SetInfoParam', (r) => ({ ...r, funOption: { ...(r.funOption as object), FP: 0, IRIS: 0 } }));
    await openSignedIn(page);
    await page.getByRole('button', { name: 'Device information' }).click();
    const dialog = page.getByRole('dialog', { name: 'Device information' });
    await expect(dialog).toContainText(String(info.Serial));
    await expect(dialog).toContainText(String(info.Build_Version));
    await expect(dialog.getByText('Face capacity')).toHaveCount(FACE === 1 ? 1 : 0);
    await expect(dialog).not.toContainText('Fingerprint capacity');
    await expect(dialog).not.toContainText('Iris capacity');
  });

  test('no language menu when the device setting forbids it', async ({ page }) => {
    await narrowReplies(page, 'SetLanguageSettingItem', (r) => ({ ...r, LanguageSettingItem: 0 }));
    await openSignedIn(page);
    await page.getByRole('button', { name: ADMIN.username }).click();
    await expect(page.getByRole('menuitem', { name: 'Modify password' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Language' })).toHaveCount(0);
  });
});

test('the function list is refreshed every 30 s and the sidebar follows it', async ({ page }) => {
  // The terminal's list changes (a licence, a module): from the next refresh on the console sees it without Advanced.
  let changed = false;
  await narrowReplies(page, 'GetDeviceFunList', (r) => (changed ? { ...r, funs: (r.funs as string[]).filter((f) => f !== 'advSetting') } : r));
  await page.clock.install();
  await openSignedIn(page);
  await expect(menu(page).getByRole('button', { name: 'Advanced' })).toBeVisible();
  changed = true;
  await page.clock.runFor(31_000);
  await expect(menu(page).getByRole('button', { name: 'Advanced' })).toHaveCount(0);
});

test('the info dialog: firmware, capacities the device supports, records, serial', async ({ page, request, terminal }) => {
  const info = await (await deviceApi(request, terminal)).call('SetInfoParam');
  const supports = info.funOption as Record<string, number>;
  await openSignedIn(page);
  await page.getByRole('button', { name: 'Device information' }).click();
  const dialog = page.getByRole('dialog', { name: 'Device information' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(String(info.Build_Version));
  await expect(dialog).toContainText(String(info.Serial));
  await expect(dialog.getByText('Face capacity')).toHaveCount(supports.FACE === 1 ? 1 : 0);
  await expect(dialog.getByText('Fingerprint capacity')).toHaveCount(supports.FP === 1 ? 1 : 0);
  await expect(dialog.getByText('Iris capacity')).toHaveCount(supports.IRIS === 1 ? 1 : 0);
  await expect(dialog).toContainText((info.MaxRecord as number).toLocaleString('en')); // in English digits and separators
  await expectAccessible(page, 'info dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('mobile at 800 px: drawer closes on navigation, breadcrumb shows the parent, phone mode', { tag: '@smoke' }, async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto('/network/ethernet');
  await signIn(page);
  await expect(page).toHaveURL(/\/network\/ethernet$/);
  await expect(page.locator('body')).toHaveClass(/mobile/);
  await expect(menu(page)).toBeHidden();
  const crumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumb).toHaveText('Network');
  const toggle = page.getByRole('button', { name: 'Show or hide the menu' });
  await toggle.click();
  await expect(menu(page)).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expectAccessible(page, 'mobile drawer');
  await menu(page).getByRole('button', { name: 'Basic setup' }).click();
  await menu(page).getByRole('link', { name: 'Display' }).click();
  await expect(page).toHaveURL(/\/basicSetting\/display$/);
  await expect(menu(page)).toBeHidden();
  await expect(crumb).toHaveText('Basic setup');
  await page.setViewportSize({ width: 1200, height: 900 });
  await expect(page.locator('body')).not.toHaveClass(/mobile/);
  await expect(crumb).toContainText('Display');
});

test('the sidebar state is remembered in a cookie across reloads', async ({ page }) => {
  await openSignedIn(page);
  const toggle = page.getByRole('button', { name: 'Show or hide the menu' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect((await page.context().cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show or hide the menu' })).toHaveAttribute('aria-expanded', 'false');
  await expectAccessible(page, 'collapsed sidebar');
});

test('a reload on a deep link (with a query) comes back to the same page, signed in', { tag: '@smoke' }, async ({ page }) => {
  // The web server answers index.html for any path outside /goform/; the console routes in the browser.
  await openSignedIn(page, '/basicSetting/display?from=reload');
  await expect(page).toHaveTitle(/^Display - /);
  await expect(page.getByLabel('Device language')).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/basicSetting\/display\?from=reload$/);
  await expect(page).toHaveTitle(/^Display - /);
  await expect(page.getByLabel('Device language')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
});

test('the page title comes from the brand and the route', { tag: '@smoke' }, async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle(/^Sign in - .+/);
  const brandTitle = (await page.title()).replace(/^Sign in - /, '');
  await signIn(page);
  await expect(page).toHaveTitle(`User list - ${brandTitle}`);
});

test('when the layout\'s code cannot be fetched, "Network Error" shows and the page reloads after 1.5 s', async ({ page }) => {
  // The link drops for everything but the login page's own files: the layout and its screens (one file) cannot be fetched,
  // neither by the login page's prefetch nor at sign-in.
  const login = await loginPageFiles(page);
  await page.route(/\/c-[A-Z0-9]+\.js$/, (route) =>
    login.has(new URL(route.request().url()).pathname) ? route.continue() : route.abort('internetdisconnected'),
  );
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const loads: number[] = [];
  page.on('load', () => loads.push(Date.now()));
  const started = Date.now();
  await signIn(page);
  await expect(page.getByText('Network Error')).toBeVisible();
  await expect.poll(() => loads.length, { timeout: 5000 }).toBeGreaterThan(0);
  expect(loads[0] - started).toBeGreaterThanOrEqual(1400);
});

/**
 * What the login page itself needs after the document: the files the entry module in it imports (`from"/…"`);
 * not the favicon, which the browser asks for when it likes. (The entry also names the layout's chunk, for the
 * dynamic import at sign-in: that one is not the login page's.)
 */
async function loginPageFiles(page: Page): Promise<Set<string>> {
  const html = await (await page.request.get('/login')).text();
  const entry = /<script type="module">([^]*?)<\/script>/.exec(html)?.[1] ?? '';
  return new Set([...entry.matchAll(/from"(\/[\w.-]+\.js)"/g)].map((m) => m[1]));
}

test('the login page fetches its own files first; the layout, its screens and texts follow once it has loaded, so sign-in fetches no code', async ({ page }) => {
  const login = await loginPageFiles(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // The browser's own clock (Resource Timing): when each file was asked for and when its last byte came.
  const timings = () =>
    page.evaluate(() => ({
      load: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart,
      files: performance.getEntriesByType('resource').map((r) => ({ path: new URL(r.name).pathname, start: r.startTime, end: (r as PerformanceResourceTiming).responseEnd })),
    }));
  const isLayout = (p: string) => /^\/(layout|text)-/.test(p) || (/^\/c-/.test(p) && !login.has(p));
  // Until the layout's three kinds of file are in (its texts, its stylesheet, its code): each gets its timing entry
  // when its last byte comes, in whatever order the server sends them.
  await expect
    .poll(async () => {
      const paths = (await timings()).files.map((f) => f.path).filter(isLayout);
      return [/^\/text-en-/, /^\/layout-[A-Z0-9]+\.css$/, /^\/c-/].map((kind) => paths.some((p) => kind.test(p)));
    })
    .toEqual([true, true, true]);
  const { load, files } = await timings();
  const own = files.filter((f) => !isLayout(f.path) && (login.has(f.path) || /^\/lang-en-/.test(f.path)));
  const prefetched = files.filter((f) => isLayout(f.path));
  // One file after the document (issue 31): the shared code. The login page's own code, stylesheet, English texts and
  // logo are in the document, so no request of theirs opens a connection on HTTP/1.1.
  expect(login.size).toBe(1);
  expect(own.map((f) => f.path)).toEqual([...login]);
  expect(files.filter((f) => /^\/(logo|lang-en|app)-/.test(f.path))).toEqual([]);
  // Nothing of the layout is asked for before the page has loaded, nor before the last of its own files (the logo too) is in.
  // (A file the page uses twice, the logo preloaded then shown, has a second entry served from the first: the first counts.)
  const firstEnd = new Map<string, number>();
  for (const f of own) firstEnd.set(f.path, Math.min(f.end, firstEnd.get(f.path) ?? Infinity));
  const ownDone = Math.max(...firstEnd.values());
  for (const f of prefetched) {
    expect(f.start, f.path).toBeGreaterThanOrEqual(load);
    expect(f.start, f.path).toBeGreaterThanOrEqual(ownDone);
  }
  expect(prefetched.some((f) => /^\/layout-[A-Z0-9]+\.css$/.test(f.path))).toBe(true);
  expect(prefetched.filter((f) => /^\/c-/.test(f.path))).toHaveLength(1);
  expect(prefetched.filter((f) => /^\/text-en-/.test(f.path))).toHaveLength(1);
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'User list' })).toBeVisible();
  // Signing in asks the device, not the web server, for anything more (the browser asks for its icon when it likes).
  expect(asked.filter((p) => !p.startsWith('/goform/') && !p.startsWith('/favicon-'))).toEqual([]);
});

test('warm loads ask the web server for index.html only: every other file comes from the browser cache', async ({ page }) => {
  // Resource Timing's transferSize is 0 for a file served from the cache (a revalidation, even a 304, is more).
  const fromNetwork = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((r) => ({ path: new URL(r.name).pathname, bytes: (r as PerformanceResourceTiming).transferSize }))
        .filter((r) => r.bytes > 0 && !r.path.startsWith('/goform/'))
        .map((r) => r.path),
    );
  // Once the login page has loaded it prefetches the signed-in part (its code, its stylesheet, the screen texts):
  // counted once they are all in, so that a file fetched again from the network cannot come after the count.
  const untilPrefetched = () =>
    expect
      .poll(async () => {
        const names = (await page.evaluate(() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname))).join(' ');
        return [/\/text-en-/, /\/layout-[^ ]+\.css/, /\/c-[^ ]+ .*\/c-/].every((p) => p.test(names));
      })
      .toBe(true);
  await page.goto('/login');
  await expect(page.getByLabel('Password')).toBeVisible();
  await untilPrefetched();
  expect((await fromNetwork()).length).toBeGreaterThan(3); // the cold load did fetch (the test can fail)
  await page.reload();
  await expect(page.getByLabel('Password')).toBeVisible();
  await untilPrefetched();
  expect(await fromNetwork()).toEqual([]);
  await signIn(page);
  await expect(page.getByRole('table', { name: 'User list' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('table', { name: 'User list' })).toBeVisible();
  expect(await fromNetwork()).toEqual([]);
  // index.html itself is revalidated (no-cache): a new build is seen at once.
  const doc = await page.request.get('/user/userList');
  expect(doc.headers()['cache-control']).toBe('no-cache');
  expect(doc.headers()['etag']).toBeTruthy();
});
