// Section 1: gzip bytes per brand, Preact (what ships) against React 19 and
// react-dom (the same source, build.ts's `react` option), built in this run.
import { join } from 'node:path';
import { build } from '../build.ts';
import type { BrandReport } from '../build/budget.ts';
import { allBrands, defaultBrand } from '../build/project.ts';
import { round, type Settings } from './lib.ts';

interface Pair {
  preact: number;
  react: number;
  /** Preact / React. */
  ratio: number;
}

export interface BrandBytes {
  brand: string;
  /** index.html, the CSS and JavaScript the login page loads, the English catalogue. */
  loginPath: Pair;
  /** Every file of the brand with the English catalogues only. */
  english: Pair;
  /** Every file with every locale's catalogues. */
  allLocales: Pair;
}

export interface BytesSection {
  brands: BrandBytes[];
  /** Gzip bytes of each locale's catalogues (core and screen texts), from the Preact build. */
  locales: Record<string, number>;
  /** The catalogues are the same files in both builds (only the code differs). */
  catalogsIdentical: boolean;
  /** The brand the browser sections use (the default one), its files on the login critical path and their gzip bytes. */
  brand: string;
  critical: string[];
  criticalBytes: number;
  buildSeconds: { preact: number; react: number };
}

const pair = (preact: number, react: number): Pair => ({ preact, react, ratio: round(preact / react, 3) });

/** The section, and the Preact build of the default brand for the browser sections. */
export async function measureBytes(s: Settings): Promise<{ section: BytesSection; siteDir: string }> {
  const brand = defaultBrand();
  const brands = s.short ? [brand] : allBrands();
  const locales = s.short ? ['en', 'es'] : undefined;
  const preactDir = join(s.tmp, 'preact');
  // No `lingui extract`: it rewrites locales/*/messages.po, which this run only reads.
  const common = { brands, locales, quiet: true, extract: false };
  let t = performance.now();
  s.log(`building ${brands.length} brand(s) with Preact`);
  const preact = await build({ ...common, out: preactDir });
  const preactS = (performance.now() - t) / 1000;
  t = performance.now();
  s.log(`building ${brands.length} brand(s) with React 19`);
  // Budgets are not enforced for this build: its overBudget is not looked at.
  const react = await build({ ...common, out: join(s.tmp, 'react'), react: true });
  const reactS = (performance.now() - t) / 1000;

  const byBrand = new Map<string, BrandReport>(react.map((r) => [r.brand, r]));
  const rows: BrandBytes[] = preact.map((p) => {
    const r = byBrand.get(p.brand)!;
    return { brand: p.brand, loginPath: pair(p.criticalPath, r.criticalPath), english: pair(p.totalEnglish, r.totalEnglish), allLocales: pair(p.total, r.total) };
  });
  const catalogs = (r: BrandReport) => JSON.stringify(r.files.filter((f) => f.kind === 'catalog').map((f) => [f.path, f.sha256]));
  const mine = preact.find((p) => p.brand === brand)!;
  const section: BytesSection = {
    brands: rows,
    locales: mine.locales,
    catalogsIdentical: preact.every((p) => catalogs(p) === catalogs(byBrand.get(p.brand)!)),
    brand,
    critical: mine.files.filter((f) => f.critical).map((f) => f.path),
    criticalBytes: mine.criticalPath,
    buildSeconds: { preact: round(preactS), react: round(reactS) },
  };
  return { section, siteDir: join(preactDir, brand) };
}
