// Settings backup and restore (src/screens/maint/backup.ts): the checksum,
// what goes into the file (no passwords unless asked, no clock, no screen
// language), verification (format, version, checksum, brand and model, every
// value against the contract), the changes shown, and what a restore sends.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { english, fakeDevice, restoreFetch, type FakeDevice } from '../support/helpers.ts';
import { CALLS, type Field } from '../../contract/index.ts';
import { callsUsed } from '../../build/calls.ts';
import { ITEMS, PARTS, carry, diff, fnv, has, plan, restore, verify, type Backup } from '../../src/screens/maint/backup.ts';

const part = (read: string, title?: string) => PARTS.find((p) => p.read == read && (!title || p.title == title))!;
const item = (id: string) => ITEMS.find((i) => i.id == id)!;
const seal = (f: object) => ({ ...f, check: fnv(JSON.stringify(f)) });
const FULL = ['user', 'network', 'basicSetting', 'AccSetting', 'advSetting', 'fingerprint', 'wifi', 'bluetooth', 'mqtt', 'cloud', 'wiegand', 'print'];
const LITE = ['user', 'network', 'basicSetting', 'advSetting', 'face', 'card', 'report'];

function file(settings: Record<string, unknown>, over: Partial<Backup> = {}): Backup {
  const { check, ...rest } = { format: 'terminal-settings', version: 1, brand: 'ia', model: 'T10', firmware: 'V1', serial: 'S1', date: '2026-11-23T09:00:00.000Z', passwords: false, settings, ...over };
  void check;
  return seal(rest) as Backup;
}

test.before(english);

test('FNV-1a 32: the published test vectors, over UTF-8 bytes', () => {
  assert.is(fnv(''), '811c9dc5');
  assert.is(fnv('a'), 'e40c292c');
  assert.is(fnv('foobar'), 'bf9cf968');
  // é is two bytes (c3 a9): hashed byte by byte, as any FNV-1a over the UTF-8 text.
  let h = 0x811c9dc5;
  for (const b of [0xc3, 0xa9]) h = Math.imul(h ^ b, 0x01000193);
  assert.is(fnv('é'), (h >>> 0).toString(16).padStart(8, '0'));
  assert.is(fnv('x').length, 8);
});

test('the parts: one entry per read, numbered records 1..n, lists by type, the network parts that may cut the page off last', () => {
  const ids = ITEMS.map((i) => i.id);
  assert.is(new Set(ids).size, ids.length);
  for (const id of ['SetMachineParam', 'SetTimeIntervalInfo?ZoneNum=1', 'SetTimeIntervalInfo?ZoneNum=32', 'SetGroupInfo?GroupNum=16', 'SetShiftsInfo?ShiftNum=8', 'SetGroupTime?Type=1', 'SetGroupTime?Type=0', 'SetUniversalGroup', 'SetWirless'])
    assert.ok(ids.includes(id), id);
  assert.is(ids.length, PARTS.length - 3 + 32 + 16 + 8);
  const links = PARTS.map((p) => !!p.link);
  assert.equal(links.slice(links.indexOf(true)), links.slice(links.indexOf(true)).map(() => true));
  assert.equal(PARTS.filter((p) => p.link).map((p) => p.read), ['SetWirless', 'SetInternetParam', 'SetEthernetParam', 'SetRestParam']);
  // Time zones before the time groups that name them.
  assert.ok(ids.indexOf('SetTimeIntervalInfo?ZoneNum=1') < ids.indexOf('SetGroupInfo?GroupNum=1'));
  // Not the system information, the language switch, users, authorization lists, serial key or debug.
  for (const read of ['SetInfoParam', 'SetLanguageSettingItem', 'userlist', 'SetAnvizWiegandAuthorize', 'SetBluetoothAuthorize', 'SetSNKeyParam', 'SetDebugParam'])
    assert.not.ok(PARTS.some((p) => p.read == read), read);
});

