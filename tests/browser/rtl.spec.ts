// Right to left (SPEC §1: Arabic, Hebrew, Farsi): the whole console mirrors,
// not only the dir attribute. Screenshots of the login page, the layout with
// the sidebar open, a form and a table are attached to the report, and the
// positions are asserted: the sidebar's box on the right of the main area,
// a form's labels and fields starting at the right edge, a table's first
// column on the right. English is checked the other way round.
import type { Page, TestInfo } from 'playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  await info.attach(name, { body: await page.screenshot(), contentType: 'image/png' });
}

for (const locale of ['ar', 'he', 'fa', 'en']) {
  const rtl = locale !== 'en';
  test(`${locale}: the login page, the layout, a form and a table are laid out ${rtl ? 'right to left' : 'left to right'}`, async ({ page }, info) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.addInitScript((l) => localStorage.setItem('language', l), locale);
    await page.goto('/basicSetting/device');
    await expect(page.locator('html')).toHaveAttribute('dir', rtl ? 'rtl' : 'ltr');
    const user = page.locator('input[autocomplete=username]');
    await expect(user).toBeVisible();
    await shot(page, info, `${locale} login`);
    // The field's label starts where the field starts: on the right edge right to left.
    const label = await box(page, 'label[for]');
    const field = (await user.boundingBox())!;
    if (rtl) expect(Math.abs(label.x + label.width - (field.x + field.width))).toBeLessThan(4);
    else expect(Math.abs(label.x - field.x)).toBeLessThan(4);

    await user.fill(ADMIN.username);
    await page.locator('input[type=password]').fill(ADMIN.password);
    await page.locator('button[type=submit]').click();
    await expect(page.locator('form input').first()).toBeVisible();
    await shot(page, info, `${locale} layout and form`);
    const side = await box(page, '.sidebar');
    const main = await box(page, '.main');
    if (rtl) expect(side.x).toBeGreaterThanOrEqual(main.x + main.width - 1);
    else expect(side.x + side.width).toBeLessThanOrEqual(main.x + 1);
    const input = await box(page, '.main form input');
    const panel = await box(page, '.main .panel');
    // Fields start at the panel's start edge.
    if (rtl) expect(panel.x + panel.width - (input.x + input.width)).toBeLessThan(input.x - panel.x);
    else expect(input.x - panel.x).toBeLessThan(panel.x + panel.width - (input.x + input.width));

    await page.goto('/advSetting/recordList');
    await expect(page.locator('table.grid tbody tr').first()).toBeVisible();
    await shot(page, info, `${locale} table`);
    const cells = page.locator('table.grid thead th');
    const first = (await cells.first().boundingBox())!;
    const last = (await cells.last().boundingBox())!;
    if (rtl) expect(first.x).toBeGreaterThan(last.x);
    else expect(first.x).toBeLessThan(last.x);
  });
}
