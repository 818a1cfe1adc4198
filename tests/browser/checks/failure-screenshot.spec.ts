// Run only by tests/hil/browser.test.ts (FAILURE_SCREENSHOT_CHECK=1; playwright.config.ts ignores this folder
// otherwise), which expects the second test to fail: the suites' fixture leaves a screenshot of the page for a
// failed test, as the harness's report shows, and none for a passed one.
import { test, expect } from '../fixtures.ts';

test('passes: no screenshot', async ({ page }) => {
  await page.setContent('<p>passed</p>');
});

test('fails: a screenshot of the page', async ({ page }) => {
  await page.setContent('<h1>the page at the failure</h1>');
  expect(1, 'this test fails on purpose').toBe(2);
});
