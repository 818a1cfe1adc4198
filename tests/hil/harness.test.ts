// The harness's own parts: image format, profiles, arguments, inventory and
// shards, served-file verification, conformance checks, JUnit reading.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readTar, safeName, writeTar } from '../../serial/tar.ts';
import { makeImage } from '../../hil/image.ts';
import { fill, loadConsoleProfile } from '../../serial/console-profile.ts';
import { checkReply, summarize } from '../../hil/conformance.ts';
import { verifyServed, waitForHttp } from '../../hil/verify.ts';
import { readJunit } from '../../hil/report.ts';
import { startSimulator } from '../../simulator/server.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'hil-'));

function fakeSite(): string {
  const dir = tmp();
  const files: Record<string, string> = { 'index.html': '<!doctype html>console', 'app-AAAA1111.js': 'x'.repeat(3000), 'logo-BBBB2222.svg': '<svg/>' };
  const manifest = { brand: 'ia', version: '1.2.3', files: [] as object[] };
  for (const [name, text] of Object.entries(files)) {
    const gz = gzipSync(text);
    writeFileSync(join(dir, `${name}.gz`), gz);
    manifest.files.push({ path: name, bytes: text.length, gzipBytes: gz.length, sha256: createHash('sha256').update(gz).digest('hex') });
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

test('tar: what we write, GNU tar lists and unpacks, and we read back', () => {
  const entries = [
    { name: 'b.gz', data: Buffer.alloc(1024, 7) },
    { name: 'a.txt', data: Buffer.from('hello') },
    { name: 'empty', data: Buffer.alloc(0) },
  ];
  const tar = writeTar(entries);
  assert.is(tar.length % 512, 0);
  const dir = tmp();
  writeFileSync(join(dir, 'x.tar'), tar);
  const list = spawnSync('tar', ['-tvf', 'x.tar'], { cwd: dir, encoding: 'utf8' });
  assert.is(list.status, 0, list.stderr);
  assert.equal(list.stdout.trim().split('\n').map((l) => l.split(/\s+/).pop()), ['a.txt', 'b.gz', 'empty'], 'sorted names');
  mkdirSync(join(dir, 'out'));
  assert.is(spawnSync('tar', ['-xf', 'x.tar', '-C', 'out'], { cwd: dir }).status, 0);
  assert.is(readFileSync(join(dir, 'out', 'a.txt'), 'utf8'), 'hello');
  assert.equal(readTar(tar).map((i) => [i.name, i.data.length]), [['a.txt', 5], ['b.gz', 1024], ['empty', 0]]);
  assert.ok(writeTar(entries).equals(writeTar([...entries].reverse())), 'same input, same bytes');
});

test('tar: a truncated or damaged archive, or an unsafe name, is refused', () => {
  const tar = writeTar([{ name: 'a', data: Buffer.alloc(2000, 1) }]);
  assert.throws(() => readTar(tar.subarray(0, 1000)), /unexpected end/);
  const bad = Buffer.from(tar);
  bad[10] ^= 0xff;
  assert.throws(() => readTar(bad), /checksum/);
  for (const n of ['../x', '/etc/passwd', 'a/../../b', '']) assert.not.ok(safeName(n), n);
  assert.ok(safeName('manifest.json'));
});

test('image: the dist folder as one reproducible archive, release named by version and hash', () => {
  const site = fakeSite();
  const a = makeImage(site);
  const b = makeImage(site);
  assert.is(a.sha256, b.sha256);
  assert.is(a.name, 'console-ia.tar');
  assert.match(a.release, /^1\.2\.3-[0-9a-f]{12}$/);
  assert.equal(readTar(a.data).map((i) => i.name), ['app-AAAA1111.js.gz', 'index.html.gz', 'logo-BBBB2222.svg.gz', 'manifest.json']);
});

test('profile: the default fits a busybox terminal; a partial profile inherits; bad ones are refused', () => {
  const p = loadConsoleProfile();
  assert.is(p.user, 'root');
  assert.match('terminal login: ', new RegExp(p.prompts.login, 'm'));
  assert.match('/tmp # ', new RegExp(p.prompts.shell, 'm'));
  assert.is(fill(p.commands.sha256, { image: 'console-ia.tar' }, p), 'sha256sum /tmp/console-ia.tar');
  assert.is(fill(p.commands.setLink, { link: '/www', target: '/www.d/x' }, p), 'ln -sfn /www.d/x /www.next && mv -fT /www.next /www && sync');
  assert.throws(() => fill(p.commands.unpack, {}, p), /no value for \{folder\}/);
  assert.is(p.protocol, 'auto');
  assert.is(p.keepReleases, 3);
  const dir = tmp();
  writeFileSync(join(dir, 'mine.json'), JSON.stringify({ prompts: { shell: '=> $' }, commands: { restartWeb: 'killall -HUP httpd' } }));
  const mine = loadConsoleProfile(join(dir, 'mine.json'));
  assert.is(mine.prompts.shell, '=> $');
  assert.is(mine.prompts.login, p.prompts.login);
  assert.is(mine.commands.restartWeb, 'killall -HUP httpd');
  assert.is(mine.commands.receive, p.commands.receive);
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ prompts: { shell: '([' } }));
  assert.throws(() => loadConsoleProfile(join(dir, 'bad.json')), /not a regular expression/);
  assert.throws(() => loadConsoleProfile('nope'), /no terminal profile/);
  writeFileSync(join(dir, 'old.json'), JSON.stringify({ commands: { install: 'rm -rf /www.d/{release} && tar ...' } }));
  assert.throws(() => loadConsoleProfile(join(dir, 'old.json')), /commands\.install is gone/);
  writeFileSync(join(dir, 'keep.json'), JSON.stringify({ keepReleases: 1 }));
  assert.throws(() => loadConsoleProfile(join(dir, 'keep.json')), /keepReleases must be 2 or more/);
});