test('every part is a real read and write, its rules ship with the console, and its int fields have a range or values', () => {
  const checked = callsUsed(undefined, true);
  // The build ships how each call travels and its rules only for the calls it sees in the source.
  const used = callsUsed();
  for (const call of ['SetInfoParam', 'DelSomeGroup', ...PARTS.flatMap((p) => [p.read, p.write])]) assert.ok(used.has(call), `${call}: the build does not see it`);
  for (const p of PARTS) {
    assert.ok(p.read in CALLS && CALLS[p.read].method == 'GET', p.read);
    assert.ok(p.write in CALLS && CALLS[p.write].method == 'POST', p.write);
    assert.ok(checked.has(p.write), `${p.write}: the build ships no rules for it`);
    for (const [k, f] of Object.entries(CALLS[p.write].request as Record<string, Field>))
      if (f.kind == 'int') assert.ok(f.values || (f.min !== undefined && f.max !== undefined), `${p.write}.${k}`);
  }
});

test('a part is there when its screen is: the route and its group in the function list', () => {
  assert.ok(has(part('SetWirless'), FULL));
  assert.not.ok(has(part('SetWirless'), LITE));
  assert.not.ok(has(part('SetBluetoothParam'), LITE));
  assert.not.ok(has(part('SetFPCompareParam'), LITE));
  assert.not.ok(has(part('SetUniversalGroup'), LITE));
  assert.ok(has(part('SetGroupInfo'), LITE));
  assert.ok(has(part('SetMachineParam'), LITE));
  assert.not.ok(has(part('SetMachineParam'), ['network']));
});

test('the file leaves out passwords unless asked, the clock and the screen language; lists lose their numbers', () => {
  const wifi = { WifiMode: 1, Ssid: 'x', Password: 'secret', ApPassword: '12345678', Security: 1 };
  assert.equal(carry(part('SetWirless'), wifi, false), { WifiMode: 1, Ssid: 'x', Security: 1 });
  assert.equal(carry(part('SetWirless'), wifi, true), wifi);
  // A switch named after the password is not a password.
  assert.equal(carry(part('SetCommMode'), { PwdSwitch: 1, Password: '12', Port: 5010 }, false), { PwdSwitch: 1, Port: 5010 });
  assert.equal(carry(part('SetMachineParam'), { DeviceID: 1, AdminPwd: '1234' }, false), { DeviceID: 1 });
  assert.equal(carry(part('SetDateTimeParam'), { Mode: 0, Date: '2026-01-01', Time: '10:00', TimeZone: '+01:00' }, true), { Mode: 0, TimeZone: '+01:00' });
  assert.equal(carry(part('SetTimeParam'), { Language: 'en', DateFormat: 1 }, true), { DateFormat: 1 });
  assert.equal(carry(part('SetUniversalGroup'), [{ Num: 3, Name: 'A', TimeGroup: 1 }], false), [{ Name: 'A', TimeGroup: 1 }]);
});

test('verify: a good file passes', () => {
  const f = file({ SetMachineParam: { DeviceID: 5, Volume: 3 }, 'SetGroupInfo?GroupNum=2': { GroupNum: 2, Time1: 1, Time2: 0, Time3: 0, Time4: 32 }, SetUniversalGroup: [{ Name: 'Staff', TimeGroup: 1 }] });
  assert.equal(verify(JSON.stringify(f, null, 1), 'ia', 'T10'), f);
  // An empty optional text is a value (it clears the field).
  assert.equal(verify(JSON.stringify(file({ SetCommMode: { Password: '', ServerUrl: '' } })), 'ia', 'T10').hasOwnProperty('id'), false);
});

test('verify: not JSON, another format, a newer version, a failed check, another brand or model', () => {
  const bad = { id: 'bak.bad' };
  const f = file({ SetMachineParam: { Volume: 3 } });
  assert.equal(verify('{', 'ia', 'T10'), bad);
  assert.equal(verify('null', 'ia', 'T10'), bad);
  assert.equal(verify('[]', 'ia', 'T10'), bad);
  assert.equal(verify(JSON.stringify(file({}, { format: 'x' })), 'ia', 'T10'), bad);
  assert.equal(verify(JSON.stringify(file(null as never)), 'ia', 'T10'), bad);
  assert.equal(verify(JSON.stringify(file({}, { version: 0 })), 'ia', 'T10'), bad);
  assert.equal(verify(JSON.stringify(file({}, { version: 2 })), 'ia', 'T10'), { id: 'bak.newer', values: { v: 2 } });
  assert.equal(verify(JSON.stringify({ ...f, settings: { SetMachineParam: { Volume: 4 } } }), 'ia', 'T10'), bad);
  assert.equal(verify(JSON.stringify({ ...f, check: undefined }), 'ia', 'T10'), bad);
  assert.equal(verify(JSON.stringify(f), 'ia', 'T2'), { id: 'bak.other', values: { file: 'ia T10', here: 'ia T2' } });
  assert.equal(verify(JSON.stringify(f), 'nice', 'T10'), { id: 'bak.other', values: { file: 'ia T10', here: 'nice T10' } });
});

