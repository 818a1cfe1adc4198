// Section 8: the simulated terminal at scale, the timings the simulator's
// suites (tests/simulator) no longer assert (a test must not depend on how
// fast this machine is today): seeding 10,000 users up to the first signed-in
// userlist that lists them; userlist pages over them, with and without a
// search (users.test.ts's four queries); searchrecord late pages over 100,000
// records (records.test.ts's four); and DownloadRecordForm of every record, the whole workbook read.
// Over HTTP on loopback, signed in. The short setting scales the counts (and
// the pages, so that they are still the late pages that exist) by ten.
import { request } from 'node:http';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../simulator/server.ts';
import { loadModel, type ModelOverrides } from '../simulator/model.ts';
import { callSimulator } from '../simulator/client.ts';
import { CALLS, GOFORM_PREFIX, HEADERS, TIMESTAMP_PARAM, type CallName } from '../contract/index.ts';
import { TEST_ADMIN } from '../hil/admin.ts';
import { spread, target, type Settings, type Target } from './lib.ts';

/** The bars the simulator's suites had, ms (for 10,000 users and 100,000 records; the short setting keeps them). */
const SEED_TARGET_MS = 2000;
const USER_PAGE_TARGET_MS = 100;
const RECORD_PAGE_TARGET_MS = 200;
const DOWNLOAD_TARGET_MS = 10_000;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Params = Record<string, string | number>;

/** ms of a series: median, smallest, largest, each. */
interface Timing {
  median: number;
  min: number;
  max: number;
  all: number[];
}

/** One query timed: a median of `calls` after two rounds of warm-up. */
export interface SimQuery extends Timing {
  /** In words, e.g. "last page" or "userlist Page 50, PageSize 100". */
  what: string;
  params: Params;
  /** Rows on the page, and the search's Total (the last call's). */
  rows: number;
  total: number;
  result: Target;
}

export interface SimulatorSection {
  users: number;
  records: number;
  /** Timed calls of each page query (after two rounds of warm-up). */
  calls: number;
  /** From loadModel and startSimulator (a fresh store) to a signed-in userlist whose Total is every user; one per run. */
  seed: Timing & { what: string; users: number; runs: number; result: Target };
  userPages: SimQuery[];
  recordPages: SimQuery[];
  /** DownloadRecordForm without a search: from the request to the last byte of the workbook; the first run loads exceljs. */
  download: Timing & { what: string; records: number; bytes: number; runs: number; result: Target };
}

/** A page of the full run's `full` count scaled to `count` (at least page 1). */
const scaled = (page: number, count: number, full: number) => Math.max(1, Math.round((page * count) / full));
const words = (p: Params) => Object.entries(p).map(([k, v]) => `${k} ${typeof v === 'string' ? `'${v}'` : v}`).join(', ');

async function signedIn(file: string, overrides: ModelOverrides): Promise<{ sim: Simulator; token: string }> {
  const sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: file, model: loadModel('default', overrides) });
  const token = (await callSimulator(sim.url, 'chklogin', TEST_ADMIN)).token as string | undefined;
  if (!token) {
    await sim.close();
    throw new Error('could not sign in to the simulated terminal');
  }
  return { sim, token };
}

