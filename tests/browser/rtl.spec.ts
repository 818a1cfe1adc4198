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
    // A menu entry is indented under its group from the start edge: the right one right to left.
    const entry = page.locator('.menu ul a[aria-current=page]');
    const pad = await entry.evaluate((a) => [parseFloat(getComputedStyle(a).paddingLeft), parseFloat(getComputedStyle(a).paddingRight)]);
    expect(rtl ? pad[1] > pad[0] : pad[0] > pad[1]).toBe(true);
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

/** Left edges of each character of the element's text, in text order. */
const glyphXs = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => {
    const node = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode()!;
    const r = document.createRange();
    return [...node.textContent!].map((_, i) => {
      r.setStart(node, i);
      r.setEnd(node, i + 1);
      return r.getBoundingClientRect().x;
    });
  });

for (const locale of ['ar', 'fa']) {
  test(`${locale}: MAC and IP addresses, counts and times keep their left-to-right order inside right-to-left text`, async ({ page }) => {
    await page.addInitScript((l) => localStorage.setItem('language', l), locale);
    await page.goto('/basicSetting/systemInfo');
    await page.locator('input[autocomplete=username]').fill(ADMIN.username);
    await page.locator('input[type=password]').fill(ADMIN.password);
    await page.locator('button[type=submit]').click();
    // Every value of the system information: a MAC such as 02:00:5e:10:00:01 would
    // come out jumbled by the bidi algorithm without its own direction.
    const values = page.locator('.info-list dd');
    await expect(values.first()).toBeVisible();
    for (let i = 0; i < (await values.count()); i++) {
      const text = (await values.nth(i).textContent())!;
      if (!/^[\x20-\x7e]+$/.test(text)) continue; // counts in the locale's digits read as the locale writes them
      const xs = await glyphXs(page, `.info-list div:nth-child(${i + 1}) dd`);
      expect(xs, `"${text}" in order`).toEqual([...xs].sort((a, b) => a - b));
    }
    // Counts in the locale's digits (Persian digits in fa).
    const digits = await page.evaluate(() => new Intl.NumberFormat(document.documentElement.lang).format(1234567890));
    await expect(values.filter({ hasText: '/' }).first()).toHaveText(new RegExp(`^[${digits}\\s/٬,.\u200f\u200e\u066c]+$`));

    // An address field reads left to right and stays on the page's side.
    await page.goto('/network/ethernet');
    const ip = page.locator('input[inputmode=decimal]').first();
    await expect(ip).toBeVisible();
    expect(await ip.evaluate((e) => getComputedStyle(e).direction)).toBe('ltr');
    expect(await ip.evaluate((e) => getComputedStyle(e).textAlign)).toMatch(/right|end/);
  });
}
