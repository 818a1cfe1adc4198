// Simulated terminal: the access settings area. `seeds` are factory values of
// its settings pairs (the generic pair handlers in ../settings.ts serve them);
// `handlers` are the calls that need more than storing a form: numbered
// records (time groups, time zones, shifts), periods and work groups.
// Those live in `settings.access` (factory values until the first change).
import { refuse, type CallImpl, type Context, type DeviceState } from '../types.ts';
import { ADD_LIMIT } from '../../contract/codes.ts';

export const seeds: Record<string, Record<string, unknown>> = {
  AccessControl: { RelayMode: 2, DoorSensor: 2, RelayDelay: 5, WiegandFormat: 0, CardDisplay: 0, CardLength: 4, TamperAlarm: 1, Power12V: 1 },
  CardInfo: { ShowCard: 1, CardIdentify: 1, ReadMode: 0, Sector: 1 },
};

type Rec = Record<string, unknown>;
interface AccessData {
  GroupInfo: Record<string, Rec>;
  TimeIntervalInfo: Record<string, Rec>;
  ShiftsInfo: Record<string, Rec>;
  /** Periods by type: "1" always open, "0" always closed. */
  periods: Record<string, Rec[]>;
  work: Rec[];
}

export const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const LIMIT = 16;

function range<T>(n: number, f: (i: number) => T): Record<string, T> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), f(i + 1)]));
}

function zone(n: number, times: Record<string, [string, string]>): Rec {
  const r: Rec = { ZoneNum: n };
  for (const d of DAYS) [r[`${d}Start`], r[`${d}End`]] = times[d] ?? ['00:00', '00:00'];
  return r;
}

/** What a terminal ships with. */
export function factoryAccess(): AccessData {
  const office: [string, string] = ['08:00', '18:00'];
  return {
    GroupInfo: range(16, (n) => ({ GroupNum: n, Time1: n === 1 ? 1 : 0, Time2: n === 1 ? 2 : 0, Time3: 0, Time4: 0 })),
    TimeIntervalInfo: range(32, (n) =>
      zone(n, n === 1 ? { Mon: office, Tue: office, Wed: office, Thu: office, Fri: office } : n === 2 ? { Sat: ['09:00', '13:00'] } : {}),
    ),
    ShiftsInfo: range(8, (n) =>
      n === 1
        ? { ShiftNum: 1, Name: 'Day', OnDuty: '09:00', OffDuty: '18:00', LateGrace: 5, EarlyGrace: 5 }
        : n === 2
          ? { ShiftNum: 2, Name: 'Night', OnDuty: '22:00', OffDuty: '06:00', LateGrace: 10, EarlyGrace: 0 }
          : { ShiftNum: n, Name: `Shift ${n}`, OnDuty: '00:00', OffDuty: '00:00', LateGrace: 0, EarlyGrace: 0 },
    ),
    periods: {
      1: [{ Num: 1, Name: 'Office hours', Start: '2026-01-05 08:00', End: '2026-01-05 18:00', Cycle: 1 }],
      0: [{ Num: 1, Name: 'Holidays', Start: '2026-12-25 00:00', End: '2026-12-27 00:00', Cycle: 4 }],
    },
    work: [
      { Num: 1, Name: 'Staff', TimeGroup: 1 },
      { Num: 2, Name: 'Cleaning', TimeGroup: 2 },
    ],
  };
}

function data(ctx: Context): AccessData {
  return (ctx.store.get().settings.access as unknown as AccessData | undefined) ?? factoryAccess();
}

/** A period's times, as the door reads them. */
export interface PeriodTimes {
  Start: string;
  End: string;
  Cycle: number;
}

/** The always-open and always-closed periods (the door follows them in normal mode: ../door.ts). */
export function periodsOf(state: DeviceState): { open: PeriodTimes[]; closed: PeriodTimes[] } {
  const p = ((state.settings.access as unknown as AccessData | undefined) ?? factoryAccess()).periods;
  return { open: (p[1] ?? []) as unknown as PeriodTimes[], closed: (p[0] ?? []) as unknown as PeriodTimes[] };
}

async function change(ctx: Context, f: (d: AccessData) => void): Promise<void> {
  await ctx.store.update((s) => {
    const d = (s.settings.access as unknown as AccessData | undefined) ?? factoryAccess();
    f(d);
    s.settings.access = d as unknown as Rec;
  });
}

const invalid = (field: string): never => refuse(10005, { field });

/** GET Set<Name>?<key>=n and POST Get<Name> for one kind of numbered record. */
function numbered(kind: 'GroupInfo' | 'TimeIntervalInfo' | 'ShiftsInfo', key: string, check?: (p: Rec) => void): Record<string, CallImpl> {
  return {
    [`Set${kind}`]: { handle: (ctx, p) => ({ ...data(ctx)[kind][String(p[key])] }) },
    [`Get${kind}`]: {
      async handle(ctx, p) {
        check?.(p);
        await change(ctx, (d) => {
          d[kind][String(p[key])] = { ...p };
        });
        return {};
      },
    },
  };
}

/** The lowest number 1..16 not in use, or 10004 "Add up to limit !". */
function freeNumber(list: Rec[]): number {
  for (let n = 1; n <= LIMIT; n++) if (!list.some((r) => r.Num === n)) return n;
  return refuse(ADD_LIMIT);
}

const byNum = (a: Rec, b: Rec) => Number(a.Num) - Number(b.Num);

export const handlers: Record<string, CallImpl> = {
  ...numbered('GroupInfo', 'GroupNum'),
  ...numbered('TimeIntervalInfo', 'ZoneNum', (p) => {
    // "HH:MM" compares as text.
    for (const d of DAYS) if (String(p[`${d}End`]) < String(p[`${d}Start`])) invalid(`${d}End`);
  }),
  ...numbered('ShiftsInfo', 'ShiftNum'),

  SetGroupTime: { handle: (ctx, p) => ({ Periods: [...(data(ctx).periods[String(p.Type)] ?? [])].sort(byNum) }) },
  AddGroupTime: {
    async handle(ctx, p) {
      // "YYYY-MM-DD HH:MM" compares as text.
      if (String(p.End) <= String(p.Start)) invalid('End');
      let Num = 0;
      await change(ctx, (d) => {
        const list = (d.periods[String(p.Type)] ??= []);
        Num = freeNumber(list);
        list.push({ Num, Name: p.Name, Start: p.Start, End: p.End, Cycle: p.Cycle });
      });
      return { Num };
    },
  },
  SetUniversalGroup: { handle: (ctx) => ({ Groups: [...data(ctx).work].sort(byNum) }) },
  GetUniversalGroup: {
    async handle(ctx, p) {
      let Num = 0;
      await change(ctx, (d) => {
        Num = freeNumber(d.work);
        d.work.push({ Num, Name: p.Name, TimeGroup: p.TimeGroup });
      });
      return { Num };
    },
  },
  DelSomeGroup: {
    async handle(ctx, p) {
      const nums = String(p.Nums).split(',').map(Number);
      const list = p.Type === 2 ? data(ctx).work : (data(ctx).periods[String(p.Type)] ?? []);
      if (nums.some((n) => !list.some((r) => r.Num === n))) invalid('Nums');
      await change(ctx, (d) => {
        const keep = (l: Rec[]) => l.filter((r) => !nums.includes(Number(r.Num)));
        if (p.Type === 2) d.work = keep(d.work);
        else d.periods[String(p.Type)] = keep(d.periods[String(p.Type)] ?? []);
      });
      return {};
    },
  },
};
