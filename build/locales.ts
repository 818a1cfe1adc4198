// Build step: every locale checked against English before anything is
// bundled, and a table per locale after. A locale fails the build when it
// misses a key English has, when a message's placeholders differ from
// English, or when more than 5 % of its messages equal English beyond the
// allow-list (locales/same-as-english.json: a message may stay English only
// where it really is the same in that language, each with its reason).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Largest share of a locale's messages that may equal English beyond the allow-list. */
export const MAX_SAME_SHARE = 0.05;

export interface LocaleRow {
  locale: string;
  messages: number;
  translated: number;
  /** Equal to English and allow-listed (for every locale or this one). */
  allowed: number;
  /** Equal to English and not allow-listed. */
  same: string[];
  missing: string[];
  placeholders: string[];
}

/** Placeholder names of an ICU message, sorted ({name}, {n, plural, ...}). */
export const placeholdersOf = (s: string) => [...new Set([...s.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((m) => m[1]))].sort();

/** The allow-list: ids equal to English in every locale, and per locale. Reasons are for people; the build reads the ids. */
export function readAllowList(root: string): { any: Set<string>; byLocale: Map<string, Set<string>> } {
  const raw = JSON.parse(readFileSync(join(root, 'locales/same-as-english.json'), 'utf8')) as Record<string, Record<string, string>>;
  const byLocale = new Map<string, Set<string>>();
  for (const [k, v] of Object.entries(raw)) if (k !== 'any' && !k.startsWith('_')) byLocale.set(k, new Set(Object.keys(v)));
  return { any: new Set(Object.keys(raw.any ?? {})), byLocale };
}

/** One row per locale (English included), from the PO files. */
export function checkLocales(root: string, locales: readonly string[], readPo: (file: string) => Map<string, string>): LocaleRow[] {
  const en = readPo(join(root, 'locales/en/messages.po'));
  const allow = readAllowList(root);
  return locales.map((locale) => {
    const cat = locale === 'en' ? en : readPo(join(root, 'locales', locale, 'messages.po'));
    const row: LocaleRow = { locale, messages: en.size, translated: 0, allowed: 0, same: [], missing: [], placeholders: [] };
    for (const [id, text] of en) {
      const t = cat.get(id);
      if (!t) {
        row.missing.push(id);
        continue;
      }
      if (placeholdersOf(t).join() !== placeholdersOf(text).join()) row.placeholders.push(id);
      if (locale === 'en' || t !== text) row.translated++;
      else if (allow.any.has(id) || allow.byLocale.get(locale)?.has(id)) row.allowed++;
      else row.same.push(id);
    }
    return row;
  });
}

/** Why the locales fail the build, if they do. */
export function localeProblems(rows: readonly LocaleRow[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (r.missing.length) out.push(`${r.locale}: missing ${r.missing.length} message(s): ${r.missing.slice(0, 8).join(', ')}`);
    if (r.placeholders.length) out.push(`${r.locale}: placeholders differ from English in ${r.placeholders.join(', ')}`);
    if (r.same.length > MAX_SAME_SHARE * r.messages)
      out.push(`${r.locale}: ${r.same.length} messages equal English beyond locales/same-as-english.json (more than ${MAX_SAME_SHARE * 100} %): ${r.same.slice(0, 12).join(', ')}`);
  }
  return out;
}

export function printLocales(rows: readonly LocaleRow[], gzip: (locale: string) => number, budget: number): void {
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  console.log(`\nlocales  (messages; gzip bytes of a locale's catalogues, budget ${budget} each)`);
  console.log(`  ${'locale'.padEnd(7)} ${pad('messages', 8)} ${pad('transl.', 8)} ${pad('= en ok', 8)} ${pad('= en', 6)} ${pad('missing', 8)} ${pad('gzip', 7)}`);
  for (const r of rows)
    console.log(`  ${r.locale.padEnd(7)} ${pad(r.messages, 8)} ${pad(r.translated, 8)} ${pad(r.allowed, 8)} ${pad(r.same.length, 6)} ${pad(r.missing.length, 8)} ${pad(gzip(r.locale), 7)}`);
}
