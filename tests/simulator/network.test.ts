// Network area: the contract's address patterns agree with the form rules,
// and the simulated terminal's Wi-Fi scan and join (with the fall back to AP
// mode) and Bluetooth search and pairing behave as docs/API.md says.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { surroundings } from '../../simulator/areas/network.ts';
import { CALLS, type CallName } from '../../contract/index.ts';
import { callSimulator } from '../support/helpers.ts';
import { isIPv4, isMask } from '../../src/form/validation.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

const p = suite('network contract patterns');

const matches = (pattern: string | undefined, s: string) => new RegExp(pattern!).test(s);

p('the subnet mask pattern accepts exactly what the form calls a mask', () => {
  const mask = CALLS.GetEthernetParam.request.Mask.pattern;
  for (let bits = 0; bits <= 32; bits++) {
    const n = bits ? (0xffffffff << (32 - bits)) >>> 0 : 0;
    const s = [24, 16, 8, 0].map((k) => (n >>> k) & 255).join('.');
    assert.is(matches(mask, s), isMask(s), s);
  }
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256);
  for (let i = 0; i < 5000; i++) {
    const s = [rnd(), rnd(), rnd(), rnd()].join('.');
    assert.is(matches(mask, s), isMask(s), s);
  }
  for (const s of ['255.255.255.0', '255.255.0.0', '255.255.255.252', '128.0.0.0']) assert.ok(matches(mask, s), s);
  for (const s of ['255.0.255.0', '0.0.0.0', '255.255.255.1', '255.255.255', '255.255.255.0.0', '0255.255.255.0']) assert.not.ok(matches(mask, s), s);
});

p('the IPv4 pattern accepts exactly what the form calls an address', () => {
  const ip = CALLS.GetEthernetParam.request.Ip.pattern;
  for (const s of ['0.0.0.0', '192.168.1.201', '10.0.0.1', '255.255.255.255', '1.2.3', '256.1.1.1', '01.2.3.4', '1.2.3.4.', ' 1.2.3.4', 'a.b.c.d'])
    assert.is(matches(ip, s), isIPv4(s), s);
});
p.run();

// ---------------------------------------------------------------------------
const s = suite('simulated Wi-Fi and Bluetooth');
let sim: Simulator;
let token = '';

const call = (name: CallName, params: Record<string, unknown> = {}) => callSimulator(sim.url, name, params, token);

