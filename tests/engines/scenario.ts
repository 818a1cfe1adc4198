// The steps the tests tagged @smoke cover, written once against the driver
// (driver.ts) and run in each engine (issue 34 §1): the activation step of a
// terminal in its factory state, then sign-in; the user list with a user
// added through the form, found in the list, edited and read back through the
// API; a settings form saved and read back (through the API and after a
// reload); a right-to-left locale (Farsi: dir=rtl, the sidebar on the right);
// sign-out (back at the login page, the old session's token refused). At each
// screen: nothing reaches past the 1280 px window sideways. Every script the
// console shows is drawn with a real font (tests/support/scripts.ts). On a
// real terminal what a step changes is put back.
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { CALLS } from '../../contract/index.ts';
import { readPo } from '../../build/po.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { TOKEN_COOKIE } from '../../src/state/keys.ts';
import { illegible, measureScripts, scriptSamples } from '../support/scripts.ts';
import type { Driver } from './driver.ts';
import { deviceApi, FACTORY, tokenAnswers, type Terminal } from './terminal.ts';

const fa = readPo(join(import.meta.dirname, '../../locales/fa/messages.po'));

/** Nothing on the page reaches past the window sideways, at the width the suites use (1280 px). */
async function fits(d: Driver, where: string): Promise<void> {
  const { width, beyond } = await d.overflow();
  assert.is(width, 1280, `${where}: the window is ${width} px wide, not 1280`);
  assert.is(beyond, 0, `${where}: the page reaches ${beyond} px past the window sideways`);
}

/** The login form: user name, password, Sign in. */
async function signIn(d: Driver, user: string, password: string): Promise<void> {
  await d.fill('User name', user);
  await d.fill('Password', password);
  await d.click('Sign in');
}

/** Log out through the user menu (its button is named after the user signed in), and say OK to "Are you Sure?". */
async function logOut(d: Driver, user = TEST_ADMIN.username): Promise<void> {
  await d.click(user);
  await d.click('Log out', 'menuitem');
  await d.waitForText('Are you Sure?');
  await d.click('OK');
  await d.waitForPath(/^\/login$/);
}

/** A terminal in its factory state: the factory credential leads to choosing the password, then the chosen one signs in. */
export async function activation(d: Driver): Promise<void> {
  await d.open('/user/userList');
  await d.waitForPath(/^\/login\?redirect=/);
  await fits(d, 'the login page');
  await signIn(d, FACTORY.username, FACTORY.password);
  await d.waitForPath(/^\/activate\?redirect=%2Fuser%2FuserList$/);
  await d.waitForText('Choose the administrator password');
  await fits(d, 'the activation step');
  await d.fill('New password', TEST_ADMIN.password);
  await d.fill('Confirm password', TEST_ADMIN.password);
  await d.click('Save');
  await d.waitForPath(/^\/user\/userList$/);
  await logOut(d, FACTORY.username);
}

/** Sign in with the administrator's password and land on the page asked for. */
export async function signInStep(d: Driver): Promise<void> {
  await d.open('/user/userList');
  await d.waitForPath(/^\/login\?redirect=%2Fuser%2FuserList$/);
  await fits(d, 'the login page');
  await signIn(d, TEST_ADMIN.username, TEST_ADMIN.password);
  await d.waitForPath(/^\/user\/userList$/);
  await d.until('the user list with its rows', () => document.querySelectorAll('table tbody tr').length > 0);
  await fits(d, 'the user list');
}

