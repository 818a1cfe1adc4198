// Capacity at a glance (issue 25 §5): System information shows each count
// against its maximum as a bar a screen reader reads (role meter with its
// values), filled by its share from the inline start (the right in Arabic),
// only for what the device supports; above 90 % the bar takes the warning
// colour and the row says "Almost full" in words (WCAG 1.4.1). The counts are
// read through the device's API; a device near capacity is what the console
// sees through narrowReplies, so the same runs on a terminal.
import { join } from 'node:path';
import type { Locator, Page } from 'playwright/test';
import { readPo } from '../../build/po.ts';
import { test, expect, ADMIN, openSignedIn, expectAccessible, readDevice, narrowReplies } from './fixtures.ts';

type Info = Record<string, number> & { funOption: Record<string, number> };

/** The bars in page order: [English label, count field, maximum field, the funOption flag that gates it]. */
const BARS = [
  ['Users', 'UserCount', 'MaxUser', ''],
  ['Fingerprints', 'FPCount', 'MaxFP', 'FP'],
  ['Faces', 'FaceCount', 'MaxFACE', 'FACE'],
  ['Iris', 'IrisCount', 'MaxIRIS', 'IRIS'],
  ['Cards', 'CardCount', 'MaxCard', ''],
  ['Records', 'RecordCount', 'MaxRecord', ''],
] as const;

const shown = (info: Info) => BARS.filter(([, , , fun]) => !fun || info.funOption[fun] === 1);
const share = (info: Info, count: string, max: string) => Math.min(1, info[count] / info[max]);

/** The rows with a bar, in page order: each a dt and a dd (the numbers, the meter, a warning). */
const barRows = (page: Page) => page.locator('.info-list div').filter({ has: page.getByRole('meter') });

/** Where the fill is in its track: its share of the width, and its distance from the track's inline start and end. */
const fillOf = (meter: Locator) =>
  meter.evaluate((m) => {
    const t = m.getBoundingClientRect();
    const fill = m.firstElementChild!;
    const f = fill.getBoundingClientRect();
    const rtl = getComputedStyle(m).direction === 'rtl';
    return {
      share: f.width / t.width,
      fromStart: rtl ? t.right - f.right : f.left - t.left,
      colour: getComputedStyle(fill).backgroundColor,
    };
  });

/** `n` as the page's language writes it (its digits and separators). */
const inPage = (page: Page, n: number) => page.evaluate((x) => new Intl.NumberFormat(document.documentElement.lang).format(x), n);

/** A device near capacity, whatever the device holds: full of users, faces just above 90 %, iris at 90 % exactly (not above), no fingerprint. */
const NEAR = {
  funOption: { FACE: 1, FP: 0, IRIS: 1 },
  UserCount: 3000,
  MaxUser: 3000,
  FaceCount: 901,
  MaxFACE: 1000,
  IrisCount: 180,
  MaxIRIS: 200,
  CardCount: 0,
  MaxCard: 5000,
  RecordCount: 12345,
  MaxRecord: 100000,
};
const NEAR_INFO = NEAR as unknown as Info;

/** Sign in on the login page `path` leads to, in any language, and wait for the page's information. */
async function signInAt(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('input[autocomplete=username]').fill(ADMIN.username);
  await page.locator('input[type=password]').fill(ADMIN.password);
  await page.locator('button[type=submit]').click();
  await expect(page.locator('.info-list')).toBeVisible();
}
const WARNED = ['Users', 'Faces'];

