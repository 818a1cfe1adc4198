// The door over HTTP, as docs/API.md ("The door") says a terminal keeps it:
// every action and refusal with its code, the relay with its delay and the
// sensor following it, the held-open and forced alarms, remain open and
// remain closed across a restart (open now not), the always-open and
// always-closed periods overridden by a manual mode and given back, the
// operation log's entry and the live events, in their order.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel, type ModelOverrides } from '../../simulator/model.ts';
import { inPeriod } from '../../simulator/door.ts';
import { DOOR_NOT_LOCK, DOOR_SECONDS, NO_RELAY } from '../../contract/codes.ts';
import { OPEN_MAX_S } from '../../contract/door.ts';
import type { CallName } from '../../contract/index.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { callSimulator } from '../support/helpers.ts';

type Rec = Record<string, unknown>;

/** Device time is Europe/Berlin (the factory zone): 03:00 there on a Friday in November, outside the factory periods. */
const NIGHT = Date.parse('2026-11-27T02:00:00Z');
/** 10:00 that day: inside the factory always-open period "Office hours" (every day 08:00 to 18:00). */
const OFFICE = Date.parse('2026-11-27T09:00:00Z');
/** 10:00 on 26 December: inside the factory always-closed period "Holidays" (every year 25 to 27 December) and office hours. */
const HOLIDAY = Date.parse('2026-12-26T09:00:00Z');

interface Device {
  sim: Simulator;
  clock: number;
  call(name: CallName, params?: Rec): Promise<Rec>;
  state(): Promise<Rec>;
  act(Action: number, extra?: Rec): Promise<Rec>;
  /** Kinds of the events after the last ones taken. */
  kinds(): Promise<number[]>;
  /** Wait for events until `want` kinds have come (a guard against a hang, not a timing). */
  until(want: number[]): Promise<void>;
  /** Sign in again (a restart ended the session). */
  relogin(): Promise<void>;
  close(): Promise<void>;
}

