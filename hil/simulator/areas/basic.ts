// Simulated terminal: the basic settings area. `seeds` are factory values of
// its settings pairs (the generic pair handlers in ../settings.ts serve them);
// `handlers` are the calls that need more than storing a form: the display
// language (a change restarts the device), the clock, DST dates, Wiegand
// pairing and the Wiegand / Bluetooth authorization lists.
// Errors are answered as reply fields (retvalue overrides the 0 the server
// puts first), so this file needs nothing at run time from ../api.ts, which
// imports it.
import type { CallImpl, Context } from '../types.ts';
import { formatOffset, isFixedZone, offsetAt, wallClock } from '../../../src/i18n/zones.ts';

/** An error reply (SPEC §8 code, message id, the field at fault). */
const no = (retvalue: number, field?: string, msg = `err.${retvalue}`) => ({ retvalue, msg, ...(field ? { field } : {}) });

export const seeds: Record<string, Record<string, unknown>> = {
  KaoqinParam: { RepeatTime: 3, AlarmLogs: 100 },
  MachineParam: { DeviceID: 1, Volume: 6, AdminPwd: '1234' },
  TimeParam: { Language: 'en', DateFormat: 0, TimeFormat: 0, PowerSaving: 1, ScreenInterval: 60, KeyboardLock: 0 },
  IdentifyParam: { IdentifyMode: 0 },
  FPCompareParam: { FPPrecision: 0 },
  DateTimeParam: { Mode: 1, NtpServer: 'pool.ntp.org', TimeZone: 'Europe/Berlin' },
  // The European Union's rule: last Sunday of March to last Sunday of October.
  DSTParam: { Mode: 0, Offset: 1, StartMonth: 3, StartDay: 29, StartWeek: 7, StartWeekday: 0, EndMonth: 10, EndDay: 25, EndWeek: 7, EndWeekday: 0 },
  StatusChangeInfo: { Mon: '12:00', Tue: '12:00', Wed: '12:00', Thu: '12:00', Fri: '12:00', Sat: '11:00', Sun: '11:00' },
  PrintParam: { PrintSwitch: 0, BaudRate: 9600, Encoding: 0, UnitName: 'Example Ltd.', UnitAddress: '1 Example Street', UnitTaxTel: '+34 900 000 000' },
  ApplyParam: { Status0: 'IN', Status1: 'OUT', Status2: 'status1', Status3: 'status2', Status4: 'status3', Status5: 'status4', Status6: 'status5', Status7: 'status6' },
  WorkModeSwitch: { WorkMode: 2, WiegandAuth: 1, BluetoothAuth: 1 },
};

type Params = Record<string, unknown>;
/** What reading the terminal's clock needs. */
type Clock = Pick<Context, 'store' | 'now'>;
const settings = (ctx: Clock, pair: string): Params => ({ ...seeds[pair], ...ctx.store.get().settings[pair] });
const save = (ctx: Context, pair: string, values: Params) =>
  ctx.store.update((s) => {
    s.settings[pair] = { ...seeds[pair], ...s.settings[pair], ...values };
  });

// --- Clock -----------------------------------------------------------------
// The device clock is the host's plus an offset a manual setting stores; it
// is shown in the configured time zone: a region zone by its own rules
// (Node's tz database), a fixed-offset zone (UTC, Etc/*, a stored ±HH:MM)
// plus DSTParam's hours while its period runs.
const pad = (n: number) => String(n).padStart(2, '0');

/** The day (UTC ms of its 00:00) a DST edge falls on in `year`: by month and day, or by week (1 to 6, 7 last, 8 penultimate) and weekday. */
function edgeDay(dst: Params, edge: 'Start' | 'End', year: number): number {
  const month = Number(dst[`${edge}Month`]) - 1;
  if (dst.Mode === 1) return Date.UTC(year, month, Number(dst[`${edge}Day`]));
  const weekday = Number(dst[`${edge}Weekday`]);
  const week = Number(dst[`${edge}Week`]);
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const first = 1 + ((weekday - new Date(Date.UTC(year, month, 1)).getUTCDay() + 7) % 7);
  const last = first + 7 * Math.floor((days - first) / 7);
  const day = week === 7 ? last : week === 8 ? last - 7 : Math.min(first + 7 * (week - 1), last);
  return Date.UTC(year, month, day);
}

