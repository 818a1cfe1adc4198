// Basic setup: the contract says what SPEC §3 / §9 say, the simulated
// terminal's factory values fit it, and its own handlers (device language,
// clock, DST dates, Wiegand pairing, authorization lists) answer SPEC §8
// codes and change nothing when they refuse.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { validate } from '../../simulator/validate.ts';
import { PAIRING_MS, seeds } from '../../simulator/areas/basic.ts';
import { CALLS, type CallName } from '../../contract/index.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

test('SPEC §3 / §9: DST +0 to +3 h, weeks 1 to 6 plus last and penultimate; seven weekdays; eight statuses', () => {
  const dst = CALLS.GetDSTParam.request;
  assert.equal([dst.Offset.min, dst.Offset.max], [0, 3]);
  assert.equal([...dst.StartWeek.values], [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(Object.keys(CALLS.GetStatusChangeInfo.request), ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
  assert.is(Object.keys(CALLS.GetApplyParam.request).length, 8);
  assert.equal([...CALLS.GetFPCompareParam.request.FPPrecision.values], [0, 1, 2]);
  assert.is(CALLS.SetAnvizWiegandAuthorize.encoding, 'query');
  assert.is(CALLS.SetAnvizWiegandAuthorize.method, 'POST');
  assert.is(CALLS.AnvizWiegandMatch.method, 'GET');
});

test('factory values fit the contract', () => {
  for (const [pair, values] of Object.entries(seeds)) {
    const spec = CALLS[`Get${pair}` as CallName] as { request: Parameters<typeof validate>[1] };
    // DateTimeParam's seed leaves out what the clock answers.
    const full = pair === 'DateTimeParam' ? { ...values, Date: '2026-01-01', Time: '00:00', DateFormat: 0, TimeFormat: 0 } : values;
    assert.is(validate(full, spec.request), null, pair);
  }
});

test('simulated terminal: language restart, clock, DST dates, pairing, authorization lists', async () => {
  const sim = await startSimulator({ activated: TEST_ADMIN.password, model: loadModel('default', {}), storeFile: join(mkdtempSync(join(tmpdir(), 'basic-')), 's.json') });
  const realNow = Date.now;
  let shift = 0;
  Date.now = () => realNow() + shift;
  try {
    const signIn = async () =>
      ((await (await fetch(`${sim.url}/goform/chklogin`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: TEST_ADMIN.password }) })).json()) as { token: string }).token;
    let token = await signIn();
    const get = async (path: string, q = '') => (await fetch(`${sim.url}/goform/${path}?${q}`, { headers: { 'X-Token': token } })).json();
    const post = async (path: string, body: unknown) =>
      (await fetch(`${sim.url}/goform/${path}`, { method: 'POST', headers: { 'X-Token': token, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();

    // Display: same language, no restart; a new one restarts (reboot) and ends the session.
    const display = { Language: 'en', DateFormat: 2, TimeFormat: 1, PowerSaving: 0, ScreenInterval: 30, KeyboardLock: 1 };
    assert.equal(await post('GetTimeParam', display), { retvalue: 0 });
    assert.equal(await post('GetTimeParam', { ...display, Language: 'zh' }), { retvalue: 0, reboot: true });
    assert.is((await get('SetTimeParam')).retvalue, 10002, 'the restart ended the session');
    token = await signIn();
    assert.is((await get('SetTimeParam')).Language, 'zh');

    // Clock: manual setting, shown in the time zone; the formats are the display's.
    const clock = { Mode: 0, Date: '2030-06-15', Time: '08:45', DateFormat: 2, TimeFormat: 1, NtpServer: '', TimeZone: '+05:30' };
    assert.equal(await post('GetDateTimeParam', clock), { retvalue: 0 });
    let dt = await get('SetDateTimeParam');
    assert.equal([dt.Date, dt.Time, dt.TimeZone, dt.DateFormat, dt.TimeFormat], ['2030-06-15', '08:45', '+05:30', 2, 1]);
    shift += 90_000;
    dt = await get('SetDateTimeParam');
    assert.is(dt.Time, '08:46', 'the clock runs');
    // Sending back what was shown keeps the clock; a new time zone moves the wall clock.
    assert.equal(await post('GetDateTimeParam', { ...clock, Time: '08:46', TimeZone: '+01:00' }), { retvalue: 0 });
    assert.is((await get('SetDateTimeParam')).Time, '04:16');
    assert.equal(await post('GetDateTimeParam', { ...clock, Mode: 1 }), { retvalue: 10003, msg: 'err.10003', field: 'NtpServer' });
    assert.equal(await post('GetDateTimeParam', { ...clock, TimeZone: '+14:30' }), { retvalue: 10005, msg: 'err.10005', field: 'TimeZone' });
    assert.is((await get('SetDateTimeParam')).Mode, 0, 'a refused write changes nothing');

    // DST, date format: a day the month does not have is refused.
    const dst = { ...seeds.DSTParam, Mode: 1, StartMonth: 2, StartDay: 29, EndMonth: 11, EndDay: 31 };
    assert.equal(await post('GetDSTParam', dst), { retvalue: 10005, msg: 'err.10005', field: 'EndDay' });
    assert.is((await get('SetDSTParam')).Mode, 0);
    assert.equal(await post('GetDSTParam', { ...dst, EndDay: 30 }), { retvalue: 0 });

    // Wiegand pairing: "wait" while listening, then the reader, which joins the list unauthorized.
    assert.equal(await get('AnvizWiegandMatch', 'Route=3'), { retvalue: 10005, msg: 'err.10005', field: 'Route' });
    assert.equal(await get('AnvizWiegandMatch', 'Route=1'), { retvalue: 'wait' });
    shift += PAIRING_MS / 2;
    assert.equal(await get('AnvizWiegandMatch', 'Route=1'), { retvalue: 'wait' });
    shift += PAIRING_MS;
    const paired = await get('AnvizWiegandMatch', 'Route=1');
    assert.equal(paired, { retvalue: 0, Mac: '02:00:5e:21:00:03', Model: 'WR-10 reader', MachineNo: 103 });
    let list = (await post('SetAnvizWiegandAuthorize', {})).list as { Mac: string; Status: number }[];
    assert.equal(list.map((d) => [d.Mac, d.Status]).at(-1), ['02:00:5e:21:00:03', 0]);

    // Authorize, cancel, delete; unknown or no devices are refused.
    assert.equal(await post('GetAnvizWiegandAuthorize', { Macs: ['02:00:5E:21:00:03'], Status: 1 }), { retvalue: 0 });
    assert.equal(await post('GetAnvizWiegandAuthorize', { Macs: ['02:00:5e:21:00:03', '02:00:5e:99:00:00'], Status: 0 }), { retvalue: 10005, msg: 'err.10005', field: 'Macs' });
    list = (await post('SetAnvizWiegandAuthorize', {})).list as { Mac: string; Status: number }[];
    assert.is(list.at(-1)!.Status, 1, 'nothing changed');
    assert.equal(await post('DeleteSomeBluetooth', { Macs: [] }), { retvalue: 10003, msg: 'err.10003', field: 'Macs' });
    assert.equal(await post('DeleteSomeBluetooth', { Macs: ['02:00:5e:31:00:01'] }), { retvalue: 0 });
    assert.equal(((await post('SetBluetoothAuthorize', {})).list as { Mac: string }[]).map((d) => d.Mac), ['02:00:5e:32:00:02']);
  } finally {
    Date.now = realNow;
    await sim.close();
  }
});

test.run();
