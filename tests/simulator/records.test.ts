// The simulated terminal's Records area over HTTP, as docs/API.md says it
// behaves: paging and searches on 100,000 attendance records, their speed,
// the .xlsx downloads read back with exceljs, the attendance report against a
// week worked out by hand, temperature records, deleting every record, and
// that records survive a restart unchanged.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel, type ModelOverrides } from '../../simulator/model.ts';
import { FIXTURE, SEED_FIRST_DAY, SEED_LAST_DAY, clearRecords } from '../../simulator/areas/records/generate.ts';
import type { Context } from '../../simulator/types.ts';
import { CALLS, GOFORM_PREFIX, HEADERS, TIMESTAMP_PARAM, type CallName } from '../../contract/index.ts';
import { FEVER_C, REPORT_MAX_DAYS } from '../../contract/maintenance.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

type Rec = Record<string, unknown>;
interface Row {
  Time: string;
  UserID: string;
  UserName: string;
  Status: number;
}
const tmp = () => mkdtempSync(join(tmpdir(), 'records-'));
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  data: Buffer;
}

/**
 * One request on a connection of its own (no keep-alive): these tests block
 * the process for seconds at a time (reading 100,000 rows back), and a pooled
 * idle connection could then race the server's keep-alive timeout (a reset).
 */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, data: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A call as the contract says (GET query / POST JSON), as the console makes it. */
function callOn(base: string, name: CallName, params: Rec, token?: string): Promise<Answer> {
  const spec = CALLS[name];
  const headers: Record<string, string> = token ? { [HEADERS.token]: token } : {};
  const url = `${base}${GOFORM_PREFIX}${spec.path}?${TIMESTAMP_PARAM}=1`;
  if (spec.method === 'GET') return send(`${url}&${new URLSearchParams(params as Record<string, string>)}`, 'GET', headers);
  return send(url, 'POST', { ...headers, 'Content-Type': 'application/json' }, JSON.stringify(params));
}
const json = (a: Answer) => JSON.parse(a.data.toString('utf8')) as Rec;

interface Device {
  sim: Simulator;
  dir: string;
  call(name: CallName, params?: Rec): Promise<Rec>;
  /** The raw answer (a download). */
  raw(name: CallName, params?: Rec): Promise<Answer>;
  /** A download read back with exceljs: its sheet, file name and how long the answer took. */
  sheet(name: 'DownloadRecordForm' | 'DownloadReportForm', params?: Rec): Promise<{ ws: ExcelJS.Worksheet; rows: number; file: string }>;
  /** searchrecord's List. */
  records(params: Rec): Promise<Row[]>;
  close(): Promise<void>;
}

async function device(options: { profile?: string; overrides?: ModelOverrides; dir?: string } = {}): Promise<Device> {
  const dir = options.dir ?? tmp();
  const sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(dir, 'store.json'), model: loadModel(options.profile ?? 'default', options.overrides) });
  const token = json(await callOn(sim.url, 'chklogin', { username: 'admin', password: TEST_ADMIN.password })).token as string;
  const raw = (name: CallName, params: Rec = {}) => callOn(sim.url, name, params, token);
  const d: Device = {
    sim,
    dir,
    call: async (name, params = {}) => json(await raw(name, params)),
    raw,
    async sheet(name, params = {}) {
      const res = await raw(name, params);
      assert.is(res.status, 200);
      assert.is(res.headers['content-type'], XLSX, `${name} answers a workbook: ${res.data.subarray(0, 200).toString()}`);
      const file = /filename="([^"]+)"/.exec(res.headers['content-disposition'] ?? '')?.[1] ?? '';
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(new Uint8Array(res.data).buffer);
      const ws = wb.worksheets[0];
      return { ws, rows: ws.actualRowCount, file };
    },
    async records(params) {
      const r = await d.call('searchrecord', params);
      assert.is(r.retvalue, 0, JSON.stringify(r));
      return r.List as Row[];
    },
    close: () => sim.close(),
  };
  return d;
}

const err = (code: number, field?: string) => (field === undefined ? { retvalue: code, msg: `err.${code}` } : { retvalue: code, msg: `err.${code}`, field });
const ctxOf = (d: Device) => ({ model: d.sim.model, store: d.sim.store }) as unknown as Context;
/**
 * A sheet's number of columns, read once a sheet: ExcelJS's columnCount walks every row each time it is read
 * (on the 100,001 rows of the records' sheet, the checks below spent 5 s of CPU in it).
 */
