// The simulated terminal's serial console: login, the sandboxed busybox-like
// shell, tar/mv -T/httpd restart (the install step), sha256sum, rb over
// YMODEM, over a real TCP socket and over socat's pty.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openSerialLink, openTcpLink, type ByteLink } from '../../serial/link.ts';
import { writeTar } from '../../serial/tar.ts';
import { CONSOLE_CREDENTIALS, startConsole, type ConsoleServer } from '../../simulator/console.ts';
import { SandboxShell } from '../../simulator/shell.ts';
import { resolveIn, siteDirOf } from '../../simulator/shell/sandbox.ts';
import type { ShellIO } from '../../simulator/shell/command.ts';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { ConsoleClient, T, processesWith, snapshot, sleep, waitFor } from './console-helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

const HERE = import.meta.dirname;
const hasYmodem = existsSync(resolve(HERE, '../../serial/ymodem-send.ts'));
const ymodem = () => import('../../serial/ymodem-send.ts');

/** A site folder the simulator serves: manifest.json and index.html.gz. */
function site(text: string): { name: string; data: Buffer }[] {
  const html = Buffer.from(`<!doctype html><title>${text}</title>`);
  const manifest = { brand: 'test', version: '1', files: [{ path: 'index.html', bytes: html.length, gzipBytes: 0, sha256: createHash('sha256').update(html).digest('hex') }] };
  return [
    { name: 'index.html.gz', data: gzipSync(html) },
    { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) },
  ];
}

async function page(sim: Simulator): Promise<string> {
  const res = await fetch(`${sim.url}/`);
  if (res.status !== 200) return `HTTP ${res.status}`;
  return Buffer.from(await res.arrayBuffer()).toString('utf8');
}

// ---------------------------------------------------------------------------
const tcp = suite('the simulated serial console over TCP');
const st = {} as { base: string; root: string; con: ConsoleServer; sim: Simulator; restarts: string[]; link: ByteLink; c: ConsoleClient };

tcp.before(async () => {
  st.base = mkdtempSync(join(tmpdir(), 'console-test-'));
  st.root = join(st.base, 'sandbox');
  // The caller pre-populates the factory console.
  mkdirSync(join(st.root, 'www.d', 'factory'), { recursive: true });
  for (const f of site('FACTORY')) writeFileSync(join(st.root, 'www.d', 'factory', f.name), f.data);
  st.restarts = [];
  st.sim = await startSimulator({ activated: TEST_ADMIN.password, siteDir: join(st.root, 'www'), storeFile: join(st.base, 'store.json'), model: loadModel('default') });
  st.con = await startConsole({
    root: st.root,
    hostname: 'term1',
    onRestartHttp: (dir) => {
      st.restarts.push(dir);
      st.sim.setSite(dir);
    },
    ymodem: { timeoutMs: 1000, retries: 3 },
  });
  // As a real httpd does (it chdirs to its docroot), serve /www as it resolves now.
  st.sim.setSite(siteDirOf(st.root));
  st.link = await openTcpLink(st.con.tcpUrl);
  st.c = new ConsoleClient(st.link);
});

tcp.after(async () => {
  await st.link?.close();
  await st.con?.close();
  await st.sim?.close();
  if (st.base) rmSync(st.base, { recursive: true, force: true });
});

