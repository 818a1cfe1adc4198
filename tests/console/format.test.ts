// Issue 10 §4 and §1: numbers, dates and times in the chosen locale's way
// (Intl, through Lingui), the device's own strings left alone; counts take
// the plural form of each language from the compiled catalogues.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { i18n, type Messages } from '@lingui/core';
import { num, when } from '../../src/i18n/format.ts';

const use = async (locale: string) => {
  const { messages } = (await import(`../../locales/${locale}/messages.mjs`)) as { messages: Messages };
  i18n.loadAndActivate({ locale, messages });
};

test('counts and measures: separators and digits of the locale', async () => {
  await use('en');
  assert.is(num(100000), '100,000');
  assert.is(num(37, 1), '37.0');
  await use('de');
  assert.is(num(100000), '100.000');
  assert.is(num(36.6, 1), '36,6');
  await use('ru');
  assert.is(num(100000).replace(/\s/g, ' '), '100 000');
  await use('fa');
  assert.is(num(1234), '۱٬۲۳۴');
});

test('device times: read as the wall-clock time they name, written as the locale writes them', async () => {
  await use('en');
  assert.is(when('2026-11-02 08:01:05').replace(/\s/g, ' '), 'Nov 2, 2026, 8:01:05 AM');
  assert.is(when('2026-11-02'), 'Nov 2, 2026');
  assert.is(when('17:30').replace(/\s/g, ' '), '5:30 PM');
  await use('de');
  assert.is(when('2026-11-02 08:01:05'), '02.11.2026, 08:01:05');
  assert.is(when('23:59'), '23:59');
  // A late evening stays on its day whatever the browser's time zone.
  assert.ok(when('2026-12-31 23:59:59').startsWith('31.12.2026'));
});

test('the Gregorian calendar of the device and its date fields, also in fa and th', async () => {
  await use('fa');
  assert.ok(when('2026-11-02').includes('۲۰۲۶'), when('2026-11-02'));
  await use('th');
  assert.ok(when('2026-11-02').includes('2026'), when('2026-11-02'));
});

test('what is not a device date or time is shown as it came', async () => {
  await use('de');
  for (const s of ['', 'x', '2026-11-02T08:00', '8:00', '2026-1-2', '<b>09:00</b>']) assert.is(when(s), s);
});

test('counts take each language\'s plural forms (ICU plurals in the catalogues)', async () => {
  const total = async (locale: string, n: number) => (await use(locale), i18n._('form.total', { n }));
  assert.is(await total('en', 1), '1 entry');
  assert.is(await total('en', 1234), '1,234 entries');
  assert.is(await total('ru', 1), '1 запись');
  assert.is(await total('ru', 3), '3 записи');
  assert.is(await total('ru', 5), '5 записей');
  assert.is(await total('ru', 21), '21 запись');
  assert.is(await total('pl', 22), '22 rekordy');
  assert.is(await total('pl', 25), '25 rekordów');
  assert.is(await total('cs', 4), '4 záznamy');
  assert.is(await total('hr', 3), '3 zapisa');
  assert.is(await total('ar', 2), 'سجلان');
  assert.not.equal(await total('ar', 3), await total('ar', 11));
  await use('uk');
  assert.is(i18n._('form.maxLength', { max: 5 }), 'Не більше 5 символів');
});

test.run();
