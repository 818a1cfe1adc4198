// SPEC §1: same keys in every locale; zh-cn / zh-tw -> zh; unsupported -> en.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPo } from '../../build/po.ts';
import { allLocales } from '../../build/project.ts';
import { placeholdersOf as placeholders } from '../../build/locales.ts';
import { normalizeLocale, textDirection } from '../../src/i18n/locale.ts';
import { i18n } from '@lingui/core';

const ROOT = join(import.meta.dirname, '../..');
const po = (l: string) => readPo(join(ROOT, 'locales', l, 'messages.po'));

test('every locale folder is configured, and every configured locale has a catalogue', () => {
  const dirs = readdirSync(join(ROOT, 'locales'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  assert.equal(dirs, [...allLocales()].sort());
});

test('every locale has every key English has, translated, and no others', () => {
  const en = po('en');
  assert.ok(en.size > 50, 'English catalogue is not empty');
  for (const [id, text] of en) assert.ok(text && text !== id, `English text for ${id}`);
  for (const locale of allLocales().filter((l) => l !== 'en')) {
    const cat = po(locale);
    const missing = [...en.keys()].filter((id) => !cat.get(id));
    assert.equal(missing, [], `${locale} lacks ${missing.join(', ')}`);
    const extra = [...cat.keys()].filter((id) => !en.has(id));
    assert.equal(extra, [], `${locale} has keys English lacks`);
    for (const [id, text] of en) assert.equal(placeholders(cat.get(id)!), placeholders(text), `${locale} ${id} placeholders`);
  }
});

test('every message id the source names is in the English catalogue', () => {
  const en = po('en');
  const ids = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name))
        for (const m of readFileSync(p, 'utf8').matchAll(/['"]((?:action|att|confirm|err|form|info|layout|login|menu|msg|notFound|pending|pwd|route|state|unit)\.[A-Za-z0-9]+)['"]/g)) ids.add(m[1]);
    }
  };
  walk(join(ROOT, 'src'));
  assert.ok(ids.size > 50);
  const missing = [...ids].filter((id) => !en.has(id));
  assert.equal(missing, [], `ids used in src/ but not in locales/en (mark them /*i18n*/ so lingui extract keeps them): ${missing.join(', ')}`);
});

test('zh-cn and zh-tw map to zh; unsupported codes fall back to en', () => {
  const built = ['en', 'es', 'zh'];
  assert.is(normalizeLocale('zh-cn', built), 'zh');
  assert.is(normalizeLocale('zh-TW', built), 'zh');
  assert.is(normalizeLocale('zh_CN', built), 'zh');
  assert.is(normalizeLocale('es-MX', built), 'es');
  assert.is(normalizeLocale('tlh', built), 'en');
  assert.is(normalizeLocale('', built), 'en');
  assert.is(normalizeLocale(null, built), 'en');
  assert.is(normalizeLocale('es', ['en']), 'en', 'a locale this build does not ship falls back to English');
});

test('compiled catalogues carry no message source to parse at run time', async () => {
  for (const l of allLocales()) {
    const file = `../../locales/${l}/messages.mjs`;
    const { messages } = await import(file);
    for (const [id, m] of Object.entries(messages)) assert.ok(Array.isArray(m), `${l} ${id} is compiled`);
  }
});

test('a compiled catalogue translates without the message compiler', async () => {
  const file = '../../locales/es/messages.mjs';
  const { messages } = await import(file);
  i18n.loadAndActivate({ locale: 'es', messages });
  assert.is(i18n._('login.submit'), 'Iniciar sesión');
  assert.is(i18n._('err.40302'), 'Contraseña incorrecta');
});

test('right-to-left languages get rtl', () => {
  assert.is(textDirection('ar'), 'rtl');
  assert.is(textDirection('he'), 'rtl');
  assert.is(textDirection('en'), 'ltr');
});

test.run();