async function device(overrides: ModelOverrides = {}, storeFile = join(mkdtempSync(join(tmpdir(), 'door-')), 'store.json'), at = NIGHT): Promise<Device> {
  let token = '';
  let seen = 0;
  // The terminal's clock: the test moves it (d.clock).
  const time = { clock: at };
  const sim = await startSimulator({
    activated: TEST_ADMIN.password,
    storeFile,
    now: () => time.clock,
    model: loadModel('default', { seedUsers: 3, seedRecords: 0, restartMs: 20, sessionIdleMs: 1e12, door: { sensorMs: 40, heldOpenMs: 80 }, ...overrides }),
  });
  const d: Device = {
    get clock() {
      return time.clock;
    },
    set clock(v) {
      time.clock = v;
    },
    sim,
    call: (name, params = {}) => callSimulator(d.sim.url, name, params, token),
    async state() {
      const r = await d.call('SetDoorState');
      assert.is(r.retvalue, 0, JSON.stringify(r));
      return r;
    },
    act: (Action, extra = {}) => d.call('GetDoorAction', { Action, ...extra }),
    async kinds() {
      const r = await d.call('SetEventList', { After: seen });
      const list = r.List as { Id: number; Kind: number }[];
      if (list.length) seen = list[list.length - 1].Id;
      return list.map((e) => e.Kind);
    },
    async until(want) {
      const got: number[] = [];
      for (let i = 0; got.length < want.length && i < 500; i++) {
        got.push(...(await d.kinds()));
        if (got.length < want.length) await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(got, want, 'the events, in order');
    },
    async relogin() {
      await d.sim.whenUp();
      token = String((await callSimulator(d.sim.url, 'chklogin', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).token);
      seen = 0;
    },
    close: () => d.sim.close(),
  };
  await d.relogin();
  return d;
}

const t = suite('door');

t('the factory door: normal, locked, its sensor closed, no alarm, outside the periods', async () => {
  const d = await device();
  try {
    const s = await d.state();
    assert.equal({ ...s, Since: '' }, { retvalue: 0, Mode: 0, Lock: 1, Relay: 0, Left: 0, Sensor: 1, HeldOpen: 0, Forced: 0, Period: 0, Since: '' });
    assert.is(s.Since, '2026-11-27 03:00:00', 'since the terminal started, device time');
    assert.equal(await d.kinds(), [], 'a read is no event');
  } finally {
    await d.close();
  }
});

t('open now: the relay for the relay delay or for Seconds, the sensor following it, then closed; the mode holds', async () => {
  const d = await device();
  try {
    assert.equal(await d.act(3), { retvalue: 0 });
    let s = await d.state();
    assert.equal([s.Mode, s.Relay, s.Left], [0, 1, 5], 'the relay delay of the settings (5 s at the factory)');
    await d.until([7, 3]);
    assert.is((await d.state()).Sensor, 2, 'the door swung open a moment after the lock released');
    // Remain closed locks at once, a running open now too; the door then swings shut.
    assert.equal(await d.act(2), { retvalue: 0 });
    s = await d.state();
    assert.equal([s.Mode, s.Relay, s.Left], [2, 0, 0]);
    await d.until([9, 6]);
    assert.equal(await d.act(0), { retvalue: 0 });
    await d.until([10]);

    // One second: the relay releases by itself, the door shuts after it.
    assert.equal(await d.act(3, { Seconds: 1 }), { retvalue: 0 });
    assert.is((await d.state()).Left, 1);
    await d.until([7, 3, 6]);
    s = await d.state();
    assert.equal([s.Mode, s.Relay, s.Left, s.Sensor], [0, 0, 0, 1]);

    // Open now while it remains closed: it opens, and locks again when the time is up; the mode holds.
    await d.act(2);
    await d.act(3, { Seconds: 1 });
    assert.equal([(await d.state()).Mode, (await d.state()).Relay], [2, 1]);
    await d.until([9, 7, 3, 6]);
    assert.equal([(await d.state()).Mode, (await d.state()).Relay], [2, 0]);
  } finally {
    await d.close();
  }
});

t('remain open, remain closed, back to normal: the mode, the relay and since when', async () => {
  const d = await device();
  try {
    d.clock += 60_000;
    assert.equal(await d.act(1), { retvalue: 0 });
    let s = await d.state();
    assert.equal([s.Mode, s.Relay, s.Left, s.Sensor, s.Since], [1, 1, 0, 1, '2026-11-27 03:01:00'], 'unlocked; nobody pushed the door');
    // Open now while it remains open: someone goes through, the relay stays.
    await d.act(3, { Seconds: 1 });
    await d.until([8, 7, 3, 6]);
    s = await d.state();
    assert.equal([s.Mode, s.Relay, s.Left, s.Sensor], [1, 1, 0, 1]);
    d.clock += 60_000;
    assert.equal(await d.act(2), { retvalue: 0 });
    s = await d.state();
    assert.equal([s.Mode, s.Relay, s.Since], [2, 0, '2026-11-27 03:02:00']);
    assert.equal(await d.act(0), { retvalue: 0 });
    s = await d.state();
    assert.equal([s.Mode, s.Relay], [0, 0]);
    await d.until([9, 10]);
    // A verification at the reader opens it for the relay delay, except while it remains closed.
    await d.act(2);
    d.sim.door.pass();
    assert.is((await d.state()).Relay, 0, 'remain closed: the reader does not open it');
    await d.act(0);
    d.sim.door.pass();
    assert.equal([(await d.state()).Relay, (await d.state()).Left], [1, 5]);
    await d.until([9, 10, 3]);
  } finally {
    await d.close();
  }
});

t('every refusal with its code, and nothing changes', async () => {
  const d = await device();
  try {
    const before = await d.state();
    for (const [params, code, field] of [
      [{ Action: 3, Seconds: 0 }, DOOR_SECONDS, 'Seconds'],
      [{ Action: 3, Seconds: OPEN_MAX_S + 1 }, DOOR_SECONDS, 'Seconds'],
      [{ Action: 3, Seconds: 1.5 }, DOOR_SECONDS, 'Seconds'],
      [{ Action: 1, Seconds: 5 }, DOOR_SECONDS, 'Seconds'],
      [{ Action: 4 }, 10005, 'Action'],
      [{}, 10003, 'Action'],
      [{ Action: 3, Other: 1 }, 10005, 'Other'],
    ] as [Rec, number, string][]) {
      const r = await d.call('GetDoorAction', params);
      assert.equal([r.retvalue, r.field], [code, field], JSON.stringify(params));
    }
    assert.is((await d.call('SetDoorState', { Mode: 1 })).retvalue, 10005, 'the read takes nothing');
    // The relay rings a bell: every action is refused, the read says so.
    const ac = await d.call('SetAccessControl');
    assert.equal(await d.call('GetAccessControl', { ...ac, retvalue: undefined, RelayMode: 1 }), { retvalue: 0 });
    for (const a of [0, 1, 2, 3]) {
      const r = await d.act(a);
      assert.equal([r.retvalue, r.msg], [DOOR_NOT_LOCK, 'msg.doorNotLock'], `action ${a}`);
    }
    const s = await d.state();
    assert.equal([s.Lock, s.Relay, s.Mode], [0, 0, 0]);
    assert.equal({ ...s, Lock: 1, Since: '' }, { ...before, Since: '' }, 'nothing else changed');
    assert.equal(await d.kinds(), [], 'no event');
    const log = await d.call('searchOperationLog', { Page: 1, PageSize: 10, Kind: 14 });
    assert.is(log.Total, 0, 'a refused action is no entry');
  } finally {
    await d.close();
  }
});

t('a model without a relay (lite, attendance only) refuses both calls', async () => {
  const d = await device({ funs: loadModel('lite').funs });
  try {
    for (const [name, params] of [['SetDoorState', {}], ['GetDoorAction', { Action: 3 }], ['GetDoorAction', { Action: 1 }]] as [CallName, Rec][]) {
      const r = await d.call(name, params);
      assert.equal([r.retvalue, r.msg], [NO_RELAY, 'msg.doorNoRelay'], name);
    }
    assert.not.ok(((await d.call('GetDeviceFunList')).funs as string[]).includes('door'));
    d.sim.door.force();
    d.sim.door.pass();
    assert.equal(await d.kinds(), [], 'no door, no door events');
  } finally {
    await d.close();
  }
});

t('remain open and remain closed survive a restart; open now does not', async () => {
  const storeFile = join(mkdtempSync(join(tmpdir(), 'door-')), 'store.json');
  let d = await device({}, storeFile);
  try {
    await d.act(1);
    const since = (await d.state()).Since;
    await d.sim.restart();
    d.clock += 3_600_000;
    await d.relogin();
    let s = await d.state();
    assert.equal([s.Mode, s.Relay, s.Since], [1, 1, since], 'remain open, since it was set');
    await d.act(2);
    await d.close();
    // A terminal that was off: the same store, a new start.
    d = await device({}, storeFile);
    assert.equal([(await d.state()).Mode, (await d.state()).Relay], [2, 0]);
    await d.act(0);
    await d.act(3, { Seconds: 600 });
    assert.equal([(await d.state()).Relay, (await d.state()).Left], [1, 600]);
    await d.sim.restart();
    await d.relogin();
    s = await d.state();
    assert.equal([s.Mode, s.Relay, s.Left, s.Sensor], [0, 0, 0, 1], 'the restart ended open now');
  } finally {
    await d.close();
  }
});

t('a manual mode overrides the always-open and always-closed periods until back to normal', async () => {
  const d = await device({}, undefined, OFFICE);
  try {
    let s = await d.state();
    assert.equal([s.Mode, s.Period, s.Relay], [0, 1, 1], 'office hours: the period keeps it unlocked');
    await d.act(2);
    s = await d.state();
    assert.equal([s.Mode, s.Period, s.Relay], [2, 1, 0], 'remain closed: locked in office hours');
    d.sim.door.pass();
    assert.is((await d.state()).Relay, 0);
    await d.act(0);
    s = await d.state();
    assert.equal([s.Mode, s.Period, s.Relay], [0, 1, 1], 'back to normal: the period again');
    // The period ends at 18:00: the door locks (announced as closed).
    await d.kinds();
    d.clock = Date.parse('2026-11-27T17:00:00Z');
    s = await d.state();
    assert.equal([s.Period, s.Relay, s.Since], [0, 0, '2026-11-27 18:00:00']);
    assert.equal(await d.kinds(), [6]);

    // The holidays: always closed wins over office hours; remain open overrides it, back to normal gives it back.
    d.clock = HOLIDAY;
    s = await d.state();
    assert.equal([s.Period, s.Relay], [2, 0]);
    d.sim.door.pass();
    assert.is((await d.state()).Relay, 0, 'an always-closed period: the reader does not open it');
    await d.act(1);
    assert.equal([(await d.state()).Period, (await d.state()).Relay], [2, 1]);
    await d.act(0);
    assert.equal([(await d.state()).Period, (await d.state()).Relay], [2, 0]);
  } finally {
    await d.close();
  }
});

t('the periods by their cycle: once, daily, weekly, monthly (a month without the day is skipped), yearly', () => {
  const at = (s: string) => Date.parse(`${s.replace(' ', 'T')}:00Z`);
  const p = (Start: string, End: string, Cycle: number) => ({ Start, End, Cycle });
  assert.ok(inPeriod(p('2026-01-05 08:00', '2026-01-05 18:00', 0), at('2026-01-05 08:00')));
  assert.not.ok(inPeriod(p('2026-01-05 08:00', '2026-01-05 18:00', 0), at('2026-01-06 09:00')), 'once');
  assert.not.ok(inPeriod(p('2026-01-05 08:00', '2026-01-05 18:00', 1), at('2026-01-04 09:00')), 'not before the first');
  assert.ok(inPeriod(p('2026-01-05 08:00', '2026-01-05 18:00', 1), at('2026-11-27 17:59')), 'daily');
  assert.not.ok(inPeriod(p('2026-01-05 08:00', '2026-01-05 18:00', 1), at('2026-11-27 18:00')), 'the end is out');
  assert.ok(inPeriod(p('2026-01-05 22:00', '2026-01-06 06:00', 1), at('2026-11-27 03:00')), 'a night, past midnight');
  assert.ok(inPeriod(p('2026-01-05 08:00', '2026-01-05 18:00', 2), at('2026-11-23 12:00')), 'weekly: a Monday');
  assert.not.ok(inPeriod(p('2026-01-05 08:00', '2026-01-05 18:00', 2), at('2026-11-24 12:00')), 'weekly: not a Tuesday');
  assert.ok(inPeriod(p('2026-01-31 08:00', '2026-01-31 18:00', 3), at('2026-03-31 12:00')), 'monthly');
  assert.not.ok(inPeriod(p('2026-01-31 08:00', '2026-01-31 18:00', 3), at('2026-03-03 12:00')), 'no 31 February: not moved into March');
  assert.ok(inPeriod(p('2025-12-25 00:00', '2025-12-27 00:00', 4), at('2026-12-26 12:00')), 'yearly');
  assert.not.ok(inPeriod(p('2025-12-25 00:00', '2025-12-27 00:00', 4), at('2026-12-27 00:00')));
});

t('the alarms: held open after the relay released, forced while locked; both end when the door closes', async () => {
  const d = await device();
  try {
    d.sim.door.hold();
    await d.act(3, { Seconds: 1 });
    await d.until([7, 3, 5]);
    let s = await d.state();
    assert.equal([s.Relay, s.Sensor, s.HeldOpen, s.Forced], [0, 2, 1, 0], 'held open too long');
    d.sim.door.shut();
    await d.until([6]);
    s = await d.state();
    assert.equal([s.Sensor, s.HeldOpen], [1, 0]);

    d.sim.door.force();
    await d.until([4]);
    s = await d.state();
    assert.equal([s.Relay, s.Sensor, s.Forced], [0, 2, 1], 'opened while locked');
    d.sim.door.shut();
    await d.until([6]);
    assert.is((await d.state()).Forced, 0);

    d.sim.door.setFault(true);
    assert.is((await d.state()).Sensor, 3, 'the contact reads neither');
    d.sim.door.setFault(false);
    await d.until([5, 6]);

    // Without a sensor there is nothing to read and no alarm: the lock alone is announced.
    const ac = await d.call('SetAccessControl');
    await d.call('GetAccessControl', { ...ac, retvalue: undefined, DoorSensor: 0 });
    d.sim.door.force();
    await d.act(3, { Seconds: 1 });
    s = await d.state();
    assert.equal([s.Sensor, s.Forced, s.Relay], [0, 0, 1]);
    await d.until([7, 6]);
  } finally {
    await d.close();
  }
});

t('each action is an operation log entry (who, when, from where, which action) and a live event of its kind', async () => {
  const d = await device();
  try {
    await d.kinds();
    for (const [a, extra] of [[3, {}], [3, { Seconds: 42 }], [1, {}], [2, {}], [0, {}]] as [number, Rec][]) {
      d.clock += 60_000;
      assert.equal(await d.act(a, extra), { retvalue: 0 });
    }
    const r = await d.call('searchOperationLog', { Page: 1, PageSize: 10, Kind: 14 });
    assert.equal(
      (r.List as Rec[]).map((e) => [e.Time, e.Kind, e.User, e.Address, e.Detail]),
      [
        ['2026-11-27 03:05:00', 14, 'admin', '127.0.0.1', 'GetDoorAction: back to normal'],
        ['2026-11-27 03:04:00', 14, 'admin', '127.0.0.1', 'GetDoorAction: remain closed'],
        ['2026-11-27 03:03:00', 14, 'admin', '127.0.0.1', 'GetDoorAction: remain open'],
        ['2026-11-27 03:02:00', 14, 'admin', '127.0.0.1', 'GetDoorAction: open now, 42 s'],
        ['2026-11-27 03:01:00', 14, 'admin', '127.0.0.1', 'GetDoorAction: open now, 5 s'],
      ],
      'newest first',
    );
    const events = (await d.call('SetEventList', { After: 0 })).List as Rec[];
    const actions = events.filter((e) => (e.Kind as number) >= 7);
    assert.equal(actions.map((e) => [e.Kind, e.Time, e.UserID, e.Mode]), [
      [7, '2026-11-27 03:01:00', '', 0],
      [7, '2026-11-27 03:02:00', '', 0],
      [8, '2026-11-27 03:03:00', '', 0],
      [9, '2026-11-27 03:04:00', '', 0],
      [10, '2026-11-27 03:05:00', '', 0],
    ]);
    // The service command that opens the door does the same.
    const out = await d.call('ExecuteCommand', { Code: 300 });
    assert.is(out.Output, 'Door opened: relay on for 5 s');
    assert.is((await d.state()).Relay, 1);
    const entry = ((await d.call('searchOperationLog', { Page: 1, PageSize: 10, Kind: 14 })).List as Rec[])[0];
    assert.is(entry.Detail, 'ExecuteCommand 300: open now, 5 s');
  } finally {
    await d.close();
  }
});

t.run();
