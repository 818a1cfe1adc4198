// The catalogue files the build writes (build/catalogues.ts): each locale's
// two modules, evaluated as a browser would, give back exactly its compiled
// messages, apostrophes and backslashes included (the JSON travels in single
// quotes, so its own double quotes need no backslash).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allLocales } from '../../build/project.ts';
import { catalogFiles, shortIds, splitCatalog } from '../../build/catalogues.ts';

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

test.run();
