// Simulated terminal: the Records area (src/api/maintenance.ts, "Records"):
// attendance records, the attendance report, temperature records and their
// downloads.
//
// Storage. A terminal holds up to MaxRecord (100,000) records. They are not
// in the JSON store (it is cloned and rewritten on every change): the store
// keeps only how many records a fresh terminal was seeded with
// (DeviceState.records; zero after clearRecords). The records themselves are
// generated from those numbers on first use, the same every time (a seeded
// generator and fixed dates), so they survive a restart unchanged and cost
// nothing at start-up. They are held in memory, per simulator, in typed
// arrays ordered newest first, with an index by user.
//
// Every search is a binary search on time (within the user's index when a
// user is asked for): any page of 100,000 records is as fast as the first.
// Names are looked up when a reply is made: a record shows its user's name
// now (empty once the user is deleted).
import { PassThrough } from 'node:stream';
import { FEVER_C, REPORT_MAX_DAYS } from '../../../src/api/maintenance.ts';
import type { DeviceProfile } from '../profile.ts';
import { reject, type CallImpl, type Context, type DeviceState, type FileReply } from '../types.ts';
import { seeds as basicSeeds } from './basic.ts';
import { factoryAccess } from './access.ts';
import { prng, userById } from './users.ts';

type Params = Record<string, unknown>;
type Seed = DeviceState['records'];

// ---------------------------------------------------------------------------
// Time: device time, kept as seconds since 1970 read as UTC (no zone is
// applied: "2026-11-20 08:01:12" is stored and shown as it was punched).

const DAY_S = 86400;
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
/** "YYYY-MM-DD HH:MM:SS" of a stored time. */
const stamp = (s: number) => new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ');
/** "YYYY-MM-DD" of a stored time. */
const dayOf = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
/** "HH:MM" of a stored time (seconds dropped). */
const hhmm = (s: number) => {
  const m = Math.floor((s % DAY_S) / 60);
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
};
/** Minutes since midnight of "HH:MM". */
const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
/** Seconds of "YYYY-MM-DD HH:MM:SS" (a well-formed, real date). */
const seconds = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000;

/**
 * The first second of the day `text` ("YYYY-MM-DD", the contract's pattern),
 * and the first second after it. A day the calendar does not have (02-30,
 * 04-31) holds no records: both are the first second of the next month, so
 * searches compare as the day texts do.
 */
function dayBounds(text: string): { from: number; to: number } {
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  const inMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > inMonth) {
    const next = Date.UTC(y, m, 1) / 1000;
    return { from: next, to: next };
  }
  const from = Date.UTC(y, m - 1, d) / 1000;
  return { from, to: from + DAY_S };
}

// ---------------------------------------------------------------------------
// The seed: what a fresh store starts with, and the fixture week.

/** The newest seeded day (a Friday). Seeded records cover the workdays (Monday to Friday) of the ~18 months up to it. */
export const SEED_LAST_DAY = '2026-11-20';
/** The oldest seeded day (a Monday). */
export const SEED_FIRST_DAY = '2025-05-19';

/**
 * A hand-made week of user 1 (seeded with Shift 1, "Day": OnDuty 09:00,
 * OffDuty 18:00, LateGrace 5, EarlyGrace 5; the factory RepeatTime is 3
 * minutes). The generator puts no other record on user 1 in this week, so the
 * report of FIXTURE.UserID from Start to End is exactly these days. Expected
 * rows, worked out by hand (UserName is user 1's: "Ana García" when seeded):
 *
 *   Date        FirstIn LastOut InTime OutTime Late Early
 *   2026-11-02  08:57   18:04   09:00  18:00   0    0     normal day
 *   2026-11-03  09:17   18:02   09:00  18:00   17   0     late: 17 min > 5
 *   2026-11-04  08:49   16:45   09:00  18:00   0    75    early: 75 min > 5; the lunch punches between do not count
 *   2026-11-05  09:03   ''      09:00  18:00   0    0     one punch (missing); 3 min late is within the grace
 *   2026-11-06  08:58   ''      09:00  18:00   0    0     09:00:05 is 1 min 45 s after 08:58:20, within 3 min: it
 *                                                        counts once, so the day has one counted punch (without
 *                                                        the rule, LastOut would be 09:00 and Early 540)
 */
