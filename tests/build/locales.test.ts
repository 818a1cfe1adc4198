// The build's locale check (build/locales.ts): a missing key, a placeholder
// that differs, and too many messages equal to English beyond the
// allow-list each fail the build; allow-listed ones do not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPo } from '../../build/po.ts';
import { checkLocales, localeProblems, placeholdersOf, readAllowList } from '../../build/locales.ts';

function tree(en: Record<string, string>, xx: Record<string, string>, allow: object): string {
  const root = mkdtempSync(join(tmpdir(), 'locales-'));
  const po = (m: Record<string, string>) => Object.entries(m).map(([k, v]) => `msgid ${JSON.stringify(k)}\nmsgstr ${JSON.stringify(v)}\n`).join('\n');
  for (const [l, m] of [['en', en], ['xx', xx]] as const) {
    mkdirSync(join(root, 'locales', l), { recursive: true });
    writeFileSync(join(root, 'locales', l, 'messages.po'), po(m));
  }
  writeFileSync(join(root, 'locales/same-as-english.json'), JSON.stringify(allow));
  return root;
}

// Forty messages: two equal to English is 5 %, the most allowed.
const en = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`m.${i}`, `Text ${i}`]));
const translated = Object.fromEntries(Object.keys(en).map((k, i) => [k, `Texte ${i}`]));

test('placeholders are compared by name, plural arguments included', () => {
  assert.equal(placeholdersOf('{n, plural, one {# user} other {# users}} of {max}'), ['max', 'n']);
  assert.equal(placeholdersOf('Hello'), []);
});

test('a complete locale passes; its row counts what it has', () => {
  const root = tree(en, translated, { any: {} });
  const [, xx] = checkLocales(root, ['en', 'xx'], readPo);
  assert.equal([xx.translated, xx.allowed, xx.same.length, xx.missing.length], [40, 0, 0, 0]);
  assert.equal(localeProblems([xx]), []);
});

test('a missing key, a changed placeholder, too many English texts: each fails', () => {
  const withPh = { ...en, 'm.0': 'Hello {name}' };
  const rest: Record<string, string> = { ...translated, 'm.0': 'Bonjour {nom}', 'm.2': 'Text 2', 'm.3': 'Text 3', 'm.4': 'Text 4' };
  delete rest['m.1'];
  const root = tree(withPh, rest, { any: { 'm.2': 'a name' } });
  const [, xx] = checkLocales(root, ['en', 'xx'], readPo);
  assert.equal(xx.missing, ['m.1']);
  assert.equal(xx.placeholders, ['m.0']);
  assert.equal(xx.same, ['m.3', 'm.4']);
  assert.is(xx.allowed, 1);
  // Two beyond the list of forty is exactly 5 %: allowed; the missing key and the placeholder fail.
  assert.is(localeProblems([xx]).length, 2);
  const root2 = tree(en, { ...translated, 'm.5': 'Text 5', 'm.6': 'Text 6', 'm.7': 'Text 7' }, { any: {}, xx: {} });
  assert.match(localeProblems(checkLocales(root2, ['xx'], readPo)).join(), /3 messages equal English/);
  const root3 = tree(en, { ...translated, 'm.5': 'Text 5', 'm.6': 'Text 6', 'm.7': 'Text 7' }, { any: {}, xx: { 'm.5': 'same word' } });
  assert.equal(localeProblems(checkLocales(root3, ['xx'], readPo)), []);
});

test('the allow-list names only messages English has (no entry outlives its message)', () => {
  const root = join(import.meta.dirname, '../..');
  const ids = readPo(join(root, 'locales/en/messages.po'));
  const allow = readAllowList(root);
  const stale = [...allow.any, ...[...allow.byLocale].flatMap(([l, s]) => [...s].map((id) => `${l} ${id}`))].filter((e) => !ids.has(e.split(' ').pop()!));
  assert.equal(stale, []);
});

test.run();