test('arguments, inventory and shards', async () => {
  const cli = await import('../../hil/cli-args.ts');
  assert.equal(cli.parseArgs(['--serial', '/dev/ttyUSB0', '--url', 'http://10.0.0.2', '--brand', 'anviz']).brand, 'anviz');
  assert.is(cli.parseArgs(['--serial=tcp://h:4001', '--url=http://x']).serial, 'tcp://h:4001');
  assert.throws(() => cli.parseArgs(['--serial', '/dev/ttyUSB0']), /needs --url/);
  assert.throws(() => cli.parseArgs(['--simulate', '--serial', 'x', '--url', 'y']), /exactly one/);
  assert.throws(() => cli.parseArgs(['--inventory', 'f', '--shard', '3/2']), /--shard takes/);
  assert.throws(() => cli.parseArgs(['--simulate', '--baud', 'fast']), /--baud/);
  assert.is(cli.parseArgs(['--serial', 'x', '--url', 'y', '--rollback']).rollback, true);
  assert.is(cli.parseArgs(['--simulate', '--protocol', 'ymodem']).protocol, 'ymodem');
  assert.throws(() => cli.parseArgs(['--simulate', '--protocol', 'kermit']), /--protocol takes zmodem or ymodem/);
  // --board: a virtual board of its own, with the board's console profile unless one is named; --fresh only with it.
  const board = cli.parseArgs(['--board', '--fresh']);
  assert.equal([board.board, board.fresh, board.consoleProfile], [true, true, 'board']);
  assert.is(cli.parseArgs(['--board', '--console-profile', 'mine.json']).consoleProfile, 'mine.json');
  assert.is(cli.parseArgs(['--simulate']).consoleProfile, 'default');
  // --model is the simulated terminal's device model; --profile (two meanings before issue 32) is no option.
  assert.is(cli.parseArgs(['--simulate', '--model', 'lite']).model, 'lite');
  assert.throws(() => cli.parseArgs(['--simulate', '--profile', 'lite']), /^unknown option --profile \(use --serial, .*--console-profile, .*--model, /);
  assert.throws(() => cli.parseArgs(['--serial']), /--serial needs a value/);
  assert.throws(() => cli.parseArgs(['--board', '--simulate']), /exactly one/);
  assert.throws(() => cli.parseArgs(['--simulate', '--fresh']), /--fresh goes with --board/);
  const list = [1, 2, 3, 4, 5, 6, 7];
  assert.equal(cli.shardOf(list, [1, 3]), [1, 4, 7]);
  assert.equal(cli.shardOf(list, [3, 3]), [3, 6]);
  assert.equal([1, 2, 3].flatMap((i) => cli.shardOf(list, [i, 3])).sort(), list, 'shards cover all, no overlap');
  const dir = tmp();
  writeFileSync(join(dir, 'inv.json'), JSON.stringify({ terminals: [{ name: 'a', serial: '/dev/x', url: 'http://a' }, { name: 's', simulate: true }] }));
  assert.is(cli.readInventory(join(dir, 'inv.json')).length, 2);
  writeFileSync(join(dir, 'dup.json'), JSON.stringify([{ name: 'a', simulate: true }, { name: 'a', simulate: true }]));
  assert.throws(() => cli.readInventory(join(dir, 'dup.json')), /two terminals are named a/);
  writeFileSync(join(dir, 'half.json'), JSON.stringify([{ name: 'a', serial: '/dev/x' }]));
  assert.throws(() => cli.readInventory(join(dir, 'half.json')), /needs "serial" and "url"/);
  writeFileSync(join(dir, 'both.json'), JSON.stringify([{ name: 'a', simulate: true, board: true }]));
  assert.throws(() => cli.readInventory(join(dir, 'both.json')), /either "simulate" or "board"/);
  writeFileSync(join(dir, 'board.json'), JSON.stringify([{ name: 'b', board: true }]));
  assert.is(cli.readInventory(join(dir, 'board.json'))[0].board, true);
});

test('served files: every manifest file fetched as served and compared', async () => {
  const site = fakeSite();
  const sim = await startSimulator({ activated: TEST_ADMIN.password, siteDir: site, storeFile: join(tmp(), 's.json') });
  try {
    await waitForHttp(sim.url, 5000);
    const image = makeImage(site);
    const ok = await verifyServed(sim.url, image);
    assert.equal(ok.map((c) => c.ok), [true, true, true]);
    image.manifest.files[1].sha256 = '0'.repeat(64);
    const bad = await verifyServed(sim.url, image);
    assert.equal(bad.filter((c) => !c.ok).map((c) => c.path), [image.manifest.files[1].path]);
  } finally {
    await sim.close();
  }
});

test('web server wait gives up with a clear message', async () => {
  const sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(tmp(), 's.json') });
  try {
    let err = '';
    await waitForHttp(sim.url, 1200).catch((e) => (err = (e as Error).message));
    assert.match(err, /did not serve the console within 1\.2 s \(last: HTTP 503\)/);
  } finally {
    await sim.close();
  }
});

