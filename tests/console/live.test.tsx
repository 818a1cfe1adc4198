// The engine's live read (src/form/live.ts) in the DOM against a loopback
// device: the read runs once, then again after an event of its kinds and
// never after another kind; events that come while a read is under way make
// one more read after it, not one each; where the device cannot stream
// (EventStream answers 10001) the events come by asking SetEventList, and
// the status says so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render } from 'preact';
import { domSuite } from '../support/helpers.ts';
import { useLive } from '../../src/form/live.ts';

const dom = domSuite(test);

async function until(check: () => unknown, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const event = (Id: number, Kind: number) => ({ Id, Time: '2026-11-27 03:00:00', Kind, UserID: '', UserName: '', Mode: 0 });
/** An event stream that sends these events and ends (the console then says the link dropped, 0). */
const stream = (kinds: number[]) => ({ type: 'text/event-stream', body: `retry: 2000\n: live\n\n${kinds.map((k, i) => `id: ${i + 1}\ndata: ${JSON.stringify(event(i + 1, k))}\n\n`).join('')}` });

/** A read the test answers by hand, and what the hook says of how it hears. */
function probe() {
  const p = { reads: 0, pending: [] as (() => void)[], heard: [] as number[] };
  function Probe() {
    const { hearing } = useLive([3, 6, 7], () => {
      p.reads++;
      return new Promise<void>((r) => p.pending.push(r));
    });
    if (p.heard[p.heard.length - 1] !== hearing) p.heard.push(hearing);
    return <p>{hearing}</p>;
  }
  render(<Probe />, dom.root);
  return p;
}

test('read once, and not again for events of other kinds', async () => {
  dom.dev.answer = (r) => (r.url.pathname.endsWith('EventStream') ? stream([1, 2, 1]) : null);
  const p = probe();
  await until(() => p.heard.includes(1) && p.heard[p.heard.length - 1] === 0, 'the stream heard, then ended');
  assert.is(p.reads, 1, 'the first read only');
  p.pending.shift()!();
  await new Promise((r) => setTimeout(r, 20));
  assert.is(p.reads, 1);
});

test('events of its kinds while a read is under way: one more read after it, then none', async () => {
  dom.dev.answer = (r) => (r.url.pathname.endsWith('EventStream') ? stream([1, 7, 3, 2, 6]) : null);
  const p = probe();
  await until(() => p.heard.includes(1) && p.heard[p.heard.length - 1] === 0, 'the stream heard, then ended');
  assert.is(p.reads, 1, 'the first read is still under way: the three events wait for it');
  p.pending.shift()!();
  await until(() => p.reads === 2, 'the one read after it');
  p.pending.shift()!();
  await new Promise((r) => setTimeout(r, 20));
  assert.is(p.reads, 2, 'three events, one read');
  assert.equal(p.heard, [-1, 1, 0], 'not heard yet, live, then the link dropped');
});

test('where the device cannot stream, events come by asking, and so does the read', async () => {
  let asked = 0;
  dom.dev.answer = (r) => {
    if (r.url.pathname.endsWith('EventStream')) return { body: JSON.stringify({ retvalue: 10001, msg: 'err.10001' }) };
    if (r.url.pathname.endsWith('SetEventList')) return { body: JSON.stringify({ retvalue: 0, Last: 1, List: asked++ ? [] : [event(1, 6)] }) };
    return null;
  };
  const p = probe();
  await until(() => p.heard.includes(2), 'asking');
  p.pending.shift()!();
  await until(() => p.reads === 2, 'the read after the event asked for');
  assert.ok(dom.dev.received.some((r) => r.url.pathname.endsWith('SetEventList') && r.url.searchParams.get('After') === '0'));
});

test.run();
