// tools/cpu.ts (`npm run cpu -- COMMAND`): the processes a command starts, found under it in
// /proc, with their CPU time, by kind.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { kindOf, readCommandLine, report, stepsOf, type Sampled } from '../../tools/cpu.ts';

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

test('the report: the total, the kinds by CPU time with their counts, kernel time and page faults, then the processes', () => {
  const text = report(
    [
      { pid: 1, command: 'node a', cpu: 1, system: 0.25, faults: 4000 },
      { pid: 2, command: '/usr/bin/qemu-system-x86_64', cpu: 3, system: 1, faults: 90_000 },
      { pid: 3, command: 'node b', cpu: 0.5, system: 0.25, faults: 2500 },
    ],
    2000,
  );
  assert.match(text, /^wall 2\.0 s; CPU 4\.5 s in 3 processes \(2\.25 cores on average\), 1\.5 s of it in the kernel/);
  const lines = text.split('\n');
  const from = lines.indexOf('CPU s   processes  system s  faults (k)  kind') + 1;
  const kinds = lines.slice(from, lines.indexOf('', from)).map((l) => l.trim().split(/\s+/));
  assert.equal(kinds, [['3.0', '1', '1.0', '90', 'qemu'], ['1.5', '2', '0.5', '7', 'node']]);
  assert.match(text, /\n +3\.0 {2}2 \/usr\/bin\/qemu-system-x86_64\n +1\.0 {2}1 node a\n +0\.5 {2}3 node b$/);
});

test('steps: each process counts under the outermost program a shell started above it, through a shell of its own too', () => {
  const p = (pid: number, ppid: number, command: string, cpu: number): Sampled => ({ pid, ppid, command, cpu });
  const all = [
    p(10, 1, 'node npm test', 0.5),
    p(11, 10, 'sh -c bash tests/run.sh', 0),
    p(12, 11, 'bash tests/run.sh', 0.1),
    p(13, 12, 'node node_modules/.bin/playwright test', 3),
    p(14, 13, 'node workerProcessEntry.js', 20),
    p(15, 14, '/usr/lib/chromium/chromium --type=renderer', 30),
    p(16, 12, 'bash tests/run.sh', 0),
    p(17, 16, 'node uvu tests/board', 5),
    p(18, 17, '/usr/bin/qemu-system-x86_64', 60),
    p(19, 18, '/bin/sh -c socat - TCP:127.0.0.1:1', 0),
    p(20, 19, 'socat - TCP:127.0.0.1:1', 1),
    p(21, 999, 'node orphan', 2),
  ];
  const steps = stepsOf(all);
  const of = (pid: number) => steps.get(all.find((x) => x.pid === pid)!)!.pid;
  assert.equal([15, 14, 13].map(of), [13, 13, 13], 'a browser under its worker under the runner: the runner');
  assert.equal([20, 19, 18, 17].map(of), [17, 17, 17, 17], 'through QEMU and its own shell: the suite');
  assert.equal([10, 11, 12, 16, 21].map(of), [10, 11, 12, 16, 21], 'npm, the shells and an orphan: themselves');
  const text = report(all, 1000, 0, 2);
  assert.match(text, /CPU s   processes  step \(with everything it started\)\n +66\.0 +4 +17 node uvu tests\/board\n +53\.0 +3 +13 node node_modules\/\.bin\/playwright test$/);
});

test('a grandchild that burns a second of CPU is found under the command, and the command\'s exit status is kept', () => {
  const r = run(['--every', '50', '--', process.execPath, '-e', `require('child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(BURN)}]); process.exit(3)`]);
  assert.is(r.status, 3, r.stderr);
  const grandchild = /^ +(\d+\.\d) +\d+ \S*node -e const t = process\.cpuUsage/m.exec(r.stderr);
  assert.ok(grandchild, r.stderr);
  assert.ok(Number(grandchild[1]) >= 0.5, `the grandchild's CPU time: ${grandchild[0]}`);
  assert.match(r.stderr, /^ +\d+\.\d +2 +\d+\.\d +\d+ +node$/m, 'two node processes');
});

test('page faults are read: a child that touches 64 MiB, page by page, counts at least a fault a page', () => {
  // Then a second of CPU, as above: readings come while it lives, however busy the machine.
  const touch = `const b = Buffer.allocUnsafeSlow(64 << 20); for (let i = 0; i < b.length; i += 4096) b[i] = 1; ${BURN}`;
  const r = run(['--every', '50', '--', process.execPath, '-e', `require('child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(touch)}])`]);
  assert.is(r.status, 0, r.stderr);
  const node = /^ +\d+\.\d +2 +(\d+\.\d) +(\d+) +node$/m.exec(r.stderr);
  assert.ok(node, r.stderr);
  assert.ok(Number(node[2]) >= (64 << 20) / 4096 / 1000, `the faults of the two, in thousands: ${node[0]}`);
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
  assert.is(r.stderr.trim(), 'cpu: unknown option --bogus (use --every, --top, --steps, --help)');
  // The rest in this process: what the program says is what readCommandLine throws.
  assert.throws(() => readCommandLine(['--every', '5', '--', 'true']), /^--every takes milliseconds, 10 or more/);
  assert.throws(() => readCommandLine([]), /^no command/);
  assert.throws(() => readCommandLine(['--every', '100']), /^no command/);
  assert.throws(() => readCommandLine(['--top', 'all', 'true']), /^--top takes a count/);
  assert.throws(() => readCommandLine(['--steps', '1.5', 'true']), /^--steps takes a count/);
});

test('the command may follow the options without --, as README writes it (npm run cpu -- npm test)', () => {
  const r = run(['--top', '3', 'true']);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stderr, /== cpu: true\n/);
  assert.equal(readCommandLine(['true']), { every: 500, top: 12, steps: 0, command: ['true'] });
  assert.equal(readCommandLine(['--every', '100', 'true']).command, ['true']);
  assert.equal(readCommandLine(['--every=100', 'true', '--x']), { every: 100, top: 12, steps: 0, command: ['true', '--x'] });
  assert.equal(readCommandLine(['--steps', '4', '--', 'npm', 'test']), { every: 500, top: 12, steps: 4, command: ['npm', 'test'] });
  // After the command's first word, every word is the command's own, options included.
  assert.equal(readCommandLine(['false', '--every', '5']).command, ['false', '--every', '5']);
  // --top: how many processes are listed.
  const shells = ['--top', '2', '--every', '50', '--', '/bin/sh', '-c', 'sleep 1 & sleep 1 & sleep 1 & wait'];
  assert.is(run(shells).stderr.split('CPU s   process\n')[1].trim().split('\n').length, 2, 'four processes, two listed');
});

test.run();