test('conformance: replies checked against the contract', () => {
  const good = JSON.stringify({ retvalue: 0, funs: ['user'] });
  assert.equal(checkReply('GetDeviceFunList', 200, good), []);
  assert.equal(checkReply('GetDeviceFunList', 200, JSON.stringify(good)), [], 'a JSON string holding JSON');
  assert.equal(checkReply('GetDeviceFunList', 200, JSON.stringify({ retvalue: 0, funs: 'user' })), ['funs: expected a list of text']);
  assert.equal(checkReply('GetDeviceFunList', 200, JSON.stringify({ retvalue: 0 })), ['funs: missing']);
  assert.equal(checkReply('GetDeviceFunList', 200, JSON.stringify({ retvalue: 0, funs: [], extra: 1 })), ['extra: not in the contract']);
  assert.equal(checkReply('chklogin', 200, JSON.stringify({ retvalue: 40302, msg: 'err.40302' })), [], 'an error reply needs only the envelope');
  assert.equal(checkReply('chklogin', 200, JSON.stringify({ retvalue: 'oops' })), ['retvalue: expected an integer or "wait", got "oops"']);
  assert.equal(checkReply('SetInfoParam', 200, JSON.stringify({ retvalue: 0, Build_Version: 'x' })).length > 5, true);
  assert.equal(checkReply('GetDeviceFunList', 500, ''), ['HTTP status 500']);
  const s = summarize([
    { call: 'GetDeviceFunList', status: 200, body: good },
    { call: 'chklogin', status: 200, body: '{"retvalue":0,"token":"t","funs":[],"name":"a"}' },
    { call: 'GetDeviceFunList', status: 200, body: '{"retvalue":0,"funs":3}' },
  ]);
  assert.equal(s.map((c) => [c.call, c.seen, c.ok]), [['chklogin', 1, 1], ['GetDeviceFunList', 2, 1]]);
});