test('system information: users, templates, cards and records against their maximum as bars, as the device answers', async ({ page, request, terminal }) => {
  const info = (await readDevice(request, terminal, 'SetInfoParam')) as Info;
  expect(info.MaxCard, 'SetInfoParam answers MaxCard').toBeGreaterThan(0);
  await openSignedIn(page, '/basicSetting/systemInfo');
  const n = (x: number) => x.toLocaleString('en');
  for (const [label, count, max, fun] of BARS) {
    const meter = page.getByRole('meter', { name: label, exact: true });
    if (fun && info.funOption[fun] !== 1) {
      await expect(meter, `${label}: not supported, no bar`).toHaveCount(0);
      continue;
    }
    const text = `${n(info[count])} / ${n(info[max])}`;
    const row = barRows(page).filter({ has: meter });
    await expect(row.locator('dd bdi')).toHaveText(text);
    // What a screen reader gets: the values and the same words as the page.
    await expect(meter).toHaveAttribute('aria-valuenow', String(info[count]));
    await expect(meter).toHaveAttribute('aria-valuemin', '0');
    await expect(meter).toHaveAttribute('aria-valuemax', String(info[max]));
    await expect(meter).toHaveAttribute('aria-valuetext', text);
    // The fill is the share, from the left in English.
    const fill = await fillOf(meter);
    expect(fill.share, `${label}: ${text}`).toBeCloseTo(share(info, count, max), 2);
    expect(fill.fromStart).toBeLessThan(0.5);
    // Warned exactly when above 90 % (the default simulated terminal's records are full).
    await expect(row.getByText('Almost full', { exact: true })).toHaveCount(share(info, count, max) > 0.9 ? 1 : 0);
  }
  await expect(page.getByRole('meter')).toHaveCount(shown(info).length);
  await expectAccessible(page, 'system information with capacity bars');
});

for (const locale of ['en', 'ar']) {
  test(`${locale}: a device near capacity: the warning colour and words above 90 %, not at 90 %, the bars filling from the ${locale === 'ar' ? 'right' : 'left'}`, async ({ page }) => {
    const warning = readPo(join(import.meta.dirname, `../../locales/${locale}/messages.po`)).get('info.almostFull');
    expect(warning, `locales/${locale}/messages.po translates info.almostFull`).toBeTruthy();
    await narrowReplies(page, 'SetInfoParam', (r) => ({ ...r, ...NEAR }));
    await page.addInitScript((l) => localStorage.setItem('language', l), locale);
    await signInAt(page, '/basicSetting/systemInfo');
    await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');

    const bars = shown(NEAR_INFO);
    await expect(page.getByRole('meter')).toHaveCount(bars.length); // no fingerprint bar
    const colours = { warned: new Set<string>(), calm: new Set<string>() };
    for (const [i, [label, count, max]] of bars.entries()) {
      const row = barRows(page).nth(i);
      const meter = row.getByRole('meter');
      const text = `${await inPage(page, NEAR_INFO[count])} / ${await inPage(page, NEAR_INFO[max])}`;
      await expect(row.locator('dd bdi'), label).toHaveText(text);
      await expect(meter).toHaveAttribute('aria-valuenow', String(NEAR_INFO[count]));
      await expect(meter).toHaveAttribute('aria-valuemax', String(NEAR_INFO[max]));
      const fill = await fillOf(meter);
      expect(fill.share, label).toBeCloseTo(share(NEAR_INFO, count, max), 2);
      // From the inline start: the right edge of the track in Arabic, the left in English.
      expect(fill.fromStart, `${label} fills from the inline start`).toBeLessThan(0.5);
      const warned = WARNED.includes(label);
      // The words say it, not only the colour.
      await expect(row.getByText(warning!, { exact: true }), `${label} ${warned ? 'warned' : 'not warned'}`).toHaveCount(warned ? 1 : 0);
      if (warned) await expect(row.locator('dd')).toHaveText(`${text} ${warning}`);
      colours[warned ? 'warned' : 'calm'].add(fill.colour);
    }
    // One warning colour, one other colour: the bars above 90 % differ from the rest.
    expect(colours.warned.size).toBe(1);
    expect(colours.calm.size).toBe(1);
    expect([...colours.warned][0]).not.toBe([...colours.calm][0]);
    const words = page.getByText(warning!, { exact: true }).first();
    expect(await words.evaluate((e) => getComputedStyle(e).color)).toBe([...colours.warned][0]);
    await expectAccessible(page, `${locale}: system information near capacity`);
  });
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('a device near capacity: the bars and the warning fit the width', async ({ page }) => {
    await narrowReplies(page, 'SetInfoParam', (r) => ({ ...r, ...NEAR }));
    await signInAt(page, '/basicSetting/systemInfo'); // on a phone the menu is a closed drawer
    await expect(page.getByText('Almost full', { exact: true })).toHaveCount(WARNED.length);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const meter of await page.getByRole('meter').all()) {
      const box = (await meter.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
  });
});
