// Network screens: each loads the device's values, rejects an invalid value
// with the right message, saves a valid change that is there after a reload
// and after the device restarts. Saves that may cut the page off the device
// warn first and offer the login page (SPEC §4). Wi-Fi scan (success and
// failure), join (success and the fall back to AP mode), Bluetooth search and
// pairing.
import type { Page } from 'playwright/test';
import { test, expect, openSignedIn, signIn, expectAccessible, simulatorOnly, type Terminal } from './fixtures.ts';
import { surroundings } from '../../hil/simulator/areas/network.ts';

const WARNING = 'Applying these settings may break the connection to this page. Continue?';
const GO_TO_LOGIN = 'Changing the network configuration may break the connection to this page. Go to the login page?';

/** Answer the "Are you sure" dialog showing `text`. */
async function answer(page: Page, text: string, ok: boolean): Promise<void> {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: ok ? 'OK' : 'Cancel' }).click();
}

/** Save; for a link-changing screen confirm the warning and stay (decline the login page). */
async function save(page: Page, warned: boolean): Promise<void> {
  await page.getByRole('button', { name: 'Save' }).click();
  if (warned) await answer(page, WARNING, true);
  await expect(page.getByText('Success')).toBeVisible();
  if (warned) await answer(page, GO_TO_LOGIN, false);
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
}

/** Restart the simulated terminal and sign in again (back on the same page). */
async function restarted(page: Page, terminal: Terminal): Promise<boolean> {
  if (!terminal.sim) return false;
  await terminal.restart();
  // Sessions end with a restart; start from the login page rather than let
  // the stale token's replies sign the page out while the test goes on.
  await page.context().clearCookies();
  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);
  return true;
}

/** Check labelled values now, after a reload and after a restart. */
async function kept(page: Page, terminal: Terminal, values: Record<string, string>, check?: () => Promise<void>): Promise<void> {
  const expectAll = async () => {
    for (const [label, value] of Object.entries(values)) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
    await check?.();
  };
  await page.reload();
  await expectAll();
  if (await restarted(page, terminal)) await expectAll();
}

test('ethernet and internet: load, reject bad addresses, warn, save, keep; the login page is offered', { tag: '@smoke' }, async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/network/ethernet');
  const ip = page.getByLabel('IP address');
  const mask = page.getByLabel('Subnet mask');
  await expect(ip).toHaveValue('192.168.1.201');
  await expect(mask).toHaveValue('255.255.255.0');
  await expect(page.getByLabel('Gateway')).toHaveValue('192.168.1.1');
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expectAccessible(page, 'ethernet');

  // IP, mask and gateway belong to the static setup only.
  await page.getByLabel('DHCP').check();
  await expect(ip).toHaveCount(0);
  await page.getByLabel('Static').check();
  await ip.fill('192.168.1.300');
  await expect(page.getByText('Enter an IPv4 address such as 192.168.1.10')).toBeVisible();
  await mask.fill('255.0.255.0');
  await expect(page.getByText('Enter a subnet mask such as 255.255.255.0')).toBeVisible();
  await expectAccessible(page, 'ethernet with errors');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  await ip.fill('10.0.0.50');
  await mask.fill('255.255.0.0');
  await page.getByLabel('Gateway').fill('10.0.0.1');
  // Declining the warning saves nothing.
  await page.getByRole('button', { name: 'Save' }).click();
  await answer(page, WARNING, false);
  expect(terminal.sim!.store.get().settings.EthernetParam.Ip).toBe('192.168.1.201');
  await save(page, true);
  await kept(page, terminal, { 'IP address': '10.0.0.50', 'Subnet mask': '255.255.0.0', Gateway: '10.0.0.1' });

  // Internet: DNS only without automatic DNS; accepting the offer goes to the login page.
  await page.goto('/network/internet');
  await expect(page.getByLabel('WAN mode')).toHaveValue('0');
  await expect(page.getByLabel('Obtain DNS automatically')).toBeChecked();
  await expect(page.getByLabel('DNS server')).toHaveCount(0);
  await expectAccessible(page, 'internet');
  await page.getByLabel('Obtain DNS automatically').uncheck();
  await page.getByLabel('DNS server').fill('8.8.8');
  await expect(page.getByText('Enter an IPv4 address such as 192.168.1.10')).toBeVisible();
  await page.getByLabel('DNS server').fill('8.8.8.8');
  await page.getByLabel('WAN mode').selectOption({ label: 'Wi-Fi' });
  await page.getByRole('button', { name: 'Save' }).click();
  await answer(page, WARNING, true);
  await expect(page.getByText('Success')).toBeVisible();
  await answer(page, GO_TO_LOGIN, true);
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);
  await expect(page).toHaveURL(/\/network\/internet$/);
  await kept(page, terminal, { 'DNS server': '8.8.8.8', 'WAN mode': '1' }, () => expect(page.getByLabel('Obtain DNS automatically')).not.toBeChecked());
});