test('JUnit: counts, and every test with its result and the reason it was skipped', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'j.xml'), `<?xml version="1.0"?><testsuites id="" name="" tests="3" failures="1" skipped="1" errors="0" time="1">
<testsuite name="a"><testcase name="signs in" classname="x.spec.ts"></testcase><testcase name="shows &quot;404&quot;" classname="x.spec.ts">
<system-out>log</system-out><failure message="boom &amp; more"/></testcase><testcase name="s" classname="y.spec.ts"><properties><property name="skip" value="needs a person at the reader">
</property></properties><skipped/></testcase></testsuite></testsuites>`);
  assert.equal(readJunit(join(dir, 'j.xml')), {
    tests: 3,
    failures: 1,
    skipped: 1,
    failed: ['shows "404"'],
    cases: [
      { file: 'x.spec.ts', title: 'signs in', status: 'passed', reason: '' },
      { file: 'x.spec.ts', title: 'shows "404"', status: 'failed', reason: 'boom & more' },
      { file: 'y.spec.ts', title: 's', status: 'skipped', reason: 'needs a person at the reader' },
    ],
  });
});

test('the report: junit.xml is well-formed XML (a real parser) with the browser suites in it, and the report says per test what ran', async () => {
  const { writeReport } = await import('../../hil/report.ts');
  const dir = tmp();
  // What Playwright's JUnit reporter writes: its own <testsuites> wrapper around the suites.
  writeFileSync(join(dir, 'playwright-junit.xml'), `<testsuites id="" name="" tests="2" failures="0" skipped="1" errors="0" time="1">
<testsuite name="auth.spec.ts" timestamp="t" hostname="chromium" tests="2" failures="0" skipped="1" time="1" errors="0">
<testcase name="signs in" classname="auth.spec.ts" time="1"></testcase>
<testcase name="enrols a face" classname="auth.spec.ts" time="0"><properties><property name="skip" value="a person must present a face">
</property></properties><skipped></skipped></testcase>
</testsuite>
</testsuites>`);
  const tests = readJunit(join(dir, 'playwright-junit.xml'));
  const target = { name: 'bench <1>', serial: '/dev/x', url: 'http://x', baud: 115200, brand: 'ia', profile: 'default' };
  writeReport({ target, ok: true, mode: 'flash', steps: [{ name: 'transfer', ok: true, ms: 1, detail: 'a & b' }], files: [], conformance: [], tests, reportDir: dir }, []);
  const { parseXml } = await import('./xml.ts');
  parseXml(join(dir, 'junit.xml'));
  const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
  assert.is(xml.match(/<testsuites\b/g)!.length, 1, 'one <testsuites>');
  assert.is(xml.match(/<testsuite\b/g)!.length, 2, 'the harness steps and the browser suite');
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.match(html, /<td>enrols a face<\/td><td>skipped<\/td><td>a person must present a face<\/td>/);
  assert.match(html, /<td>signs in<\/td><td>ran on the device: passed<\/td>/);
});