async function untilDone(name: CallName, params?: Record<string, unknown>) {
  for (let i = 0; i < 50; i++) {
    const r = await call(name, params);
    if (r.retvalue !== 'wait') return r;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${name} kept answering wait`);
}

const wifi = () => sim.store.get().settings.Wirless;

s.before.each(async () => {
  sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(mkdtempSync(join(tmpdir(), 'net-')), 'store.json') });
  Object.assign(surroundings(sim.store), { scanMs: 60, joinMs: 10, searchMs: 60, pairMs: 10 });
  token = (await call('chklogin', { username: 'admin', password: TEST_ADMIN.password })).token as string;
});
s.after.each(() => sim.close());

s('a scan answers "wait" while it runs, then the broadcast networks, strongest first', async () => {
  // A scan that lasts until the test ends it: on a busy machine 60 ms can pass between two calls.
  const air = surroundings(sim.store);
  air.scanMs = 600_000;
  assert.equal(await call('SetAllWirless'), { retvalue: 0 });
  assert.equal(await call('GetChooseWirless'), { retvalue: 'wait' });
  assert.equal(await call('GetChooseWirless'), { retvalue: 'wait' }, 'still scanning');
  air.scan!.done = 0;
  const r = await call('GetChooseWirless');
  const list = r.List as { Ssid: string; Signal: number; Connected: number }[];
  assert.is(r.retvalue, 0);
  assert.ok(list.length >= 4);
  assert.ok(list.every((n, i) => i === 0 || list[i - 1].Signal >= n.Signal));
  assert.not.ok(list.some((n) => n.Ssid === 'Lab'), 'a hidden network is not listed');
  assert.ok(list.every((n) => n.Connected === 0));
});

s('a failed scan answers 30101 "Obtaining failed, please refresh."; the next scan works', async () => {
  surroundings(sim.store).scanFails = true;
  await call('SetAllWirless');
  assert.equal(await untilDone('GetChooseWirless'), { retvalue: 30101, msg: 'msg.wifiScanFailed' });
  surroundings(sim.store).scanFails = false;
  await call('SetAllWirless');
  assert.is((await untilDone('GetChooseWirless')).retvalue, 0);
});

s('joining: a wrong password or an injected failure falls back to AP mode (30102); the right one connects', async () => {
  assert.is(wifi().WifiMode, 1);
  assert.equal(await call('GetChooseWirless', { Ssid: 'Office', Password: 'wrong-pass' }), { retvalue: 30102, msg: 'msg.wifiFallbackAP' });
  assert.is(wifi().WifiMode, 1);
  assert.equal(await call('GetChooseWirless', { Ssid: 'Office', Password: 'short' }), { retvalue: 10005, msg: 'err.10005', field: 'Password' });
  assert.equal(await call('GetChooseWirless', { Ssid: 'Nowhere' }), { retvalue: 10003, msg: 'err.10003', field: 'Security' });
  surroundings(sim.store).joinFails = true;
  assert.is((await call('GetChooseWirless', { Ssid: 'Office', Password: 'office-2026' })).retvalue, 30102);
  surroundings(sim.store).joinFails = false;
  assert.equal(await call('GetChooseWirless', { Ssid: 'Office', Password: 'office-2026' }), { retvalue: 0 });
  assert.equal({ ...wifi() }, { ...wifi(), WifiMode: 0, Ssid: 'Office', Security: 1, Password: 'office-2026' });
  // A hidden network by hand needs its security; Enterprise needs the identity.
  assert.equal(await call('GetChooseWirless', { Ssid: 'Lab', Security: 1, Password: 'hidden-lab' }), { retvalue: 0 });
  assert.equal(await call('GetChooseWirless', { Ssid: 'Corp-Secure', Password: 'corp-pass' }), { retvalue: 10003, msg: 'err.10003', field: 'Identity' });
  assert.equal(await call('GetChooseWirless', { Ssid: 'Corp-Secure', Password: 'corp-pass', Identity: 'alice' }), { retvalue: 0 });
  await call('SetAllWirless');
  const list = (await untilDone('GetChooseWirless')).List as { Ssid: string; Connected: number }[];
  assert.equal(list.filter((n) => n.Connected).map((n) => n.Ssid), ['Corp-Secure']);
});

s('saving the Wi-Fi form in station mode joins; a failed join answers 30102 and the device is in AP mode', async () => {
  const base = { ...wifi() };
  assert.equal(await call('GetWirless', { ...base, WifiMode: 0, Ssid: 'Warehouse', Password: 'forklift-00' }), { retvalue: 30102, msg: 'msg.wifiFallbackAP' });
  assert.equal({ ...wifi() }, base);
  assert.equal(await call('GetWirless', { ...base, WifiMode: 0, Ssid: 'Warehouse', Password: 'forklift-99' }), { retvalue: 0 });
  assert.is(wifi().WifiMode, 0);
  assert.equal(await call('GetWirless', { ...base, ApPassword: 'short' }), { retvalue: 10005, msg: 'err.10005', field: 'ApPassword' });
  assert.equal(await call('GetWirless', { ...base, ApNameMode: 1, ApName: 'Lobby' }), { retvalue: 0 });
  assert.equal({ ...wifi() }, { ...base, ApNameMode: 1, ApName: 'Lobby' });
});

s('Bluetooth: a search answers "wait", then the devices once; pairing needs a device found; the paired list persists', async () => {
  assert.equal(await call('SetBleDevGroup'), { retvalue: 0, List: [] });
  assert.equal(await call('GetBleConnect', { Address: '5C:F3:70:12:34:56' }), { retvalue: 30201, msg: 'msg.failed' });
  assert.equal(await call('GetSearchBleDev'), { retvalue: 'wait' });
  const found = await untilDone('GetSearchBleDev');
  assert.equal((found.List as { Address: string }[]).map((d) => d.Address), ['5C:F3:70:12:34:56', '5C:F3:70:AB:CD:EF', 'D8:A0:1D:00:11:22']);
  assert.equal(await call('GetSearchBleDev'), { retvalue: 'wait' }, 'the next call starts a new search');
  assert.equal(await call('GetBleConnect', { Address: '5c:f3:70:12:34:56' }), { retvalue: 0 });
  assert.equal(await call('GetBleConnect', { Address: '5C:F3:70:12:34:56' }), { retvalue: 0 }, 'pairing again changes nothing');
  assert.equal(await call('GetBleConnect', { Address: 'nope' }), { retvalue: 10005, msg: 'err.10005', field: 'Address' });
  assert.equal(await call('SetBleDevGroup'), { retvalue: 0, List: [{ Name: 'Door lock A', Address: '5C:F3:70:12:34:56' }] });
});

s.run();