export const FIXTURE = {
  UserID: '1',
  Start: '2026-11-02',
  End: '2026-11-06',
  /** [time, status] */
  punches: [
    ['2026-11-02 08:57:12', 0],
    ['2026-11-02 18:04:40', 1],
    ['2026-11-03 09:17:30', 0],
    ['2026-11-03 18:02:10', 1],
    ['2026-11-04 08:49:05', 0],
    ['2026-11-04 12:31:00', 2],
    ['2026-11-04 13:14:00', 3],
    ['2026-11-04 16:45:50', 1],
    ['2026-11-05 09:03:40', 0],
    ['2026-11-06 08:58:20', 0],
    ['2026-11-06 09:00:05', 0],
  ],
} as const;

/** Temperature records a profile without `seedTemperatures` is seeded with. */
const DEFAULT_TEMPERATURES = 3000;

/** What a fresh store of `profile` is seeded with (api.ts seedState): counts only, the records follow from them. */
export function seedRecords(profile: DeviceProfile): Seed {
  const users = Math.max(0, Math.min(profile.seedUsers ?? 300, profile.MaxUser));
  // With no user, no one has punched.
  const attendance = users ? Math.max(0, Math.min(profile.seedRecords ?? profile.MaxRecord, profile.MaxRecord)) : 0;
  const temperature = users ? Math.max(0, profile.seedTemperatures ?? DEFAULT_TEMPERATURES) : 0;
  return { attendance, temperature, users };
}

/** The store's seed; a store written before records were seeded this way (a list) gets the profile's. */
function seedOf(ctx: Context): Seed {
  const r = ctx.store.get().records as unknown;
  const ok = typeof r === 'object' && r !== null && !Array.isArray(r) && ['attendance', 'temperature', 'users'].every((k) => Number.isInteger((r as Record<string, unknown>)[k]));
  return ok ? (r as Seed) : seedRecords(ctx.profile);
}

/** SetInfoParam's RecordCount: the attendance records held (without generating them). */
export function recordCount(ctx: Context): number {
  return seedOf(ctx).attendance;
}

/** Delete every attendance and temperature record (InitMachine). Kept in the store: a restart finds none; a fresh store is seeded again. */
export async function clearRecords(ctx: Context): Promise<void> {
  await ctx.store.update((s) => {
    s.records = { attendance: 0, temperature: 0, users: 0 };
  });
}

// ---------------------------------------------------------------------------
// Generating the records

/** Attendance records, newest first (ties: the higher user ID first). */
interface Punches {
  n: number;
  /** Seconds (device time). */
  time: Uint32Array;
  user: Uint32Array;
  status: Uint8Array;
  /** Per user ID: the user's positions in the arrays above, ascending (so newest first). */
  byUser: Map<string, Uint32Array>;
}

/** Temperature records, newest first. */
interface Readings {
  n: number;
  time: Uint32Array;
  user: Uint32Array;
  /** Tenths of a degree Celsius (366 is 36.6 °C). */
  tenths: Uint16Array;
  /** Positions of the abnormal readings (>= FEVER_C) and of the normal ones, ascending. */
  abnormal: Uint32Array;
  normal: Uint32Array;
}

const FEVER_TENTHS = Math.round(FEVER_C * 10);
const FIRST_DAY = dayBounds(SEED_FIRST_DAY).from / DAY_S;
const LAST_DAY = dayBounds(SEED_LAST_DAY).from / DAY_S;
const FIXTURE_FROM = dayBounds(FIXTURE.Start).from / DAY_S;
const FIXTURE_TO = dayBounds(FIXTURE.End).from / DAY_S;
const FIXTURE_USER = Number(FIXTURE.UserID);

