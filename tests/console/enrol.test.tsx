// Enrolment's waiting indicator (SPEC §4): the countdown goes down by one each
// second from its start and stops at 0, calling onZero once; when the
// console's countdown runs out while the terminal still says "wait", the
// console cancels on the device and says the enrolment timed out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render } from 'preact';
import { domSuite } from '../support/helpers.ts';
import { Waiting } from '../../src/ui/Countdown.tsx';
import { EnrolState, useEnrol } from '../../src/screens/user/enrol.tsx';
import { requestGoform } from '../../src/api/request.ts';

const dom = domSuite(test);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the countdown goes 2, 1, 0 a second apart and calls onZero once, at 0', async () => {
  let zero = 0;
  const start = Date.now();
  render(<Waiting text="Finger Enrolling Waiting..." from={2} onZero={() => zero++} />, dom.root);
  const timer = () => dom.root.querySelector('[role=timer]')!.textContent;
  assert.is(timer(), '2');
  // What is asserted is the order and that no step comes early; a busy machine only makes each later.
  const until = async (what: string, ok: () => boolean) => {
    for (let i = 0; i < 600 && !ok(); i++) await sleep(25);
    assert.ok(ok(), `${what} (the timer shows ${timer()}, onZero called ${zero} times)`);
    return Date.now() - start;
  };
  const one = await until('1 after 2', () => timer() === '1');
  assert.is(zero, 0);
  assert.ok(one >= 950, `1 came ${one} ms after the start: not before a second`);
  const nought = await until('0 after 1, with onZero called', () => timer() === '0' && zero > 0);
  assert.ok(nought >= 1950, `0 came ${nought} ms after the start: not before two seconds`);
  await sleep(1100);
  assert.is(timer(), '0', 'stops at 0');
  assert.is(zero, 1, 'onZero once');
  assert.ok(dom.root.textContent!.includes('Finger Enrolling Waiting...'));
});

test('the console\'s countdown running out cancels on the device and says "Enrolment timed out"', async () => {
  // The terminal keeps saying "wait": nobody comes.
  dom.dev.answer = (r) => ({ body: r.url.pathname.endsWith('getOnlineEnrollStatus') && !r.body.includes('Cancel') ? '{"retvalue":"wait"}' : '{"retvalue":0}' });
  let e!: ReturnType<typeof useEnrol>;
  function Probe() {
    e = useEnrol('7', 1, () => undefined);
    return <EnrolState e={e} text="user.fingerWaiting" />;
  }
  render(<Probe />, dom.root);
  void e.start(() => requestGoform('regfp', { UserID: '7', Finger: 3 }));
  for (let i = 0; i < 100 && !dom.root.querySelector('[role=timer]'); i++) await sleep(10);
  assert.ok(dom.root.querySelector('[role=timer]'), 'waiting with a countdown');
  await sleep(700);
  assert.ok(dom.dev.received.filter((r) => r.url.pathname.endsWith('getOnlineEnrollStatus')).length >= 1, 'polling');
  e.timeout(); // what the countdown's onZero calls
  for (let i = 0; i < 100 && !dom.root.textContent!.includes('Enrolment timed out'); i++) await sleep(10);
  assert.ok(dom.root.textContent!.includes('Enrolment timed out'));
  assert.not.ok(dom.root.querySelector('[role=timer]'), 'the countdown is gone');
  await sleep(100);
  const cancel = dom.dev.received.find((r) => r.body.includes('"Cancel":1'));
  assert.ok(cancel, 'cancelled on the device');
  assert.equal(JSON.parse(cancel!.body), { UserID: '7', Type: 1, Cancel: 1 });
  const polls = dom.dev.received.length;
  await sleep(1200);
  assert.is(dom.dev.received.length, polls, 'no more polling');
});

test.run();