const columnCounts = new WeakMap<ExcelJS.Worksheet, number>();
const columnsOf = (ws: ExcelJS.Worksheet) => columnCounts.get(ws) ?? columnCounts.set(ws, ws.columnCount).get(ws)!;
/** Every value of a sheet's row, as text (column 1 on). */
const cells = (ws: ExcelJS.Worksheet, n: number) => {
  const row = ws.getRow(n);
  return Array.from({ length: columnsOf(ws) }, (_, i) => row.getCell(i + 1).value);
};
/** Every cell of row n is a string cell in the Text format. */
function textRow(ws: ExcelJS.Worksheet, n: number): void {
  const row = ws.getRow(n);
  for (let c = 1; c <= columnsOf(ws); c++) {
    const cell = row.getCell(c);
    assert.is(cell.type, ExcelJS.ValueType.String, `row ${n} column ${c} (${String(cell.value)}) is a string cell`);
    assert.is(cell.numFmt, '@', `row ${n} column ${c} has the Text format`);
  }
}
const newestFirst = (rows: { Time: string }[]) => rows.every((r, i) => i === 0 || rows[i - 1].Time >= r.Time);

/**
 * User 1's report for the fixture week, worked out by hand from the punches
 * (simulator/areas/records.ts, FIXTURE) with Shift 1 (09:00 to 18:00,
 * grace 5 and 5) and RepeatTime 3:
 *   Mon 08:57:12, 18:04:40                          -> in before 09:00, out after 18:00
 *   Tue 09:17:30, 18:02:10                          -> 17 min late (> 5)
 *   Wed 08:49:05, 12:31:00, 13:14:00, 16:45:50      -> out 75 min early (> 5)
 *   Thu 09:03:40                                    -> one punch; 3 min late is within the grace
 *   Fri 08:58:20, 09:00:05                          -> the second is 105 s after the first: not counted
 */
const WEEK = [
  ['2026-11-02', '08:57', '18:04', 0, 0],
  ['2026-11-03', '09:17', '18:02', 17, 0],
  ['2026-11-04', '08:49', '16:45', 0, 75],
  ['2026-11-05', '09:03', '', 0, 0],
  ['2026-11-06', '08:58', '', 0, 0],
] as const;
const weekRows = (name = 'Ana García') =>
  WEEK.map(([Date, FirstIn, LastOut, Late, Early]) => ({ UserID: '1', UserName: name, Date, FirstIn, LastOut, InTime: '09:00', OutTime: '18:00', Late, Early }));
const week = { UserID: '1', Start: '2026-11-02', End: '2026-11-06' };

// ---------------------------------------------------------------------------
// One device for the reading tests (nothing here changes it).
const s = suite('records: searching 100,000');
let d: Device;
s.before(async () => {
  d = await device();
});
s.after(() => d.close());

s('a fresh terminal holds 100,000 records; SetInfoParam counts them', async () => {
  const r = await d.call('searchrecord', { Page: 1, PageSize: 10 });
  assert.is(r.Total, 100000);
  assert.is((await d.call('SetInfoParam')).RecordCount, 100000);
  assert.is(d.sim.model.MaxRecord, 100000);
});

s('paging: page sizes, the last page, past the end (empty List, real Total)', async () => {
  for (const size of [10, 20, 50, 100]) {
    const r = await d.call('searchrecord', { Page: 1, PageSize: size });
    assert.is((r.List as Row[]).length, size);
    const last = await d.call('searchrecord', { Page: 100000 / size, PageSize: size });
    assert.is((last.List as Row[]).length, size, `last page of ${size}`);
    assert.equal(await d.call('searchrecord', { Page: 100000 / size + 1, PageSize: size }), { retvalue: 0, Total: 100000, List: [] });
  }
  // Pages follow on from each other.
  const twenty = await d.records({ Page: 3, PageSize: 20 });
  assert.equal([...(await d.records({ Page: 5, PageSize: 10 })), ...(await d.records({ Page: 6, PageSize: 10 }))], twenty);
  // A total that is not a multiple of the page size: the last page holds the rest.
  let user = 2;
  let total = 0;
  for (; (total = (await d.call('searchrecord', { Page: 1, PageSize: 10, UserID: String(user) })).Total as number) % 10 === 0; user++);
  const lastPage = Math.ceil(total / 10);
  assert.is((await d.records({ Page: lastPage, PageSize: 10, UserID: String(user) })).length, total % 10);
  assert.equal(await d.call('searchrecord', { Page: lastPage + 1, PageSize: 10, UserID: String(user) }), { retvalue: 0, Total: total, List: [] });
});