tcp('banner, wrong password, then the right one; prompts', async () => {
  const { link } = st;
  const banner = await link.expect(/login: $/, T);
  assert.match(banner, /Welcome to term1/);
  assert.ok(banner.endsWith('\r\nterm1 login: '));
  // Backspace edits the line; the password is not echoed.
  await link.write('rooo\x7ft\r');
  const user = await link.expect(/Password: $/, T);
  assert.ok(user.startsWith('rooo\b \bt\r\n'), JSON.stringify(user));
  await link.write('wrong\r');
  const refused = await link.expect(/login: $/, T);
  assert.match(refused, /Login incorrect/);
  assert.not.match(refused, /wrong/);
  // CR LF line ends count once: no extra prompts.
  await link.write(`${CONSOLE_CREDENTIALS.user}\r\n`);
  const again = await link.expect(/Password: $/, T);
  assert.is((again.match(/login: /g) ?? []).length, 0);
  await link.write(`${CONSOLE_CREDENTIALS.password}\r\n`);
  const motd = await link.expect(/# $/, T);
  assert.ok(motd.endsWith('\r\n~ # '), JSON.stringify(motd));
  assert.not.match(motd, /terminal/);
  // What follows the prompt is busybox ash's cursor-position query, once: no second prompt for the LF.
  assert.is((await link.settle(150, 1000)).toString('latin1'), '\x1b[6n', 'no second prompt for the LF');
  const c = st.c;
  assert.is(await c.run('pwd'), '/root\r\n');
  await c.run('cd /tmp');
  assert.is(c.prompt, '/tmp # ');
  await c.run('cd /www.d');
  assert.is(c.prompt, '/www.d # ');
  await c.run('cd');
  assert.is(c.prompt, '~ # ');
  assert.is(await c.run(''), '');
});

tcp('echo, true, false, &&, ||, ; and quotes', async () => {
  const { c } = st;
  assert.is(await c.run(`echo "a  b" 'c;d' e\\ f "x\\"y" 'HIL'_OK`), 'a  b c;d e f x"y HIL_OK\r\n');
  assert.is(await c.run('true && echo yes'), 'yes\r\n');
  assert.is(await c.run('false && echo yes'), '');
  assert.is(await c.run('false || echo no'), 'no\r\n');
  assert.is(await c.run('false ; echo after'), 'after\r\n');
  assert.is(await c.run('true || echo a && echo b'), 'b\r\n');
  assert.is(await c.run('frob'), 'sh: frob: not found\r\n');
  assert.equal(await c.ok('frob'), { ok: false, out: 'sh: frob: not found\r\n' });
  assert.match(await c.run('echo "open'), /^sh: syntax error: unterminated quoted string\r\n$/);
  assert.match(await c.run('&& echo x'), /^sh: syntax error/);
  assert.is(await c.run('uname -a'), 'Linux term1 4.9.118 #1 SMP PREEMPT Thu Jan 1 00:00:00 UTC 2026 armv7l GNU/Linux\r\n');
  assert.is(await c.run('uname'), 'Linux\r\n');
});

tcp('mkdir, ls, cat, rm, mv, ln', async () => {
  const { c, root } = st;
  assert.equal(await c.ok('mkdir -p /tmp/a/b/c'), { ok: true, out: '' });
  assert.equal(await c.ok('mkdir /tmp/a'), { ok: false, out: "mkdir: can't create directory '/tmp/a': File exists\r\n" });
  assert.equal(await c.ok('mkdir /tmp/x/y'), { ok: false, out: "mkdir: can't create directory '/tmp/x/y': No such file or directory\r\n" });
  writeFileSync(join(root, 'tmp/a/note.txt'), 'line one\nline two\n');
  assert.is(await c.run('ls /tmp/a'), 'b\r\nnote.txt\r\n');
  assert.is(await c.run('cd /tmp/a && ls'), 'b\r\nnote.txt\r\n');
  assert.is(c.prompt, '/tmp/a # ');
  assert.is(await c.run('cat note.txt'), 'line one\r\nline two\r\n');
  assert.is(await c.run('cat /tmp/a/b/../note.txt'), 'line one\r\nline two\r\n');
  assert.equal(await c.ok('cat nope'), { ok: false, out: "cat: can't open 'nope': No such file or directory\r\n" });
  assert.match(await c.run('ls /'), /^etc\r\nroot\r\ntmp\r\nwww\r\nwww\.d\r\n$/);
  assert.match(await c.run('ls -l /'), /\r\nlrwxrwxrwx +1 root +root +\d+ \w{3} [ \d]\d \d\d:\d\d www -> \/www\.d\/factory\r\n/);
  assert.equal(await c.ok('ls /nope'), { ok: false, out: 'ls: /nope: No such file or directory\r\n' });
  // mv renames; into a folder without -T.
  assert.equal(await c.ok('mv note.txt n2.txt && mv n2.txt b'), { ok: true, out: '' });
  assert.ok(existsSync(join(root, 'tmp/a/b/n2.txt')));
  assert.equal(await c.ok('mv nope x'), { ok: false, out: "mv: can't rename 'nope': No such file or directory\r\n" });
  // ln -s: targets are terminal paths.
  assert.equal(await c.ok('ln -s /tmp/a/b/n2.txt link && cat link'), { ok: true, out: 'line one\r\nline two\r\n' });
  assert.is(await c.run('readlink link'), '/tmp/a/b/n2.txt\r\n');
  assert.equal(await c.ok('ln -s /tmp other link'), { ok: false, out: "ln: extra operand 'link'\r\n" });
  assert.equal(await c.ok('ln -s /tmp link'), { ok: false, out: 'ln: link: File exists\r\n' });
  assert.equal(await c.ok('ln -sf /tmp link && readlink link'), { ok: true, out: '/tmp\r\n' });
  // rm
  assert.equal(await c.ok('rm b'), { ok: false, out: "rm: can't remove 'b': Is a directory\r\n" });
  assert.equal(await c.ok('rm /tmp/nope'), { ok: false, out: "rm: can't remove '/tmp/nope': No such file or directory\r\n" });
  assert.equal(await c.ok('rm -f /tmp/nope'), { ok: true, out: '' });
  assert.equal(await c.ok('rm link'), { ok: true, out: '' });
  assert.ok(existsSync(join(root, 'tmp')), 'rm of a symlink removes the link, not its target');
  assert.equal(await c.ok('cd / && rm -rf /tmp/a'), { ok: true, out: '' });
  assert.is(await c.run('ls /tmp'), '');
  assert.equal(await c.ok('rm -rf /'), { ok: false, out: "rm: refusing to remove '/'\r\n" });
  assert.ok(existsSync(join(root, 'www.d')));
});

tcp('paths outside the sandbox are refused, never followed', async () => {
  const { c, root } = st;
  const host = readFileSync('/etc/passwd', 'utf8');
  const refused = /path leaves the sandbox/;
  for (const cmd of ['cat /../../etc/passwd', 'cat ../../../../../../../../etc/passwd', 'sha256sum /../etc/passwd', 'ls /..', 'mkdir -p /../x', 'cd /..']) {
    const r = await c.ok(cmd);
    assert.not.ok(r.ok, cmd);
    assert.match(r.out, refused, cmd);
  }
  assert.is(c.prompt, '/ # ');
  // A symlink made on the terminal points into the sandbox, whatever its target says.
  const r = await c.ok('cd /tmp && ln -s /etc/passwd x && cat x');
  assert.equal(r, { ok: false, out: "cat: can't open 'x': No such file or directory\r\n" });
  assert.is(readlinkSync(join(root, 'tmp/x')), '../etc/passwd');
  assert.match(await c.run('ls -l x'), /x -> \/etc\/passwd\r\n$/);
  assert.match((await c.ok('ln -s ../../../etc/passwd y')).out, refused);
  assert.not.ok(existsSync(join(root, 'tmp/y')));
  // A symlink planted on the host that points outside is refused, not followed.
  symlinkSync('/etc', join(root, 'tmp/evil'));
  for (const cmd of ['cat /tmp/evil/passwd', 'cat evil/../x', 'ls /tmp/evil', 'ls /tmp/evil/', 'cd /tmp/evil', 'sha256sum evil/passwd', 'mkdir evil/new', 'rm -rf evil/passwd', 'mv evil/passwd /tmp/p', 'ln -s /tmp/x evil/l', 'tar -xf evil/passwd', 'tar -xf /tmp/x -C evil']) {
    const out = await c.ok(cmd);
    assert.not.ok(out.ok, cmd);
    assert.not.ok(out.out.includes(host.slice(0, 20)), cmd);
  }
  assert.match((await c.ok('cat /tmp/evil/passwd')).out, refused);
  assert.is(c.prompt, '/tmp # ');
  // ls -l shows the link itself (no following); rm removes the link only.
  assert.match(await c.run('ls -l evil'), /evil -> \/etc\r\n$/);
  assert.equal(await c.ok('rm evil'), { ok: true, out: '' });
  assert.ok(existsSync('/etc/passwd'));
  // A host symlink by absolute path inside the sandbox is fine.
  symlinkSync(join(realpathSync(root), 'www.d'), join(root, 'tmp/inside'));
  assert.is(await c.run('ls /tmp/inside'), 'factory\r\n');
  assert.equal(await c.ok('rm /tmp/inside /tmp/x'), { ok: true, out: '' });
  // The resolver itself.
  const real = realpathSync(root);
  assert.is(resolveIn(real, '/www/index.html.gz').term, '/www.d/factory/index.html.gz');
  assert.throws(() => resolveIn(real, '/tmp/../..'), /leaves the sandbox/);
});

tcp('tar -xf: a good archive unpacks; a truncated or damaged one fails and changes nothing', async () => {
  const { c, root } = st;
  const files = site('RELEASE-1');
  const good = writeTar(files);
  writeFileSync(join(root, 'tmp/good.tar'), good);
  writeFileSync(join(root, 'tmp/short.tar'), good.subarray(0, 700));
  const damaged = Buffer.from(good);
  damaged[10] ^= 0xff;
  writeFileSync(join(root, 'tmp/bad.tar'), damaged);
  assert.equal(await c.ok('mkdir -p /www.d/r1 && tar -xf /tmp/good.tar -C /www.d/r1'), { ok: true, out: '' });
  for (const f of files) assert.ok(readFileSync(join(root, 'www.d/r1', f.name)).equals(f.data), f.name);
  assert.is(await c.run('ls /www.d/r1'), 'index.html.gz\r\nmanifest.json\r\n');
  assert.is(await c.run('tar -tf /tmp/good.tar'), 'index.html.gz\r\nmanifest.json\r\n');

  // Into an empty folder and over a full one: nothing is written.
  assert.equal(await c.ok('mkdir /www.d/r2 && tar -xf /tmp/short.tar -C /www.d/r2'), { ok: false, out: 'tar: unexpected end of archive\r\n' });
  assert.equal(readdirSync(join(root, 'www.d/r2')), []);
  const before = snapshot(join(root, 'www.d/r1'));
  assert.equal(await c.ok('tar -xf /tmp/short.tar -C /www.d/r1'), { ok: false, out: 'tar: unexpected end of archive\r\n' });
  assert.equal(await c.ok('tar xf /tmp/bad.tar -C /www.d/r1'), { ok: false, out: 'tar: header checksum mismatch\r\n' });
  assert.equal(snapshot(join(root, 'www.d/r1')), before);
  assert.equal(await c.ok('tar -xf /tmp/nope.tar -C /www.d/r1'), { ok: false, out: "tar: can't open '/tmp/nope.tar': No such file or directory\r\n" });
  assert.equal(await c.ok('tar -xf /tmp/good.tar -C /www.d/none'), { ok: false, out: "tar: can't change directory to '/www.d/none': No such file or directory\r\n" });
  // Extraction replaces a symlink in the way instead of writing through it.
  symlinkSync('/etc/passwd', join(root, 'www.d/r2/manifest.json'));
  assert.equal(await c.ok('cd /www.d/r2 && tar -x -f /tmp/good.tar'), { ok: true, out: '' });
  assert.not.ok(lstatSync(join(root, 'www.d/r2/manifest.json')).isSymbolicLink());
  assert.equal(await c.ok('rm -rf /www.d/r2 /tmp/short.tar /tmp/bad.tar && cd /'), { ok: true, out: '' });
});

tcp('mv -fT (as the default profile has it) swaps the /www symlink; S80httpd restart serves the new folder', async () => {
  const { c, root, sim, restarts } = st;
  assert.match(await page(sim), /FACTORY/);
  // The harness profile's install and restart commands.
  assert.equal(await c.ok('ln -sfn /www.d/r1 /www.next && mv -fT /www.next /www'), { ok: true, out: '' });
  assert.is(readlinkSync(join(root, 'www')), 'www.d/r1');
  assert.not.ok(existsSync(join(root, 'www.next')));
  assert.ok(existsSync(join(root, 'www.d/factory/manifest.json')), 'mv -T does not move into the old target');
  assert.match(await page(sim), /FACTORY/, 'the swap alone does not change what is served');
  assert.is(restarts.length, 0);
  assert.equal(await c.ok('/etc/init.d/S80httpd restart'), { ok: true, out: 'Restarting httpd: OK\r\n' });
  assert.equal(restarts, [join(realpathSync(root), 'www.d/r1')]);
  assert.match(await page(sim), /RELEASE-1/);
  assert.match(await c.run('ls -l /'), / www -> \/www\.d\/r1\r\n/);
  // Without -T, mv moves into the folder the symlink points to.
  assert.equal(await c.ok('ln -sfn /www.d/factory /www.next && mv /www.next /www'), { ok: true, out: '' });
  assert.ok(lstatSync(join(root, 'www.d/r1/www.next')).isSymbolicLink());
  assert.equal(await c.ok('rm /www.d/r1/www.next && ln -sfn /www.d/factory /www.next && mv -T /www.next /www && S80httpd restart'), { ok: true, out: 'Restarting httpd: OK\r\n' });
  assert.equal(restarts.at(-1), join(realpathSync(root), 'www.d/factory'));
  assert.match(await page(sim), /FACTORY/);
  assert.equal(await c.ok('S80httpd bounce'), { ok: false, out: 'Usage: S80httpd {start|restart|reload}\r\n' });
});

tcp('sha256sum prints what node:crypto computes', async () => {
  const { c, root } = st;
  const blob = randomBytes(70_000);
  writeFileSync(join(root, 'tmp/blob.bin'), blob);
  const sha = createHash('sha256').update(blob).digest('hex');
  assert.is(await c.run('sha256sum /tmp/blob.bin'), `${sha}  /tmp/blob.bin\r\n`);
  assert.is(await c.run('cd /tmp && sha256sum blob.bin'), `${sha}  blob.bin\r\n`);
  assert.equal(await c.ok('sha256sum nope'), { ok: false, out: "sha256sum: can't open 'nope': No such file or directory\r\n" });
});

tcp('rb receives a file sent with ymodemSend', async () => {
  if (!hasYmodem) {
    console.log('  (skipped: serial/ymodem-send.ts is not there yet)');
    return;
  }
  const { ymodemSend } = await ymodem();
  const { c, link, root } = st;
  const data = randomBytes(300_000);
  // As the harness does it: start the command, send, then wait for the marker.
  await link.write(`cd /tmp && rb -y && echo 'HIL'_OK || echo 'HIL'_FAIL\r`);
  await link.expect(/\r\n/, T);
  await ymodemSend(link, [{ name: 'image.tar', data }], { timeoutMs: 2000 });
  const out = await link.expect(/# $/, 10_000);
  assert.is(out, 'HIL_OK\r\n/tmp # ');
  assert.ok(readFileSync(join(root, 'tmp/image.tar')).equals(data));
  // Again, overwriting, and then echo/line handling is back.
  const data2 = randomBytes(5000);
  await link.write('rb -y\r');
  await link.expect(/\r\n/, T);
  await ymodemSend(link, [{ name: 'image.tar', data: data2 }]);
  assert.is(await link.expect(/# $/, T), '/tmp # ');
  assert.ok(readFileSync(join(root, 'tmp/image.tar')).equals(data2));
  // Without -y an existing file is kept; -E renames.
  await link.write('rb || echo FAILED\r');
  await link.expect(/\r\n/, T);
  await ymodemSend(link, [{ name: '../image.tar', data }]);
  assert.is(await link.expect(/# $/, T), 'rb: image.tar: file exists (use -y to overwrite)\r\nFAILED\r\n/tmp # ');
  assert.ok(readFileSync(join(root, 'tmp/image.tar')).equals(data2));
  await link.write('rb -E\r');
  await link.expect(/\r\n/, T);
  await ymodemSend(link, [{ name: 'image.tar', data }]);
  await link.expect(/# $/, T);
  assert.ok(readFileSync(join(root, 'tmp/image.tar.0')).equals(data));
  // A sender that cancels: rb fails with a message and the console carries on.
  await link.write('rb -y || echo FAILED\r');
  await link.expect(/\r\n/, T);
  await link.expect(/C/, T);
  await link.write(Buffer.from([0x18, 0x18, 0x18, 0x18, 0x18]));
  const failed = await link.expect(/# $/, 10_000);
  assert.match(failed, /^[C]*rb: YMODEM: .*cancel.*\r\nFAILED\r\n\/tmp # $/s);
  assert.is(await c.run('echo still here'), 'still here\r\n');
  assert.equal(await c.ok('rm /tmp/image.tar /tmp/image.tar.0 && cd /'), { ok: true, out: '' });
});

tcp('exit goes back to the login prompt; a second connection has its own session', async () => {
  const { c, link } = st;
  await c.run('cd /tmp');
  await link.write('exit\r');
  const out = await link.expect(/login: $/, T);
  assert.match(out, /^exit\r\n[\s\S]*Welcome to term1[\s\S]*\r\nterm1 login: $/);
  await c.login();
  assert.is(await c.run('pwd'), '/root\r\n', 'a new login starts at home');
  const other = await openTcpLink(st.con.tcpUrl);
  try {
    const c2 = new ConsoleClient(other);
    await c2.login();
    assert.is(await c2.run('cd /www.d && pwd'), '/www.d\r\n');
    assert.is(await c.run('pwd'), '/root\r\n');
    await other.write('logout\r');
    await other.expect(/login: $/, T);
  } finally {
    await other.close();
  }
  assert.is(await c.run('echo ok'), 'ok\r\n');
});

// ---------------------------------------------------------------------------
const statuses = suite('SandboxShell exit statuses');

statuses('statuses as busybox ash gives them', async () => {
  const base = mkdtempSync(join(tmpdir(), 'console-shell-'));
  try {
    let out = '';
    const io: ShellIO = { link: undefined as unknown as ByteLink, write: async (d) => void (out += d.toString()) };
    const sh = new SandboxShell({ root: base });
    mkdirSync(join(base, 'tmp'));
    assert.equal(await sh.run('true', io), { status: 0, exit: false });
    assert.equal(await sh.run('false', io), { status: 1, exit: false });
    assert.equal(await sh.run('nothere', io), { status: 127, exit: false });
    assert.equal(await sh.run('echo "x', io), { status: 2, exit: false });
    assert.equal(await sh.run('cd /nope', io), { status: 2, exit: false });
    assert.equal(await sh.run('cat /../x', io), { status: 1, exit: false });
    assert.equal(await sh.run('echo a > b', io), { status: 2, exit: false });
    assert.equal(await sh.run('echo a; exit; echo b', io), { status: 0, exit: true });
    assert.is(sh.prompt(), '/ # ');
    assert.match(out, /sh: nothere: not found\r\n/);
    assert.match(out, /sh: cd: can't cd to \/nope: No such file or directory\r\n/);
    assert.match(out, /a\r\n$/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------
const pty = suite('the simulated serial console over the socat pty');

pty('login, commands and rb over the pty; socat comes back after it dies; close() cleans up', async () => {
  const base = mkdtempSync(join(tmpdir(), 'console-pty-test-'));
  let con: ConsoleServer | undefined;
  let link: ByteLink | undefined;
  try {
    con = await startConsole({ root: base, pty: true });
    const path = con.ptyPath!;
    assert.ok(path && existsSync(path));
    assert.not.ok(path.startsWith(base), 'the pty lives outside the sandbox');
    link = await openSerialLink(path, 115200);
    let c = new ConsoleClient(link);
    await c.login();
    assert.is(await c.run('uname -n'), 'terminal\r\n');
    assert.is(await c.run('ls /'), 'etc\r\nroot\r\ntmp\r\nwww\r\nwww.d\r\n');
    if (hasYmodem) {
      const { ymodemSend } = await ymodem();
      // Every byte value, so the pty must be 8-bit clean and raw.
      const data = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(100_000)]);
      await link.write(`cd /tmp && rb -y && echo 'HIL'_OK || echo 'HIL'_FAIL\r`);
      await link.expect(/\r\n/, T);
      await ymodemSend(link, [{ name: 'img.tar', data }]);
      assert.is(await link.expect(/# $/, 10_000), 'HIL_OK\r\n/tmp # ');
      const sha = createHash('sha256').update(data).digest('hex');
      assert.is(await c.run('sha256sum img.tar'), `${sha}  img.tar\r\n`);
    }
    await link.close();

    // Opened again later: the session is still signed in, as on a real serial console.
    link = await openSerialLink(path, 115200);
    c = new ConsoleClient(link);
    await link.write('\r');
    await link.expect(/# $/, T);
    await link.write('exit\r');
    await link.expect(/login: $/, T);
    await link.close();

    // socat dies: it is restarted and the pty works again.
    const [pid] = processesWith(path);
    assert.ok(pid, 'socat runs');
    process.kill(pid, 'SIGKILL');
    await waitFor('the new socat', () => processesWith(path).some((p) => p !== pid) && existsSync(path));
    await sleep(100);
    link = await openSerialLink(path, 115200);
    c = new ConsoleClient(link);
    await c.login();
    assert.is(await c.run('echo back'), 'back\r\n');
    await link.close();
    link = undefined;

    await con.close();
    con = undefined;
    assert.equal(processesWith(path), [], 'socat is gone');
    assert.not.ok(existsSync(resolve(path, '..')), 'the pty folder is gone');
  } finally {
    await link?.close().catch(() => undefined);
    await con?.close();
    rmSync(base, { recursive: true, force: true });
  }
});

pty('without socat: one line saying what to install', async () => {
  const base = mkdtempSync(join(tmpdir(), 'console-nosocat-'));
  try {
    const err = await startConsole({ root: base, pty: true, socat: '/nonexistent/socat' }).then(
      () => null,
      (e: Error) => e,
    );
    assert.ok(err);
    assert.match(err.message, /apt-get install socat/);
    assert.not.match(err.message, /\n/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

tcp.run();
statuses.run();
pty.run();