/** Day numbers (days since 1970) of the seeded workdays, oldest first. */
function workdays(): number[] {
  const out: number[] = [];
  // 1970-01-01 was a Thursday: (day + 4) % 7 is 0 on Sundays.
  for (let d = FIRST_DAY; d <= LAST_DAY; d++) if ((d + 4) % 7 !== 0 && (d + 4) % 7 !== 6) out.push(d);
  return out;
}

/** `total` spread evenly over `n` days: the count of day i. */
const quota = (total: number, n: number, i: number) => Math.floor(((i + 1) * total) / n) - Math.floor((i * total) / n);

/** A record while it is generated: seconds, user, status (a reading: tenths of a degree). */
interface Raw {
  s: number;
  u: number;
  st: number;
}
/** Oldest first; the same second: the lower user ID first. */
const byTime = (a: Raw, b: Raw) => a.s - b.s || a.u - b.u;

/**
 * `seed.attendance` records: the fixture week, then the rest spread evenly
 * over the workdays. Each day, users in a shuffled order come in (08:15 to
 * 09:05, a few late), some go to lunch (status 2 out, 3 back), most leave
 * (17:30 to 18:59, a few early), a few press twice, work overtime (4, 5) or
 * punch a status 6 / 7; a day's last visitor may be cut short (a missing
 * punch). Only when a day needs more records than its users give does
 * everyone come round again (statuses 6 and 7 through the day).
 */
function generatePunches(seed: Seed): Punches {
  const rnd = prng(0x7ec0d5);
  const users = seed.users;
  const fixture: Raw[] =
    users >= FIXTURE_USER && seed.attendance >= FIXTURE.punches.length ? FIXTURE.punches.map(([t, st]) => ({ s: seconds(t), u: FIXTURE_USER, st })) : [];
  const inFixture = (day: number) => fixture.length > 0 && day >= FIXTURE_FROM && day <= FIXTURE_TO;
  // No users, no records; a day whose only user is the fixture's gets no generated record.
  const days = users ? workdays().filter((d) => users > 1 || !inFixture(d)) : [];
  const generated = days.length ? seed.attendance - fixture.length : 0;
  const all: Raw[] = [];
  const order = Uint32Array.from({ length: users }, (_, i) => i + 1);
  const at = (h: number, m: number, spread: number) => h * 3600 + m * 60 + Math.floor(rnd() * spread * 60) + Math.floor(rnd() * 60);

  for (let i = 0; i < days.length; i++) {
    const want = quota(generated, days.length, i);
    const base = days[i] * DAY_S;
    const list: Raw[] = fixture.filter((r) => Math.floor(r.s / DAY_S) === days[i]);
    const fromFixture = list.length;
    const skip = inFixture(days[i]) ? FIXTURE_USER : 0;
    const push = (u: number, s: number, st: number) => {
      if (list.length - fromFixture < want) list.push({ s: base + Math.min(s, DAY_S - 1), u, st });
    };
    for (let k = 0, round = 0; list.length - fromFixture < want; k++) {
      if (k === users) {
        k = 0;
        round++;
      }
      // Shuffle as we go (Fisher-Yates), once per day.
      if (round === 0) {
        const j = k + Math.floor(rnd() * (users - k));
        [order[k], order[j]] = [order[j], order[k]];
      }
      const u = order[k];
      if (u === skip) continue;
      if (round > 0) {
        push(u, at(6, 0, 16 * 60), 6 + Math.floor(rnd() * 2));
        continue;
      }
      const came = rnd() < 0.08 ? at(9, 6, 55) : at(8, 15, 50);
      push(u, came, 0);
      if (rnd() < 0.03) push(u, came + 20 + Math.floor(rnd() * 130), 0);
      if (rnd() < 0.12) {
        const out = at(12, 0, 60);
        push(u, out, 2);
        push(u, out + 1800 + Math.floor(rnd() * 1800), 3);
      }
      if (rnd() < 0.01) push(u, at(10, 0, 360), 6 + Math.floor(rnd() * 2));
      if (rnd() < 0.93) push(u, rnd() < 0.07 ? at(15, 0, 150) : at(17, 30, 90), 1);
      if (rnd() < 0.02) {
        const from = at(19, 0, 60);
        push(u, from, 4);
        push(u, from + 3600 + Math.floor(rnd() * 7200), 5);
      }
    }
    list.sort(byTime);
    for (const r of list) all.push(r);
  }

  const n = all.length;
  const p: Punches = { n, time: new Uint32Array(n), user: new Uint32Array(n), status: new Uint8Array(n), byUser: new Map() };
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const r = all[n - 1 - i];
    p.time[i] = r.s;
    p.user[i] = r.u;
    p.status[i] = r.st;
    counts.set(r.u, (counts.get(r.u) ?? 0) + 1);
  }
  const filled = new Map<number, number>();
  for (const [u, c] of counts) {
    p.byUser.set(String(u), new Uint32Array(c));
    filled.set(u, 0);
  }
  for (let i = 0; i < n; i++) {
    const u = p.user[i];
    const f = filled.get(u)!;
    p.byUser.get(String(u))![f] = i;
    filled.set(u, f + 1);
  }
  return p;
}

