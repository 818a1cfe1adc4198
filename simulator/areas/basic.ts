// Simulated terminal: the basic settings area. `seeds` are factory values of
// its settings pairs (the generic pair handlers in ../settings.ts serve them);
// `handlers` are the calls that need more than storing a form: the display
// language (a change restarts the device), the clock's settings (the clock
// itself is ../clock.ts), DST dates, Wiegand pairing and the Wiegand /
// Bluetooth authorization lists.
import { refuse, type CallImpl, type Context } from '../types.ts';
import { CLOCK_SEEDS, deviceWall, fromWall, utcOffset } from '../clock.ts';

export const seeds: Record<string, Record<string, unknown>> = {
  KaoqinParam: { RepeatTime: 3, AlarmLogs: 100 },
  MachineParam: { DeviceID: 1, Volume: 6, AdminPwd: '1234' },
  TimeParam: { Language: 'en', DateFormat: 0, TimeFormat: 0, PowerSaving: 1, ScreenInterval: 60, KeyboardLock: 0 },
  IdentifyParam: { IdentifyMode: 0 },
  FPCompareParam: { FPPrecision: 0 },
  ...CLOCK_SEEDS,
  StatusChangeInfo: { Mon: '12:00', Tue: '12:00', Wed: '12:00', Thu: '12:00', Fri: '12:00', Sat: '11:00', Sun: '11:00' },
  PrintParam: { PrintSwitch: 0, BaudRate: 9600, Encoding: 0, UnitName: 'Example Ltd.', UnitAddress: '1 Example Street', UnitTaxTel: '+34 900 000 000' },
  ApplyParam: { Status0: 'IN', Status1: 'OUT', Status2: 'status1', Status3: 'status2', Status4: 'status3', Status5: 'status4', Status6: 'status5', Status7: 'status6' },
  WorkModeSwitch: { WorkMode: 2, WiegandAuth: 1, BluetoothAuth: 1 },
};

type Params = Record<string, unknown>;
const settings = (ctx: Context, pair: string): Params => ({ ...seeds[pair], ...ctx.store.get().settings[pair] });
const save = (ctx: Context, pair: string, values: Params) =>
  ctx.store.update((s) => {
    s.settings[pair] = { ...seeds[pair], ...s.settings[pair], ...values };
  });

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
    if (!macs.length) refuse(10003, { field: 'Macs' });
    const list = listOf(ctx, key);
    if (macs.some((m) => !list.some((d) => d.Mac.toLowerCase() === m))) refuse(10005, { field: 'Macs' });
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
const pad = (n: number) => String(n).padStart(2, '0');

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
  if (list.length >= MAX_DEVICES) refuse(1, { msg: 'msg.addUpToLimit' });
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
      if (!ctx.model.lans.includes(String(p.Language))) refuse(10005, { field: 'Language' });
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
      const UtcOffset = utcOffset(ctx);
      return { Mode: dt.Mode, ...deviceWall(ctx), DateFormat, TimeFormat, NtpServer: dt.NtpServer ?? '', TimeZone: dt.TimeZone, UtcOffset };
    },
  },
  GetDateTimeParam: {
    async handle(ctx, p) {
      if (p.Mode === 1 && !p.NtpServer) refuse(10003, { field: 'NtpServer' });
      const dt = settings(ctx, 'DateTimeParam');
      let offset = p.Mode === 1 ? 0 : Number(dt.ClockOffset ?? 0);
      if (p.Mode === 0) {
        // Keep the clock (its instant: a new time zone moves the wall clock) when
        // the form sends back the time it was shown, this minute or the last.
        const same = [0, 60_000].some((back) => {
          const w = deviceWall(ctx, back);
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
          if (Number(p[`${edge}Day`]) > daysIn(Number(p[`${edge}Month`]))) refuse(10005, { field: `${edge}Day` });
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
