// Locale codes (SPEC §1): English is the default and the fallback; zh-cn and
// zh-tw map to zh; anything unsupported falls back to en. Kept in local storage.

declare const __LOCALES__: string | undefined;

export const DEFAULT_LOCALE = 'en';
export const LANGUAGE_KEY = 'language';
/** Locales whose catalogues this build ships (set by build.ts). */
export const BUILT_LOCALES: readonly string[] = typeof __LOCALES__ === 'undefined' ? [DEFAULT_LOCALE] : __LOCALES__.split(',');
/** Right-to-left scripts among the languages SPEC §1 lists. */
const RTL = ['ar', 'he', 'fa'];

/**
 * Map a stored or offered code onto a built locale. Kept free of imports:
 * build.ts inlines its source into index.html to preload the right catalogue.
 */
export function normalizeLocale(code: string | null | undefined, supported: readonly string[]): string {
  if (!code) return 'en';
  const c = code.trim().toLowerCase().replace('_', '-');
  if (supported.indexOf(c) >= 0) return c;
  const base = c.split('-')[0];
  return supported.indexOf(base) >= 0 ? base : 'en';
}

export function storedLanguage(): string {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(LANGUAGE_KEY);
  } catch {
    // Storage can be unavailable (privacy mode); English then.
  }
  return normalizeLocale(raw, BUILT_LOCALES);
}

export function textDirection(locale: string): 'rtl' | 'ltr' {
  return RTL.includes(locale) ? 'rtl' : 'ltr';
}
