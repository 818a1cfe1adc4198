// ser2net in front of a serial line (hil/ser2net.ts): Debian's ser2net 4 with
// the configuration docs/HIL.md shows, between its raw TCP port and one end of
// a socat pty pair standing for the adapter. The virtual board's test
// (tests/board/board.test.ts) flashes through it with ZMODEM.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { openTcpLink } from '../../serial/link.ts';
import { guarded, ptyPair, serialLink } from '../../hil/paced-line.ts';
import { ser2netYaml, startSer2net } from '../../hil/ser2net.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** The yaml block of docs/HIL.md's section on ser2net. */
function docYaml(): string {
  const page = readFileSync(join(ROOT, 'docs/HIL.md'), 'utf8');
  const from = page.indexOf('### Sharing bench ports between CI runners (ser2net)');
  assert.ok(from >= 0, 'the section is there');
  const m = /```yaml\n([^]*?)```/.exec(page.slice(from));
  assert.ok(m, 'the section shows a YAML configuration');
  return m[1];
}

test('docs/HIL.md shows the configuration hil/ser2net.ts writes (for the page\'s adapter and port)', () => {
  const yaml = ser2netYaml({ name: 'bench1', device: '/dev/serial/by-id/usb-FTDI_FT232R_A10K1234-if00-port0', speed: 115200, port: 4001 });
  assert.is(docYaml(), yaml);
  assert.is(ser2netYaml({ name: 'board', device: '/tmp/b/ttyS0', speed: 115200, port: 40001, host: '127.0.0.1' }).split('\n')[1], '  accepter: tcp,127.0.0.1,40001', 'the tests listen on loopback only');
});

/** Every byte value, 16 times over: 0xFF (which telnet would double), CR and LF (which a cooked tty would map), ^C, ^S, ^Q (which it would act on). */
const EVERY_BYTE = Buffer.concat(Array.from({ length: 16 }, () => Buffer.from(Array.from({ length: 256 }, (_, i) => i))));

test('ser2net passes every byte value both ways unchanged between its TCP port and the line; a new connection takes the line from an old one (kickolduser); close() stops it', guarded(30_000, async (scope) => {
  const dir = scope.tmpdir('ser2net-');
  const { a, b } = await ptyPair(scope, dir, 'line');
  const ser2net = await startSer2net({ device: a });
  scope.defer('stop ser2net', () => ser2net.close());
  scope.note(() => `ser2net: ${ser2net.output()}`);
  const far = await serialLink(scope, b);
  const net = await openTcpLink(ser2net.url);
  scope.defer('close the TCP link', () => net.close());

  await net.write(EVERY_BYTE);
  assert.equal(await far.readExact(EVERY_BYTE.length, 10_000), EVERY_BYTE, 'network to line');
  await far.write(EVERY_BYTE);
  assert.equal(await net.readExact(EVERY_BYTE.length, 10_000), EVERY_BYTE, 'line to network');
  await new Promise((r) => setTimeout(r, 200));
  assert.is(far.drain().length, 0, 'nothing echoed back onto the line');
  assert.is(net.drain().length, 0, 'nothing echoed back to the network');

  // A runner whose job was killed leaves its connection open; the next run's connection kicks it.
  const next = await openTcpLink(ser2net.url);
  scope.defer('close the second TCP link', () => next.close());
  const deadline = Date.now() + 10_000;
  while (!net.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(net.closed, 'the old connection was closed');
  // The old connection's close comes before ser2net has given the line to the new one: a byte from the network
  // that reaches the line says it has (a prompt written earlier would be lost, as a CI run on a busy machine found).
  await next.write('\r');
  assert.equal(await far.readExact(1, 10_000), Buffer.from('\r'), 'the new connection reaches the line');
  await far.write('terminal login: ');
  assert.match(await next.expect(/login: $/, 10_000), 'terminal login: ');

  await ser2net.close();
  const refused = await new Promise<boolean>((res) => {
    const s = connect(Number(new URL(ser2net.url).port), '127.0.0.1');
    s.once('connect', () => (s.destroy(), res(false)));
    s.once('error', () => res(true));
  });
  assert.ok(refused, 'nothing listens once it is stopped');
}));

test.run();
