// bench/line.ts's account of the line's idle time (lineIdleMs): what a visit took beyond its
// round trips and bytes is the time the line carried nothing either way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lineIdleMs } from '../../bench/line.ts';

// 8 kbit/s and a 100 ms round trip: a byte takes 1 ms to go out, then 50 ms to arrive.
const line = { bits: 8_000, rttMs: 100 };
const arrival = (at: number, bytes: number, up = false) => ({ at, bytes, up, connection: 1 });

test('a line busy from the first bit out to the arrival is never idle', () => {
  // 40 bytes up: out from 0 to 40, arriving at 90; 100 bytes down, out at 90, arriving at 240.
  assert.is(lineIdleMs([arrival(90, 40, true), arrival(240, 100)], line, 0, 240), 0);
});

test('the gaps between one arrival and the next going out are the ends\' own time, the tail too', () => {
  // Out 0-40, arrives 90; the answer goes out only at 120 (30 ms at the far end), arrives 270;
  // the page is usable at 300 (30 ms more at the near end).
  assert.is(lineIdleMs([arrival(90, 40, true), arrival(270, 100)], line, 0, 300), 60);
  // Before the first bit goes out, and only within the window asked for.
  assert.is(lineIdleMs([arrival(110, 40, true)], line, 0, 110), 20);
  assert.is(lineIdleMs([arrival(110, 40, true)], line, 50, 200), 90);
});

test('both directions at once, in any order, count once', () => {
  // Up out 0-40 (arrives 90) and down out 20-120 (arrives 170) overlap; up again out 180-190
  // (arrives 240): idle from 170 to 180 only.
  const a = [arrival(170, 100), arrival(240, 10, true), arrival(90, 40, true)];
  assert.is(lineIdleMs(a, line, 0, 240), 10);
  // Up again out 150-160 (arrives 210): the line was never idle.
  assert.is(lineIdleMs([arrival(170, 100), arrival(210, 10, true), arrival(90, 40, true)], line, 0, 210), 0);
});

test.run();
