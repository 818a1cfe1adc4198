// Every script the console shows is legible in the test browser (issue 34 §2):
// each letter of the 23 locales' texts, the language names, the locales'
// digits and the seeded users' names draws with a real font, not the
// missing-glyph box, so that a screenshot in a report (a failure's, the
// right-to-left ones) shows real text. The texts and the measure are
// tests/support/scripts.ts, which tests/engines reads too (Firefox, WebKit).
// Debian's fonts-noto-core and fonts-noto-cjk give them (docs/DEVELOPING.md, "Fonts").
import { test, expect } from './fixtures.ts';
import { illegible, measureScripts, scriptSamples } from '../support/scripts.ts';

test('every script of the locales and the seeded names draws with a real font, not the missing-glyph box', async ({ page }) => {
  const { samples, unplaced } = scriptSamples();
  expect(unplaced, 'every character belongs to a script with a sample').toEqual([]);
  expect(samples.map((s) => s.script)).toEqual(['Latin', 'Greek', 'Cyrillic', 'Arabic', 'Hebrew', 'Thai', 'Devanagari', 'Han', 'Hiragana', 'Katakana', 'Hangul']);
  // The login page: the console's own font stack.
  await page.goto('/login');
  await expect(page.locator('input[autocomplete=username]')).toBeVisible();
  expect(illegible(await page.evaluate(measureScripts, samples))).toEqual([]);
});