s('the contract refuses other page sizes, pages below 1 and malformed IDs and days', async () => {
  assert.equal(await d.call('searchrecord', { Page: 1, PageSize: 30 }), err(10005, 'PageSize'));
  assert.equal(await d.call('searchrecord', { Page: 0, PageSize: 10 }), err(10005, 'Page'));
  assert.equal(await d.call('searchrecord', { PageSize: 10 }), err(10003, 'Page'));
  assert.equal(await d.call('searchrecord', { Page: 1, PageSize: 10, UserID: '01' }), err(10005, 'UserID'));
  assert.equal(await d.call('searchrecord', { Page: 1, PageSize: 10, Start: '2026-13-01' }), err(10005, 'Start'));
});

s('newest first, from the newest seeded day to the oldest', async () => {
  const first = await d.records({ Page: 1, PageSize: 100 });
  const second = await d.records({ Page: 2, PageSize: 100 });
  const late = await d.records({ Page: 999, PageSize: 100 });
  const last = await d.records({ Page: 1000, PageSize: 100 });
  assert.ok(newestFirst([...first, ...second]));
  assert.ok(newestFirst([...late, ...last]));
  assert.ok(second[99].Time >= late[0].Time);
  assert.ok(first[0].Time.startsWith(SEED_LAST_DAY));
  assert.ok(last[99].Time.startsWith(SEED_FIRST_DAY));
  for (const r of [...first, ...last]) {
    assert.match(r.Time, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.ok(Number.isInteger(r.Status) && r.Status >= 0 && r.Status <= 7);
  }
});

s('a record shows its user\'s name; seeded records name seeded users, on workdays, mostly IN and OUT', async () => {
  const page = await d.records({ Page: 1, PageSize: 100, UserID: '1' });
  assert.ok(page.every((r) => r.UserName === 'Ana García'));
  const status = new Array(8).fill(0);
  for (const p of [1, 250, 500, 750, 1000]) {
    for (const r of await d.records({ Page: p, PageSize: 100 })) {
      const n = Number(r.UserID);
      assert.ok(n >= 1 && n <= 300, `user ${r.UserID} is seeded`);
      assert.ok(r.UserName, 'named');
      const day = new Date(`${r.Time.slice(0, 10)}T00:00:00Z`).getUTCDay();
      assert.ok(day >= 1 && day <= 5, `${r.Time} is a workday`);
      status[r.Status]++;
    }
  }
  assert.ok(status[0] + status[1] > 400, `mostly IN and OUT: ${status}`);
  assert.is((await d.call('searchrecord', { Page: 1, PageSize: 10, Start: '2026-11-07', End: '2026-11-08' })).Total, 0, 'a weekend');
});

s('UserID is exact: every user\'s totals add up to all records', async () => {
  const one = await d.records({ Page: 1, PageSize: 100, UserID: '1' });
  assert.ok(one.length > 0 && one.every((r) => r.UserID === '1'), 'not 10, 11, 100, ...');
  let sum = 0;
  for (let u = 1; u <= 300; u++) sum += (await d.call('searchrecord', { Page: 1, PageSize: 10, UserID: String(u) })).Total as number;
  assert.is(sum, 100000);
  assert.equal(await d.call('searchrecord', { Page: 1, PageSize: 10, UserID: '9999999999' }), { retvalue: 0, Total: 0, List: [] });
});

s('Start and End are days, both included; with a user too', async () => {
  const day = await d.call('searchrecord', { Page: 1, PageSize: 100, Start: '2026-11-04', End: '2026-11-04' });
  const dayRows = day.List as Row[];
  assert.ok((day.Total as number) > 100);
  assert.ok(dayRows.every((r) => r.Time.startsWith('2026-11-04')));
  let days = 0;
  for (const dd of ['02', '03', '04', '05', '06']) days += (await d.call('searchrecord', { Page: 1, PageSize: 10, Start: `2026-11-${dd}`, End: `2026-11-${dd}` })).Total as number;
  assert.is((await d.call('searchrecord', { Page: 1, PageSize: 10, Start: '2026-11-02', End: '2026-11-06' })).Total, days);
  // Only Start: from that day on; only End: up to that day.
  const from = await d.call('searchrecord', { Page: 1, PageSize: 10, Start: '2026-11-20' });
  const to = await d.call('searchrecord', { Page: 1, PageSize: 10, End: '2026-11-19' });
  assert.is((from.Total as number) + (to.Total as number), 100000);
  const lastOfTo = await d.records({ Page: 1, PageSize: 10, End: '2026-11-19' });
  assert.ok(lastOfTo[0].Time.startsWith('2026-11-19'));
  // User 1 in the fixture week: exactly the fixture's punches, newest first.
  assert.equal(await d.records({ Page: 1, PageSize: 20, ...week }), [
    { Time: '2026-11-06 09:00:05', UserID: '1', UserName: 'Ana García', Status: 0 },
    { Time: '2026-11-06 08:58:20', UserID: '1', UserName: 'Ana García', Status: 0 },
    { Time: '2026-11-05 09:03:40', UserID: '1', UserName: 'Ana García', Status: 0 },
    { Time: '2026-11-04 16:45:50', UserID: '1', UserName: 'Ana García', Status: 1 },
    { Time: '2026-11-04 13:14:00', UserID: '1', UserName: 'Ana García', Status: 3 },
    { Time: '2026-11-04 12:31:00', UserID: '1', UserName: 'Ana García', Status: 2 },
    { Time: '2026-11-04 08:49:05', UserID: '1', UserName: 'Ana García', Status: 0 },
    { Time: '2026-11-03 18:02:10', UserID: '1', UserName: 'Ana García', Status: 1 },
    { Time: '2026-11-03 09:17:30', UserID: '1', UserName: 'Ana García', Status: 0 },
    { Time: '2026-11-02 18:04:40', UserID: '1', UserName: 'Ana García', Status: 1 },
    { Time: '2026-11-02 08:57:12', UserID: '1', UserName: 'Ana García', Status: 0 },
  ]);
  assert.equal([FIXTURE.UserID, FIXTURE.Start, FIXTURE.End], [week.UserID, week.Start, week.End]);
  // A day the calendar does not have is refused (docs/API.md, "What a device must refuse"), not searched for.
  assert.equal(await d.call('searchrecord', { Page: 1, PageSize: 10, Start: '2026-02-30', End: '2026-02-31' }), err(10005, 'Start'));
});

s('End before Start: 10005 naming End, in every records call', async () => {
  const bad = { Start: '2026-11-06', End: '2026-11-05' };
  assert.equal(await d.call('searchrecord', { Page: 1, PageSize: 10, ...bad }), err(10005, 'End'));
  assert.equal(await d.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...bad }), err(10005, 'End'));
  for (const name of ['DownloadRecordForm', 'DownloadReportForm'] as const) {
    const res = await d.raw(name, bad);
    assert.equal(json(res), err(10005, 'End'), name);
  }
});