test('wi-fi: access point settings and joining in station mode; a failed join falls back to AP mode', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/network/wirless');
  const mode = page.getByLabel('Wi-Fi mode');
  const apPassword = page.getByLabel('AP password');
  await expect(mode).toHaveValue('1');
  await expect(apPassword).toHaveValue('12345678');
  await expect(page.getByLabel('Network name (SSID)')).toHaveCount(0);
  await expectAccessible(page, 'wi-fi');

  await apPassword.fill('short');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await page.getByLabel('Custom', { exact: true }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Required')).toBeVisible();
  await expectAccessible(page, 'wi-fi with errors');
  await page.getByLabel('Custom AP name').fill('Lobby terminal');
  await apPassword.fill('lobby-pass-1');
  await save(page, true);
  await kept(page, terminal, { 'Custom AP name': 'Lobby terminal', 'AP password': 'lobby-pass-1' });

  // Station mode: Enterprise fields only for Enterprise; a wrong password falls back to AP.
  await mode.selectOption({ label: 'Station (join a network)' });
  await page.getByLabel('Network name (SSID)').fill('Office');
  await page.getByLabel('Security protocol').selectOption({ label: 'WPA/WPA2 Enterprise' });
  await expect(page.getByLabel('Identity')).toBeVisible();
  await expect(page.getByLabel('Inner authentication')).toBeVisible();
  await page.getByLabel('EAP method').selectOption({ label: 'PWD' });
  await expect(page.getByLabel('Inner authentication')).toHaveCount(0);
  await page.getByLabel('Security protocol').selectOption({ label: 'WPA/WPA2 Personal' });
  await expect(page.getByLabel('Identity')).toHaveCount(0);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Save' }).click();
  await answer(page, WARNING, true);
  await expect(page.getByText('Connection failed, switch back to AP mode')).toBeVisible();
  expect(terminal.sim!.store.get().settings.Wirless.WifiMode).toBe(1);
  // The form keeps what was typed; the device is back in AP mode.
  await page.getByRole('button', { name: 'Undo changes' }).click();
  await page.reload();
  await expect(mode).toHaveValue('1');

  await mode.selectOption({ label: 'Station (join a network)' });
  await page.getByLabel('Network name (SSID)').fill('Office');
  await page.getByLabel('Password', { exact: true }).fill('office-2026');
  await save(page, true);
  await kept(page, terminal, { 'Wi-Fi mode': '0', 'Network name (SSID)': 'Office', 'Security protocol': '1' });

  // Joined to Office, a join to another network fails: the device is back in AP mode, not on Office.
  await page.getByLabel('Network name (SSID)').fill('Elsewhere');
  await page.getByLabel('Password', { exact: true }).fill('elsewhere-1');
  await page.getByRole('button', { name: 'Save' }).click();
  await answer(page, WARNING, true);
  await expect(page.getByText('Connection failed, switch back to AP mode')).toBeVisible();
  expect(terminal.sim!.store.get().settings.Wirless.WifiMode).toBe(1);
  // What was typed stays, to correct and try again; Undo shows what the device now has: AP mode.
  await expect(page.getByLabel('Network name (SSID)')).toHaveValue('Elsewhere');
  await expect(mode).toHaveValue('0');
  await page.getByRole('button', { name: 'Undo changes' }).click();
  await expect(mode).toHaveValue('1');
  await expect(page.getByLabel('Network name (SSID)')).toHaveCount(0);
});