test('transfer figures: the data rate and the whole-transfer rate, each named, as shares of the line rate on a serial line; why it ended', async () => {
  const { transferText } = await import('../../hil/result.ts');
  // The case: 63,488 bytes in 8.8 s on a 115200 baud line, the data blocks at about 97 %.
  const bytes = 63_488;
  const t = { protocol: 'ymodem' as const, bytes, seconds: 8.8, bytesPerSecond: bytes / 8.8, dataSeconds: 5.68, dataBytesPerSecond: bytes / 5.68, lineRatePercent: 62.6, dataLineRatePercent: 97.0, ended: 'receiver' as const };
  const text = transferText(t, 115200);
  assert.match(text, /; ended: the receiver's last answer$/);
  assert.match(transferText({ ...t, ended: 'shell back' }, 115200), /; ended: the shell came back in place of the last answer$/);
  assert.match(transferText({ ...t, ended: 'timeout' }, 115200), /; ended: no last answer \(timeout\)$/);
  assert.match(text, /^YMODEM, 63488 bytes: data blocks 11\.2 kB\/s \(97\.0 % of the 115200 baud line rate\); whole transfer 7\.2 kB\/s in 8\.8 s \(62\.6 % of the 115200 baud line rate\)/);
  // A pty or a network is not paced by the baud rate: no share, and it says why.
  const fast = transferText({ ...t, protocol: 'zmodem', lineRatePercent: 400, dataLineRatePercent: 900 }, 115200);
  assert.not.match(fast, /% of the/);
  assert.match(fast, /^ZMODEM, .* not paced by the baud rate/);
});

test('releases: folder names sort by time; pruning keeps the newest, the live one and the rollback target, never a folder it did not make', async () => {
  const { foldersToPrune, releaseFolder } = await import('../../hil/harness.ts');
  const a = releaseFolder('1.0.0-aaaa', new Date('2026-11-23T10:00:00.001Z'));
  assert.is(a, '20261123T100000001Z-1.0.0-aaaa');
  const b = releaseFolder('1.0.0-aaaa', new Date('2026-11-23T10:00:00.002Z'));
  const c = releaseFolder('1.0.1-bbbb', new Date('2026-11-24T09:00:00.000Z'));
  const d = releaseFolder('1.0.2-cccc', new Date('2026-11-25T09:00:00.000Z'));
  assert.ok(a < b && b < c && c < d);
  assert.equal(foldersToPrune(['factory', a, b, c, d], 2, d, c), [a, b]);
  assert.equal(foldersToPrune(['factory', a, b, c, d], 3, d, c), [a]);
  // After a rollback the live one is older than the newest: both it and its rollback target stay.
  assert.equal(foldersToPrune([a, b, c, d], 2, b, d), [a, c]);
  assert.equal(foldersToPrune(['factory', d], 2, d, 'factory'), []);
});

test('prompts: terminal control sequences around a prompt do not hide it (busybox ash asks ESC[6n after each)', async () => {
  const { withoutControls, streamLink } = await import('../../serial/link.ts');
  assert.equal(withoutControls('/tmp # \x1b[6n').text, '/tmp # ');
  assert.equal(withoutControls('\x1b]0;root@t: ~\x07\x1b[1;32mroot\x1b[0m:~$ ').text, 'root:~$ ');
  const { PassThrough } = await import('node:stream');
  const s = new PassThrough();
  const link = streamLink(s);
  s.write(Buffer.from('HIL_OK\r\n\x1b[1m/tmp # \x1b[6nrest'));
  const p = loadConsoleProfile();
  assert.is(await link.expect(/^HIL_(OK|FAIL)\r?$/m, 500), 'HIL_OK\r');
  assert.is(await link.expect(new RegExp(p.prompts.shell, 'm'), 200).then(() => 'prompt', () => 'none'), 'none', 'text after the prompt: not a prompt yet');
  const t = new PassThrough();
  const l2 = streamLink(t);
  t.write(Buffer.from('\r\n/tmp # \x1b[6n'));
  assert.match(await l2.expect(new RegExp(p.prompts.shell, 'm'), 500), /\/tmp # $/);
  assert.is(l2.drain().toString('latin1'), '\x1b[6n', 'what follows the match stays for the next reader');
});

test.run();