// How fast a late page answers is measured by npm run bench (section simulator), not asserted here: that is this machine's speed.
s('any page of 100,000, however late, answers that page: PageSize records at most, newest first, of the whole count', async () => {
  for (const [label, q] of [
    ['last page', { Page: 1000, PageSize: 100 }],
    ['a late page', { Page: 9000, PageSize: 10 }],
    ['a late page of a period', { Page: 600, PageSize: 100, Start: '2025-06-01', End: '2026-10-31' }],
    ["a user's late page", { Page: 30, PageSize: 10, UserID: '7' }],
  ] as const) {
    const r = await d.call('searchrecord', q);
    assert.is(r.retvalue, 0, label);
    const times = (r.List as { Time: string }[]).map((x) => x.Time);
    assert.ok(times.length > 0 && times.length <= q.PageSize, `${label}: ${times.length} records`);
    assert.equal(times, [...times].sort().reverse(), `${label}: newest first`);
    assert.ok((r.Total as number) >= (q.Page - 1) * q.PageSize + times.length, `${label}: Total ${r.Total}`);
  }
});

s('DownloadRecordForm: all 100,000 as .xlsx, newest first, status names, text cells', async () => {
  const { ws, rows, file } = await d.sheet('DownloadRecordForm');
  assert.is(file, `records-${SEED_FIRST_DAY}-${SEED_LAST_DAY}.xlsx`);
  assert.equal(cells(ws, 1), ['Time', 'UserID', 'UserName', 'Status']);
  assert.is(rows, 1 + 100000);
  const names = ['IN', 'OUT', 'status1', 'status2', 'status3', 'status4', 'status5', 'status6'];
  const expect = (rows: Row[]) => rows.map((r) => [r.Time, r.UserID, r.UserName, names[r.Status]]);
  const first = await d.records({ Page: 1, PageSize: 100 });
  assert.equal(Array.from({ length: 100 }, (_, i) => cells(ws, 2 + i)), expect(first));
  const last = await d.records({ Page: 1000, PageSize: 100 });
  assert.equal(Array.from({ length: 100 }, (_, i) => cells(ws, 99902 + i)), expect(last));
  for (let n = 1; n <= rows; n += 997) textRow(ws, n);
  textRow(ws, rows);
});