test('choose wi-fi: the scan takes a moment, lists networks as text, joins; a wrong password falls back to AP mode', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/network/wirless');
  await page.getByRole('link', { name: 'Choose Wi-Fi' }).click();
  await expect(page).toHaveURL(/\/network\/wirless\/chooseWIFI$/);
  await expect(page.getByText('Scanning for networks…')).toBeVisible();
  const office = page.getByRole('button', { name: 'Office', exact: true });
  await expect(office).toBeVisible({ timeout: 10_000 });
  // Device text is text: the markup in a network name is shown, not applied.
  await expect(page.getByRole('button', { name: 'Café <b>Lobby</b>' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Lab', exact: true })).toHaveCount(0);
  await expectAccessible(page, 'choose wi-fi');

  await office.click();
  await expect(page.getByRole('heading', { name: 'Connect to Office' })).toBeVisible();
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Required')).toBeVisible();
  await page.getByLabel('Password').fill('not-the-password');
  await expectAccessible(page, 'choose wi-fi, password');
  await page.getByRole('button', { name: 'Connect' }).click();
  await answer(page, WARNING, true);
  await expect(page.getByText('Connection failed, switch back to AP mode')).toBeVisible();
  await expect(page).toHaveURL(/\/network\/wirless$/);
  await expect(page.getByLabel('Wi-Fi mode')).toHaveValue('1');

  await page.getByRole('link', { name: 'Choose Wi-Fi' }).click();
  await page.getByRole('button', { name: 'Office', exact: true }).click();
  await page.getByLabel('Password').fill('office-2026');
  await page.getByRole('button', { name: 'Connect' }).click();
  await answer(page, WARNING, true);
  await expect(page.getByText('Success')).toBeVisible();
  await answer(page, GO_TO_LOGIN, false);
  await expect(page).toHaveURL(/\/network\/wirless$/);
  await expect(page.getByLabel('Wi-Fi mode')).toHaveValue('0');
  await expect(page.getByLabel('Network name (SSID)')).toHaveValue('Office');

  // The list marks the network the device is on.
  await page.getByRole('link', { name: 'Choose Wi-Fi' }).click();
  await expect(page.getByRole('row', { name: /Office \(connected\)/ })).toBeVisible({ timeout: 10_000 });
});

test('choose wi-fi: a failed scan says so and Refresh scans again; add wi-fi joins a network typed by hand', async ({ page, terminal }) => {
  simulatorOnly();
  const air = surroundings(terminal.sim!.store);
  air.scanFails = true;
  await openSignedIn(page, '/network/wirless/chooseWIFI');
  await expect(page.getByRole('alert').filter({ hasText: 'Obtaining failed, please refresh.' })).toBeVisible({ timeout: 10_000 });
  await expectAccessible(page, 'choose wi-fi, scan failed');
  air.scanFails = false;
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('button', { name: 'Office', exact: true })).toBeVisible({ timeout: 10_000 });

  // A hidden network, by hand; an injected join failure first.
  await page.getByRole('link', { name: 'Add Wi-Fi' }).click();
  await expect(page).toHaveURL(/\/network\/wirless\/addWIFI$/);
  const ssid = page.getByLabel('Network name (SSID)');
  await expectAccessible(page, 'add wi-fi');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Required').first()).toBeVisible();
  await ssid.fill('Lab');
  await page.getByLabel('Password').fill('hidden-lab');
  air.joinFails = true;
  await page.getByRole('button', { name: 'Connect' }).click();
  await answer(page, WARNING, true);
  await expect(page.getByText('Connection failed, switch back to AP mode')).toBeVisible();
  await expect(page.getByLabel('Wi-Fi mode')).toHaveValue('1');

  air.joinFails = false;
  await page.getByRole('link', { name: 'Add Wi-Fi' }).click();
  await page.getByLabel('Network name (SSID)').fill('Lab');
  await page.getByLabel('Password').fill('hidden-lab');
  await page.getByRole('button', { name: 'Connect' }).click();
  await answer(page, WARNING, true);
  await answer(page, GO_TO_LOGIN, false);
  await expect(page.getByLabel('Network name (SSID)')).toHaveValue('Lab');
  expect(terminal.sim!.store.get().settings.Wirless).toMatchObject({ WifiMode: 0, Ssid: 'Lab', Security: 1 });
});

test('communication mode and security protocol: ports, client server address, HTTPS; kept', async ({ page, terminal }) => {
  await openSignedIn(page, '/network/commMode');
  const port = page.getByLabel('Port');
  if (terminal.sim) await expect(port).toHaveValue('5010');
  await expect(page.getByLabel('Server IP address')).toHaveCount(0);
  await expectAccessible(page, 'communication');
  await port.fill('70000');
  await expect(page.getByText('Enter a port from 1 to 65535')).toBeVisible();
  await port.fill('5020');
  await page.getByLabel('Communication mode').selectOption({ label: 'Client' });
  await page.getByLabel('Server IP address').fill('10.1.1');
  await expect(page.getByText('Enter an IPv4 address such as 192.168.1.10')).toBeVisible();
  await page.getByLabel('Server IP address').fill('10.1.1.20');
  await page.getByLabel('URL', { exact: true }).check();
  await expect(page.getByLabel('Server IP address')).toHaveCount(0);
  await page.getByLabel('Server URL').fill('not a url');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await expectAccessible(page, 'communication with errors');
  await page.getByLabel('Server URL').fill('https://sync.example.com:8443/att');
  await page.getByLabel('Communication password').check();
  await page.getByLabel('Password', { exact: true }).fill('12a');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('2468');
  await save(page, false);
  await kept(page, terminal, { Port: '5020', 'Communication mode': '1', 'Server URL': 'https://sync.example.com:8443/att', Password: '2468' });

  await page.goto('/network/securityOne');
  if (terminal.sim) await expect(page.getByLabel('Port')).toHaveValue('80');
  await expectAccessible(page, 'security protocol');
  await page.getByLabel('Port').fill('0');
  await expect(page.getByText('Enter a port from 1 to 65535')).toBeVisible();
  await page.getByLabel('Protocol').selectOption({ label: 'HTTPS' });
  await page.getByLabel('Port').fill('443');
  await page.getByLabel('REST API').check();
  await save(page, true);
  await kept(page, terminal, { Protocol: '1', Port: '443' }, () => expect(page.getByLabel('REST API')).toBeChecked());
});

test('cloud and MQTT: load, reject, save, keep', async ({ page, terminal }) => {
  await openSignedIn(page, '/network/cloud');
  const code = page.getByLabel('Cloud code');
  if (terminal.sim) await expect(code).toHaveValue('C7X2K9Q4');
  await expectAccessible(page, 'cloud');
  await code.fill('bad code!');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await page.getByLabel('Password').fill('');
  await expect(page.getByText('Required')).toBeVisible();
  await code.fill('NEWCODE77');
  await page.getByLabel('Password').fill('s3cret');
  await page.getByLabel('Server').fill('https://cloud.example.org');
  await save(page, false);
  await kept(page, terminal, { 'Cloud code': 'NEWCODE77', Password: 's3cret', Server: 'https://cloud.example.org' });

  await page.goto('/network/mqtt');
  const on = page.getByLabel('MQTT');
  if (terminal.sim) await expect(on).not.toBeChecked();
  await expect(page.getByLabel('Company ID')).toHaveCount(0);
  await expectAccessible(page, 'mqtt');
  await on.check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Required')).toHaveCount(2);
  await page.getByLabel('Company ID').fill('acme corp');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await page.getByLabel('Company ID').fill('acme-01');
  await page.getByLabel('Password').fill('mqtt-pass');
  await save(page, false);
  await kept(page, terminal, { 'Company ID': 'acme-01', Password: 'mqtt-pass' }, () => expect(on).toBeChecked());
});

test('bluetooth: settings kept; search takes a moment, pairing adds the device to the paired list', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/network/bluetooth');
  await expect(page.getByLabel('Bluetooth', { exact: true })).toBeChecked();
  await expect(page.getByLabel('Bluetooth server')).toBeChecked();
  await expect(page.getByLabel('Device address')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Paired devices' })).toBeVisible();
  await expect(page.getByText('Nothing found')).toBeVisible();
  await expectAccessible(page, 'bluetooth');

  await page.getByLabel('Bluetooth client').check();
  await page.getByLabel('Device address').fill('zz:11');
  await expect(page.getByText('This value has the wrong format')).toBeVisible();
  await page.getByLabel('Device address').fill('5C:F3:70:12:34:56');
  await save(page, false);

  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('button', { name: 'Searching…' })).toBeDisabled();
  const found = page.getByRole('heading', { name: 'Devices found' });
  await expect(found).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('table', { name: 'Devices found' }).getByRole('cell', { name: 'Reader <B2>', exact: true })).toBeVisible();
  await expectAccessible(page, 'bluetooth, devices found');
  await page.getByRole('button', { name: 'Pair with Door lock A' }).click();
  const paired = page.getByRole('table', { name: 'Paired devices' });
  await expect(paired.getByRole('cell', { name: 'Door lock A', exact: true })).toBeVisible();

  await kept(page, terminal, { 'Device address': '5C:F3:70:12:34:56' }, async () => {
    await expect(page.getByLabel('Bluetooth client')).toBeChecked();
    await expect(paired.getByRole('cell', { name: '5C:F3:70:12:34:56' })).toBeVisible();
  });
});