test('verify: an entry the format does not name refuses the whole file; values are the device\'s to check', () => {
  const refused = (settings: Record<string, unknown>) => verify(JSON.stringify(file(settings)), 'ia', 'T10');
  assert.equal(refused({ SetMachineParam: { Volume: 3 }, SetNothing: {} }), { id: 'bak.bad' });
  assert.equal(refused({ 'SetGroupInfo?GroupNum=17': {} }), { id: 'bak.bad' });
  assert.equal((refused({ SetMachineParam: { Volume: 11 } }) as { settings: unknown }).settings, { SetMachineParam: { Volume: 11 } });
});

test('the changes shown: field, the terminal\'s value, the file\'s, as text; passwords masked; a list as one row', () => {
  assert.equal(diff(item('SetMachineParam'), { DeviceID: 1, Volume: 5, AdminPwd: '1' }, { DeviceID: 1, Volume: 7, AdminPwd: '2' }), [
    ['Device', 'Volume', '5', '7'],
    ['Device', 'AdminPwd', '***', '***'],
  ]);
  // Only what the file holds is compared: a password it leaves out is no change.
  assert.equal(diff(item('SetMachineParam'), { DeviceID: 1, AdminPwd: '1' }, { DeviceID: 1 }), []);
  assert.equal(diff(item('SetApplyParam'), { Status0: 'IN' }, { Status0: '<b>x</b>' }), [['Attendance status', 'Status0', 'IN', '<b>x</b>']]);
  assert.equal(diff(item('SetGroupInfo?GroupNum=3'), { GroupNum: 3, Time1: 0 }, { GroupNum: 3, Time1: 2 }), [['Groups 3', 'Time1', '0', '2']]);
  const now = [{ Num: 1, Name: 'Staff', TimeGroup: 1 }, { Num: 2, Name: 'Temp', TimeGroup: 2 }];
  assert.equal(diff(item('SetUniversalGroup'), now, [{ Name: 'Staff', TimeGroup: 1 }]), [['Work group', 'Groups', 'Staff 1; Temp 2', 'Staff 1']]);
  assert.equal(diff(item('SetUniversalGroup'), now.slice(0, 1), [{ Name: 'Staff', TimeGroup: 1 }]), []);
});

// What goes over the wire: a loopback device that answers reads from `state` and records writes.
let dev: FakeDevice;
const state: Record<string, unknown> = {};
const sent = () => dev.received.filter((r) => r.method == 'POST').map((r) => [r.url.pathname.slice(8), r.body]);

