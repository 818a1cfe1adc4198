// The whole loop against the simulated terminal over a pty: flash, verify,
// browser suites, report; and a flash cut off half way, after which the old
// console still serves and nothing half-installed is left.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTerminal } from '../../hil/harness.ts';
import { startSimulatedTerminal } from '../../hil/simulate.ts';
import { makeImage } from '../../hil/image.ts';
import { verifyServed } from '../../hil/verify.ts';
import type { ByteLink } from '../../serial/link.ts';
import { ensureBuilt } from '../../build.ts';
import { defaultBrand } from '../../build/project.ts';

const ROOT = join(import.meta.dirname, '../..');
const BRAND = defaultBrand();

/**
 * The browser suites the loop runs here: the sign-in tests and adding a user (Playwright matches --grep against the
 * file name, the title and the tags). What the loop proves is its own steps and report; the suite on a device is
 * lab.test.ts's (the tests tagged @smoke and @lab in npm test, all of them in npm run test:hil).
 */
const LOOP_GREP = '(auth|users)\\.spec\\.ts.*@smoke';

test('npm run hil -- --simulate: flash over a pty, verify, run the browser suites (sign-in, adding a user), report', async () => {
  const report = mkdtempSync(join(tmpdir(), 'hil-report-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'hil/cli.ts', '--simulate', '--grep', LOOP_GREP, '--report', report], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  assert.is(code, 0, out.slice(-3000));
  const dir = join(report, 'simulated');
  const r = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  assert.ok(r.ok);
  assert.equal(r.steps.map((s: { name: string }) => s.name), ['image', 'connect', 'sign in', 'transfer', 'checksum', 'install', 'restart web server', 'web server up', 'served files', 'prune releases', 'browser suites']);
  assert.match(r.target.serial, /^\//, 'the console was reached through a pty, not TCP');
  assert.ok(r.files.length > 5 && r.files.every((f: { ok: boolean }) => f.ok));
  assert.ok(r.tests.tests - r.tests.skipped >= 4, `browser tests ran: ${JSON.stringify(r.tests)}`);
  assert.is(r.tests.failures, 0);
  assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /ran on the device: passed/);
  const calls = r.conformance.map((c: { call: string }) => c.call);
  for (const c of ['chklogin', 'GetDeviceFunList', 'adduser']) assert.ok(calls.includes(c), `conformance lists ${c}`);
  for (const c of r.conformance) assert.is(c.ok, c.seen, `${c.call}: ${c.problems.join('; ')}`);
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  assert.match(junit, /<testcase classname="hil\.simulated" name="transfer"/);
  assert.match(junit, /sign in: required fields, wrong password, then the right one/);
  assert.match(junit, /add: required messages, the add-again question/);
  assert.ok(existsSync(join(dir, 'report.html')));
  assert.ok(existsSync(join(dir, 'playwright', 'index.html')));
  assert.match(out, /YMODEM/);
});

/** A link whose writes stop reaching the terminal after `bytes` (a cable pulled). */
function cutAfter(link: ByteLink, bytes: number): ByteLink {
  let sent = 0;
  return {
    ...link,
    get closed() {
      return link.closed;
    },
    async write(data) {
      const b = Buffer.from(data);
      if (sent >= bytes) return;
      const room = bytes - sent;
      sent += b.length;
      await link.write(b.length > room ? b.subarray(0, room) : b);
    },
  };
}

test('a transfer cut off half way: a clear error, the old console still serves, nothing half-installed', async () => {
  const sim = await startSimulatedTerminal({ pty: false });
  const report = mkdtempSync(join(tmpdir(), 'hil-cut-'));
  try {
    const target = { name: 'first', serial: sim.tcpUrl, baud: 115200, url: sim.url, brand: BRAND, profile: 'default' };
    const first = await runTerminal(target, { reportRoot: report, noSuites: true, log: () => undefined });
    assert.ok(first.ok, JSON.stringify(first.steps));
    const releases = readdirSync(join(sim.sandbox, 'www.d')).sort();

    // The second flash is another brand, so old and new consoles differ file for file.
    const other = BRAND === 'nice' ? 'sdh' : 'nice';
    await ensureBuilt(other, { quiet: true, extract: false });
    const half = Math.floor(makeImage(join(ROOT, 'dist', other)).data.length / 2);
    const cut = await runTerminal(
      { ...target, name: 'cut', brand: other },
      { reportRoot: report, noSuites: true, transfer: { retries: 3, timeoutMs: 800 }, wrapLink: (l) => cutAfter(l, half), log: () => undefined },
    );
    assert.not.ok(cut.ok);
    const failed = cut.steps.find((s) => !s.ok)!;
    assert.is(failed.name, 'transfer');
    assert.match(failed.detail, /YMODEM|timed out/i);
    assert.not.ok(cut.steps.some((s) => s.name === 'install'), 'never installed');
    const served = await verifyServed(sim.url, makeImage(join(ROOT, 'dist', BRAND)));
    assert.ok(served.every((c) => c.ok), 'the old console still serves, file for file');
    assert.equal(readdirSync(join(sim.sandbox, 'www.d')).sort(), releases, 'no new release folder');
    assert.match(readFileSync(join(report, 'cut', 'junit.xml'), 'utf8'), /<failure message="[^"]*"/);
  } finally {
    await sim.close();
  }
});

test('an inventory runs its terminals in parallel, one report each; --shard splits it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hil-inv-'));
  const inv = join(dir, 'terminals.json');
  writeFileSync(inv, JSON.stringify({ terminals: [{ name: 'bench-a', simulate: true }, { name: 'bench-b', simulate: true, deviceProfile: 'lite' }, { name: 'bench-c', simulate: true }] }));
  const run = (...args: string[]) =>
    new Promise<{ code: number; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'hil/cli.ts', '--inventory', inv, '--no-suites', '--simulate-tcp', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      child.on('close', (code) => resolve({ code: code ?? -1, out }));
    });
  const all = await run('--report', join(dir, 'all'));
  assert.is(all.code, 0, all.out.slice(-2000));
  assert.equal(readdirSync(join(dir, 'all')).sort(), ['bench-a', 'bench-b', 'bench-c']);
  for (const t of ['bench-a', 'bench-b', 'bench-c']) assert.ok(JSON.parse(readFileSync(join(dir, 'all', t, 'report.json'), 'utf8')).ok, t);
  const second = await run('--report', join(dir, 's2'), '--shard', '2/2');
  assert.is(second.code, 0, second.out.slice(-2000));
  assert.equal(readdirSync(join(dir, 's2')), ['bench-b']);
});

test.run();
