// Settings backup and restore (/advSetting/backup): an export carries every
// setting the console reads and no password unless asked; a restore shows
// what would change, writes only that (network last, after the SPEC §4
// warning) and brings the terminal back to the file; a changed, foreign or
// newer file is explained and nothing is written; a terminal with fewer
// functions skips what it lacks and says so.
//
// Against a real terminal (TERMINAL_URL) the same tests run: what a test
// changes through the device's API it puts back (the restore does, and a
// `finally` when the test stops before it), and the terminal with fewer
// functions is this one as the console is shown it (withoutFunctions).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright/test';
import { test, expect, openSignedIn, expectAccessible, deviceApi, withoutFunctions, BRAND } from './fixtures.ts';

const WARNING = 'Applying these settings may break the connection to this page. Continue?';
const GO_TO_LOGIN = 'Changing the network configuration may break the connection to this page. Go to the login page?';
const REFUSED = 'Not a settings file of this console, or it was changed. Nothing was restored.';

type Json = Record<string, any>;

/** FNV-1a 32 of the UTF-8 bytes, written from the documented format (not the console's code). */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
const sealed = ({ check, ...f }: Json) => ({ ...f, check: fnv(JSON.stringify(f)) });

/** Export with the console; the downloaded file, parsed, and its name. */
async function exported(page: Page, passwords = false): Promise<{ name: string; text: string; file: Json }> {
  const box = page.getByRole('switch', { name: /Include passwords/ });
  if (passwords) await box.check();
  else await box.uncheck();
  const download = page.waitForEvent('download');
  const button = page.getByRole('button', { name: 'Export settings' });
  await button.click();
  const d = await download;
  // The export is done when the screen is free again: after the file, it notes the backup in the operation log.
  await expect(button).toBeEnabled();
  const text = readFileSync(await d.path(), 'utf8');
  return { name: d.suggestedFilename(), text, file: JSON.parse(text) };
}

/** Choose a file to restore. */
const choose = (page: Page, text: string) =>
  page.getByLabel('Settings file to restore').setInputFiles({ name: 'settings.json', mimeType: 'application/json', buffer: Buffer.from(text) });

/** Answer the confirm dialog showing `text`. */
async function answer(page: Page, text: string, ok: boolean): Promise<void> {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: ok ? 'OK' : 'Cancel' }).click();
}

/** What the screen says: refusals, skipped parts, each write's result. */
const said = (page: Page) => page.locator('ul[aria-live]').getByRole('listitem');

const keys = (v: unknown): string[] => (v && typeof v == 'object' ? Object.entries(v).flatMap(([k, x]) => [k, ...keys(x)]) : []);

type Api = Awaited<ReturnType<typeof deviceApi>>;

/**
 * Put the parts the first test changes back to the file's values through the
 * API (only needed when the test stopped before its restore did it): the
 * device settings (with the administrator password as it is), access, time
 * group 3, internet, and the work groups (all deleted and added again, as a
 * restore does, when they differ).
 */
async function putBack(api: Api, settings: Json, adminPwd: unknown): Promise<void> {
  expect((await api.call('GetMachineParam', { ...settings.SetMachineParam, AdminPwd: adminPwd })).retvalue).toBe(0);
  expect((await api.call('GetAccessControl', settings.SetAccessControl)).retvalue).toBe(0);
  expect((await api.call('GetGroupInfo', settings['SetGroupInfo?GroupNum=3'])).retvalue).toBe(0);
  expect((await api.call('GetInternetParam', settings.SetInternetParam)).retvalue).toBe(0);
  const now = (await api.call('SetUniversalGroup')).Groups as Json[];
  if (JSON.stringify(now.map(({ Num, ...g }) => g)) == JSON.stringify(settings.SetUniversalGroup)) return;
  if (now.length) expect((await api.call('DelSomeGroup', { Type: 2, Nums: now.map((g) => g.Num).join(',') })).retvalue).toBe(0);
  for (const g of settings.SetUniversalGroup) expect((await api.call('GetUniversalGroup', g)).retvalue).toBe(0);
}

