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

const SETPRIV = '/usr/bin/setpriv';

/**
 * Chromium started by root raises its own threads to nice -8 (the browser's main and I/O threads, its
 * compositors, the GPU process), about six times the share of a program at nice 0: whatever runs beside
 * it (the virtual board's QEMU, the paced serial lines, the simulated terminals) waits. Started by root,
 * it goes through util-linux's setpriv without CAP_SYS_NICE, so its threads keep the priority they start
 * with, as under any other user; a small script in the temporary folder does that, since Playwright takes
 * a program, not a command line. Not root, or no setpriv: the binary itself.
 */
export function withoutPriorityBoost(binary: string): string {
  if (process.getuid?.() !== 0 || !existsSync(SETPRIV)) return binary;
  const script = `#!/bin/sh\nexec ${SETPRIV} --bounding-set -sys_nice -- '${binary.replaceAll("'", "'\\''")}' "$@"\n`;
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
 * and none of its own traffic (updates, sync, first-run pages) on a closed network.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: withoutPriorityBoost(CHROMIUM),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** The window the console is driven in: a PC's screen (the suites' phone widths set their own). */
export const VIEWPORT = { width: 1280, height: 800 };

/** Sign in through the login form on the page: by the fields' labels and the button's name, as a person finds them. */
export async function signIn(page: Page, user = TEST_ADMIN.username, password = TEST_ADMIN.password): Promise<void> {
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