s('DownloadRecordForm with a search: the same rows as searchrecord\'s Total', async () => {
  const q = { UserID: '5', Start: '2026-01-01', End: '2026-06-30' };
  const total = (await d.call('searchrecord', { Page: 1, PageSize: 10, ...q })).Total as number;
  const { ws, rows, file } = await d.sheet('DownloadRecordForm', q);
  assert.is(file, 'records-5-2026-01-01-2026-06-30.xlsx');
  assert.ok(total > 10);
  assert.is(rows, 1 + total);
  for (let n = 2; n <= rows; n++) assert.is(cells(ws, n)[1], '5');
  const none = await d.sheet('DownloadRecordForm', { UserID: '9999' });
  assert.is(none.rows, 1, 'only the header');
  assert.is(none.file, 'records-9999.xlsx');
});

s('the report of the fixture week, worked out by hand', async () => {
  assert.equal(await d.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week }), { retvalue: 0, Total: 5, List: weekRows() });
  // Page 2 is past the end: an empty List with the real Total.
  assert.equal(await d.call('GetReportFormInfo', { Page: 2, PageSize: 10, ...week }), { retvalue: 0, Total: 5, List: [] });
});

s('the report of everyone: a row per user and day with a punch, by numeric user ID then date', async () => {
  const q = { Start: '2026-11-02', End: '2026-11-06' };
  const rows: Rec[] = [];
  let total = 0;
  for (let p = 1; ; p++) {
    const r = await d.call('GetReportFormInfo', { Page: p, PageSize: 100, ...q });
    total = r.Total as number;
    if (!(r.List as Rec[]).length) break;
    rows.push(...(r.List as Rec[]));
  }
  assert.is(rows.length, total);
  const key = (r: Rec) => [Number(r.UserID), r.Date as string] as const;
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [key(rows[i - 1]), key(rows[i])];
    assert.ok(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]), `row ${i} in order`);
  }
  // The same (user, day) pairs as the records of the period.
  const pairs = new Set<string>();
  for (let p = 1; ; p++) {
    const list = await d.records({ Page: p, PageSize: 100, ...q });
    if (!list.length) break;
    for (const r of list) pairs.add(`${r.UserID} ${r.Time.slice(0, 10)}`);
  }
  assert.equal(new Set(rows.map((r) => `${r.UserID} ${r.Date}`)), pairs);
  // User 2 has no shift (seeded Shift 0): no times, never late or early.
  const two = rows.filter((r) => r.UserID === '2');
  assert.ok(two.length > 0);
  assert.ok(two.every((r) => r.InTime === '' && r.OutTime === '' && r.Late === 0 && r.Early === 0));
  // Every row: LastOut after FirstIn, or empty.
  assert.ok(rows.every((r) => r.LastOut === '' || (r.LastOut as string) > (r.FirstIn as string)));
});

s(`the report covers at most ${REPORT_MAX_DAYS} days`, async () => {
  const ok = await d.call('GetReportFormInfo', { Page: 1, PageSize: 10, Start: '2026-10-01', End: '2026-10-31' });
  assert.is(ok.retvalue, 0);
  assert.ok((ok.Total as number) > 1000);
  assert.equal(await d.call('GetReportFormInfo', { Page: 1, PageSize: 10, Start: '2026-10-01', End: '2026-11-01' }), err(10005, 'End'));
  assert.equal(await d.call('GetReportFormInfo', { Page: 1, PageSize: 10, Start: '2026-10-01', End: '' }), err(10005, 'End'));
  assert.equal(await d.call('GetReportFormInfo', { Page: 1, PageSize: 10, End: '2026-10-01' }), err(10003, 'Start'));
  const res = await d.raw('DownloadReportForm', { Start: '2026-01-01', End: '2026-12-31' });
  assert.equal(json(res), err(10005, 'End'));
});