/**
 * `seed.temperature` readings spread over the same workdays, taken as people
 * come in (07:40 to 09:29); about 7 % are at FEVER_C or above (37.3 to
 * 39.0 °C), the others 36.0 to 37.2 °C.
 */
function generateReadings(seed: Seed): Readings {
  const rnd = prng(0x7e30);
  const days = workdays();
  const all: Raw[] = [];
  for (let i = 0; i < days.length && seed.users; i++) {
    const list: Raw[] = [];
    for (let k = quota(seed.temperature, days.length, i); k > 0; k--) {
      const s = days[i] * DAY_S + 7 * 3600 + 40 * 60 + Math.floor(rnd() * 110 * 60);
      const u = 1 + Math.floor(rnd() * seed.users);
      const t = rnd() < 0.07 ? FEVER_TENTHS + Math.floor(rnd() * (391 - FEVER_TENTHS)) : 360 + Math.floor(rnd() * (FEVER_TENTHS - 360));
      list.push({ s, u, st: t });
    }
    list.sort(byTime);
    for (const r of list) all.push(r);
  }
  const n = all.length;
  const time = new Uint32Array(n);
  const user = new Uint32Array(n);
  const tenths = new Uint16Array(n);
  const abnormal: number[] = [];
  const normal: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = all[n - 1 - i];
    time[i] = r.s;
    user[i] = r.u;
    tenths[i] = r.st;
    (r.st >= FEVER_TENTHS ? abnormal : normal).push(i);
  }
  return { n, time, user, tenths, abnormal: Uint32Array.from(abnormal), normal: Uint32Array.from(normal) };
}

interface Held {
  key: string;
  punches?: Punches;
  readings?: Readings;
}
/** Per simulator (its store): the records of its current seed, each kind generated on first use. */
const HELD = new WeakMap<object, Held>();

function held(ctx: Context): { seed: Seed; h: Held } {
  const seed = seedOf(ctx);
  const key = `${seed.attendance}/${seed.temperature}/${seed.users}`;
  let h = HELD.get(ctx.store);
  if (!h || h.key !== key) HELD.set(ctx.store, (h = { key }));
  return { seed, h };
}
const punches = (ctx: Context) => {
  const { seed, h } = held(ctx);
  return (h.punches ??= generatePunches(seed));
};
const readings = (ctx: Context) => {
  const { seed, h } = held(ctx);
  return (h.readings ??= generateReadings(seed));
};

// ---------------------------------------------------------------------------
// Searching

