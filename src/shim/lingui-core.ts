// Stands in for @lingui/core in the bundle and the unit tests (the alias in
// build/bundle.ts and tests/support/hooks.mjs): the source keeps Lingui's API and
// types, and ships only the part of it the console uses: catalogues compiled by
// `lingui compile` (text, {name} values, plurals with #), i18n.number and
// i18n.date by the browser's Intl, the locale first and English after it, as
// Lingui does. tests/console/lingui-shim.test.ts renders every message of every
// locale with this and with Lingui and compares.
import type { I18n, Messages } from '@lingui/core';

type Part = string | [string, string?, Record<string, Part[]>?];
type Values = Record<string, unknown>;
type Made = { format(v: unknown): string; select(n: number): string };

const made = new Map<string, Made>();
/** Intl's NumberFormat, DateTimeFormat or PluralRules for the locale, made once per options. */
const intl = (kind: 'NumberFormat' | 'DateTimeFormat' | 'PluralRules', o?: object) => {
  const key = kind + core.locale + JSON.stringify(o);
  let f = made.get(key);
  if (!f) made.set(key, (f = new (Intl[kind] as unknown as new (l: string[], o?: object) => Made)([core.locale, 'en'], o)));
  return f;
};

/** A compiled message with its values; `n` is the number a plural's # stands for. */
const render = (parts: Part[], values: Values, n?: number): string =>
  parts
    .map((p) => {
      if (typeof p == 'string') return p == '#' && n != null ? intl('NumberFormat').format(n) : p;
      const v = values[p[0]];
      const cases = p[2];
      return !cases ? (v ?? '') : render(cases[v as number] ?? cases[intl('PluralRules').select(v as number)] ?? cases.other, values, +(v as number));
    })
    .join('');

const core = {
  locale: '',
  messages: {} as Messages,
  loadAndActivate({ locale, messages }: { locale: string; messages: Messages }) {
    core.locale = locale;
    core.messages = messages;
  },
  /** More texts for the active locale (Lingui keeps other locales' too; the console loads only the active one's). */
  load(locale: string, messages: Messages) {
    if (locale == core.locale) Object.assign(core.messages, messages);
  },
  /** The message's text in the active locale; its id when the catalogue lacks it, as Lingui. */
  _(id: string, values: Values = {}): string {
    const m = core.messages[id] as Part[] | undefined;
    return m ? render(m, values) : id;
  },
  number: (n: number, o?: Intl.NumberFormatOptions) => intl('NumberFormat', o).format(n),
  date: (d: Date, o?: Intl.DateTimeFormatOptions) => intl('DateTimeFormat', o).format(d),
};

export const i18n = core as unknown as I18n;
