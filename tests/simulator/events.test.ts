// Live events on the simulated terminal, over HTTP, as docs/API.md says
// (EventStream, SetEventList): the stream's framing and headers, a person at
// the reader and a schedule as their causes, nothing missed across a drop
// (Last-Event-ID), the polled page, the ring's bound, refusals with their
// codes, and the stream ending with its session or a restart; and the factory
// test's test_event, an event at the reader through the API, which changes
// nothing but the events.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { KIND } from '../../simulator/events.ts';
import { EVENTS_KEPT, EVENTS_PER_PAGE } from '../../contract/events.ts';
import { GOFORM_PREFIX, HEADERS } from '../../contract/index.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { callSimulator } from '../support/helpers.ts';

type Rec = Record<string, unknown>;
const realFetch = globalThis.fetch;

/** An open stream: its headers, and its messages as they come (id and parsed data), or its end. */
async function openStream(base: string, token: string | undefined, headers: Record<string, string> = {}, query = '') {
  const controller = new AbortController();
  const res = await realFetch(`${base}${GOFORM_PREFIX}EventStream${query}`, { headers: { ...(token && { [HEADERS.token]: token }), ...headers }, signal: controller.signal });
  const messages: Array<{ id?: string; data?: Rec; comment?: string; retry?: string }> = [];
  let ended = false;
  let wake: () => void = () => undefined;
  let raw = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        raw += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = raw.indexOf('\n\n')) >= 0) {
          const block = raw.slice(0, end);
          raw = raw.slice(end + 2);
          const m: (typeof messages)[number] = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) m.comment = line.slice(1).trim();
            else if (line.startsWith('id: ')) m.id = line.slice(4);
            else if (line.startsWith('data: ')) m.data = JSON.parse(line.slice(6)) as Rec;
            else if (line.startsWith('retry: ')) m.retry = line.slice(7);
          }
          messages.push(m);
          wake();
        }
      }
    } catch {
      // Aborted by the test.
    }
    ended = true;
    wake();
  })();
  /** Wait until `ok` holds of what came (or the stream ended). */
  const until = async (ok: () => boolean) => {
    while (!ok() && !ended) await new Promise<void>((r) => (wake = r));
  };
  const events = () => messages.filter((m) => m.data).map((m) => m.data!);
  return {
    res,
    messages,
    events,
    /** The next `n` events after those already taken. */
    async take(n: number, from = 0) {
      await until(() => events().length >= from + n);
      return events().slice(from, from + n);
    },
    ended: () => ended,
    async closed() {
      await until(() => false);
      await reading;
    },
    close() {
      controller.abort();
      return reading;
    },
  };
}

const t = suite<{ sim: Simulator; token: string; clock: { ms: number } }>('live events');

t.before.each(async (ctx) => {
  ctx.clock = { ms: Date.parse('2026-11-26T08:00:00Z') };
  ctx.sim = await startSimulator({ activated: TEST_ADMIN.password, model: loadModel('default', { restartMs: 50 }), storeFile: join(mkdtempSync(join(tmpdir(), 'events-')), 'store.json'), now: () => ctx.clock.ms });
  const r = await callSimulator(ctx.sim.url, 'chklogin', { username: TEST_ADMIN.username, password: TEST_ADMIN.password });
  ctx.token = String(r.token);
});
t.after.each(async ({ sim }) => sim.close());

