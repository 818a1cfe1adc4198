// What every build step works on: the repository's root, its version, its
// brands (brands/<name>/) and its locales (package.json's lingui.locales).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: build/.. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The console's version, as each manifest states it. */
export const VERSION: string = pkg.version;

export function allBrands(): string[] {
  return readdirSync(join(ROOT, 'brands'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The default brand is named in one place: brands/index.json. */
export function defaultBrand(): string {
  return JSON.parse(readFileSync(join(ROOT, 'brands/index.json'), 'utf8')).default;
}

export function allLocales(): string[] {
  return pkg.lingui.locales as string[];
}

/** package.json's Lingui configuration, as read once here. */
export const LINGUI: { catalogs: Array<{ path: string }> } & Record<string, unknown> = pkg.lingui;

/** The brands and locales a build makes: all unless named, known ones only, English always (SPEC §1). */
export function targets(options: { brands?: string[]; locales?: string[] }): { brands: string[]; locales: string[] } {
  const brands = options.brands?.length ? options.brands : allBrands();
  const locales = options.locales?.length ? options.locales : allLocales();
  const unknownBrand = brands.filter((b) => !allBrands().includes(b));
  if (unknownBrand.length) throw new Error(`unknown brand: ${unknownBrand.join(', ')} (have ${allBrands().join(', ')})`);
  const unknownLocale = locales.filter((l) => !allLocales().includes(l));
  if (unknownLocale.length) throw new Error(`unknown locale: ${unknownLocale.join(', ')} (have ${allLocales().join(', ')})`);
  if (!locales.includes('en')) locales.unshift('en'); // English is the fallback (SPEC §1)
  return { brands, locales };
}