test('export, change settings, restore: the terminal has the exported settings again', async ({ page, terminal, request }) => {
  await openSignedIn(page, '/advSetting/backup');
  await expectAccessible(page, 'backup');

  const first = await exported(page);
  expect(first.name).toMatch(/^[\w.-]+-\d{4}-\d\d-\d\d\.json$/);
  const api = await deviceApi(request, terminal);
  const info = await api.call('SetInfoParam');
  expect(first.name.startsWith(`${info.Serial}-`)).toBe(true);
  const f = first.file;
  expect(f).toMatchObject({ format: 'terminal-settings', version: 1, brand: BRAND, model: info.Model, firmware: info.Build_Version, serial: info.Serial, passwords: false });
  expect(f.check).toBe(fnv(JSON.stringify({ ...f, check: undefined })));
  test.skip(!('SetUniversalGroup' in f.settings), 'a terminal without access control (work groups): the test of a terminal with fewer functions covers one');
  expect(Object.keys(f.settings)).toEqual(expect.arrayContaining(['SetMachineParam', 'SetEthernetParam', 'SetGroupInfo?GroupNum=16', 'SetTimeIntervalInfo?ZoneNum=32', 'SetShiftsInfo?ShiftNum=8', 'SetGroupTime?Type=1', 'SetGroupTime?Type=0', 'SetUniversalGroup']));
  // No password, no clock, no screen language.
  expect(keys(f.settings).filter((k) => /pass|pwd$/i.test(k) || ['Language', 'Date', 'Time'].includes(k))).toEqual([]);
  // With the box ticked the passwords are there.
  const withPw = (await exported(page, true)).file;
  expect(withPw.passwords).toBe(true);
  expect(Object.keys(withPw.settings.SetMachineParam)).toContain('AdminPwd');

  // Change settings of several kinds through the device's API.
  const m = f.settings.SetMachineParam;
  const volume = m.Volume == 7 ? 3 : 7;
  const cur = await api.call('SetMachineParam');
  let restored = false;
  try {
    expect((await api.call('GetMachineParam', { DeviceID: m.DeviceID, Volume: volume, AdminPwd: cur.AdminPwd })).retvalue).toBe(0);
    const ac = f.settings.SetAccessControl;
    expect((await api.call('GetAccessControl', { ...ac, RelayDelay: ac.RelayDelay == 9 ? 8 : 9 })).retvalue).toBe(0);
    const g3 = f.settings['SetGroupInfo?GroupNum=3'];
    expect((await api.call('GetGroupInfo', { ...g3, Time4: g3.Time4 == 5 ? 6 : 5 })).retvalue).toBe(0);
    expect((await api.call('GetUniversalGroup', { Name: 'Backup test', TimeGroup: 1 })).retvalue).toBe(0);
    const net = f.settings.SetInternetParam;
    expect((await api.call('GetInternetParam', { ...net, AutoMode: 0, Dns: net.Dns == '9.9.9.9' ? '8.8.8.8' : '9.9.9.9' })).retvalue).toBe(0);

    // Restore: the changes first, old and new, then only those written.
    const writes: string[] = [];
    page.on('request', (r) => {
      const call = new URL(r.url()).pathname.replace('/goform/', '');
      if (r.method() == 'POST' && !call.startsWith('Set')) writes.push(call);
    });
    await choose(page, first.text);
    const row = (setting: string, field: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: setting, exact: true }) }).filter({ has: page.getByRole('cell', { name: field, exact: true }) });
    await expect(row('Device', 'Volume').getByRole('cell')).toHaveText(['Device', 'Volume', String(volume), String(m.Volume)]);
    await expect(row('Access', 'RelayDelay')).toHaveCount(1);
    await expect(row('Groups 3', 'Time4')).toHaveCount(1);
    await expect(row('Work group', 'Groups')).toHaveCount(1);
    await expect(row('Internet', 'Dns')).toHaveCount(1);
    await expect(page.getByRole('row')).toHaveCount(1 + 5 + (net.AutoMode ? 1 : 0));
    expect(writes).toEqual([]);
    await expectAccessible(page, 'backup with changes');

    await page.getByRole('button', { name: 'Apply changes' }).click();
    // Network last, after the warning; then the login page is offered (declined here).
    await answer(page, WARNING, true);
    await answer(page, GO_TO_LOGIN, false);
    await expect(said(page)).toHaveText(['Device: Success', 'Access: Success', 'Groups 3: Success', 'Work group: Success', 'Internet: Success']);
    const groups = f.settings.SetUniversalGroup.map(() => 'GetUniversalGroup');
    // The restore is noted in the operation log first (noteOperation), then written.
    expect(writes).toEqual(['noteOperation', 'GetMachineParam', 'GetAccessControl', 'GetGroupInfo', 'DelSomeGroup', ...groups, 'GetInternetParam']);
    // The terminal kept its administrator password, and is back to the file.
    expect((await api.call('SetMachineParam')).AdminPwd).toBe(cur.AdminPwd);
    const again = await exported(page);
    expect(again.file.settings).toEqual(f.settings);
    await expectAccessible(page, 'backup after a restore');
    restored = true;

    // The same file again: nothing to do.
    await choose(page, again.text);
    await expect(page.getByText('Nothing to change.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Apply changes' })).toHaveCount(0);
  } finally {
    if (!restored) await putBack(await deviceApi(request, terminal), f.settings, cur.AdminPwd);
  }
});