t('the stream: its headers, "retry" and a comment first, then each event as it happens, numbered, with time, user and mode', async ({ sim, token }) => {
  const s = await openStream(sim.url, token);
  assert.match(s.res.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.is(s.res.headers.get('x-accel-buffering'), 'no', 'a proxy in front is told not to buffer');
  assert.is(s.res.headers.get('cache-control'), 'no-store');
  await new Promise<void>((r) => setImmediate(r));
  const user = sim.store.get().users[0];
  sim.events.present(user.UserID, 2);
  sim.events.present('999999999', 3);
  sim.events.emit({ Kind: KIND.forced });
  const [a, b, c] = await s.take(3);
  assert.equal(s.messages[0].retry, '2000');
  assert.equal(a, { Id: 1, Time: '2026-11-26 09:00:00', Kind: KIND.verified, UserID: user.UserID, UserName: user.UserName, Mode: 2 }, 'Europe/Berlin: device time is UTC+1 in November');
  assert.equal(b, { ...b, Id: 2, Kind: KIND.refused, UserID: '', UserName: '', Mode: 3 }, 'an ID the terminal does not have: refused, nobody named');
  assert.equal(c, { ...c, Id: 3, Kind: KIND.forced, UserID: '', Mode: 0 });
  assert.equal(s.messages.filter((m) => m.data).map((m) => m.id), ['1', '2', '3'], 'the SSE id is the event Id');
  await s.close();
});

t('a schedule: events come in its order, each when its moment comes', async ({ sim, token }) => {
  const s = await openStream(sim.url, token);
  sim.events.schedule([
    { afterMs: 30, Kind: KIND.alarm },
    { afterMs: 10, Kind: KIND.opened },
  ]);
  const got = await s.take(2);
  assert.equal(got.map((e) => e.Kind), [KIND.opened, KIND.alarm]);
  await s.close();
});

t('nothing is missed across a drop: reconnecting with Last-Event-ID sends what happened meanwhile, then goes on', async ({ sim, token }) => {
  const first = await openStream(sim.url, token);
  sim.events.emit({ Kind: KIND.opened });
  sim.events.emit({ Kind: KIND.opened });
  assert.equal((await first.take(2)).map((e) => e.Id), [1, 2]);
  await first.close();
  sim.events.emit({ Kind: KIND.forced });
  sim.events.emit({ Kind: KIND.alarm });
  const again = await openStream(sim.url, token, { 'Last-Event-ID': '2' }, '?After=0');
  assert.equal((await again.take(2)).map((e) => [e.Id, e.Kind]), [[3, KIND.forced], [4, KIND.alarm]], 'the header goes before After');
  sim.events.emit({ Kind: KIND.opened });
  assert.equal((await again.take(1, 2))[0].Id, 5);
  await again.close();
});

t('SetEventList: the events after After, oldest first, a page at a time; the ring keeps the newest', async ({ sim, token }) => {
  assert.equal(await callSimulator(sim.url, 'SetEventList', {}, token), { retvalue: 0, Last: 0, List: [] });
  for (let i = 0; i < EVENTS_KEPT + 30; i++) sim.events.emit({ Kind: KIND.opened });
  const first = await callSimulator(sim.url, 'SetEventList', { After: 0 }, token);
  const list = first.List as Rec[];
  assert.is(first.Last, EVENTS_KEPT + 30);
  assert.is(list.length, EVENTS_PER_PAGE);
  assert.is(list[0].Id, 31, `only the newest ${EVENTS_KEPT} are kept`);
  const next = await callSimulator(sim.url, 'SetEventList', { After: list.at(-1)!.Id }, token);
  assert.is((next.List as Rec[])[0].Id, 31 + EVENTS_PER_PAGE);
  const tail = await callSimulator(sim.url, 'SetEventList', { After: EVENTS_KEPT + 28 }, token);
  assert.equal((tail.List as Rec[]).map((e) => e.Id), [EVENTS_KEPT + 29, EVENTS_KEPT + 30]);
});

t('refusals: no session (10002, not a stream), a bad After (10005 naming it)', async ({ sim, token }) => {
  const stranger = await realFetch(`${sim.url}${GOFORM_PREFIX}EventStream`);
  assert.match(stranger.headers.get('content-type') ?? '', /json/);
  assert.is(((await stranger.json()) as Rec).retvalue, 10002);
  for (const After of ['-1', 'x', '1.5']) assert.equal(await callSimulator(sim.url, 'SetEventList', { After }, token), { retvalue: 10005, msg: 'err.10005', field: 'After' }, After);
  const bad = await realFetch(`${sim.url}${GOFORM_PREFIX}EventStream?After=x`, { headers: { [HEADERS.token]: token } });
  assert.equal(await bad.json(), { retvalue: 10005, msg: 'err.10005', field: 'After' });
});

t('the stream ends with its session: signed out elsewhere, or idle past the limit; the next request answers the code', async (ctx) => {
  const { sim, token } = ctx;
  const s = await openStream(sim.url, token);
  await callSimulator(sim.url, 'logout', {}, token);
  await s.closed();
  assert.ok(s.ended());
  const after = await realFetch(`${sim.url}${GOFORM_PREFIX}EventStream`, { headers: { [HEADERS.token]: token } });
  assert.is(((await after.json()) as Rec).retvalue, 10002);

  const again = String((await callSimulator(sim.url, 'chklogin', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).token);
  const idle = await openStream(sim.url, again);
  // The terminal's clock passes the idle limit (RestParam IdleMinutes, 10 by default) with the stream open and nothing else asked.
  ctx.clock.ms += 11 * 60_000;
  await idle.closed();
  const late = await realFetch(`${sim.url}${GOFORM_PREFIX}EventStream`, { headers: { [HEADERS.token]: again } });
  assert.is(((await late.json()) as Rec).retvalue, 40104, 'an open stream does not keep a session alive');
});

t('a restart ends the stream and numbers from 1 again; a Last-Event-ID from before it gets every event held', async ({ sim, token }) => {
  const s = await openStream(sim.url, token);
  for (let i = 0; i < 5; i++) sim.events.emit({ Kind: KIND.opened });
  await s.take(5);
  await sim.restart();
  await s.closed();
  sim.events.emit({ Kind: KIND.alarm });
  const fresh = String((await callSimulator(sim.url, 'chklogin', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).token);
  const back = await openStream(sim.url, fresh, { 'Last-Event-ID': '5' });
  assert.equal((await back.take(1)).map((e) => [e.Id, e.Kind]), [[1, KIND.alarm]]);
  await back.close();
});

t('test_event: a person verified or refused (known, unknown, nobody), the door, an alarm: each announced as an event at the reader and answered; no record, no log entry', async ({ sim, token }) => {
  const s = await openStream(sim.url, token);
  const count = async () => [(await callSimulator(sim.url, 'SetInfoParam', {}, token)).RecordCount, (await callSimulator(sim.url, 'searchOperationLog', { Page: 1, PageSize: 10, Kind: 0 }, token)).Total];
  const before = await count();
  const user = sim.store.get().users[0];
  const sent = [
    { Kind: KIND.verified, UserID: user.UserID, Mode: 2 },
    { Kind: KIND.refused, UserID: user.UserID, Mode: 1 },
    { Kind: KIND.refused, UserID: '987654321', Mode: 3 },
    { Kind: KIND.refused, Mode: 6 },
    { Kind: KIND.forced },
    { Kind: KIND.alarm, UserID: '', Mode: 0 },
  ];
  const answers: Rec[] = [];
  for (const p of sent) answers.push(await callSimulator(sim.url, 'test_event', p, token));
  const events = await s.take(sent.length);
  const time = '2026-11-26 09:00:00';
  assert.equal(events, [
    { Id: 1, Time: time, Kind: KIND.verified, UserID: user.UserID, UserName: user.UserName, Mode: 2 },
    { Id: 2, Time: time, Kind: KIND.refused, UserID: user.UserID, UserName: user.UserName, Mode: 1 },
    { Id: 3, Time: time, Kind: KIND.refused, UserID: '', UserName: '', Mode: 3 },
    { Id: 4, Time: time, Kind: KIND.refused, UserID: '', UserName: '', Mode: 6 },
    { Id: 5, Time: time, Kind: KIND.forced, UserID: '', UserName: '', Mode: 0 },
    { Id: 6, Time: time, Kind: KIND.alarm, UserID: '', UserName: '', Mode: 0 },
  ]);
  assert.equal(answers, events.map((e) => ({ retvalue: 0, ...e })), 'each answered with the event it made');
  assert.equal(((await callSimulator(sim.url, 'SetEventList', { After: 0 }, token)).List as Rec[]).map((e) => e.Id), [1, 2, 3, 4, 5, 6]);
  assert.equal(await count(), before, 'no attendance record, no operation log entry');
  await s.close();
});

t('test_event refusals, each naming its field, with nothing announced: no session, a user who is not there, a person without how, a door with a person', async ({ sim, token }) => {
  const call = (p: Rec) => callSimulator(sim.url, 'test_event', p, token);
  assert.is((await callSimulator(sim.url, 'test_event', { Kind: KIND.opened })).retvalue, 10002, 'a session in every state');
  assert.equal(await call({ Kind: KIND.verified, UserID: '987654321', Mode: 1 }), { retvalue: 40401, msg: 'err.40401', field: 'UserID' });
  assert.equal(await call({ Kind: KIND.verified, Mode: 1 }), { retvalue: 10003, msg: 'err.10003', field: 'UserID' });
  assert.equal(await call({ Kind: KIND.verified, UserID: '1' }), { retvalue: 10003, msg: 'err.10003', field: 'Mode' });
  assert.equal(await call({ Kind: KIND.refused, Mode: 0 }), { retvalue: 10005, msg: 'err.10005', field: 'Mode' });
  assert.equal(await call({ Kind: KIND.opened, UserID: '1' }), { retvalue: 10005, msg: 'err.10005', field: 'UserID' });
  assert.equal(await call({ Kind: KIND.forced, Mode: 2 }), { retvalue: 10005, msg: 'err.10005', field: 'Mode' });
  assert.equal(await call({ Kind: 7 }), { retvalue: 10005, msg: 'err.10005', field: 'Kind' });
  assert.equal(await call({ Kind: KIND.verified, UserID: '01', Mode: 1 }), { retvalue: 10005, msg: 'err.10005', field: 'UserID' });
  assert.equal(await callSimulator(sim.url, 'SetEventList', {}, token), { retvalue: 0, Last: 0, List: [] });
});

t.run();
