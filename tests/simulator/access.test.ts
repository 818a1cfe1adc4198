// Access control: the contract says what SPEC §3 / §9 say, the simulated
// terminal's factory values fit the contract, and its semantic checks answer
// SPEC §8 codes and change nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { validate } from '../../simulator/validate.ts';
import { factoryAccess, seeds } from '../../simulator/areas/access.ts';
import { CALLS } from '../../contract/index.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

test('SPEC §3 / §9: nine Wiegand formats, card length 4 or 3 bytes, four time slots, seven weekdays', () => {
  const ac = CALLS.GetAccessControl.request;
  assert.is(ac.WiegandFormat.values.length, 9);
  assert.equal([...ac.CardLength.values], [4, 3]);
  assert.equal([...ac.RelayMode.values], [0, 1, 2]);
  assert.equal(Object.keys(CALLS.GetGroupInfo.request), ['GroupNum', 'Time1', 'Time2', 'Time3', 'Time4']);
  assert.is(Object.keys(CALLS.GetTimeIntervalInfo.request).filter((k) => k.endsWith('Start')).length, 7);
  assert.is(CALLS.AddGroupTime.encoding, 'form');
  assert.is(CALLS.DelSomeGroup.encoding, 'form');
  assert.is(CALLS.GetUniversalGroup.encoding, 'form');
  assert.is(CALLS.SetGroupTime.method, 'GET');
});

test('factory values fit the contract', () => {
  assert.is(validate(seeds.AccessControl, CALLS.GetAccessControl.request), null);
  assert.is(validate(seeds.CardInfo, CALLS.GetCardInfo.request), null);
  const d = factoryAccess();
  for (const r of Object.values(d.GroupInfo)) assert.is(validate(r, CALLS.GetGroupInfo.request), null);
  for (const r of Object.values(d.TimeIntervalInfo)) assert.is(validate(r, CALLS.GetTimeIntervalInfo.request), null);
  for (const r of Object.values(d.ShiftsInfo)) assert.is(validate(r, CALLS.GetShiftsInfo.request), null);
  assert.is(validate({ Periods: [...d.periods[0], ...d.periods[1]] }, CALLS.SetGroupTime.response), null);
  assert.is(validate({ Groups: d.work }, CALLS.SetUniversalGroup.response), null);
});

test('simulated terminal: numbered records, periods, limits and semantic checks', async () => {
  const sim = await startSimulator({ activated: TEST_ADMIN.password, model: loadModel('default', {}), storeFile: join(mkdtempSync(join(tmpdir(), 'acc-')), 's.json') });
  try {
    const login = (await (await fetch(`${sim.url}/goform/chklogin`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: TEST_ADMIN.password }) })).json()) as { token: string };
    const headers = { 'X-Token': login.token };
    const get = async (path: string, q: string) => (await fetch(`${sim.url}/goform/${path}?${q}`, { headers })).json();
    const post = async (path: string, body: string, type = 'application/x-www-form-urlencoded') =>
      (await fetch(`${sim.url}/goform/${path}`, { method: 'POST', headers: { ...headers, 'Content-Type': type }, body })).json();

    assert.equal(await get('SetGroupInfo', 'GroupNum=1'), { retvalue: 0, GroupNum: 1, Time1: 1, Time2: 2, Time3: 0, Time4: 0 });
    assert.equal(await get('SetGroupInfo', 'GroupNum=0'), { retvalue: 10005, msg: 'err.10005', field: 'GroupNum' });
    assert.equal(await get('SetGroupInfo', ''), { retvalue: 10003, msg: 'err.10003', field: 'GroupNum' });
    assert.equal(await post('GetGroupInfo', JSON.stringify({ GroupNum: 9, Time1: 3, Time2: 0, Time3: 0, Time4: 32 }), 'application/json'), { retvalue: 0 });
    assert.equal((await get('SetGroupInfo', 'GroupNum=9')).Time4, 32);
    assert.equal((await get('SetGroupInfo', 'GroupNum=1')).Time1, 1, 'other numbers keep their values');

    const zone = { ZoneNum: 3, ...Object.fromEntries(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].flatMap((d) => [[`${d}Start`, '08:00'], [`${d}End`, '12:00']])) };
    assert.equal(await post('GetTimeIntervalInfo', JSON.stringify({ ...zone, WedEnd: '07:59' }), 'application/json'), { retvalue: 10005, msg: 'err.10005', field: 'WedEnd' });
    assert.equal((await get('SetTimeIntervalInfo', 'ZoneNum=3')).WedEnd, '00:00', 'a refused write changes nothing');
    assert.equal(await post('GetTimeIntervalInfo', JSON.stringify(zone), 'application/json'), { retvalue: 0 });

    // Periods: lowest free number, per type; at 16 "Add up to limit !".
    assert.equal(await post('AddGroupTime', 'Type=0&Name=A&Start=2026-01-01+08:00&End=2026-01-01+09:00&Cycle=2'), { retvalue: 0, Num: 2 });
    for (let n = 3; n <= 16; n++) assert.equal((await post('AddGroupTime', `Type=0&Name=P${n}&Start=2026-01-01+08:00&End=2026-01-02+08:00&Cycle=0`)).Num, n);
    assert.equal(await post('AddGroupTime', 'Type=0&Name=Z&Start=2026-01-01+08:00&End=2026-01-01+09:00&Cycle=0'), { retvalue: 10004, msg: 'msg.addUpToLimit' });
    assert.equal(await post('DelSomeGroup', 'Type=0&Nums=2,5'), { retvalue: 0 });
    assert.equal(await post('DelSomeGroup', 'Type=0&Nums=2'), { retvalue: 10005, msg: 'err.10005', field: 'Nums' });
    assert.equal(await post('DelSomeGroup', 'Type=0&Nums=2,x'), { retvalue: 10005, msg: 'err.10005', field: 'Nums' });
    const closed = (await get('SetGroupTime', 'Type=0')).Periods as { Num: number }[];
    assert.equal(closed.map((p) => p.Num), [1, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    assert.is(((await get('SetGroupTime', 'Type=1')).Periods as unknown[]).length, 1, 'the other type is its own list');
    assert.equal((await post('AddGroupTime', 'Type=0&Name=B&Start=2026-01-01+08:00&End=2026-01-01+09:00&Cycle=0')).Num, 2);

    // Work groups.
    assert.equal(await post('GetUniversalGroup', 'Name=Guards&TimeGroup=16'), { retvalue: 0, Num: 3 });
    assert.equal(await post('GetUniversalGroup', 'Name=Guards&TimeGroup=0'), { retvalue: 10005, msg: 'err.10005', field: 'TimeGroup' });
    assert.equal(await post('DelSomeGroup', 'Type=2&Nums=1'), { retvalue: 0 });
    assert.equal(((await get('SetUniversalGroup', '')).Groups as { Name: string }[]).map((g) => g.Name), ['Cleaning', 'Guards']);
  } finally {
    await sim.close();
  }
});

test.run();
