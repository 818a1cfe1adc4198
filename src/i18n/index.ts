// Lingui boot: compiled catalogues only (no message parser ships), loaded on
// demand: per locale, the core texts first (login, layout, messages), the
// screens' texts once the signed-in layout opens.
import { i18n } from '@lingui/core';
import { atom } from 'nanostores';
import catalogs from 'virtual:catalogs';
import { BUILT_LOCALES, LANGUAGE_KEY, normalizeLocale, storedLanguage, textDirection } from './locale.ts';
import { useStore } from '../state/use-store.ts';

/** The active locale; '' until the first catalogue has loaded. */
export const $locale = atom('');

/** True once the screens' texts (the layout's, the route titles among them) are loaded. */
export const $screenTexts = atom(false);

export async function activateLocale(code: string, remember = false): Promise<void> {
  const locale = normalizeLocale(code, BUILT_LOCALES);
  const parts = await Promise.all([catalogs(locale), ...($screenTexts.get() ? [catalogs(locale, 1)] : [])]);
  i18n.loadAndActivate({ locale, messages: Object.assign({}, ...parts.map((p) => p.messages)) });
  if (remember) localStorage.setItem(LANGUAGE_KEY, locale);
  document.documentElement.lang = locale;
  document.documentElement.dir = textDirection(locale);
  $locale.set(locale);
}

/** Load the screens' texts for the active locale (and every later one). */
export async function loadScreenTexts(): Promise<void> {
  if ($screenTexts.get()) return;
  const locale = i18n.locale;
  const { messages } = await catalogs(locale, 1);
  i18n.load(locale, messages);
  $screenTexts.set(true);
}

export function startLocale(): Promise<void> {
  return activateLocale(storedLanguage());
}

/** Subscribe a component to language changes; returns the active locale. */
export function useLocale(): string {
  return useStore($locale);
}

/** A language's name in its own language, from the browser (no table shipped). */
export function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return name ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
}

export { i18n };