/** Minutes east of UTC of the device's zone at `ms`. */
function zoneOffset(ctx: Clock, zone: string, ms: number): number {
  const standard = offsetAt(zone, ms) || 0;
  const dst = settings(ctx, 'DSTParam');
  if (!isFixedZone(zone) || dst.Mode === 0) return standard;
  const wall = ms + standard * 60_000;
  const year = new Date(wall).getUTCFullYear();
  const [start, end] = [edgeDay(dst, 'Start', year), edgeDay(dst, 'End', year)];
  const on = start <= end ? wall >= start && wall < end : wall >= start || wall < end;
  return standard + (on ? Number(dst.Offset) * 60 : 0);
}
const instant = (ctx: Clock, dt: Params) => ctx.now() + Number(dt.ClockOffset ?? 0);
/** The terminal's clock at `ms` (now()'s clock; now by default), "YYYY-MM-DD HH:MM:SS" in its time zone: what live events, sessions and the log are stamped with. */
export function deviceTime(ctx: Clock, ms = ctx.now()): string {
  const dt = settings(ctx, 'DateTimeParam');
  const at = ms + Number(dt.ClockOffset ?? 0);
  return new Date(at + zoneOffset(ctx, String(dt.TimeZone), at) * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}
const deviceWall = (ctx: Context, dt: Params, back = 0) => wallClock(formatOffset(zoneOffset(ctx, String(dt.TimeZone), instant(ctx, dt) - back)), instant(ctx, dt) - back);
/** The instant a wall clock in `zone` names (the offset read at the guess, then again at the result). */
function fromWall(ctx: Context, zone: string, date: string, time: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const guess = wall - zoneOffset(ctx, zone, wall) * 60_000;
  return wall - zoneOffset(ctx, zone, guess) * 60_000;
}

// --- Authorization lists ---------------------------------------------------
export interface AuthItem {
  Mac: string;
  Model: string;
  MachineNo: number;
  Route: 1 | 2;
  Status: 0 | 1;
}
type ListKey = 'WiegandDevices' | 'BluetoothDevices';
const LIST_SEEDS: Record<ListKey, AuthItem[]> = {
  WiegandDevices: [
    { Mac: '02:00:5e:21:00:01', Model: 'WR-10 reader', MachineNo: 101, Route: 1, Status: 1 },
    { Mac: '02:00:5e:22:00:02', Model: 'WR-20 keypad reader', MachineNo: 102, Route: 2, Status: 0 },
  ],
  BluetoothDevices: [
    { Mac: '02:00:5e:31:00:01', Model: 'BT-1 reader', MachineNo: 201, Route: 1, Status: 1 },
    { Mac: '02:00:5e:32:00:02', Model: 'BT-2 phone key', MachineNo: 202, Route: 2, Status: 0 },
  ],
};
export const MAX_DEVICES = 16;
const listOf = (ctx: Context, key: ListKey): AuthItem[] => (ctx.store.get().settings[key]?.list as AuthItem[] | undefined) ?? LIST_SEEDS[key];
const saveList = (ctx: Context, key: ListKey, list: AuthItem[]) =>
  ctx.store.update((s) => {
    s.settings[key] = { list };
  });

/**
 * Change the selected devices (p.Macs): 10003 when none is selected, 10005
 * when one is unknown; nothing changes then.
 */
const onSelected = (key: ListKey, change: (list: AuthItem[], picked: (d: AuthItem) => boolean, p: Params) => AuthItem[]): CallImpl => ({
  async handle(ctx, p) {
    const macs = (p.Macs as string[]).map((m) => m.toLowerCase());
    if (!macs.length) return no(10003, 'Macs');
    const list = listOf(ctx, key);
    if (macs.some((m) => !list.some((d) => d.Mac.toLowerCase() === m))) return no(10005, 'Macs');
    await saveList(ctx, key, change(list, (d) => macs.includes(d.Mac.toLowerCase()), p));
    return {};
  },
});
const read = (key: ListKey): CallImpl => ({ handle: (ctx) => ({ list: listOf(ctx, key) }) });
const setStatus = (key: ListKey) => onSelected(key, (list, picked, p) => list.map((d) => (picked(d) ? { ...d, Status: p.Status as 0 | 1 } : d)));
const remove = (key: ListKey) => onSelected(key, (list, picked) => list.filter((d) => !picked(d)));

// --- Wiegand pairing -------------------------------------------------------
/** How long a reader takes to answer. */
export const PAIRING_MS = 2000;
/** A pairing nobody asked after for this long starts over. */
const PAIRING_STALE_MS = 30_000;
/** Pairings under way, per terminal (its store) and route: when each started. */
const pairing = new WeakMap<object, Map<number, number>>();

async function pair(ctx: Context, p: Params) {
  const route = p.Route as 1 | 2;
  const running = pairing.get(ctx.store) ?? new Map<number, number>();
  pairing.set(ctx.store, running);
  const started = running.get(route);
  const now = ctx.now();
  if (started === undefined || now - started > PAIRING_STALE_MS) {
    running.set(route, now);
    return { retvalue: 'wait' };
  }
  if (now - started < PAIRING_MS) return { retvalue: 'wait' };
  running.delete(route);
  const list = listOf(ctx, 'WiegandDevices');
  if (list.length >= MAX_DEVICES) return no(1, undefined, 'msg.addUpToLimit');
  // The reader that answered: a new one each time, numbered after the others.
  let n = list.length + 1;
  const mac = () => `02:00:5e:2${route}:${pad(Math.floor(n / 100))}:${pad(n % 100)}`;
  while (list.some((d) => d.Mac === mac())) n++;
  const item: AuthItem = { Mac: mac(), Model: `WR-${route}0 reader`, MachineNo: 100 + n, Route: route, Status: 0 };
  await saveList(ctx, 'WiegandDevices', [...list, item]);
  return { Mac: item.Mac, Model: item.Model, MachineNo: item.MachineNo };
}

const daysIn = (month: number) => [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];

export const handlers: Record<string, CallImpl> = {
  // SPEC §4: changing the device language restarts the device (and ends every session).
  GetTimeParam: {
    async handle(ctx, p) {
      if (!ctx.profile.lans.includes(String(p.Language))) return no(10005, 'Language');
      const restart = p.Language !== settings(ctx, 'TimeParam').Language;
      await save(ctx, 'TimeParam', p);
      if (!restart) return {};
      ctx.sessions.clear();
      return { reboot: true };
    },
  },
  // Date and time: the clock now; the formats are the display's.
  SetDateTimeParam: {
    handle(ctx) {
      const dt = settings(ctx, 'DateTimeParam');
      const { DateFormat, TimeFormat } = settings(ctx, 'TimeParam');
      const UtcOffset = formatOffset(zoneOffset(ctx, String(dt.TimeZone), instant(ctx, dt)));
      return { Mode: dt.Mode, ...deviceWall(ctx, dt), DateFormat, TimeFormat, NtpServer: dt.NtpServer ?? '', TimeZone: dt.TimeZone, UtcOffset };
    },
  },
  GetDateTimeParam: {
    async handle(ctx, p) {
      if (p.Mode === 1 && !p.NtpServer) return no(10003, 'NtpServer');
      const dt = settings(ctx, 'DateTimeParam');
      let offset = p.Mode === 1 ? 0 : Number(dt.ClockOffset ?? 0);
      if (p.Mode === 0) {
        // Keep the clock (its instant: a new time zone moves the wall clock) when
        // the form sends back the time it was shown, this minute or the last.
        const same = [0, 60_000].some((back) => {
          const w = deviceWall(ctx, dt, back);
          return w.Date === p.Date && w.Time === p.Time;
        });
        if (!same) offset = fromWall(ctx, String(p.TimeZone), String(p.Date), String(p.Time)) - ctx.now();
      }
      await save(ctx, 'TimeParam', { DateFormat: p.DateFormat, TimeFormat: p.TimeFormat });
      await save(ctx, 'DateTimeParam', { Mode: p.Mode, NtpServer: p.NtpServer ?? dt.NtpServer ?? '', TimeZone: p.TimeZone, ClockOffset: offset });
      return {};
    },
  },
  GetDSTParam: {
    async handle(ctx, p) {
      if (p.Mode === 1) {
        for (const edge of ['Start', 'End']) {
          if (Number(p[`${edge}Day`]) > daysIn(Number(p[`${edge}Month`]))) return no(10005, `${edge}Day`);
        }
      }
      await save(ctx, 'DSTParam', p);
      return {};
    },
  },
  AnvizWiegandMatch: { handle: pair },
  SetAnvizWiegandAuthorize: read('WiegandDevices'),
  GetAnvizWiegandAuthorize: setStatus('WiegandDevices'),
  DeleteSomeWiegand: remove('WiegandDevices'),
  SetBluetoothAuthorize: read('BluetoothDevices'),
  GetBluetoothAuthorize: setStatus('BluetoothDevices'),
  DeleteSomeBluetooth: remove('BluetoothDevices'),
};
