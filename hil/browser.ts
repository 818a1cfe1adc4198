// The browser that drives a terminal's console: Debian's Chromium (never a
// downloaded one), launched the same way by the browser suites the harness
// runs on a terminal (tests/browser/playwright.config.ts) and by the bench,
// so what the bench measures is the browser the suites check; and the
// sign-in through the console's login form, as an administrator does it.
import type { Page } from 'playwright';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ADMIN } from './admin.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Playwright's command line in this checkout, run as it is: through npx, npm's own start took about 0.7 s of CPU a run. */
export const PLAYWRIGHT_CLI = join(import.meta.dirname, '..', 'node_modules', '.bin', 'playwright');

const SETPRIV = '/usr/bin/setpriv';

/**
 * Chromium's features a window has that a test never uses, turned off (`--disable-features`). Chromium 156
 * draws the address bar's suggestion popups as WebUI pages, and loads two of them, each in a renderer
 * process of its own, for every window it opens: every browser context of every test, though a headless
 * window never shows them. They cost more CPU than the console's own pages: 27 tests of the browser suite
 * (layout and users) took 84 s of CPU with them and 50 s without (`npm run cpu`; docs/DEVELOPING.md, "Tests").
 * And the spare renderer: Chromium starts one ahead for the next page of the context last used, and a test's
 * context ends with its one page, so each test started a renderer that never drew anything. 30 contexts, each
 * with a page and one navigation, took 15.7 s of the machine's CPU with it and 13.7 s without (4 runs each,
 * alternating, /proc/stat): about 0.07 s a test, too little to see in a run of the suite (docs/DEVELOPING.md).
 */
export const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

/**
 * The program the suites start as Chromium: a small script in the temporary folder (Playwright takes a
 * program, not a command line) that runs `binary` with what it was given, and:
 * - makes every `--disable-features` switch one: Chromium reads only the last, and Playwright gives its own
 *   list before the launch's arguments, so UNUSED_FEATURES would otherwise undo Playwright's;
 * - started by root, goes through util-linux's setpriv without CAP_SYS_NICE. Chromium started by root
 *   raises its own threads to nice -8 (the browser's main and I/O threads, its compositors, the GPU
 *   process), about six times the share of a program at nice 0: whatever runs beside it (the virtual
 *   board's QEMU, the paced serial lines, the simulated terminals) waits. Through setpriv its threads keep
 *   the priority they start with, as under any other user.
 */
export function chromiumLauncher(binary: string): string {
  const quoted = `'${binary.replaceAll("'", "'\\''")}'`;
  const run = process.getuid?.() === 0 && existsSync(SETPRIV) ? `${SETPRIV} --bounding-set -sys_nice -- ${quoted}` : quoted;
  const script = [
    '#!/bin/sh',
    '# Chromium as the suites start it (hil/browser.ts, chromiumLauncher): one --disable-features switch.',
    'features=',
    'for arg do',
    '  shift',
    '  case $arg in',
    '    --disable-features=*) features=${features:+$features,}${arg#--disable-features=} ;;',
    '    *) set -- "$@" "$arg" ;;',
    '  esac',
    'done',
    `exec ${run} "$@" \${features:+"--disable-features=$features"}`,
    '',
  ].join('\n');
  const file = join(tmpdir(), `console-chromium-${createHash('sha256').update(script).digest('hex').slice(0, 12)}`);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== script) {
    // Written aside and renamed: workers starting side by side never run a half-written script.
    const part = `${file}.${process.pid}`;
    writeFileSync(part, script, { mode: 0o755 });
    renameSync(part, file);
  }
  return file;
}

/**
 * Chromium's path and flags: no sandbox (Chromium will not start one as root), no GPU,
 * none of its own traffic (updates, sync, first-run pages) on a closed network, and no
 * window parts a test never uses.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: chromiumLauncher(CHROMIUM),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--disable-features=${UNUSED_FEATURES.join(',')}`],
};

/** The window the console is driven in: a PC's screen (the suites' phone widths set their own). */
export const VIEWPORT = { width: 1280, height: 800 };

/** Sign in through the login form on the page: by the fields' labels and the button's name, as a person finds them. */
export async function signIn(page: Page, user = TEST_ADMIN.username, password = TEST_ADMIN.password): Promise<void> {
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
