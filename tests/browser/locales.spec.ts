// Every locale the build ships, in a real browser (SPEC §1): the login page
// and two screens show no raw message id (readable, like `basic.volume`, or
// the short one the build ships, like `gF`) and no English left where the
// locale has its own text, with the page's lang and dir set.
import type { Page } from 'playwright/test';
import { shortIds } from '../../build/catalogues.ts';
import { readPo } from '../../build/po.ts';
import { allLocales } from '../../build/project.ts';
import { readAllowList } from '../../build/locales.ts';
import { test, expect, ADMIN, expectAccessible, deviceApi, shownTime } from './fixtures.ts';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const ids = shortIds();
const raw = new Set([...ids.keys(), ...ids.values()]);
const en = readPo(join(ROOT, 'locales/en/messages.po'));
const allow = readAllowList(ROOT);

/** Texts on the page that are a message id, or an English text this locale translates (read once: for expect.poll). */
async function leftovers(page: Page, locale: string): Promise<string[]> {
  const cat = readPo(join(ROOT, 'locales', locale, 'messages.po'));
  // English texts whose translation differs: seeing one means the locale's text was not used.
  const english = new Set([...en].filter(([id, t]) => cat.get(id) !== t && !allow.any.has(id) && !/\{/.test(t)).map(([, t]) => t));
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.textContent?.trim()) out.push(n.textContent.trim());
    for (const el of document.querySelectorAll('[aria-label],[placeholder],[title]'))
      for (const a of ['aria-label', 'placeholder', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a)!);
    return out;
  });
  return texts.filter((t) => raw.has(t) || (locale !== 'en' && english.has(t)));
}

for (const locale of allLocales()) {
  test(`${locale}: the login page and two screens, all in ${locale}`, async ({ page, request, terminal }) => {
    const rtl = ['ar', 'he', 'fa'].includes(locale);
    await page.addInitScript((l) => localStorage.setItem('language', l), locale);
    await page.goto('/advSetting/recordList');
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page.locator('html')).toHaveAttribute('dir', rtl ? 'rtl' : 'ltr');
    await expect(page.locator('form input').first()).toBeVisible();
    await expect.poll(() => leftovers(page, locale)).toEqual([]);
    // axe-core as clean right to left as in English.
    if (rtl) await expectAccessible(page, `${locale} login`);
    // Signed in without reading a label: they are in the locale's words.
    await page.locator('input[autocomplete=username]').fill(ADMIN.username);
    await page.locator('input[type=password]').fill(ADMIN.password);
    await page.locator('button[type=submit]').click();
    await expect(page.locator('table.grid tbody tr').first()).toBeVisible();
    await expect.poll(() => leftovers(page, locale)).toEqual([]);
    // The newest record's time and the number of records as the locale writes them (the device sends "YYYY-MM-DD HH:MM:SS" and 100000).
    const newest = await (await deviceApi(request, terminal)).call('searchrecord', { Page: 1, PageSize: 10 });
    const time = await shownTime(page, String((newest.List as { Time: string }[])[0].Time));
    await expect(page.locator('table.grid tbody tr').first().locator('td').first()).toHaveText(time);
    const total = await page.evaluate((n) => new Intl.NumberFormat(document.documentElement.lang).format(n), newest.Total as number);
    await expect(page.locator('.pager span')).toContainText(total);
    expect(time).not.toContain(String((newest.List as { Time: string }[])[0].Time).slice(0, 10));
    if (rtl) await expectAccessible(page, `${locale} record list`);
    await page.goto('/basicSetting/device');
    await expect(page.locator('form input').first()).toBeVisible();
    await expect.poll(() => leftovers(page, locale)).toEqual([]);
  });
}