s('DownloadReportForm: the same rows, the row fields as columns, text cells', async () => {
  const { ws, rows, file } = await d.sheet('DownloadReportForm', week);
  assert.is(file, 'report-1-2026-11-02-2026-11-06.xlsx');
  assert.equal(cells(ws, 1), ['UserID', 'UserName', 'Date', 'FirstIn', 'LastOut', 'InTime', 'OutTime', 'Late', 'Early']);
  assert.is(rows, 6);
  assert.equal(
    Array.from({ length: 5 }, (_, i) => cells(ws, 2 + i)),
    weekRows().map((r) => Object.values(r).map(String)),
  );
  for (let n = 1; n <= 6; n++) textRow(ws, n);
  const all = await d.sheet('DownloadReportForm', { Start: '2026-10-01', End: '2026-10-31' });
  const total = (await d.call('GetReportFormInfo', { Page: 1, PageSize: 10, Start: '2026-10-01', End: '2026-10-31' })).Total as number;
  assert.is(all.rows, 1 + total);
  assert.is(all.file, 'report-2026-10-01-2026-10-31.xlsx');
});

s('temperature records: all = abnormal + normal, Abnormal as the temperature says, newest first', async () => {
  const all = await d.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type: 0 });
  const abnormal = await d.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type: 1 });
  const normal = await d.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type: 2 });
  assert.is(all.Total, 3000);
  assert.ok((abnormal.Total as number) > 0 && (normal.Total as number) > (abnormal.Total as number));
  assert.is((abnormal.Total as number) + (normal.Total as number), all.Total);
  type Reading = { Time: string; UserID: string; UserName: string; Temperature: string; Abnormal: number };
  const every: Reading[] = [];
  for (let p = 1; p <= 30; p++) every.push(...((await d.call('searchThermometryRecord', { Page: p, PageSize: 100, Type: 0 })).List as Reading[]));
  assert.is(every.length, 3000);
  assert.ok(newestFirst(every));
  for (const r of every) {
    assert.match(r.Temperature, /^[0-9]{2}\.[0-9]$/);
    assert.is(r.Abnormal, Number(r.Temperature) >= FEVER_C ? 1 : 0, `${r.Temperature}`);
    assert.ok(Number(r.Temperature) >= 35 && Number(r.Temperature) <= 42);
  }
  assert.is(every.filter((r) => r.Abnormal).length, abnormal.Total);
  assert.ok((abnormal.List as Reading[]).every((r) => r.Abnormal === 1));
  assert.ok((normal.List as Reading[]).every((r) => r.Abnormal === 0));
  const lastAbnormal = Math.ceil((abnormal.Total as number) / 10);
  assert.is(((await d.call('searchThermometryRecord', { Page: lastAbnormal, PageSize: 10, Type: 1 })).List as Reading[]).length, (abnormal.Total as number) - (lastAbnormal - 1) * 10);
  assert.equal(await d.call('searchThermometryRecord', { Page: 31, PageSize: 100, Type: 0 }), { retvalue: 0, Total: 3000, List: [] });
  assert.equal(await d.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type: 3 }), err(10005, 'Type'));
});

s.run();

// ---------------------------------------------------------------------------
const c = suite('records: changes, restarts and profiles');

