// The door as the console reads it (src/api/door.ts) against a loopback device:
// a state read is kept for the screen, the sidebar and the system information;
// a refused read says why, in the product's words, so the Door screen shows the
// failure (with Retry) instead of waiting for good, and keeps no state.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { domSuite } from '../support/helpers.ts';
import { $door, readDoor } from '../../src/api/door.ts';

const dom = domSuite(test, () => $door.set(null));

const STATE = { retvalue: 0, Mode: 1, Lock: 1, Relay: 1, Left: 0, Sensor: 1, HeldOpen: 0, Forced: 0, Period: 0, Since: '2026-11-27 03:00:00' };

test('a state read is kept, and the read resolves with no message', async () => {
  dom.dev.answer = () => ({ body: JSON.stringify(STATE) });
  assert.is(await readDoor(), '');
  assert.is($door.get()?.Mode, 1);
  assert.is(dom.dev.received.filter((r) => r.url.pathname === '/goform/SetDoorState').length, 1);
});

test('a refused read (a terminal without a relay, 50101) resolves with its message and keeps no state', async () => {
  dom.dev.answer = () => ({ body: JSON.stringify({ retvalue: 50101, msg: 'msg.doorNoRelay' }) });
  assert.match(await readDoor(), /no door relay/);
  assert.is($door.get(), null);
});

test('no answer at all resolves with the network failure\'s words', async () => {
  dom.dev.answer = () => ({ status: 502, body: 'Bad Gateway' });
  const message = await readDoor();
  assert.ok(message.length > 0, 'a message');
  assert.is($door.get(), null);
});

test.run();
