// tools/cpu.ts (`npm run cpu -- COMMAND`): the processes a command starts, found under it in
// /proc, with their CPU time, by kind.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { kindOf, report } from '../../tools/cpu.ts';

const ROOT = join(import.meta.dirname, '../..');
const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'tools/cpu.ts', ...args], { cwd: ROOT, encoding: 'utf8' });

/** A second of CPU, counted by the process itself (user and system: each reading is a system call), so a busy machine only makes it take longer. */
const BURN = 'const t = process.cpuUsage(); for (let u = process.cpuUsage(t); u.user + u.system < 1e6; u = process.cpuUsage(t));';

test('kinds: Chromium by its process type, QEMU, Node, the other engines, else the program', () => {
  assert.is(kindOf('/usr/lib/chromium/chromium --type=renderer --lang=en'), 'chromium renderer');
  assert.is(kindOf('/usr/lib/chromium/chromium --no-sandbox --remote-debugging-pipe'), 'chromium browser');
  assert.is(kindOf('/usr/bin/qemu-system-x86_64 -nodefaults'), 'qemu');
  assert.is(kindOf('/usr/bin/node --import tsx x.ts'), 'node');
  assert.is(kindOf('/usr/lib/firefox-esr/firefox-esr --marionette'), 'firefox');
  assert.is(kindOf('/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/WebKitWebProcess 7'), 'webkit');
  assert.is(kindOf('/usr/sbin/lighttpd -D -f x.conf'), 'lighttpd');
});

test('the report: the total, the kinds by CPU time with their counts, then the processes', () => {
  const text = report([{ pid: 1, command: 'node a', cpu: 1 }, { pid: 2, command: '/usr/bin/qemu-system-x86_64', cpu: 3 }, { pid: 3, command: 'node b', cpu: 0.5 }], 2000);
  assert.match(text, /^wall 2\.0 s; CPU 4\.5 s in 3 processes \(2\.25 cores on average\)/);
  const lines = text.split('\n');
  const from = lines.indexOf('CPU s   processes  kind') + 1;
  const kinds = lines.slice(from, lines.indexOf('', from)).map((l) => l.trim().split(/\s+/));
  assert.equal(kinds, [['3.0', '1', 'qemu'], ['1.5', '2', 'node']]);
  assert.match(text, /\n +3\.0 {2}2 \/usr\/bin\/qemu-system-x86_64\n +1\.0 {2}1 node a\n +0\.5 {2}3 node b$/);
});

test('a grandchild that burns a second of CPU is found under the command, and the command\'s exit status is kept', () => {
  const r = run(['--every', '50', '--', process.execPath, '-e', `require('child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(BURN)}]); process.exit(3)`]);
  assert.is(r.status, 3, r.stderr);
  const grandchild = /^ +(\d+\.\d) +\d+ \S*node -e const t = process\.cpuUsage/m.exec(r.stderr);
  assert.ok(grandchild, r.stderr);
  assert.ok(Number(grandchild[1]) >= 0.5, `the grandchild's CPU time: ${grandchild[0]}`);
  assert.match(r.stderr, /^ +\d+\.\d +2 +node$/m, 'two node processes');
});

test('a process that execs another program is counted under the program it became (a launcher script that becomes Chromium)', () => {
  // The shell is read first (it sleeps a few readings long), then becomes node through exec.
  const r = run(['--every', '50', '--', '/bin/sh', '-c', `sleep 0.5; exec '${process.execPath}' -e '${BURN}'`]);
  assert.is(r.status, 0, r.stderr);
  const line = /^ +(\d+\.\d) +\d+ \S*node -e const t = process\.cpuUsage/m.exec(r.stderr);
  assert.ok(line, `the exec'd program's own command line: ${r.stderr}`);
  assert.ok(Number(line[1]) >= 0.5, line[0]);
  assert.not.match(r.stderr, /^ +\d+\.\d +\d+ +sh$/m, 'no sh kind');
});

test('a command line it cannot take: one line and status 2', () => {
  const r = run(['--bogus', '--', 'true']);
  assert.is(r.status, 2);
  assert.is(r.stderr.trim(), 'cpu: unknown option --bogus (use --every, --top, --help)');
  assert.match(run(['--every', '5', '--', 'true']).stderr, /^cpu: --every takes milliseconds, 10 or more/);
  assert.match(run([]).stderr, /^cpu: no command/);
  assert.match(run(['--every', '100']).stderr, /^cpu: no command/);
  assert.match(run(['--top', 'all', 'true']).stderr, /^cpu: --top takes a count/);
});

test('the command may follow the options without --, as README writes it (npm run cpu -- npm test)', () => {
  for (const args of [['true'], ['--every', '100', 'true'], ['--every=100', 'true', '--x'], ['--top', '3', 'true']]) {
    const r = run(args);
    assert.is(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`== cpu: ${args.slice(args.indexOf('true')).join(' ')}\n`), args.join(' '));
  }
  // --top: how many processes are listed.
  const shells = ['--top', '2', '--every', '50', '--', '/bin/sh', '-c', 'sleep 1 & sleep 1 & sleep 1 & wait'];
  assert.is(run(shells).stderr.split('CPU s   process\n')[1].trim().split('\n').length, 2, 'four processes, two listed');
  // After the command's first word, every word is the command's own, options included.
  assert.is(run(['false', '--every', '5']).status, 1);
});

test.run();