c('names are looked up now: a renamed user, a formula-looking name stays text; a deleted user\'s records have no name', async () => {
  const x = await device();
  try {
    const person = { UserID: '2', UserName: '=1+1', Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0 };
    assert.equal(await x.call('edituser', person), { retvalue: 0 });
    // Status 0's name as the device has it now.
    const apply = await x.call('SetApplyParam');
    const { retvalue: _, ...names } = apply;
    assert.equal(await x.call('GetApplyParam', { ...names, Status0: 'Arrive' }), { retvalue: 0 });
    const q = { UserID: '2', Start: '2026-10-01', End: '2026-11-20' };
    const list = await x.records({ Page: 1, PageSize: 100, ...q });
    assert.ok(list.length > 0 && list.every((r) => r.UserName === '=1+1'));
    const total = (await x.call('searchrecord', { Page: 1, PageSize: 10, ...q })).Total as number;
    const { ws, rows } = await x.sheet('DownloadRecordForm', q);
    assert.is(rows, 1 + total);
    for (let n = 2; n <= rows; n++) {
      const cell = ws.getRow(n).getCell(3);
      assert.is(cell.value, '=1+1');
      assert.is(cell.type, ExcelJS.ValueType.String, 'not a formula');
      assert.is(cell.formula, undefined);
      assert.is(cell.numFmt, '@');
    }
    const statuses = Array.from({ length: total }, (_, i) => cells(ws, 2 + i)[3]);
    assert.ok(statuses.includes('Arrive') && !statuses.includes('IN'), 'status 0 under its new name');
    // Deleted: the records stay, with no name; the report has no shift for them.
    assert.equal(await x.call('deleteuser', { UserID: '1' }), { retvalue: 0 });
    assert.ok((await x.records({ Page: 1, PageSize: 20, ...week })).every((r) => r.UserID === '1' && r.UserName === ''));
    const report = (await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List as Rec[];
    assert.equal(
      report.map((r) => [r.UserName, r.Date, r.FirstIn, r.LastOut, r.InTime, r.OutTime, r.Late, r.Early]),
      WEEK.map(([date, fi, lo]) => ['', date, fi, lo, '', '', 0, 0]),
    );
  } finally {
    await x.close();
  }
});

c('the report follows the settings: RepeatTime 0 counts every punch, a longer grace forgives, a shift change moves the times', async () => {
  const x = await device();
  try {
    assert.equal(await x.call('GetKaoqinParam', { RepeatTime: 0, AlarmLogs: 100 }), { retvalue: 0 });
    let rows = (await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List as Rec[];
    // Friday by hand without the duplicate rule: out at 09:00, 18:00 - 09:00 = 540 min early.
    assert.equal(rows[4], { ...weekRows()[4], LastOut: '09:00', Early: 540 });
    assert.equal(rows.slice(0, 4), weekRows().slice(0, 4));
    // RepeatTime 2: 08:58:20 -> 09:00:05 is 1 min 45 s, still within.
    assert.equal(await x.call('GetKaoqinParam', { RepeatTime: 2, AlarmLogs: 100 }), { retvalue: 0 });
    rows = (await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List as Rec[];
    assert.equal(rows, weekRows());
    // Shift 1 as 08:00 to 17:00, grace 20 and 10, by hand:
    //   Mon 08:57 -> 57 late; out 18:04: not early.   Tue 09:17 -> 77 late.
    //   Wed 08:49 -> 49 late; out 16:45 -> 15 early (> 10).   Thu 09:03 -> 63 late.   Fri 08:58 -> 58 late.
    assert.equal(await x.call('GetShiftsInfo', { ShiftNum: 1, Name: 'Early', OnDuty: '08:00', OffDuty: '17:00', LateGrace: 20, EarlyGrace: 10 }), { retvalue: 0 });
    rows = (await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List as Rec[];
    assert.equal(
      rows.map((r) => [r.Date, r.InTime, r.OutTime, r.Late, r.Early]),
      [
        ['2026-11-02', '08:00', '17:00', 57, 0],
        ['2026-11-03', '08:00', '17:00', 77, 0],
        ['2026-11-04', '08:00', '17:00', 49, 15],
        ['2026-11-05', '08:00', '17:00', 63, 0],
        ['2026-11-06', '08:00', '17:00', 58, 0],
      ],
    );
    // Grace at the edge: 09:17 is 17 minutes late; LateGrace 17 forgives it, 16 does not.
    assert.equal(await x.call('GetShiftsInfo', { ShiftNum: 1, Name: 'Day', OnDuty: '09:00', OffDuty: '18:00', LateGrace: 17, EarlyGrace: 75 }), { retvalue: 0 });
    rows = (await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List as Rec[];
    assert.equal([rows[1].Late, rows[2].Early], [0, 0]);
    assert.equal(await x.call('GetShiftsInfo', { ShiftNum: 1, Name: 'Day', OnDuty: '09:00', OffDuty: '18:00', LateGrace: 16, EarlyGrace: 74 }), { retvalue: 0 });
    rows = (await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List as Rec[];
    assert.equal([rows[1].Late, rows[2].Early], [17, 75]);
    // A night shift (22:00 to 06:00) compares within the calendar day: a day worker on it is never late or early.
    assert.equal(await x.call('edituser', { UserID: '1', UserName: 'Ana García', Admin: 1, Group: 0, IdentifyMode: 0, Shift: 2 }), { retvalue: 0 });
    rows = (await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List as Rec[];
    assert.ok(rows.every((r) => r.InTime === '22:00' && r.OutTime === '06:00' && r.Late === 0 && r.Early === 0));
  } finally {
    await x.close();
  }
});

c('records survive a restart unchanged; a fresh store holds the same ones', async () => {
  const pages = async (x: Device) => [
    await x.records({ Page: 1, PageSize: 100 }),
    await x.records({ Page: 777, PageSize: 100 }),
    await x.records({ Page: 1000, PageSize: 100 }),
    await x.records({ Page: 1, PageSize: 20, ...week }),
    await x.call('searchThermometryRecord', { Page: 5, PageSize: 100, Type: 0 }),
  ];
  const x = await device();
  const before = await pages(x);
  await x.close();
  const y = await device({ dir: x.dir });
  try {
    assert.equal(await pages(y), before);
    assert.is((await y.call('SetInfoParam')).RecordCount, 100000);
  } finally {
    await y.close();
  }
  const z = await device();
  try {
    assert.equal(await pages(z), before, 'the same on every fresh store');
  } finally {
    await z.close();
  }
});

c('clearRecords deletes every record, for good; a fresh store is seeded again', async () => {
  const x = await device();
  assert.is((await x.call('searchrecord', { Page: 1, PageSize: 10 })).Total, 100000);
  await clearRecords(ctxOf(x));
  const empty = async (dev: Device) => {
    assert.equal(await dev.call('searchrecord', { Page: 1, PageSize: 10 }), { retvalue: 0, Total: 0, List: [] });
    assert.equal(await dev.call('searchrecord', { Page: 1, PageSize: 10, ...week }), { retvalue: 0, Total: 0, List: [] });
    assert.equal(await dev.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week }), { retvalue: 0, Total: 0, List: [] });
    assert.equal(await dev.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type: 1 }), { retvalue: 0, Total: 0, List: [] });
    assert.is((await dev.call('SetInfoParam')).RecordCount, 0);
    const { rows, file } = await dev.sheet('DownloadRecordForm');
    assert.is(rows, 1);
    assert.is(file, 'records.xlsx');
  };
  try {
    await empty(x);
  } finally {
    await x.close();
  }
  const y = await device({ dir: x.dir });
  try {
    await empty(y);
    // The users stay (only InitMachine's own reset removes them).
    assert.is((await y.call('SetInfoParam')).UserCount, 300);
  } finally {
    await y.close();
  }
  const z = await device();
  try {
    assert.is((await z.call('searchrecord', { Page: 1, PageSize: 10 })).Total, 100000);
  } finally {
    await z.close();
  }
});

c('a terminal without thermometry refuses temperature records (10001); the lite profile holds fewer records', async () => {
  const x = await device({ profile: 'lite' });
  try {
    assert.not.ok(x.sim.model.funs.includes('thermometry'));
    assert.equal(await x.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type: 0 }), err(10001));
    assert.is((await x.call('searchrecord', { Page: 1, PageSize: 10 })).Total, 20000);
    assert.is((await x.call('SetInfoParam')).RecordCount, 20000);
    assert.equal(await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week }), { retvalue: 0, Total: 5, List: weekRows() });
  } finally {
    await x.close();
  }
});