test('a changed, damaged, foreign or newer file is explained and nothing is written', async ({ page }) => {
  await openSignedIn(page, '/advSetting/backup');
  const { file, text } = await exported(page);
  const writes: string[] = [];
  page.on('request', (r) => r.method() == 'POST' && !r.url().includes('/goform/Set') && writes.push(r.url()));
  const says = async (content: string, message: string | RegExp) => {
    await choose(page, content);
    await expect(said(page)).toHaveText([message]);
    await expect(page.getByRole('button', { name: 'Apply changes' })).toHaveCount(0);
  };

  // A value edited without the checksum, a cut file, not JSON at all, another format.
  const edited = structuredClone(file);
  edited.settings.SetMachineParam.Volume = edited.settings.SetMachineParam.Volume == 1 ? 2 : 1;
  await says(JSON.stringify(edited), REFUSED);
  await says(text.slice(0, text.length / 2), REFUSED);
  await says('Volume=5', REFUSED);
  await says(JSON.stringify(sealed({ ...file, format: 'other' })), REFUSED);
  // Another brand or model, a newer format.
  await says(JSON.stringify(sealed({ ...file, model: 'T99' })), `From another terminal (${BRAND} T99); this one is ${BRAND} ${file.model}. Nothing was restored.`);
  await says(JSON.stringify(sealed({ ...file, brand: 'other' })), `From another terminal (other ${file.model}); this one is ${BRAND} ${file.model}. Nothing was restored.`);
  await says(JSON.stringify(sealed({ ...file, version: 2 })), 'Made by a newer console (format 2). Nothing was restored.');
  await expectAccessible(page, 'backup with a refused file');
  expect(writes).toEqual([]);
});

test('a value the device refuses stops the restore there and says which', async ({ page, terminal, request }) => {
  await openSignedIn(page, '/advSetting/backup');
  const { file: exportedFile } = await exported(page);
  // The checksum made again over a value the contract does not allow (volume 0 to 10): only the device's own check can refuse it.
  const file = structuredClone(exportedFile);
  file.settings.SetMachineParam.Volume = 11;
  const api = await deviceApi(request, terminal);
  const cur = await api.call('SetMachineParam');
  const cm = file.settings.SetCommMode;
  expect((await api.call('GetCommMode', { ...cm, Port: cm.Port == 5011 ? 5012 : 5011 })).retvalue).toBe(0);
  try {
    await choose(page, JSON.stringify(sealed(file)));
    await expect(page.getByRole('button', { name: 'Apply changes' })).toBeVisible();
    await page.getByRole('button', { name: 'Apply changes' }).click();
    await expect(said(page)).toHaveText(['Device: Volume: Parameter Value Error', 'Stopped at Device; nothing after it was written.']);
    expect((await api.call('SetCommMode')).Port).not.toBe(cm.Port);
    expect((await api.call('SetMachineParam')).Volume).toBe(cur.Volume);
  } finally {
    // The communication port as it was (the password is not in the file: absent, unchanged).
    expect((await api.call('GetCommMode', cm)).retvalue).toBe(0);
  }
});

