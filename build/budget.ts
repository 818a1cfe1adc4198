// Build step 8, the budget. In: a brand's manifest (build/manifest.ts), the
// bundle's lists of files (build/bundle.ts) and size-budget.json. Out: the
// brand's report: each file's kind and whether the login page needs it,
// the sums, and every limit the set goes over.
//
// The third-party notices (build/papers.ts) are a file of the set but not of
// the console: they are in the set's total and its flash cost, not on the
// login path and not in the English console's total (perBrand.totalEnglish
// caps the console's own code, styles and texts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AppBuild } from './bundle.ts';
import type { Manifest, ManifestFile } from './manifest.ts';
import { ROOT } from './project.ts';
import { NOTICES } from './serving.ts';

export type FileKind = 'html' | 'js' | 'css' | 'catalog' | 'image' | 'notices';
export interface Budget {
  perFile: Record<FileKind, number>;
  perBrand: { loginCriticalPath: number; totalEnglish: number; total: number };
  /** Gzip bytes of one locale's catalogues together (its core and screen texts). */
  perLocale: number;
}

export interface BrandReport {
  brand: string;
  files: (ManifestFile & { kind: FileKind; critical: boolean })[];
  criticalPath: number;
  /** The English console: every file but the other locales' catalogues and the notices. */
  totalEnglish: number;
  /** Gzip bytes of the third-party notices. */
  notices: number;
  /** Every file of the set, the notices included. */
  total: number;
  /** Gzip bytes of each locale's catalogues (its core and screen texts). */
  locales: Record<string, number>;
  overBudget: string[];
}

function kindOf(path: string, catalogs: Record<string, string>): FileKind {
  if (path === NOTICES) return 'notices';
  if (Object.values(catalogs).includes(path) || /^text-/.test(path)) return 'catalog';
  if (path.endsWith('.html')) return 'html';
  if (path.endsWith('.css')) return 'css';
  if (path.endsWith('.js')) return 'js';
  return 'image';
}

export function loadBudget(file = 'size-budget.json'): Budget {
  return JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'));
}

/** Gzip bytes of a locale's catalogues (its core texts and its screen texts) in a brand's set. */
export function localeBytes(r: BrandReport, app: AppBuild, locale: string): number {
  const mine = new Set([app.catalogs[locale], app.screenTexts[locale]]);
  return r.files.filter((f) => mine.has(f.path)).reduce((n, f) => n + f.gzipBytes, 0);
}

/** The step. The login path: index.html (with the login page's code, stylesheet, texts and logo in it) and the shared code. */
export function report(manifest: Manifest, app: AppBuild, budget: Budget): BrandReport {
  const nonEnglish = new Set(
    [...Object.entries(app.catalogs), ...Object.entries(app.screenTexts)].filter(([l]) => l !== 'en').map(([, f]) => f),
  );
  const files = manifest.files.map((f) => ({
    ...f,
    kind: kindOf(f.path, app.catalogs),
    critical: f.path === 'index.html' || app.critical.has(f.path),
  }));
  const sum = (list: typeof files) => list.reduce((n, f) => n + f.gzipBytes, 0);
  const criticalPath = sum(files.filter((f) => f.critical));
  const notices = sum(files.filter((f) => f.kind === 'notices'));
  const totalEnglish = sum(files.filter((f) => !nonEnglish.has(f.path))) - notices;
  const total = sum(files);
  const overBudget: string[] = [];
  for (const f of files) {
    const max = budget.perFile[f.kind];
    if (f.gzipBytes > max) overBudget.push(`${manifest.brand}/${f.path}: ${f.gzipBytes} > ${max} (${f.kind})`);
  }
  const pb = budget.perBrand;
  if (criticalPath > pb.loginCriticalPath) overBudget.push(`${manifest.brand} login critical path: ${criticalPath} > ${pb.loginCriticalPath}`);
  if (totalEnglish > pb.totalEnglish) overBudget.push(`${manifest.brand} total (English): ${totalEnglish} > ${pb.totalEnglish}`);
  if (total > pb.total) overBudget.push(`${manifest.brand} total: ${total} > ${pb.total}`);
  const r: BrandReport = { brand: manifest.brand, files, criticalPath, totalEnglish, notices, total, locales: {}, overBudget };
  for (const l of Object.keys(app.catalogs)) {
    const n = (r.locales[l] = localeBytes(r, app, l));
    if (n > budget.perLocale) overBudget.push(`${manifest.brand} locale ${l}: ${n} > ${budget.perLocale} (its catalogues)`);
  }
  return r;
}
