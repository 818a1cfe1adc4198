// hil/browser.ts: the Chromium every suite and the bench launch. Started by root, it must not
// raise its own threads above what it starts with (Chromium as root sets its browser, I/O,
// compositor and GPU threads to nice -8, and the virtual board and paced lines beside it wait);
// and it opens no renderer for a window part a test never uses (UNUSED_FEATURES), while keeping
// every feature Playwright turns off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright';
import { CHROMIUM, CHROMIUM_LAUNCH, PLAYWRIGHT_CLI, UNUSED_FEATURES, chromiumLauncher } from '../../hil/browser.ts';
import { growTree, statFields } from '../../tools/cpu.ts';

const ROOT = process.getuid?.() === 0;

/** `pid` and its descendants, from /proc (the parent: field 4 of stat). */
function treeOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      parentOf.set(Number(p), Number(statFields(readFileSync(`/proc/${p}/stat`, 'utf8'))[1]));
    } catch {
      // A process that ended while it was read.
    }
  }
  const tree = new Set([pid]);
  growTree(tree, parentOf);
  return [...tree];
}

/** The nice value of every thread of `pid` and its descendants (/proc/<pid>/task/<tid>/stat: field 19). */
function niceOfTree(pid: number): number[] {
  const nice: number[] = [];
  for (const p of treeOf(pid)) {
    try {
      for (const tid of readdirSync(`/proc/${p}/task`)) nice.push(Number(statFields(readFileSync(`/proc/${p}/task/${tid}/stat`, 'utf8'))[16]));
    } catch {
      // As above.
    }
  }
  return nice;
}

test('the launch goes through setpriv without CAP_SYS_NICE when root has setpriv; otherwise the binary itself', () => {
  const path = CHROMIUM_LAUNCH.executablePath;
  assert.is.not(path, CHROMIUM);
  const exec = readFileSync(path, 'utf8').split('\n').find((l) => l.startsWith('exec '));
  if (ROOT && existsSync('/usr/bin/setpriv')) assert.match(exec ?? '', `exec /usr/bin/setpriv --bounding-set -sys_nice -- '${CHROMIUM}' "$@" `);
  else assert.match(exec ?? '', `exec '${CHROMIUM}' "$@" `);
  assert.is(chromiumLauncher(CHROMIUM), path, 'the same script each time');
  assert.match(readFileSync(chromiumLauncher("/opt/it's here/chrome"), 'utf8'), `'/opt/it'\\''s here/chrome'`, 'a quote in the path is quoted');
});

test('the launcher makes every --disable-features switch one, last, and passes every other argument as it came', () => {
  // /bin/echo stands for Chromium: it prints the command line the launcher gives it.
  const echo = (...args: string[]) => spawnSync(chromiumLauncher('/bin/echo'), args, { encoding: 'utf8' }).stdout.trim();
  assert.is(echo('--a', '--disable-features=A,B', 'x y', '--disable-features=C', '--b=1'), '--a x y --b=1 --disable-features=A,B,C');
  assert.is(echo('--a', '--b=it\'s "here"'), '--a --b=it\'s "here"', 'none given: none added; quotes and spaces kept');
  assert.is(echo(), '');
});

test('Chromium launched as the suites launch it has no thread above the priority it started with', async () => {
  const server = await chromium.launchServer(CHROMIUM_LAUNCH);
  try {
    const browser = await chromium.connect(server.wsEndpoint());
    const page = await browser.newPage();
    await page.setContent('<p>a page, so a renderer and its compositor run</p>');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    const nice = niceOfTree(server.process().pid!);
    assert.ok(nice.length > 10, `Chromium's threads were found (${nice.length})`);
    // Not root: Chromium cannot go below nice 0 anyway; root: without CAP_SYS_NICE it cannot either.
    assert.equal(nice.filter((n) => n < 0), [], 'no thread raised above nice 0');
    await browser.close();
  } finally {
    await server.close();
  }
});

test('Chromium launched as the suites launch it opens a renderer for its pages only, and keeps the features Playwright turns off', async () => {
  const server = await chromium.launchServer(CHROMIUM_LAUNCH);
  try {
    const browser = await chromium.connect(server.wsEndpoint());
    // Two contexts, as two tests have: each is a window of its own.
    for (const n of [1, 2]) await (await browser.newContext()).newPage().then((p) => p.setContent(`<p>test ${n}</p>`));
    // The browser's own targets: a WebUI of its window is a 'browser_ui' target (the address bar's popups were two a window).
    const targets = (await (await browser.newBrowserCDPSession()).send('Target.getTargets')).targetInfos;
    assert.equal(targets.filter((t) => t.type === 'browser_ui').map((t) => t.url), [], 'no WebUI of the browser window');
    assert.is(targets.filter((t) => t.type === 'page').length, 2, 'the two pages');
    // A zygote's child rewrites its command line as one string (no NUL between the arguments); the browser's is as started.
    const commands = treeOf(server.process().pid!).map((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0'));
    const renderers = commands.map((c) => c.join(' ')).filter((c) => c.includes('--type=renderer'));
    // One a page, and no spare one started ahead for the next page of the last context (a test's context has one page).
    assert.is(renderers.length, 2, `a renderer for each of the two pages and no spare (${renderers.length})`);
    assert.equal(renderers.filter((c) => c.includes('--top-chrome-webui')).length, 0, "no renderer for the browser's own WebUI (the address bar's popups)");
    const main = commands.find((c) => /chrom/.test(c[0] ?? '') && !c.some((a) => a.includes('--type=')));
    assert.ok(main, 'the browser process');
    const switches = main.filter((a) => a.startsWith('--disable-features='));
    assert.is(switches.length, 1, `one --disable-features switch: ${switches.join(' ')}`);
    const features = switches[0].slice('--disable-features='.length).split(',');
    for (const f of UNUSED_FEATURES) assert.ok(features.includes(f), f);
    assert.ok(features.length > UNUSED_FEATURES.length + 5, `Playwright's own list kept: ${features.join(',')}`);
    await browser.close();
  } finally {
    await server.close();
  }
});

test("a failed browser test leaves a screenshot of its page in its output folder, a passed one none (the suites' fixture)", () => {
  const out = mkdtempSync(join(tmpdir(), 'failure-screenshot-'));
  try {
    const r = spawnSync(PLAYWRIGHT_CLI, ['test', '-c', 'tests/browser/playwright.config.ts', 'checks/', '--output', out, '--reporter=list', '--workers=1'], {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, FAILURE_SCREENSHOT_CHECK: '1' },
      encoding: 'utf8',
    });
    const said = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    assert.is(r.status, 1, `one test fails on purpose:\n${said}${r.stderr}`);
    assert.match(said, /1 failed/);
    assert.match(said, /1 passed/);
    const pngs = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.png'));
    assert.equal(pngs.length, 1, `one screenshot: ${pngs.join(', ')}`);
    assert.match(pngs[0], /fails.*test-failed-1\.png$/);
    assert.ok(readFileSync(join(out, pngs[0])).subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'a PNG');
    assert.match(said, /attachment #1: screenshot \(image\/png\)/, 'attached to the result, as the reports list it');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test.run();
