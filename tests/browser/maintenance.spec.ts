// Maintenance and the hidden service routes (SPEC §2 Advanced and hidden
// routes, §4 countdown and restart, §5 confirmations, §7, §8): an upgrade
// accepted with its progress bar reaching 100 % and refused ones that
// change nothing, a restart through the countdown back to the login page,
// initialization back to factory values, the initialization card, /snkey,
// /up, /test and /cmd with a refused code, the route guard, and axe.
//
// Against a physical terminal (TERMINAL_URL) everything runs except what
// would destroy its data or firmware: initialization, the initialization
// card and the forced upgrade's install skip there, saying why (the forced
// upgrade's password check runs), and an accepted upgrade needs a real
// package for that terminal (FIRMWARE_PACKAGE, a path), else it skips. The
// refused packages are signed with the test key, which the simulator holds,
// or on a terminal with FIRMWARE_KEY (a vendor private key it holds); without
// it the refusals that need a key the terminal holds are left out. What a
// test changes (the test mode, the serial keys) it puts back.
import type { Page } from 'playwright/test';
import { readFileSync } from 'node:fs';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { test, expect, openSignedIn, signIn, expectAccessible, deviceApi, skipOnTerminal, ON_TERMINAL, RESTART_MS, ADMIN } from './fixtures.ts';
import { loadModel } from '../../simulator/model.ts';
import { makePackage, readSigningKey } from '../../contract/firmware.ts';
import { PACKAGE } from '../../contract/maintenance.ts';
import { TEST_VENDOR_KEY } from '../support/keys/vendor.ts';

/** A key the device holds: the test key the simulator's profile holds, or on a terminal FIRMWARE_KEY's (else none). */
const HELD_KEY = !ON_TERMINAL ? TEST_VENDOR_KEY : process.env.FIRMWARE_KEY ? readSigningKey(readFileSync(process.env.FIRMWARE_KEY)) : undefined;

/** The forced-upgrade password: the simulator's factory one, or a terminal's (UPGRADE_PASSWORD). */
const UPGRADE_PASSWORD = process.env.UPGRADE_PASSWORD ?? '888888';

/** Every value the page's progress bar takes, recorded in the page as it changes. */
async function watchProgress(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const seen: number[] = ((window as unknown as { seen: number[] }).seen = []);
    new MutationObserver(() => {
      const p = document.querySelector('progress');
      if (p && seen.at(-1) !== p.value) seen.push(p.value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { seen: number[] }).seen);
}

/** How long a restart may keep the terminal away: a device's DEVICE_RESTART_MS, the simulator's few seconds. */
const BACK_MS = ON_TERMINAL ? RESTART_MS : 30_000;

/** Runs the page's clock on (installed with page.clock) until the console is back on the login page. */
async function untilLogin(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.clock.runFor(2000);
        return new URL(page.url()).pathname;
      },
      { timeout: BACK_MS, intervals: [200] },
    )
    .toBe('/login');
}

/** The firmware version a package's header names (docs/API.md, "Firmware package"). */
const versionOf = (pkg: Buffer) => pkg.subarray(PACKAGE.firmware[0], PACKAGE.firmware[0] + PACKAGE.firmware[1]).toString('latin1').replace(/\0.*$/s, '');

