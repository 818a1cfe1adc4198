// The form engine in the DOM (happy-dom) against a loopback device: numbered
// records, weekday tables, a field the device names, and the refresh after a
// failed Wi-Fi join, including a refresh that fails (what was typed stays).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render } from 'preact';
import { domSuite, type Received } from '../support/helpers.ts';
import { SettingsForm, type FormDef } from '../../src/form/SettingsForm.tsx';
import { DAY_KEYS } from '../../src/form/validation.ts';
import { $unsaved } from '../../src/form/unsaved.ts';

const dom = domSuite(test, () => $unsaved.set(false));

/** Wait until `check` holds (the engine works through real HTTP). */
async function until(check: () => unknown, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** What a request carried: its query for GET, its body (JSON or URL-encoded) for POST. */
function sent(r: Received): Record<string, unknown> {
  if (r.method === 'GET') return Object.fromEntries([...r.url.searchParams].filter(([k]) => k !== '_t'));
  return r.body.startsWith('{') ? JSON.parse(r.body) : Object.fromEntries(new URLSearchParams(r.body));
}

const calls = (path: string) => dom.dev.received.filter((r) => r.url.pathname === `/goform/${path}`);
const byLabel = (label: string) => dom.root.querySelector<HTMLInputElement>(`[aria-label="${label}"]`) ?? ([...dom.root.querySelectorAll('label')].find((l) => l.textContent === label)?.control as HTMLInputElement | null);
const type = (el: HTMLInputElement | HTMLSelectElement, value: string, event = 'input') => {
  el.value = value;
  el.dispatchEvent(new Event(event, { bubbles: true }));
};
const submit = () => dom.root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
const buttons = (name: string) => [...dom.root.querySelectorAll('button')].find((b) => b.textContent === name)!;

test('a numbered record with a weekday table: reads ?ZoneNum=n, sends the number with every cell', async () => {
  const week = Object.fromEntries(DAY_KEYS.flatMap((d) => [[`${d}Start`, '08:00'], [`${d}End`, '17:00']]));
  dom.dev.answer = (r) => ({ body: JSON.stringify(r.method === 'GET' ? { retvalue: 0, ...week } : { retvalue: 0 }) });
  const def: FormDef = {
    read: 'SetTimeIntervalInfo',
    write: 'GetTimeIntervalInfo',
    key: { name: 'ZoneNum', label: 'acc.zoneNum' },
    fields: [{ name: 'Week', kind: 'weekdays', label: 'acc.day', cols: [{ suffix: 'Start', label: 'acc.start', kind: 'time' }, { suffix: 'End', label: 'acc.end', kind: 'time' }] }],
  };
  render(<SettingsForm def={def} />, dom.root);
  await until(() => dom.root.querySelector('table'), 'the table');
  assert.equal(sent(calls('SetTimeIntervalInfo')[0]), { ZoneNum: '1' });
  const chooser = dom.root.querySelector('select')!;
  assert.is(chooser.options.length, 32, 'the range comes from the contract');
  assert.is(dom.root.querySelectorAll('tbody tr').length, 7);
  assert.is(dom.root.querySelectorAll('tbody input').length, 14);
  assert.ok(buttons('Save').disabled, 'nothing changed yet');

  type(chooser, '5', 'change');
  await until(() => calls('SetTimeIntervalInfo').length === 2 && dom.root.querySelector('table'), 'zone 5');
  assert.equal(sent(calls('SetTimeIntervalInfo')[1]), { ZoneNum: '5' });
  const cells = dom.root.querySelectorAll<HTMLInputElement>('tbody input');
  type(cells[2], '09:30'); // Tuesday start
  await until(() => !buttons('Save').disabled, 'Save enabled');
  submit();
  await until(() => calls('GetTimeIntervalInfo').length === 1, 'the write');
  const body = sent(calls('GetTimeIntervalInfo')[0]);
  assert.is(String(body.ZoneNum), '5');
  assert.is(body.TueStart, '09:30');
  assert.is(Object.keys(body).length, 15, 'the number and all 14 cells');
});

test('a field the device names (10005) gets the message; what was typed stays', async () => {
  dom.dev.answer = (r) => ({ body: JSON.stringify(r.method === 'GET' ? { retvalue: 0, RepeatTime: 5, AlarmLogs: 100 } : { retvalue: 10005, field: 'AlarmLogs' }) });
  const def: FormDef = {
    read: 'SetKaoqinParam',
    write: 'GetKaoqinParam',
    fields: [
      { name: 'RepeatTime', kind: 'number', label: 'att.repeatTime' },
      { name: 'AlarmLogs', kind: 'number', label: 'att.alarmLogs' },
    ],
  };
  render(<SettingsForm def={def} />, dom.root);
  await until(() => dom.root.querySelectorAll('input').length === 2, 'the form');
  const [repeat, alarm] = dom.root.querySelectorAll('input');
  // Two edits in one task (no render between them): both count.
  type(alarm, '200');
  type(repeat, '7');
  await until(() => !buttons('Save').disabled, 'Save enabled');
  submit();
  await until(() => dom.root.querySelector('.field-error'), 'the field message');
  assert.is(dom.root.querySelector('.field-error')!.textContent, 'Parameter Value Error');
  assert.is(alarm.getAttribute('aria-invalid'), 'true');
  assert.is(alarm.value, '200');
  assert.is(repeat.value, '7');
});

const wifi = (mode: number) => ({ retvalue: 0, WifiMode: mode, Ssid: 'Office', Security: 1, Password: 'office-2026' });
const wifiDef: FormDef = {
  read: 'SetWirless',
  write: 'GetWirless',
  refreshOn: [30102],
  fields: [
    { name: 'WifiMode', kind: 'select', label: 'net.wifiMode', options: [{ value: 0, label: 'net.station' }, { value: 1, label: 'net.ap' }] },
    { name: 'Ssid', kind: 'text', label: 'net.ssid', dependsOn: { WifiMode: [0] }, required: true },
    { name: 'Security', kind: 'select', label: 'route.securityOne', options: [{ value: 1, label: 'net.secPersonal' }], dependsOn: { WifiMode: [0] } },
    { name: 'Password', kind: 'password', label: 'login.password', dependsOn: { WifiMode: [0] } },
  ],
};

test('refreshOn: after 30102 the device values are the new baseline; the typed ones stay; Undo shows the device', async () => {
  let mode = 0;
  dom.dev.answer = (r) => {
    if (r.method === 'GET') return { body: JSON.stringify(wifi(mode)) };
    mode = 1; // the join failed: the device is back in AP mode
    return { body: JSON.stringify({ retvalue: 30102, msg: 'msg.wifiFallbackAP' }) };
  };
  render(<SettingsForm def={wifiDef} />, dom.root);
  await until(() => byLabel('Network name (SSID)'), 'the form');
  type(byLabel('Network name (SSID)')!, 'Elsewhere');
  await until(() => !buttons('Save').disabled, 'Save enabled');
  submit();
  await until(() => calls('SetWirless').length === 2, 'the second read');
  await until(() => !buttons('Undo changes').disabled, 'the form, dirty against AP mode');
  assert.is(byLabel('Network name (SSID)')!.value, 'Elsewhere', 'what was typed stays');
  assert.is(dom.root.querySelector('select')!.value, '0');
  buttons('Undo changes').click();
  await until(() => dom.root.querySelector('select')!.value === '1', 'AP mode after Undo');
  assert.not.ok(byLabel('Network name (SSID)'), 'station fields hidden in AP mode');
});

test('refreshOn: when the refresh itself fails, the form stays as typed', async () => {
  let reads = 0;
  dom.dev.answer = (r) => {
    if (r.method === 'GET') return ++reads === 1 ? { body: JSON.stringify(wifi(0)) } : { status: 500, body: 'down' };
    return { body: JSON.stringify({ retvalue: 30102, msg: 'msg.wifiFallbackAP' }) };
  };
  render(<SettingsForm def={wifiDef} />, dom.root);
  await until(() => byLabel('Network name (SSID)'), 'the form');
  type(byLabel('Network name (SSID)')!, 'Elsewhere');
  await until(() => !buttons('Save').disabled, 'Save enabled');
  submit();
  await until(() => reads === 2, 'the refresh');
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(byLabel('Network name (SSID)'), 'the form is still there');
  assert.is(byLabel('Network name (SSID)')!.value, 'Elsewhere');
  assert.not.ok(dom.root.querySelector('[role="alert"]'), 'no failure panel replaced the form');
});

test.run();
