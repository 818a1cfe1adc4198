// The time zone list and the conversions (src/i18n/zones.ts), from the tz
// database Node's Intl has: each zone's offset at a given instant, daylight
// saving included; the list sorted by offset, then name; the wall clock of a
// zone; a stored offset from before names; no list without
// Intl.supportedValuesOf. And the simulated terminal's side: it refuses a
// name that is not a zone, answers the offset the zone implies, and applies
// DSTParam only with a fixed-offset zone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatOffset, isFixedZone, knownZones, offsetAt, wallClock, zoneList } from '../../src/i18n/zones.ts';
import { startSimulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { seeds } from '../../simulator/areas/basic.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

const WINTER = Date.UTC(2026, 0, 15, 12);
const SUMMER = Date.UTC(2026, 6, 15, 12);

test('offsets: a zone without DST, a zone with DST in winter and summer, south of the equator, a stored offset, an unknown name', () => {
  assert.is(offsetAt('Asia/Tokyo', WINTER), 540);
  assert.is(offsetAt('Asia/Tokyo', SUMMER), 540);
  assert.is(offsetAt('Europe/Berlin', WINTER), 60);
  assert.is(offsetAt('Europe/Berlin', SUMMER), 120);
  assert.is(offsetAt('America/New_York', SUMMER), -240);
  assert.is(offsetAt('Australia/Sydney', WINTER), 660, 'January is summer in Sydney');
  assert.is(offsetAt('Australia/Sydney', SUMMER), 600);
  assert.is(offsetAt('Asia/Kathmandu', SUMMER), 345);
  assert.is(offsetAt('Etc/GMT-9', SUMMER), 540, 'POSIX signs: Etc/GMT-9 is east of UTC');
  assert.is(offsetAt('+05:45', SUMMER), 345);
  assert.is(offsetAt('-03:30', SUMMER), -210);
  assert.ok(Number.isNaN(offsetAt('Mars/Olympus_Mons', SUMMER)));
  assert.equal([formatOffset(540), formatOffset(-210), formatOffset(0), formatOffset(345)], ['+09:00', '-03:30', '+00:00', '+05:45']);
});

test('the change of Europe/Berlin: 01:00 UTC on the last Sunday of March', () => {
  const change = Date.UTC(2026, 2, 29, 1);
  assert.is(offsetAt('Europe/Berlin', change - 1000), 60);
  assert.is(offsetAt('Europe/Berlin', change), 120);
  assert.equal(wallClock('Europe/Berlin', change - 60_000), { Date: '2026-03-29', Time: '01:59' });
  assert.equal(wallClock('Europe/Berlin', change), { Date: '2026-03-29', Time: '03:00' });
});

test('the list: every zone once with its offset, sorted by offset then name, labelled "UTC+02:00 Europe/Berlin"', () => {
  const list = zoneList(SUMMER);
  assert.ok(list.length > 300, `${list.length} zones`);
  assert.is(new Set(list.map((z) => z.name)).size, list.length);
  for (let i = 1; i < list.length; i++) {
    const [a, b] = [list[i - 1], list[i]];
    assert.ok(a.offset < b.offset || (a.offset === b.offset && a.name < b.name), `${a.label} before ${b.label}`);
  }
  const label = (name: string) => list.find((z) => z.name === name)?.label;
  assert.is(label('Europe/Berlin'), 'UTC+02:00 Europe/Berlin');
  assert.is(label('Asia/Tokyo'), 'UTC+09:00 Asia/Tokyo');
  assert.is(label('America/St_Johns'), 'UTC-02:30 America/St_Johns');
  assert.is(label('UTC'), 'UTC+00:00 UTC', 'UTC is offered even where the runtime does not list it');
  assert.is(label('Etc/GMT+12'), 'UTC-12:00 Etc/GMT+12');
  assert.is(label('Etc/GMT-14'), 'UTC+14:00 Etc/GMT-14');
  assert.is(list[0].offset, -720);
  assert.is(list[list.length - 1].offset, 840);
  // In winter Berlin moves back among the +01:00 zones.
  const winter = zoneList(WINTER, ['Europe/Berlin', 'Africa/Lagos', 'Europe/Athens', 'Africa/Cairo']);
  assert.equal(
    winter.map((z) => z.label),
    ['UTC+01:00 Africa/Lagos', 'UTC+01:00 Europe/Berlin', 'UTC+02:00 Africa/Cairo', 'UTC+02:00 Europe/Athens'],
  );
  assert.equal(zoneList(WINTER, ['Asia/Tokyo', 'Not/A_Zone']).map((z) => z.name), ['Asia/Tokyo'], 'a name the runtime does not know is left out');
});

test('without Intl.supportedValuesOf there is no list (the console shows the stored zone only)', () => {
  const intl = Intl as { supportedValuesOf?: unknown };
  const had = intl.supportedValuesOf;
  try {
    delete intl.supportedValuesOf;
    assert.equal(knownZones(), []);
    assert.equal(zoneList(SUMMER), []);
  } finally {
    intl.supportedValuesOf = had;
  }
});

test("the computer's clock as another zone's wall clock: the instant is the same, the zone decides the hours", () => {
  const instant = Date.UTC(2026, 10, 2, 23, 30, 45);
  assert.equal(wallClock('Asia/Tokyo', instant), { Date: '2026-11-03', Time: '08:30' });
  assert.equal(wallClock('UTC', instant), { Date: '2026-11-02', Time: '23:30' });
  assert.equal(wallClock('America/Los_Angeles', instant), { Date: '2026-11-02', Time: '15:30' });
  assert.equal(wallClock('+05:45', instant), { Date: '2026-11-03', Time: '05:15' });
});

test('fixed-offset zones: UTC, Etc/*, a stored offset; a region zone is not one, also without DST now', () => {
  for (const z of ['UTC', 'Etc/GMT-9', 'Etc/UTC', '+01:00', '-03:30']) assert.ok(isFixedZone(z), z);
  for (const z of ['Europe/Berlin', 'Asia/Tokyo', 'America/Argentina/Buenos_Aires']) assert.not.ok(isFixedZone(z), z);
});

test('simulated terminal: a name that is no zone is refused; the offset the zone implies is answered; DST only with a fixed-offset zone', async () => {
  const sim = await startSimulator({ activated: TEST_ADMIN.password, model: loadModel('default', {}), storeFile: join(mkdtempSync(join(tmpdir(), 'zones-')), 's.json') });
  try {
    const { token } = (await (await fetch(`${sim.url}/goform/chklogin`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: TEST_ADMIN.password }) })).json()) as { token: string };
    const get = async (path: string) => (await fetch(`${sim.url}/goform/${path}`, { headers: { 'X-Token': token } })).json();
    const post = async (path: string, body: unknown) =>
      (await fetch(`${sim.url}/goform/${path}`, { method: 'POST', headers: { 'X-Token': token, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
    const clock = { Mode: 0, Date: '2026-07-15', Time: '12:00', DateFormat: 0, TimeFormat: 0, NtpServer: '', TimeZone: 'Asia/Tokyo' };
    assert.equal(await post('GetDateTimeParam', clock), { retvalue: 0 });
    let dt = await get('SetDateTimeParam');
    assert.equal([dt.TimeZone, dt.UtcOffset, dt.Date, dt.Time], ['Asia/Tokyo', '+09:00', '2026-07-15', '12:00']);
    for (const bad of ['Mars/Olympus_Mons', 'Europe/Berlinn', 'europe/berlin', 'Tokyo', '+15:00', 'UTC+9', ' Asia/Tokyo']) {
      assert.equal(await post('GetDateTimeParam', { ...clock, TimeZone: bad }), { retvalue: 10005, msg: 'err.10005', field: 'TimeZone' }, bad);
    }
    assert.equal(await post('GetDateTimeParam', { ...clock, UtcOffset: '+09:00' }), { retvalue: 10005, msg: 'err.10005', field: 'UtcOffset' }, 'the offset is read only');
    assert.is((await get('SetDateTimeParam')).TimeZone, 'Asia/Tokyo', 'a refused write changes nothing');

    // DST on the DST screen for the whole year. Sending back the time read keeps the instant
    // (12:00 in Tokyo is 03:00 UTC), and the new zone decides the wall clock.
    const dstAllYear = { ...seeds.DSTParam, Mode: 1, Offset: 2, StartMonth: 1, StartDay: 1, EndMonth: 12, EndDay: 31 };
    assert.equal(await post('GetDSTParam', dstAllYear), { retvalue: 0 });
    // Berlin follows its own rules (+02:00 in July) and ignores the DST screen.
    assert.equal(await post('GetDateTimeParam', { ...clock, TimeZone: 'Europe/Berlin' }), { retvalue: 0 });
    dt = await get('SetDateTimeParam');
    assert.equal([dt.UtcOffset, dt.Time], ['+02:00', '05:00']);
    // A fixed-offset zone takes the DST screen's two hours: +01:00 reads +03:00.
    assert.equal(await post('GetDateTimeParam', { ...clock, Date: dt.Date, Time: dt.Time, TimeZone: 'Etc/GMT-1' }), { retvalue: 0 });
    dt = await get('SetDateTimeParam');
    assert.equal([dt.TimeZone, dt.UtcOffset, dt.Time], ['Etc/GMT-1', '+03:00', '06:00']);
    // A stored offset from before names is taken back unchanged and is a fixed-offset zone too.
    assert.equal(await post('GetDateTimeParam', { ...clock, Date: dt.Date, Time: dt.Time, TimeZone: '+05:45' }), { retvalue: 0 });
    dt = await get('SetDateTimeParam');
    assert.equal([dt.TimeZone, dt.UtcOffset, dt.Time], ['+05:45', '+07:45', '10:45']);
    // DST off: the fixed zone's own offset.
    assert.equal(await post('GetDSTParam', { ...dstAllYear, Mode: 0 }), { retvalue: 0 });
    assert.equal((await get('SetDateTimeParam')).UtcOffset, '+05:45');
  } finally {
    await sim.close();
  }
});

test.run();
