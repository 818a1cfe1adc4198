// The record list's status column (SPEC §3 attendance status) shows the
// device's own names (SetApplyParam), never the code in their place: the list
// engine (src/form/PagedTable.tsx, `names`) holds the rows until both replies
// are in, whichever comes first. Every render is watched (Preact's `diffed`
// hook), not only the page at the end, so a code shown for a moment and then
// replaced by its name fails too. The order of the replies is made here: one
// reply is held back until the console has the other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { options, render } from 'preact';
import { domSuite } from '../support/helpers.ts';
import { Records } from '../../src/screens/maint/records.tsx';

const dom = domSuite(test);

/** Two records: status 5 (named "status4" by the device) and status 0 ("IN"). */
const ROWS = {
  retvalue: 0,
  Total: 2,
  List: [
    { Time: '2026-11-02 08:57:00', UserID: '1', UserName: 'Ada', Status: 5 },
    { Time: '2026-11-02 08:50:00', UserID: '2', UserName: 'Ben', Status: 0 },
  ],
};
const NAMES = { retvalue: 0, Status0: 'IN', Status1: 'OUT', Status2: 'status1', Status3: 'status2', Status4: 'status3', Status5: 'status4', Status6: 'status5', Status7: 'status6' };

/** Lets every pending promise and render run (Preact renders after a microtask): the event loop turns twice. */
const settle = () => new Promise((r) => setTimeout(r, 0)).then(() => new Promise((r) => setTimeout(r, 0)));

async function until(check: () => unknown, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The requests to `held` wait until `release()`; `arrived` resolves once the
 * console has the body of a reply to `first` in its hands.
 */
function holdBack(held: string, first: string) {
  const inner = globalThis.fetch;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let arrived!: () => void;
  const had = new Promise<void>((r) => (arrived = r));
  globalThis.fetch = (async (input: string | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://terminal.test').pathname;
    if (path === `/goform/${held}`) await gate;
    const res = await inner(input, init);
    if (path !== `/goform/${first}`) return res;
    const body = await res.text();
    arrived();
    return new Response(body, { status: res.status, headers: res.headers });
  }) as typeof fetch;
  return { release, arrived: had, restore: () => (globalThis.fetch = inner) };
}

/** Every text the status column has shown, render by render, and every time the table body held a bare status code. */
function watchRenders() {
  const seen: string[] = [];
  const codes: string[] = [];
  const before = options.diffed;
  options.diffed = (vnode) => {
    before?.(vnode);
    for (const tr of dom.root.querySelectorAll('table.grid tbody tr')) {
      const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '');
      if (cells.length < 4) continue;
      seen.push(cells[3]);
      if (/^\d+$/.test(cells[3])) codes.push(cells.join(' | '));
    }
  };
  return { seen, codes, stop: () => (options.diffed = before) };
}

const statusCells = () => [...dom.root.querySelectorAll('table.grid tbody tr td:nth-child(4)')].map((td) => td.textContent);

test('the rows answered before the names: the list waits for the names; no render shows a code', async () => {
  dom.dev.answer = (r) => ({ body: JSON.stringify(r.url.pathname === '/goform/SetApplyParam' ? NAMES : ROWS) });
  const order = holdBack('SetApplyParam', 'searchrecord');
  const watch = watchRenders();
  try {
    render(<Records />, dom.root);
    await order.arrived;
    await settle();
    // The console has the rows and not the names: still loading, no row on the page.
    assert.is(dom.root.querySelectorAll('table.grid tbody tr').length, 0, 'no row before the names');
    assert.ok(dom.root.querySelector('[aria-busy=true]'), 'loading is shown meanwhile');
    assert.is(dom.dev.received.filter((r) => r.url.pathname === '/goform/SetApplyParam').length, 0, 'the names not asked of the device yet');
    order.release();
    await until(() => statusCells().length === 2, 'the rows');
    assert.equal(statusCells(), ['status4', 'IN']);
    assert.equal(watch.codes, [], 'no render showed a status code');
    assert.ok(watch.seen.length > 0 && watch.seen.every((s) => s === 'status4' || s === 'IN'), `shown: ${watch.seen.join(', ')}`);
  } finally {
    watch.stop();
    order.restore();
  }
});

test('the names answered before the rows: the same list, no render shows a code', async () => {
  dom.dev.answer = (r) => ({ body: JSON.stringify(r.url.pathname === '/goform/SetApplyParam' ? NAMES : ROWS) });
  const order = holdBack('searchrecord', 'SetApplyParam');
  const watch = watchRenders();
  try {
    render(<Records />, dom.root);
    await order.arrived;
    await settle();
    assert.is(dom.root.querySelectorAll('table.grid tbody tr').length, 0, 'no row before the rows');
    order.release();
    await until(() => statusCells().length === 2, 'the rows');
    assert.equal(statusCells(), ['status4', 'IN']);
    assert.equal(watch.codes, []);
  } finally {
    watch.stop();
    order.restore();
  }
});

test('names the device refuses: the list says so and offers Try again, shows no code; trying again asks both again and shows the names', async () => {
  let refuse = true;
  dom.dev.answer = (r) => ({ body: JSON.stringify(r.url.pathname === '/goform/SetApplyParam' ? (refuse ? { retvalue: 10001, msg: 'err.10001' } : NAMES) : ROWS) });
  const watch = watchRenders();
  try {
    render(<Records />, dom.root);
    await until(() => dom.root.querySelector('[role=alert]'), 'the failure');
    assert.ok(dom.root.querySelector('[role=alert]')!.textContent!.includes('System Error'), dom.root.textContent!);
    assert.is(dom.root.querySelectorAll('table.grid tbody tr').length, 0);
    refuse = false;
    [...dom.root.querySelectorAll<HTMLButtonElement>('[role=alert] button')].find((b) => b.textContent === 'Try again')!.click();
    await until(() => statusCells().length === 2, 'the rows');
    assert.equal(statusCells(), ['status4', 'IN']);
    assert.is(dom.dev.received.filter((r) => r.url.pathname === '/goform/SetApplyParam').length, 2, 'the names asked again');
    assert.equal(watch.codes, []);
  } finally {
    watch.stop();
  }
});

test.run();
