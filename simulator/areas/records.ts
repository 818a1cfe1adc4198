// Simulated terminal: the Records area (contract/maintenance.ts, "Records"):
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
// arrays ordered newest first, with an index by user (records/generate.ts).
//
// Every search is a binary search on time (within the user's index when a
// user is asked for): any page of 100,000 records is as fast as the first.
// Names are looked up when a reply is made: a record shows its user's name
// now (empty once the user is deleted).
import { PassThrough } from 'node:stream';
import { REPORT_MAX_DAYS } from '../../contract/maintenance.ts';
import { refuse, type CallImpl, type Context, type FileReply } from '../types.ts';
import { seeds as basicSeeds } from './basic.ts';
import { factoryAccess } from './access.ts';
import { userById } from './users/list.ts';
import { FEVER_TENTHS, punches, readings, type Punches } from './records/generate.ts';
import { DAY_S, dayBounds, dayOf, hhmm, minutes, stamp } from './records/time.ts';

type Params = Record<string, unknown>;

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
const badEnd = (): never => refuse(10005, { field: 'End' });

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

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A workbook of one sheet: a header row of `columns`, then `rows`. Every cell
 * is a string cell (shared string) in a column with the Text number format
 * ('@'): a value that starts with = + - @ stays text, never a formula.
 */
export async function workbook(sheet: string, columns: readonly string[], rows: Iterable<string[]>, widths: readonly number[]): Promise<Buffer> {
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
  if (!ctx.model.funs.includes('thermometry')) refuse(10001);
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
