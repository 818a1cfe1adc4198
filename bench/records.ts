// Section 7: the simulated terminal answering a page of attendance records
// (searchrecord, the record list's call) when it holds 100,000 of them:
// the first, a middle and the last page, over HTTP after signing in.
import { join } from 'node:path';
import { startSimulator } from '../simulator/server.ts';
import { loadModel } from '../simulator/model.ts';
import { callSimulator } from '../simulator/client.ts';
import { TEST_ADMIN } from '../hil/admin.ts';
import { round, spread, type Settings } from './lib.ts';

const PAGE_SIZE = 100;

export interface RecordPage {
  which: 'first' | 'middle' | 'last';
  page: number;
  /** ms from sending the request to the parsed reply. */
  median: number;
  min: number;
  max: number;
  all: number[];
}

export interface RecordsSection {
  records: number;
  pageSize: number;
  /** The first call of all: it generates the records (they are made on first use). */
  firstCallMs: number;
  pages: RecordPage[];
}

export async function measureRecords(s: Settings): Promise<RecordsSection> {
  const records = s.short ? 10_000 : 100_000;
  const calls = s.short ? 5 : 15;
  const sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(s.tmp, 'records-store.json'), model: loadModel('default', { MaxRecord: records, seedRecords: records }) });
  try {
    const login = await callSimulator(sim.url, 'chklogin', TEST_ADMIN);
    const token = login.token as string | undefined;
    if (!token) throw new Error('could not sign in to the simulated terminal');
    const timed = async (page: number) => {
      const t0 = performance.now();
      const reply = await callSimulator(sim.url, 'searchrecord', { Page: page, PageSize: PAGE_SIZE }, token);
      const ms = performance.now() - t0;
      if (reply.retvalue !== 0 || reply.Total !== records || (reply.List as unknown[] | undefined)?.length !== PAGE_SIZE)
        throw new Error(`searchrecord page ${page}: ${JSON.stringify(reply).slice(0, 200)}`);
      return ms;
    };
    s.log(`records: ${records} on the simulated terminal`);
    const firstCallMs = round(await timed(1), 2);
    const last = Math.ceil(records / PAGE_SIZE);
    const which = [['first', 1], ['middle', Math.ceil(last / 2)], ['last', last]] as const;
    // Warm up (the JIT), then the pages in turn, so that a busy moment of the machine falls on all three alike.
    for (let i = 0; i < 2; i++) for (const [, page] of which) await timed(page);
    const times: number[][] = which.map(() => []);
    for (let i = 0; i < calls; i++) for (const [k, [, page]] of which.entries()) times[k].push(await timed(page));
    const pages: RecordPage[] = which.map(([w, page], k) => ({ which: w, page, ...spread(times[k], 2) }));
    return { records, pageSize: PAGE_SIZE, firstCallMs, pages };
  } finally {
    await sim.close();
  }
}