test('restore: what the file leaves out is sent as the terminal has it (required) or left out (optional); a record keeps its number', async () => {
  dev = await fakeDevice();
  try {
    dev.answer = (r) => {
      const call = r.url.pathname.slice(8);
      return { body: JSON.stringify(r.method == 'GET' ? { retvalue: 0, ...(state[call + (r.url.searchParams.has('GroupNum') ? r.url.searchParams.get('GroupNum') : '')] as object) } : { retvalue: 0 }) };
    };
    state.SetMachineParam = { DeviceID: 1, Volume: 5, AdminPwd: '4321' };
    state.SetDateTimeParam = { Mode: 0, Date: '2026-11-23', Time: '10:41', DateFormat: 0, TimeFormat: 0, NtpServer: '', TimeZone: '+00:00' };
    state.SetMqttCloudParam = { Switch: 1, Users: 'acme', Password: 'mqtt-secret' };
    state.SetGroupInfo3 = { GroupNum: 3, Time1: 0, Time2: 0, Time3: 0, Time4: 0 };
    assert.is(await restore(item('SetMachineParam'), { DeviceID: 1, Volume: 7 }), null);
    assert.is(await restore(item('SetDateTimeParam'), { Mode: 0, DateFormat: 2, TimeFormat: 0, NtpServer: '', TimeZone: '+01:00' }), null);
    assert.is(await restore(item('SetMqttCloudParam'), { Switch: 0, Users: 'acme' }), null);
    assert.is(await restore(item('SetGroupInfo?GroupNum=3'), { GroupNum: 9, Time1: 2, Time2: 0, Time3: 0, Time4: 0 }), null);
    assert.equal(sent().map(([c, b]) => [c, JSON.parse(b)]), [
      ['GetMachineParam', { DeviceID: 1, Volume: 7, AdminPwd: '4321' }],
      ['GetDateTimeParam', { Mode: 0, Date: '2026-11-23', Time: '10:41', DateFormat: 2, TimeFormat: 0, NtpServer: '', TimeZone: '+01:00' }],
      ['GetMqttCloudParam', { Switch: 0, Users: 'acme' }],
      ['GetGroupInfo', { GroupNum: 3, Time1: 2, Time2: 0, Time3: 0, Time4: 0 }],
    ]);
  } finally {
    restoreFetch();
    await dev.close();
  }
});

test('restore: a list is replaced (delete the terminal\'s, add the file\'s in order); the first refusal is answered, naming the field', async () => {
  dev = await fakeDevice();
  try {
    let refuse = false;
    dev.answer = (r) => {
      const call = r.url.pathname.slice(8);
      if (r.method == 'GET') return { body: JSON.stringify({ retvalue: 0, Periods: [{ Num: 1, Name: 'Old', Start: '2026-01-01 00:00', End: '2026-01-02 00:00', Cycle: 0 }, { Num: 4, Name: 'Old 2', Start: '2026-01-01 00:00', End: '2026-01-02 00:00', Cycle: 0 }] }) };
      if (call == 'AddGroupTime' && refuse) return { body: JSON.stringify({ retvalue: 10005, msg: 'err.10005', field: 'End' }) };
      return { body: '{"retvalue":0}' };
    };
    const periods = [
      { Name: 'A', Start: '2026-02-01 08:00', End: '2026-02-01 18:00', Cycle: 1 },
      { Name: 'B', Start: '2026-03-01 08:00', End: '2026-03-01 18:00', Cycle: 2 },
    ];
    assert.is(await restore(item('SetGroupTime?Type=0'), periods), null);
    assert.equal(sent(), [
      ['DelSomeGroup', 'Type=0&Nums=1%2C4'],
      ['AddGroupTime', 'Name=A&Start=2026-02-01+08%3A00&End=2026-02-01+18%3A00&Cycle=1&Type=0'],
      ['AddGroupTime', 'Name=B&Start=2026-03-01+08%3A00&End=2026-03-01+18%3A00&Cycle=2&Type=0'],
    ]);
    dev.received.length = 0;
    refuse = true;
    assert.is(await restore(item('SetGroupTime?Type=0'), periods), 'End: Parameter Value Error');
    // Stopped at the first refused add.
    assert.is(sent().length, 2);
  } finally {
    restoreFetch();
    await dev.close();
  }
});

test('plan: only what differs, in restore order; the parts this terminal lacks by title', async () => {
  dev = await fakeDevice();
  try {
    dev.answer = (r) => ({ body: JSON.stringify({ retvalue: 0, ...(r.url.pathname.endsWith('SetMachineParam') ? { DeviceID: 1, Volume: 5, AdminPwd: '1' } : { RelayMode: 2 }) }) });
    const f = file({ SetMachineParam: { DeviceID: 1, Volume: 6 }, SetAccessControl: { RelayMode: 2 }, SetWirless: { WifiMode: 1 }, SetBluetoothParam: { BleOption: 1 } });
    const [changes, lacks] = await plan(f, LITE);
    assert.equal(changes.map((c) => c.rows), [[['Device', 'Volume', '5', '6']]]);
    assert.equal(lacks, ['Bluetooth', 'Wi-Fi']);
    // Nothing written while planning.
    assert.equal(sent(), []);
  } finally {
    restoreFetch();
    await dev.close();
  }
});

test.run();