test('requests that bypass the network forms with bad values change nothing', async ({ page, terminal }) => {
  simulatorOnly();
  await openSignedIn(page, '/network/ethernet');
  await expect(page.getByLabel('IP address')).toHaveValue('192.168.1.201');
  const post = (path: string, body: object) =>
    page.evaluate(
      async ([path, body]) => {
        const token = document.cookie.match(/Admin-Token=([^;]+)/)![1];
        const r = await fetch(`/goform/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Token': token }, body: JSON.stringify(body) });
        return r.json();
      },
      [path, body] as const,
    );
  expect(await post('GetEthernetParam', { IpMode: 0, Ip: '10.0.0.9', Mask: '255.0.255.0', Gateway: '10.0.0.1' })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'Mask' });
  expect(await post('GetCommMode', { Mode: 0, Port: 70000, PwdSwitch: 0, ServerType: 0, ServerIp: '1.2.3.4' })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'Port' });
  expect(await post('GetWirless', { ...terminal.sim!.store.get().settings.Wirless, WifiMode: 0, Ssid: 'Office', Password: 'short' })).toEqual({ retvalue: 10005, msg: 'err.10005', field: 'Password' });
  expect(await post('GetBleConnect', { Address: '5C:F3:70:12:34:56' })).toEqual({ retvalue: 30201, msg: 'msg.failed' });
  const s = terminal.sim!.store.get().settings;
  expect(s.EthernetParam.Ip).toBe('192.168.1.201');
  expect(s.CommMode.Port).toBe(5010);
  expect(s.Wirless.WifiMode).toBe(1);
  expect(s.BleDevGroup).toBeUndefined();
});