/** What the console shows of the file's parts a terminal without them skips, by the read that carries each. */
const LACKING: Record<string, string> = {
  SetFPCompareParam: 'Fingerprint precision',
  SetPrintParam: 'Print',
  'SetGroupTime?Type=1': 'Always open',
  'SetGroupTime?Type=0': 'Always closed',
  SetUniversalGroup: 'Work group',
  SetCloudParam: 'Cloud',
  SetMqttCloudParam: 'MQTT',
  SetBluetoothParam: 'Bluetooth',
  SetWirless: 'Wi-Fi',
};
/** The functions a smaller model (the simulator's lite profile) lacks: no fingerprint, access control, Wi-Fi, Bluetooth, cloud, MQTT, Wiegand, print or thermometry. */
const LITE_LACKS = ['fingerprint', 'AccSetting', 'wifi', 'bluetooth', 'mqtt', 'cloud', 'wiegand', 'print', 'thermometry'];

test('a terminal with fewer functions skips what it lacks, says so, and restores the rest', async ({ page, terminal, request, browser }) => {
  // The file comes from this terminal as it is, exported in a page of its own.
  const full = await browser.newPage({ baseURL: terminal.url });
  await openSignedIn(full, '/advSetting/backup');
  const { text, file } = await exported(full);
  await full.close();
  const lacking = Object.keys(LACKING).filter((k) => k in file.settings);
  test.skip(!lacking.length, 'this terminal has none of the functions a smaller model lacks, so there is nothing to skip');

  // The console is shown a smaller model of the same terminal: the device's replies name fewer functions (the terminal is untouched).
  await withoutFunctions(page, ...LITE_LACKS);
  const api = await deviceApi(request, terminal);
  const m = (await api.call('SetMachineParam')) as Json;
  const volume = m.Volume == 9 ? 4 : 9;
  expect((await api.call('GetMachineParam', { DeviceID: m.DeviceID, Volume: volume, AdminPwd: m.AdminPwd })).retvalue).toBe(0);
  try {
    await openSignedIn(page, '/advSetting/backup');
    // Its own export leaves out what it lacks, and only that.
    const own = (await exported(page)).file;
    expect(Object.keys(file.settings).filter((k) => !(k in own.settings))).toEqual(lacking);
    const writes: string[] = [];
    page.on('request', (r) => {
      const call = new URL(r.url()).pathname.replace('/goform/', '');
      if (r.method() == 'POST' && !call.startsWith('Set')) writes.push(call);
    });
    await choose(page, text);
    const lines = said(page);
    for (const k of lacking) await expect(lines.filter({ hasText: `${LACKING[k]}: skipped, not on this terminal.` })).toHaveCount(1);
    await expect(lines).toHaveCount(lacking.length);
    // The one change, the volume set since the export; nothing of what is skipped.
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('row').filter({ hasText: 'Volume' }).getByRole('cell')).toHaveText(['Device', 'Volume', String(volume), String(m.Volume)]);
    await expectAccessible(page, 'backup on a reduced terminal');
    await page.getByRole('button', { name: 'Apply changes' }).click();
    await expect(lines.filter({ hasText: 'Device: Success' })).toHaveCount(1);
    expect(writes).toEqual(['noteOperation', 'GetMachineParam']);
    const after = await api.call('SetMachineParam');
    expect(after.Volume).toBe(m.Volume);
    expect(after.AdminPwd).toBe(m.AdminPwd);
  } finally {
    expect((await api.call('GetMachineParam', { DeviceID: m.DeviceID, Volume: m.Volume, AdminPwd: m.AdminPwd })).retvalue).toBe(0);
  }
});