/** Add a user through the form, find them in the list, edit them; the API has the edit. The user is removed at the end. */
export async function users(d: Driver, t: Terminal, id: string): Promise<void> {
  const api = await deviceApi(t.url);
  const first = 'Zoë Ünal';
  const edited = 'Ζωή Ünal-Đặng';
  try {
    await d.click('Add user', 'link');
    await d.waitForPath(/^\/user\/addUser$/);
    await fits(d, 'adding a user');
    await d.fill('User ID', id);
    await d.fill('User Name', first);
    await d.click('Save');
    await d.waitForPath(new RegExp(`^/user/userEdit\\?UserID=${id}$`));
    assert.is((await api.read('GetUserInfo', { UserID: id })).UserName, first);

    await d.open('/user/userList');
    await d.fill('User ID', id);
    await d.click('Search');
    await d.until(`the list showing only user ${id}, named ${first}`, (i: string, n: string) => {
      const rows = [...document.querySelectorAll('table tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
      return rows.length === 1 && rows[0].includes(i) && rows[0].includes(n);
    }, id, first);
    await fits(d, 'the user list, searched');
    await d.click('Edit', 'link');
    await d.waitForPath(new RegExp(`^/user/userEdit\\?UserID=${id}$`));
    await d.until('the edit form with the name', (n: string) => [...document.querySelectorAll('input')].some((i) => i.value === n), first);
    await fits(d, 'editing a user');
    await d.fill('User Name', edited);
    await d.click('Save');
    await d.waitForText('Success');
    assert.is((await api.read('GetUserInfo', { UserID: id })).UserName, edited);
  } finally {
    await api.call('deletsomeuser', { UserIDs: [id] });
  }
}

/** The first of `choices` that differs from `now`. */
const other = <T,>(now: unknown, ...choices: T[]): T => choices.find((c) => String(c) !== String(now))!;

/** Device settings: change the device ID and volume, save; the API has them, and a reload shows them. Put back at the end. */
export async function settings(d: Driver, t: Terminal): Promise<void> {
  const api = await deviceApi(t.url);
  const before = await api.read('SetMachineParam');
  const want = { DeviceID: other(before.DeviceID, 42, 43), Volume: other(before.Volume, 3, 4) };
  try {
    await d.open('/basicSetting/device');
    await d.until('the device ID as the device has it', (v: string) => [...document.querySelectorAll('input')].some((i) => i.value === v), String(before.DeviceID));
    await fits(d, 'the device settings');
    await d.fill('Device ID', String(want.DeviceID));
    await d.fill('Volume', String(want.Volume));
    await d.click('Save');
    await d.waitForText('Success');
    const after = await api.read('SetMachineParam');
    assert.equal({ DeviceID: after.DeviceID, Volume: after.Volume }, want);
    await d.reload();
    await d.until('the saved device ID after a reload', (v: string) => [...document.querySelectorAll('input')].some((i) => i.value === v), String(want.DeviceID));
    assert.is(await d.value('Device ID'), String(want.DeviceID));
    assert.is(await d.value('Volume'), String(want.Volume));
  } finally {
    const takes = CALLS.GetMachineParam.request;
    const back = await api.call('GetMachineParam', Object.fromEntries(Object.entries(before).filter(([k]) => Object.hasOwn(takes, k))));
    if (back.retvalue !== 0) throw new Error(`putting the device settings back: ${JSON.stringify(back)}`);
  }
}

/**
 * Farsi, chosen as the browser keeps it (local storage, as the language
 * dialog leaves it; a terminal offers in the dialog only the languages its
 * own menus have): the page right to left, the sidebar on the right; then
 * English again.
 */
export async function rightToLeft(d: Driver): Promise<void> {
  await d.run(() => localStorage.setItem('language', 'fa'));
  await d.reload();
  await d.until('the page in Farsi, right to left', () => document.documentElement.dir === 'rtl' && document.documentElement.lang === 'fa');
  await d.until('the menu in Farsi', (t: string) => document.body.innerText.includes(t), fa.get('route.basicSetting')!);
  const side = await d.box('.sidebar');
  const main = await d.box('.main');
  assert.ok(side.x >= main.x + main.width - 1, `the sidebar (x ${side.x}) is right of the main area (ending at ${main.x + main.width})`);
  await fits(d, 'the device settings in Farsi');

  await d.run(() => localStorage.setItem('language', 'en'));
  await d.reload();
  await d.until('the page in English, left to right', () => document.documentElement.dir === 'ltr' && document.documentElement.lang === 'en');
  const side2 = await d.box('.sidebar');
  const main2 = await d.box('.main');
  assert.ok(side2.x + side2.width <= main2.x + 1, 'the sidebar is left of the main area again');
}

/** Log out: back at the login page, and the old session's token is refused by the device. */
export async function signOut(d: Driver, t: Terminal): Promise<void> {
  const token = await d.run((name: string) => document.cookie.split('; ').find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1) ?? '', TOKEN_COOKIE);
  assert.ok(token, 'a session cookie while signed in');
  assert.is(await tokenAnswers(t.url, token), 0);
  await logOut(d);
  assert.is(await d.run((name: string) => document.cookie.split('; ').some((c) => c.startsWith(`${name}=`)), TOKEN_COOKIE), false, 'no session cookie after logging out');
  assert.is(await tokenAnswers(t.url, token), 10002, 'the old session ended on the device');
  await d.open('/user/userList');
  await d.waitForPath(/^\/login\?redirect=/);
}

/** Every script the console shows draws with a real font, not the missing-glyph box (on the login page, in its own font). */
export async function legible(d: Driver): Promise<void> {
  const { samples, unplaced } = scriptSamples();
  assert.equal(unplaced, [], 'every character of the console belongs to a script with a sample');
  await d.open('/login');
  assert.equal(illegible(await d.run(measureScripts, samples)), []);
}