/** A GET whose answer is read whole, as bytes (a download), on a connection of its own. */
function download(base: string, name: CallName, token: string): Promise<{ status: number; type: string; data: Buffer }> {
  const url = `${base}${GOFORM_PREFIX}${CALLS[name].path}?${TIMESTAMP_PARAM}=${Date.now()}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { [HEADERS.token]: token }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), data: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Each query `calls` times, in turn (so that a busy moment of the machine
 * falls on all alike), after two rounds of warm-up; every reply is checked to
 * be that page: retvalue 0, 1 to PageSize rows, a Total that reaches it.
 */
async function timeQueries(base: string, token: string, name: 'userlist' | 'searchrecord', queries: [string, Params][], calls: number, bar: number): Promise<SimQuery[]> {
  const last: { rows: number; total: number }[] = [];
  const timed = async (k: number) => {
    const [what, q] = queries[k];
    const t0 = performance.now();
    const r = await callSimulator(base, name, q, token);
    const ms = performance.now() - t0;
    const rows = Array.isArray(r.List) ? r.List.length : -1;
    const total = Number(r.Total);
    if (r.retvalue !== 0 || rows < 1 || rows > Number(q.PageSize) || !(total >= (Number(q.Page) - 1) * Number(q.PageSize) + rows))
      throw new Error(`${name} ${what} (${words(q)}): ${JSON.stringify(r).slice(0, 200)}`);
    last[k] = { rows, total };
    return ms;
  };
  for (let i = 0; i < 2; i++) for (let k = 0; k < queries.length; k++) await timed(k);
  const times: number[][] = queries.map(() => []);
  for (let i = 0; i < calls; i++) for (let k = 0; k < queries.length; k++) times[k].push(await timed(k));
  return queries.map(([what, params], k) => {
    const t = spread(times[k], 2);
    return { what, params, ...last[k], ...t, result: target(`< ${bar} ms (median)`, t.median < bar) };
  });
}

export async function measureSimulator(s: Settings): Promise<SimulatorSection> {
  const users = s.short ? 1_000 : 10_000;
  const records = s.short ? 10_000 : 100_000;
  const calls = s.short ? 5 : 15;
  const seedRuns = s.short ? 2 : 5;
  const downloadRuns = s.short ? 2 : 3;

  // 1. Seeding: a fresh store each run; the last terminal stays up for the pages.
  s.log(`simulator: seeding ${users} users, ${seedRuns} runs`);
  const seedTimes: number[] = [];
  let u: { sim: Simulator; token: string } | undefined;
  let userPages: SimQuery[];
  try {
    for (let i = 0; i < seedRuns; i++) {
      await u?.sim.close();
      u = undefined;
      const t0 = performance.now();
      u = await signedIn(join(s.tmp, `simulator-users-${i}.json`), { seedUsers: users, MaxUser: users });
      const r = await callSimulator(u.sim.url, 'userlist', { Page: 1, PageSize: 100 }, u.token);
      seedTimes.push(performance.now() - t0);
      if (r.retvalue !== 0 || r.Total !== users || (r.List as unknown[] | undefined)?.length !== Math.min(100, users))
        throw new Error(`userlist after seeding ${users} users: ${JSON.stringify(r).slice(0, 200)}`);
    }
    // 2. userlist: users.test.ts's four queries (the deep page scaled to the count).
    s.log(`simulator: userlist pages over ${users} users`);
    const userQueries: Params[] = [
      { Page: scaled(50, users, 10_000), PageSize: 100 },
      { Page: 1, PageSize: 100, UserID: '9' },
      { Page: 3, PageSize: 50, Start: '2026-01-01', End: '2026-12-31' },
      { Page: 1, PageSize: 10, UserID: '1', Start: '2025-06-01' },
    ];
    userPages = await timeQueries(u!.sim.url, u!.token, 'userlist', userQueries.map((q) => [`userlist ${words(q)}`, q]), calls, USER_PAGE_TARGET_MS);
  } finally {
    await u?.sim.close();
  }
  const seedSpread = spread(seedTimes, 1);
  const seed = { what: `seed ${users.toLocaleString('en')} users`, users, runs: seedRuns, ...seedSpread, result: target(`< ${SEED_TARGET_MS} ms`, seedSpread.median < SEED_TARGET_MS) };

  // 3. searchrecord: records.test.ts's four late pages, scaled to the count.
  const r = await signedIn(join(s.tmp, 'simulator-records.json'), { MaxRecord: records, seedRecords: records });
  try {
    s.log(`simulator: searchrecord late pages over ${records} records`);
    // The first call generates the records (made on first use): not timed here (the records section reports it).
    await callSimulator(r.sim.url, 'searchrecord', { Page: 1, PageSize: 10 }, r.token);
    const late = (page: number) => scaled(page, records, 100_000);
    const recordQueries: [string, Params][] = [
      ['last page', { Page: late(1000), PageSize: 100 }],
      ['a late page', { Page: late(9000), PageSize: 10 }],
      ['a late page of a period', { Page: late(600), PageSize: 100, Start: '2025-06-01', End: '2026-10-31' }],
      ["a user's late page", { Page: late(30), PageSize: 10, UserID: '7' }],
    ];
    const recordPages = await timeQueries(r.sim.url, r.token, 'searchrecord', recordQueries, calls, RECORD_PAGE_TARGET_MS);

    // 4. DownloadRecordForm of every record, the whole workbook read.
    s.log(`simulator: DownloadRecordForm of ${records} records, ${downloadRuns} runs`);
    const downloadTimes: number[] = [];
    let bytes = 0;
    for (let i = 0; i < downloadRuns; i++) {
      const t0 = performance.now();
      const a = await download(r.sim.url, 'DownloadRecordForm', r.token);
      downloadTimes.push(performance.now() - t0);
      // A workbook (a zip: PK), not a code.
      if (a.status !== 200 || a.type !== XLSX || a.data.subarray(0, 2).toString('latin1') !== 'PK')
        throw new Error(`DownloadRecordForm: ${a.status} ${a.type} ${a.data.subarray(0, 200).toString()}`);
      bytes = a.data.length;
    }
    const d = spread(downloadTimes, 1);
    const dl = { what: `DownloadRecordForm of ${records.toLocaleString('en')} records`, records, bytes, runs: downloadRuns, ...d, result: target(`< ${DOWNLOAD_TARGET_MS} ms`, d.median < DOWNLOAD_TARGET_MS) };
    return { users, records, calls, seed, userPages, recordPages, download: dl };
  } finally {
    await r.sim.close();
  }
}
