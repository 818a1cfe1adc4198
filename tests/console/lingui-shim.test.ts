// The console ships src/shim/lingui-core.ts for @lingui/core (build/bundle.ts):
// every compiled message of every locale, with the values its placeholders
// take, reads the same through it as through Lingui itself, and so do numbers
// and dates.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import type { Messages, setupI18n as Setup } from '@lingui/core';
import { i18n } from '../../src/shim/lingui-core.ts';

const ROOT = new URL('../../', import.meta.url);
// Lingui itself, by its file (the bare name is the shim in unit tests, tests/support/hooks.mjs).
const { setupI18n } = (await import(new URL('node_modules/@lingui/core/dist/index.mjs', ROOT).href)) as { setupI18n: typeof Setup };
const LOCALES: string[] = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).lingui.locales;
const catalogue = async (locale: string) => ((await import(new URL(`locales/${locale}/messages.mjs`, ROOT).href)) as { messages: Messages }).messages;

/** The placeholders a compiled message names: [name, is it a plural's number]. */
function placeholders(parts: unknown, out = new Map<string, boolean>()): Map<string, boolean> {
  if (Array.isArray(parts))
    for (const p of parts)
      if (Array.isArray(p)) {
        out.set(p[0], out.get(p[0]) || p[1] === 'plural');
        if (p[2]) for (const branch of Object.values(p[2] as object)) placeholders(branch, out);
      }
  return out;
}

test('every message of every locale, with text and plural values, reads as Lingui reads it', async () => {
  let compared = 0;
  for (const locale of LOCALES) {
    const messages = await catalogue(locale);
    const lingui = setupI18n({ locale, messages: { [locale]: messages } });
    i18n.loadAndActivate({ locale, messages });
    for (const [id, parts] of Object.entries(messages)) {
      const names = placeholders(parts);
      for (const n of [0, 1, 2, 3, 5, 11, 21, 1000, 12345.5]) {
        const values = Object.fromEntries([...names].map(([name, plural]) => [name, plural ? n : `<${name} #${n} \u0645>`]));
        assert.is(i18n._(id, values), lingui._(id, values), `${locale} ${id} ${JSON.stringify(values)}`);
        compared++;
        if (!names.size) break;
      }
      assert.is(i18n._(id), lingui._(id), `${locale} ${id} without values`);
    }
  }
  assert.ok(compared > 5000, `${compared} messages compared`);
});

test('numbers and dates: the locale first, English after it, as Lingui', async () => {
  const date = new Date(Date.UTC(2026, 10, 2, 8, 1, 5));
  for (const locale of [...LOCALES, 'xx']) {
    const lingui = setupI18n({ locale, messages: { [locale]: {} } });
    i18n.loadAndActivate({ locale, messages: {} });
    for (const o of [undefined, { minimumFractionDigits: 1 }, { style: 'percent' } as const, { maximumFractionDigits: 1 }])
      for (const n of [0, 0.5, 36.6, 100000]) assert.is(i18n.number(n, o), lingui.number(n, o), `${locale} ${n} ${JSON.stringify(o)}`);
    for (const o of [{ timeZone: 'UTC', calendar: 'gregory', dateStyle: 'medium' }, { timeZone: 'UTC', calendar: 'gregory', timeStyle: 'short' }, { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'medium' }] as const)
      assert.is(i18n.date(date, o), lingui.date(date, o), `${locale} ${JSON.stringify(o)}`);
  }
});

test('a message the catalogue lacks reads as its id; load adds texts to the active locale only', () => {
  i18n.loadAndActivate({ locale: 'en', messages: { a: ['A'] } });
  assert.is(i18n._('no.such'), 'no.such');
  i18n.load('de', { b: ['B'] });
  assert.is(i18n._('b'), 'b');
  i18n.load('en', { b: ['B'] });
  assert.is(i18n._('b'), 'B');
  assert.is(i18n._('a'), 'A');
  assert.ok(Object.prototype.hasOwnProperty.call(i18n.messages, 'b'));
});

test.run();