c('the profile sets how many: seedRecords (at most MaxRecord), seedTemperatures; no seed users, no records', async () => {
  const x = await device({ overrides: { seedRecords: 500, seedTemperatures: 40 } });
  try {
    assert.is((await x.call('searchrecord', { Page: 1, PageSize: 10 })).Total, 500);
    assert.is((await x.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type: 0 })).Total, 40);
    // The fixture week is there whenever there is room for it.
    assert.equal((await x.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List, weekRows());
  } finally {
    await x.close();
  }
  const y = await device({ overrides: { seedRecords: 5000, MaxRecord: 1000, seedUsers: 3 } });
  try {
    assert.is((await y.call('searchrecord', { Page: 1, PageSize: 10 })).Total, 1000);
    assert.is((await y.call('SetInfoParam')).RecordCount, 1000);
    // Three users give more than two punches each a day.
    let sum = 0;
    for (const u of ['1', '2', '3']) sum += (await y.call('searchrecord', { Page: 1, PageSize: 10, UserID: u })).Total as number;
    assert.is(sum, 1000);
    assert.equal((await y.call('GetReportFormInfo', { Page: 1, PageSize: 10, ...week })).List, weekRows());
  } finally {
    await y.close();
  }
  const z = await device({ overrides: { seedUsers: 0 } });
  try {
    assert.is((await z.call('searchrecord', { Page: 1, PageSize: 10 })).Total, 0);
    assert.is((await z.call('searchThermometryRecord', { Page: 1, PageSize: 10, Type: 0 })).Total, 0);
  } finally {
    await z.close();
  }
});

c('a store written when records were a list is read with the profile\'s records', async () => {
  const dir = tmp();
  writeFileSync(join(dir, 'store.json'), JSON.stringify({ records: [{ time: '2026-11-20 08:01:12', userId: '1', status: 0 }] }));
  const x = await device({ dir });
  try {
    assert.is((await x.call('searchrecord', { Page: 1, PageSize: 10 })).Total, 100000);
    assert.is((await x.call('SetInfoParam')).RecordCount, 100000);
  } finally {
    await x.close();
  }
});

c.run();
