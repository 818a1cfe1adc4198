// Settings backup and restore (/advSetting/backup): an export carries every
// setting the console reads and no password unless asked; a restore shows
// what would change, writes only that (network last, after the SPEC §4
// warning) and brings the terminal back to the file; a changed, foreign or
// newer file is explained and nothing is written; a terminal with fewer
// functions skips what it lacks and says so.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright/test';
import { test, expect, openSignedIn, signIn, expectAccessible, simulatorOnly, deviceApi, BRAND } from './fixtures.ts';
// After the fixtures: the simulator's modules load in their own order.
import { startSimulator } from '../../hil/simulator/server.ts';
import { loadProfile } from '../../hil/simulator/profile.ts';

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
  await page.getByRole('button', { name: 'Export settings' }).click();
  const d = await download;
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
  test.skip(!('SetUniversalGroup' in f.settings), 'a terminal without access control (the lite test covers one)');
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
  expect(writes).toEqual(['GetMachineParam', 'GetAccessControl', 'GetGroupInfo', 'DelSomeGroup', ...groups, 'GetInternetParam']);
  // The terminal kept its administrator password, and is back to the file.
  expect((await api.call('SetMachineParam')).AdminPwd).toBe(cur.AdminPwd);
  const again = await exported(page);
  expect(again.file.settings).toEqual(f.settings);
  await expectAccessible(page, 'backup after a restore');

  // The same file again: nothing to do.
  await choose(page, again.text);
  await expect(page.getByText('Nothing to change.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply changes' })).toHaveCount(0);
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
  await choose(page, JSON.stringify(sealed(file)));
  await expect(page.getByRole('button', { name: 'Apply changes' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply changes' }).click();
  await expect(said(page)).toHaveText(['Device: Volume: Parameter Value Error', 'Stopped at Device; nothing after it was written.']);
  expect((await api.call('SetCommMode')).Port).not.toBe(cm.Port);
  expect((await api.call('SetMachineParam')).Volume).toBe(cur.Volume);
});

test.describe('a terminal with fewer functions', () => {
  // The model of the default profile (SetInfoParam Model), with the lite profile's function list: no Wi-Fi, Bluetooth, access control, ...
  test.use({ profileName: 'lite', profileOverrides: { modelCode: loadProfile('default').modelCode } });

  test('skips what it lacks, says so, and restores the rest', async ({ page, terminal, request, browser }) => {
    // The file comes from a second, fully featured simulated terminal.
    simulatorOnly();
    const siteDir = process.env.SITE_DIR ?? join(import.meta.dirname, '../../dist', BRAND);
    const full = await startSimulator({ siteDir, profile: loadProfile('default'), storeFile: join(mkdtempSync(join(tmpdir(), 'backup-')), 's.json') });
    try {
      const fullApi = await deviceApi(request, { url: full.url, restart: async () => undefined });
      const m = (await fullApi.call('SetMachineParam')) as Json;
      expect((await fullApi.call('GetMachineParam', { DeviceID: m.DeviceID, Volume: 9, AdminPwd: m.AdminPwd })).retvalue).toBe(0);
      const other = await browser.newPage({ baseURL: full.url });
      await other.goto('/advSetting/backup');
      await signIn(other);
      const { text, file } = await exported(other);
      await other.close();
      expect(Object.keys(file.settings)).toEqual(expect.arrayContaining(['SetWirless', 'SetBluetoothParam', 'SetUniversalGroup']));

      await openSignedIn(page, '/advSetting/backup');
      // Its own export leaves out what it lacks.
      expect(Object.keys((await exported(page)).file.settings)).not.toContain('SetWirless');
      await choose(page, text);
      const lines = said(page);
      for (const name of ['Fingerprint precision', 'Print', 'Always open', 'Always closed', 'Work group', 'Cloud', 'MQTT', 'Bluetooth', 'Wi-Fi'])
        await expect(lines.filter({ hasText: `${name}: skipped, not on this terminal.` })).toHaveCount(1);
      await expect(page.getByRole('row').filter({ hasText: 'Volume' })).toHaveCount(1);
      await expect(page.getByRole('row').filter({ hasText: /Wirless|Ssid|BleOption|Periods/ })).toHaveCount(0);
      await expectAccessible(page, 'backup on a reduced terminal');
      await page.getByRole('button', { name: 'Apply changes' }).click();
      await expect(lines.filter({ hasText: 'Device: Success' })).toHaveCount(1);
      const api = await deviceApi(request, terminal);
      expect((await api.call('SetMachineParam')).Volume).toBe(9);
    } finally {
      await full.close();
    }
  });
});