/** The first i in [lo, hi) whose time is before `limit` (times descend with i); hi when none. */
function firstBefore(lo: number, hi: number, timeAt: (i: number) => number, limit: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timeAt(mid) < limit) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A search's matches, newest first: `total` of them, the i-th at position `at(i)`. */
interface Matches {
  total: number;
  at(i: number): number;
}

/**
 * Records of `user` (exact ID; '' every user) from the first second `from`
 * to before `to`: two binary searches, in the user's index or in all.
 */
function search(p: Punches, user: string, from: number, to: number): Matches {
  const list = user ? p.byUser.get(user) : undefined;
  if (user && !list) return { total: 0, at: () => 0 };
  const n = list ? list.length : p.n;
  const timeAt = list ? (i: number) => p.time[list[i]] : (i: number) => p.time[i];
  const lo = firstBefore(0, n, timeAt, to);
  const hi = firstBefore(lo, n, timeAt, from);
  return { total: hi - lo, at: list ? (i) => list[lo + i] : (i) => lo + i };
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const badEnd = (): never => reject(10005, 'err.10005', { field: 'End' });

/** searchrecord and DownloadRecordForm: UserID, Start and End (either may be empty); End before Start: 10005 naming End. */
function recordSearch(ctx: Context, q: Params) {
  const user = text(q.UserID);
  const start = text(q.Start);
  const end = text(q.End);
  if (start && end && end < start) badEnd();
  const p = punches(ctx);
  return { p, user, start, end, matches: search(p, user, start ? dayBounds(start).from : 0, end ? dayBounds(end).to : 2 ** 32) };
}

/** The user's name now; empty once the user is deleted. */
const nameOf = (ctx: Context, id: string) => userById(ctx, id)?.UserName ?? '';

/** The status names the device has now (SetApplyParam Status0 to Status7). */
function statusNames(ctx: Context): string[] {
  const apply = { ...basicSeeds.ApplyParam, ...ctx.store.get().settings.ApplyParam };
  return Array.from({ length: 8 }, (_, i) => String(apply[`Status${i}`] ?? ''));
}

/** One page (Page from 1, PageSize rows) of `total` rows. */
function pageOf(q: Params, total: number): { from: number; to: number } {
  const size = q.PageSize as number;
  const from = Math.min(total, ((q.Page as number) - 1) * size);
  return { from, to: Math.min(total, from + size) };
}

// ---------------------------------------------------------------------------
// The report

interface Shift {
  OnDuty: string;
  OffDuty: string;
  LateGrace: number;
  EarlyGrace: number;
}

/**
 * The shifts as SetShiftsInfo has them now (the access area keeps them in
 * settings.access, factory values until the first change): shift(n) is
 * null for 0 or a shift that is not there.
 */
function shifts(ctx: Context): (n: number) => Shift | null {
  const stored = (ctx.store.get().settings.access as { ShiftsInfo?: Record<string, Record<string, unknown>> } | undefined)?.ShiftsInfo;
  const all = stored ?? factoryAccess().ShiftsInfo;
  const known = new Map<number, Shift | null>();
  return (n) => {
    let shift = known.get(n);
    if (shift === undefined) {
      const key = String(n);
      const s = n && Object.prototype.hasOwnProperty.call(all, key) ? all[key] : undefined;
      shift = s && typeof s.OnDuty === 'string' && typeof s.OffDuty === 'string' ? { OnDuty: s.OnDuty, OffDuty: s.OffDuty, LateGrace: Number(s.LateGrace) || 0, EarlyGrace: Number(s.EarlyGrace) || 0 } : null;
      known.set(n, shift);
    }
    return shift;
  };
}

export interface ReportRow {
  UserID: string;
  UserName: string;
  Date: string;
  FirstIn: string;
  LastOut: string;
  InTime: string;
  OutTime: string;
  Late: number;
  Early: number;
}
/** The row fields in the contract's order (the download's columns). */
const REPORT_COLUMNS = ['UserID', 'UserName', 'Date', 'FirstIn', 'LastOut', 'InTime', 'OutTime', 'Late', 'Early'] as const;

/**
 * The report of a period (GetReportFormInfo, DownloadReportForm): a row per
 * user and calendar day with a punch, by numeric user ID then date.
 *  - A punch less than RepeatTime minutes (SetKaoqinParam) after the last
 *    counted punch of that day is not counted (a chain of presses a minute
 *    apart counts once per RepeatTime).
 *  - FirstIn is the first punch; LastOut the last counted one when the day
 *    has two or more counted punches, else empty.
 *  - InTime / OutTime are the user's shift now (users' Shift, SetShiftsInfo);
 *    empty, with Late and Early 0, for Shift 0 or a deleted user.
 *  - Late: minutes from OnDuty to FirstIn when more than LateGrace; Early:
 *    minutes from LastOut to OffDuty when more than EarlyGrace. Minutes are
 *    those of "HH:MM" (seconds dropped).
 *  - Night shifts (OffDuty before OnDuty) are not carried over midnight: each
 *    calendar day is a row of its own and the times compare within that day,
 *    so the morning clock-out of a night shift is a row on the next day (a
 *    FirstIn before OnDuty: not late) and a 22:00 to 06:00 shift is never
 *    early in the evening.
 */
function report(ctx: Context, q: Params): ReportRow[] {
  const start = text(q.Start);
  const end = text(q.End);
  const from = dayBounds(start).from;
  const to = dayBounds(end).to;
  if (end < start || to - from > REPORT_MAX_DAYS * DAY_S) badEnd();
  const p = punches(ctx);
  const m = search(p, text(q.UserID), from, to);
  // The period's punches by user and time, oldest first.
  const pos = Array.from({ length: m.total }, (_, i) => m.at(m.total - 1 - i));
  pos.sort((a, b) => p.user[a] - p.user[b] || p.time[a] - p.time[b] || a - b);
  const kaoqin = { ...basicSeeds.KaoqinParam, ...ctx.store.get().settings.KaoqinParam };
  const repeat = (Number(kaoqin.RepeatTime) || 0) * 60;
  const shiftOf = shifts(ctx);

  const rows: ReportRow[] = [];
  for (let i = 0; i < pos.length; ) {
    const u = p.user[pos[i]];
    const day = Math.floor(p.time[pos[i]] / DAY_S);
    const counted: number[] = [];
    for (; i < pos.length && p.user[pos[i]] === u && Math.floor(p.time[pos[i]] / DAY_S) === day; i++) {
      const t = p.time[pos[i]];
      if (!counted.length || t - counted[counted.length - 1] >= repeat) counted.push(t);
    }
    const id = String(u);
    const who = userById(ctx, id);
    const shift = who ? shiftOf(who.Shift) : null;
    const FirstIn = hhmm(counted[0]);
    const LastOut = counted.length > 1 ? hhmm(counted[counted.length - 1]) : '';
    const late = shift ? minutes(FirstIn) - minutes(shift.OnDuty) : 0;
    const early = shift && LastOut ? minutes(shift.OffDuty) - minutes(LastOut) : 0;
    rows.push({
      UserID: id,
      UserName: who?.UserName ?? '',
      Date: dayOf(day * DAY_S),
      FirstIn,
      LastOut,
      InTime: shift?.OnDuty ?? '',
      OutTime: shift?.OffDuty ?? '',
      Late: shift && late > shift.LateGrace ? late : 0,
      Early: shift && early > shift.EarlyGrace ? early : 0,
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Downloads (exceljs's streaming writer, loaded on first use: 100,000 rows in
// about a second, where the whole-workbook writer takes several)

let excelModule: Promise<typeof import('exceljs')> | undefined;
async function excel(): Promise<typeof import('exceljs')> {
  const m = (await (excelModule ??= import('exceljs'))) as typeof import('exceljs') & { default?: typeof import('exceljs') };
  return m.default ?? m;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A workbook of one sheet: a header row of `columns`, then `rows`. Every cell
 * is a string cell (shared string) in a column with the Text number format
 * ('@'): a value that starts with = + - @ stays text, never a formula.
 */
async function workbook(sheet: string, columns: readonly string[], rows: Iterable<string[]>, widths: readonly number[]): Promise<Buffer> {
  const ExcelJS = await excel();
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve, fail) => {
    out.on('end', resolve);
    out.on('error', fail);
  });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: true });
  wb.creator = 'Simulated terminal';
  const ws = wb.addWorksheet(sheet);
  ws.columns = columns.map((c, i) => ({ header: c, key: c, width: widths[i] ?? 12, style: { numFmt: '@' } }));
  for (const r of rows) ws.addRow(r).commit();
  await wb.commit();
  await done;
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------
// The calls

const noThermometry = (ctx: Context) => {
  if (!ctx.profile.funs.includes('thermometry')) reject(10001, 'err.10001');
};

export const handlers: Record<string, CallImpl> = {
  searchrecord: {
    handle(ctx, q) {
      const { p, matches } = recordSearch(ctx, q);
      const { from, to } = pageOf(q, matches.total);
      const List = [];
      for (let i = from; i < to; i++) {
        const at = matches.at(i);
        const id = String(p.user[at]);
        List.push({ Time: stamp(p.time[at]), UserID: id, UserName: nameOf(ctx, id), Status: p.status[at] });
      }
      return { Total: matches.total, List };
    },
  },

  DownloadRecordForm: {
    async handle(ctx, q): Promise<FileReply> {
      const { p, user, start, end, matches } = recordSearch(ctx, q);
      const names = statusNames(ctx);
      function* rows() {
        for (let i = 0; i < matches.total; i++) {
          const at = matches.at(i);
          const id = String(p.user[at]);
          yield [stamp(p.time[at]), id, nameOf(ctx, id), names[p.status[at]]];
        }
      }
      // records[-<user>]-<first day>-<last day>.xlsx: the days asked for, else those of the oldest and newest match.
      const first = start || (matches.total ? dayOf(p.time[matches.at(matches.total - 1)]) : '');
      const last = end || (matches.total ? dayOf(p.time[matches.at(0)]) : '');
      const name = ['records', user, first, last].filter(Boolean).join('-');
      return { file: { name: `${name}.xlsx`, type: XLSX_TYPE, data: await workbook('Records', ['Time', 'UserID', 'UserName', 'Status'], rows(), [20, 12, 26, 12]) } };
    },
  },

  GetReportFormInfo: {
    handle(ctx, q) {
      const rows = report(ctx, q);
      const { from, to } = pageOf(q, rows.length);
      return { Total: rows.length, List: rows.slice(from, to) };
    },
  },

  DownloadReportForm: {
    async handle(ctx, q): Promise<FileReply> {
      const rows = report(ctx, q).map((r) => REPORT_COLUMNS.map((c) => String(r[c])));
      const name = ['report', text(q.UserID), text(q.Start), text(q.End)].filter(Boolean).join('-');
      return { file: { name: `${name}.xlsx`, type: XLSX_TYPE, data: await workbook('Report', REPORT_COLUMNS, rows, [12, 26, 12, 9, 9, 9, 9, 7, 7]) } };
    },
  },

  searchThermometryRecord: {
    handle(ctx, q) {
      noThermometry(ctx);
      const r = readings(ctx);
      const list = q.Type === 1 ? r.abnormal : q.Type === 2 ? r.normal : null;
      const total = list ? list.length : r.n;
      const { from, to } = pageOf(q, total);
      const List = [];
      for (let i = from; i < to; i++) {
        const at = list ? list[i] : i;
        const id = String(r.user[at]);
        List.push({
          Time: stamp(r.time[at]),
          UserID: id,
          UserName: nameOf(ctx, id),
          Temperature: (r.tenths[at] / 10).toFixed(1),
          Abnormal: r.tenths[at] >= FEVER_TENTHS ? 1 : 0,
        });
      }
      return { Total: total, List };
    },
  },
};
