// The catalogue files the build writes (build/catalogues.ts): each locale's
// two modules, evaluated as a browser would, give back exactly its compiled
// messages, apostrophes and backslashes included (the JSON travels in single
// quotes, so its own double quotes need no backslash).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, allLocales } from '../../build/project.ts';
import { catalogFiles, keptCatalogues, prepareCatalogs, replaceIfChanged, shortIds, splitCatalog } from '../../build/catalogues.ts';

test("each locale's modules give back its compiled messages, quotes and backslashes included", async () => {
  const locales = allLocales();
  const ids = shortIds();
  const { files, core, screens } = catalogFiles(locales, ids);
  let apostrophes = 0;
  let backslashes = 0;
  for (const l of locales) {
    const want = splitCatalog(l, ids);
    for (const [file, messages] of [[core[l], want.core], [screens[l], want.screens]] as const) {
      const text = Buffer.from(files.get(file)!).toString();
      assert.match(text, /^export const messages=JSON\.parse\('/, file);
      const got = (await import(`data:text/javascript,${encodeURIComponent(text)}`)).messages;
      assert.equal(got, messages, file);
      const json = JSON.stringify(messages);
      apostrophes += json.split("'").length - 1;
      backslashes += json.split('\\').length - 1;
    }
  }
  assert.ok(apostrophes > 0 && backslashes > 0, "some translations have an apostrophe (French's n'a) and a double quote (Thai, Nepali: \\\" in JSON): both escapes are exercised");
});


// npm test builds in one process while another reads the catalogues (tests/console/i18n.test.ts): a CI run
// once read Vietnamese's messages.po while lingui extract was rewriting it in place, and found none of its texts.
// The first call runs Lingui (an empty folder of kept catalogues), the next ones read back what it kept.
test('extracting and compiling unchanged sources writes nothing in locales/, by Lingui or from what was kept', () => {
  const cache = mkdtempSync(join(tmpdir(), 'catalogues-cache-'));
  try {
    const files = allLocales().flatMap((l) => ['messages.po', 'messages.mjs'].map((f) => join(ROOT, 'locales', l, f)));
    const before = files.map((f) => statSync(f, { bigint: true }));
    const unwritten = () =>
      files.forEach((f, i) => {
        const after = statSync(f, { bigint: true });
        assert.ok(after.ino === before[i].ino && after.mtimeNs === before[i].mtimeNs, `${f} was written`);
      });
    const keptNow = () => new Map(readdirSync(cache).map((f) => [f, statSync(join(cache, f), { bigint: true }).mtimeNs]));
    prepareCatalogs(true, true, cache);
    unwritten();
    const kept = keptNow();
    assert.is(kept.size, 2, "extract's PO files and compile's modules are kept, each in one file");
    const made = [...kept.keys()].map((f) => JSON.parse(readFileSync(join(cache, f), 'utf8')));
    for (const l of allLocales())
      for (const f of ['messages.po', 'messages.mjs']) {
        const text = readFileSync(join(ROOT, 'locales', l, f), 'utf8');
        assert.ok(made.some((m) => m[l] === text), `${l}/${f}: kept as Lingui made it`);
      }
    prepareCatalogs(true, true, cache);
    unwritten();
    prepareCatalogs(false, true, cache);
    unwritten();
    assert.equal(keptNow(), kept, 'read back, not made and kept again: the same inputs, the same keys, with extract or without');
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('kept catalogues are used only whole: a text for every locale, else Lingui runs again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catalogues-kept-'));
  try {
    const file = join(dir, 'k.json');
    const whole = Object.fromEntries(allLocales().map((l) => [l, `made for ${l}`]));
    assert.is(keptCatalogues(file, allLocales()), undefined, 'nothing kept');
    for (const bad of ['not json', 'null', JSON.stringify({ ...whole, vi: 1 }), JSON.stringify({ ...whole, ko: undefined })]) {
      writeFileSync(file, bad);
      assert.is(keptCatalogues(file, allLocales()), undefined, bad.slice(0, 40));
    }
    writeFileSync(file, JSON.stringify(whole));
    assert.equal(keptCatalogues(file, allLocales()), whole);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a changed catalogue replaces the old one by a rename: a reader sees the old bytes or the new, never a part', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replace-'));
  try {
    const [from, to] = [join(dir, 'new'), join(dir, 'messages.po')];
    writeFileSync(to, 'old');
    const old = statSync(to, { bigint: true });
    writeFileSync(from, 'old');
    replaceIfChanged(from, to);
    assert.is(statSync(to, { bigint: true }).ino, old.ino, 'the same bytes: the file is left alone');
    writeFileSync(from, 'new');
    replaceIfChanged(from, to);
    assert.is(readFileSync(to, 'utf8'), 'new');
    assert.is.not(statSync(to, { bigint: true }).ino, old.ino, 'a new file renamed over the old one, not the old one rewritten');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