/** Open a service route (outside the layout) signed in: the login page first, as the route guard asks. */
async function openService(page: Page, path: string, title: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

/** A version newer than `v` (its last number plus one). */
const newer = (v: string) => v.replace(/(\d+)(\D*)$/, (_, n: string, rest: string) => `${Number(n) + 1}${rest}`);

test('an upgrade shows its progress up to 100 %, then the device restarts into the new version', async ({ page, request, terminal }) => {
  test.setTimeout(60_000 + BACK_MS);
  const api = await deviceApi(request, terminal);
  const info = await api.call('SetInfoParam');
  let pkg: { name: string; buffer: Buffer };
  if (terminal.sim) {
    pkg = { name: 'fw.bin', buffer: makePackage({ model: String(info.Model), version: newer(String(info.Build_Version)), payload: Buffer.alloc(3 << 20, 7), key: HELD_KEY }) };
  } else {
    test.skip(!process.env.FIRMWARE_PACKAGE, 'an accepted upgrade on a terminal needs a real, newer package for it: set FIRMWARE_PACKAGE');
    pkg = { name: 'fw.bin', buffer: readFileSync(process.env.FIRMWARE_PACKAGE!) };
  }
  await page.clock.install();
  await openSignedIn(page, '/advSetting/firmwareUpgrade');
  const seen = await watchProgress(page);
  // A slow link, so that the bar has something to show.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 << 20 });
  await page.getByLabel('Firmware package').setInputFiles({ name: pkg.name, mimeType: 'application/octet-stream', buffer: pkg.buffer });
  await page.getByRole('button', { name: 'Upgrade' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Success: / })).toBeVisible({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const values = await seen();
  expect(values.some((v) => v > 0 && v < 100)).toBe(true);
  expect(values.at(-1)).toBe(100);
  // The countdown, then the login page once the device answers again.
  await expect(page.getByRole('timer')).toHaveText('30');
  await untilLogin(page);
  expect((await (await deviceApi(request, terminal)).call('SetInfoParam')).Build_Version).toBe(versionOf(pkg.buffer));
});

test('a package the device refuses gives its message and changes nothing', async ({ page, request, terminal }) => {
  const api = await deviceApi(request, terminal);
  const info = await api.call('SetInfoParam');
  await openSignedIn(page, '/advSetting/firmwareUpgrade');
  // The running version: every check below comes before "not newer", and a terminal that skipped one would still install nothing.
  const fields = { model: String(info.Model), version: String(info.Build_Version), payload: Buffer.alloc(4096, 1) };
  // Signed with a key no terminal holds: enough for the refusals that come before the key is looked up.
  const stranger = generateKeyPairSync('ed25519').privateKey;
  const good = makePackage({ ...fields, key: HELD_KEY ?? stranger });
  const damaged = Buffer.from(good);
  damaged[PACKAGE.header] ^= 1;
  const cases: [string, Buffer, string | RegExp][] = [
    ['not a package', Buffer.from('this is not firmware'), 'Upload file format Error'],
    // A payload byte changed after the checksum and the signature were written.
    ['damaged', damaged, 'Firmware checksum error'],
    ['unsigned', makePackage(fields), /not signed/],
    ['signed with a key the device does not hold', makePackage({ ...fields, key: stranger }), /key the device does not trust/],
  ];
  if (HELD_KEY) {
    // A payload byte changed after signing, with the header's SHA-256 made to match: only the signature tells.
    const altered = Buffer.from(good);
    altered[PACKAGE.header] ^= 1;
    createHash('sha256').update(altered.subarray(PACKAGE.header, PACKAGE.header + fields.payload.length)).digest().copy(altered, PACKAGE.sha256);
    cases.push(['altered after signing', altered, /signature is not valid/], ['the running version', makePackage({ ...fields, key: HELD_KEY }), 'not newer']);
  }
  for (const [what, buffer, message] of cases) {
    await page.getByLabel('Firmware package').setInputFiles({ name: `${what}.bin`, mimeType: 'application/octet-stream', buffer });
    await page.getByRole('button', { name: 'Upgrade' }).click();
    // The package format is the contract's (docs/API.md, "Firmware package"): each refusal has its own code and message.
    await expect(page.locator('.toast.error').last()).toContainText(message);
    await expect(page.getByRole('button', { name: 'Upgrade' })).toBeEnabled();
  }
  expect((await api.call('SetInfoParam')).Build_Version).toBe(info.Build_Version);
  await expectAccessible(page, 'firmware upgrade');
});

test('restart: "Are you Sure?", the countdown from 30, then the login page once the device answers', async ({ page, request, terminal }) => {
  test.setTimeout(60_000 + BACK_MS);
  // The page's clock is the test's: the countdown goes a second at a time when the test says so,
  // not when this machine gets round to it (and the test does not sit through 30 real seconds).
  await page.clock.install();
  await openSignedIn(page, '/advSetting/restart');
  await page.getByRole('button', { name: 'Restart' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Are you Sure?');
  await dialog.getByRole('button', { name: 'OK' }).click();
  const timer = page.getByRole('timer');
  await expect(timer).toHaveText('30');
  await page.clock.runFor(1000);
  await expect(timer).toHaveText('29');
  await page.clock.runFor(1000);
  await expect(timer).toHaveText('28');
  await untilLogin(page);
  // Signed out on the device too, and it answers.
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  expect((await (await deviceApi(request, terminal)).call('SetInfoParam')).retvalue).toBe(0);
});

test('initialization returns settings and users to factory values', { tag: '@lab' }, async ({ page, request, terminal }) => {
  skipOnTerminal('initialization deletes every user, record and setting of the terminal');
  test.setTimeout(90_000);
  const api = await deviceApi(request, terminal);
  const factory = await api.call('SetKaoqinParam');
  const users = (await api.call('userlist', { Page: 1, PageSize: 10 })).Total;
  expect((await api.call('GetKaoqinParam', { RepeatTime: 42, AlarmLogs: 7 })).retvalue).toBe(0);
  await api.add('987650100', 'To be gone');
  await page.clock.install();
  await openSignedIn(page, '/advSetting/initialization');
  await page.getByRole('button', { name: 'Initialization' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('timer')).toBeVisible();
  await untilLogin(page);
  // Back in the factory state (docs/API.md, "Activation"): the password chosen is gone, the factory credential only activates.
  expect((await (await request.post(`${terminal.url}/goform/chklogin`, { data: ADMIN })).json()).retvalue).toBe(40302);
  const factoryLogin = await (await request.post(`${terminal.url}/goform/chklogin`, { data: loadModel('default').admin })).json();
  expect(factoryLogin.activate).toBe(1);
  const activated = await request.post(`${terminal.url}/goform/Activate`, { headers: { 'X-Token': factoryLogin.token }, data: { newpwd: ADMIN.password } });
  expect((await activated.json()).retvalue).toBe(0);
  const after = await deviceApi(request, terminal);
  const kq = await after.call('SetKaoqinParam');
  expect([kq.RepeatTime, kq.AlarmLogs]).toEqual([factory.RepeatTime, factory.AlarmLogs]);
  expect((await after.info('987650100')).retvalue).toBe(40401);
  expect((await after.call('userlist', { Page: 1, PageSize: 10 })).Total).toBe(users);
  expect((await after.call('searchrecord', { Page: 1, PageSize: 10 })).Total).toBe(0);
});

test('the initialization card removes the administrators\' cards', async ({ page, request, terminal }) => {
  skipOnTerminal('the initialization card removes the card of every administrator of the terminal, not only the test\'s');
  const api = await deviceApi(request, terminal);
  await api.add('987650200', 'Card admin', { Admin: 1, CardNo: '3987650200' });
  await api.add('987650201', 'Card user', { Admin: 0, CardNo: '3987650201' });
  try {
    await openSignedIn(page, '/advSetting/initCard');
    await page.getByRole('button', { name: 'Initialization card' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
    await expect(page.locator('.toast.success')).toContainText('Success');
    expect((await api.info('987650200')).CardNo).toBe('');
    expect((await api.info('987650201')).CardNo).toBe('3987650201');
    await expectAccessible(page, 'initialization card');
  } finally {
    await api.remove(['987650200', '987650201']);
  }
});

test.describe('hidden service routes', () => {
  test('without a session each asks to sign in first, and comes back after (on an activated terminal /test too)', async ({ page }) => {
    for (const path of ['/snkey', '/up', '/cmd', '/test']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/login\\?redirect=${encodeURIComponent(path).replace(/\//g, '%2F')}$`));
    }
    // /test without a session in the factory state: activation.spec.ts.
    await signIn(page);
    await expect(page).toHaveURL(/\/test$/);
    await expect(page.getByRole('heading', { name: 'Test' })).toBeVisible();
  });

  test('/test takes a photo and sets the mode', async ({ page, request, terminal }) => {
    const api = await deviceApi(request, terminal);
    const before = (await api.call('SetDebugParam')).Mode;
    try {
      await openService(page, '/test', 'Test');
      await page.getByRole('button', { name: 'Take photo' }).click();
      const img = page.getByRole('img', { name: 'Take photo' });
      await expect(img).toBeVisible();
      expect(await img.evaluate((i: HTMLImageElement) => i.decode().then(() => i.naturalWidth))).toBeGreaterThan(0);
      await page.getByRole('radio', { name: 'Factory test' }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.locator('.toast.success')).toContainText('Success');
      expect((await api.call('SetDebugParam')).Mode).toBe(1);
      await page.reload();
      await expect(page.getByRole('radio', { name: 'Factory test' })).toBeChecked();
      await page.getByRole('radio', { name: 'Normal' }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.locator('.toast.success').last()).toContainText('Success');
      expect((await api.call('SetDebugParam')).Mode).toBe(0);
      await expectAccessible(page, '/test');
    } finally {
      expect((await api.call('GetDebugParam', { Mode: before })).retvalue).toBe(0);
    }
  });

  test('/snkey reads and writes key1 to key5, and refuses a malformed key at its field', { tag: '@smoke' }, async ({ page, request, terminal }) => {
    const api = await deviceApi(request, terminal);
    const before = await api.call('SetSNKeyParam');
    const [key1, key5] = [before.Key1 == 'AB12C' ? 'AB12D' : 'AB12C', before.Key5 == 'ZZ999' ? 'ZZ998' : 'ZZ999'];
    // A key the device has not set yet reads empty, and a write must set every key (an empty one is refused).
    const keys = [1, 2, 3, 4, 5].map((n) => String(before[`Key${n}`] || `K${n}K${n}K`));
    try {
      await openService(page, '/snkey', 'Serial key');
      for (const n of [1, 2, 3, 4, 5]) await expect(page.getByLabel(`Key ${n}`)).toHaveValue(String(before[`Key${n}`] ?? ''));
      for (const n of [2, 3, 4]) await page.getByLabel(`Key ${n}`).fill(keys[n - 1]);
      await page.getByLabel('Key 1').fill(key1);
      await page.getByLabel('Key 5').fill('');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByLabel('Key 5')).toHaveAttribute('aria-invalid', 'true');
      expect(await api.call('SetSNKeyParam')).toEqual(before);
      await page.getByLabel('Key 5').fill('ab1');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByLabel('Key 5')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByLabel('Key 5')).toHaveValue('ab1');
      expect(await api.call('SetSNKeyParam')).toEqual(before);
      await page.getByLabel('Key 5').fill(key5);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.locator('.toast.success')).toContainText('Success');
      await page.reload();
      await expect(page.getByLabel('Key 1')).toHaveValue(key1);
      await expect(page.getByLabel('Key 5')).toHaveValue(key5);
      expect(await api.call('SetSNKeyParam')).toMatchObject({ Key1: key1, Key2: keys[1], Key5: key5 });
      await expectAccessible(page, '/snkey');
    } finally {
      // A terminal whose keys were set gets them back; a fresh one keeps the test's (no write empties a key).
      if (before.Key1) expect((await api.call('GetSNKeyParam', { Key1: before.Key1, Key2: before.Key2, Key3: before.Key3, Key4: before.Key4, Key5: before.Key5 })).retvalue).toBe(0);
    }
  });

  test('/cmd runs a listed code and says so at the field for one that is not', async ({ page, request, terminal }) => {
    const info = await (await deviceApi(request, terminal)).call('SetInfoParam');
    await openService(page, '/cmd', 'Command');
    await page.getByLabel('Command code').fill('100');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.locator('pre')).toContainText(String(info.Serial));
    await page.getByLabel('Command code').fill('12345');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByText('Unknown command code')).toBeVisible();
    await expect(page.getByLabel('Command code')).toHaveValue('12345');
    await expectAccessible(page, '/cmd');
  });

  test('/up refuses a wrong forced-upgrade password at its field and installs nothing', async ({ page, request, terminal }) => {
    const api = await deviceApi(request, terminal);
    const info = await api.call('SetInfoParam');
    // A password the terminal's own is not.
    const wrong = UPGRADE_PASSWORD == '000000' ? '000001' : '000000';
    await openService(page, '/up', 'Forced upgrade');
    await page.getByLabel('Forced-upgrade password').fill(wrong);
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Password Error')).toBeVisible();
    await expect(page.getByLabel('Forced-upgrade password')).toHaveValue(wrong);
    // Still asked for the password: no package can be chosen.
    await expect(page.getByLabel('Firmware package')).toHaveCount(0);
    await expectAccessible(page, '/up');
    expect((await api.call('SetInfoParam')).Build_Version).toBe(info.Build_Version);
  });

  test('/up with the forced-upgrade password installs an older version', async ({ page, request, terminal }) => {
    skipOnTerminal('a forced upgrade replaces the terminal\'s firmware with an older one');
    test.setTimeout(60_000);
    const api = await deviceApi(request, terminal);
    const info = await api.call('SetInfoParam');
    const older = String(info.Build_Version).replace(/(\d+)\.(\d+)\.(\d+)/, (_, a: string) => `${Number(a) - 1}.0.0`);
    await page.clock.install();
    await openService(page, '/up', 'Forced upgrade');
    await page.getByLabel('Forced-upgrade password').fill('000000');
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Password Error')).toBeVisible();
    await page.getByLabel('Forced-upgrade password').fill(UPGRADE_PASSWORD);
    await page.getByRole('button', { name: 'OK' }).click();
    // The forced upgrade skips "not newer" only: an unsigned package is still refused, and it stays open.
    await page.getByLabel('Firmware package').setInputFiles({ name: 'unsigned.bin', mimeType: 'application/octet-stream', buffer: makePackage({ model: String(info.Model), version: older, payload: Buffer.alloc(1024, 3) }) });
    await page.getByRole('button', { name: 'Upgrade' }).click();
    await expect(page.locator('.toast.error').last()).toContainText(/not signed/);
    await page.getByLabel('Firmware package').setInputFiles({ name: 'old.bin', mimeType: 'application/octet-stream', buffer: makePackage({ model: String(info.Model), version: older, payload: Buffer.alloc(1024, 3), key: HELD_KEY }) });
    await page.getByRole('button', { name: 'Upgrade' }).click();
    await expect(page.getByRole('status').filter({ hasText: older })).toBeVisible();
    await untilLogin(page);
    expect((await (await deviceApi(request, terminal)).call('SetInfoParam')).Build_Version).toBe(older);
  });
});

test('axe finds nothing serious on restart and initialization', async ({ page }) => {
  await openSignedIn(page, '/advSetting/restart');
  await expect(page.getByRole('button', { name: 'Restart' })).toBeVisible();
  await expectAccessible(page, 'restart');
  await page.goto('/advSetting/initialization');
  await expect(page.getByRole('button', { name: 'Initialization' })).toBeVisible();
  await expectAccessible(page, 'initialization');
});


