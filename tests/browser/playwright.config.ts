// Browser tests: Debian's Chromium (never a downloaded browser, launched as
// hil/browser.ts says) driven by Playwright against the simulated terminal, or
// against a real terminal when TERMINAL_URL is set (the hardware-in-loop
// harness does that).
import { defineConfig } from 'playwright/test';
import { CHROMIUM_LAUNCH, VIEWPORT } from '../../hil/browser.ts';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  // checks/: specs that fail on purpose, run only by the tests of the suites' own machinery (tests/hil/browser.test.ts).
  testIgnore: process.env.FAILURE_SCREENSHOT_CHECK ? [] : ['**/checks/**'],
  // Limits that guard against a hang, not claims of speed: many times what a step takes here,
  // so that a busy machine (other suites, other programs) passes as an idle one does.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Against one real terminal (TERMINAL_URL) tests share the device: one at a time.
  fullyParallel: !process.env.TERMINAL_URL,
  workers: process.env.TERMINAL_URL ? 1 : process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.PW_REPORTER ? (process.env.PW_REPORTER as 'list') : [['list']],
  // The hardware-in-loop harness names the project after the terminal, so reports
  // merged from many terminals (hil/merge.ts) keep each terminal's results apart.
  ...(process.env.HIL_TERMINAL ? { projects: [{ name: process.env.HIL_TERMINAL }] } : {}),
  outputDir: '../../test-results',
  use: {
    browserName: 'chromium',
    launchOptions: CHROMIUM_LAUNCH,
    viewport: VIEWPORT,
    // Failures' screenshots are taken by a fixture of fixtures.ts, only after a failure (failureScreenshots).
    screenshot: 'off',
    trace: 'off',
  },
});
