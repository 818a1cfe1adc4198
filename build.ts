// Build: the console for each brand as a set of precompressed files for a
// terminal's flash, with a manifest, under the size budget.
//
//   npm run build                                  all brands, all locales
//   npm run build -- --brand anviz --locales en,es  a subset
//   npm run build -- --out /tmp/x                   another output folder
//   npm run build -- --no-cache                     compile and compress everything afresh (what Lingui and zopfli made is kept by content: build/kept.ts)
//   npm run build -- --react                        the same source on React 19 and react-dom
//                                                   (dist-react/; never flashed, no budget)
//   npm run build -- --licences other.json          another licence policy than licence-policy.json
//   npm run build -- --server lighttpd,nginx [--root /www --listen 80 --https 443 --api 127.0.0.1:8081 --etc /etc/console]
//                                                   also a web server's configuration per brand
//   npm run build -- --c-table                      also the set as a C table (console_files.c/.h)
//                                                   both in <out>/embed/<brand>/ (docs/EMBEDDING.md)
//
// The JavaScript and CSS are built once and are the same for every brand;
// each brand's index.html carries its title, colours, copyright and logo.
//
// The steps, each a module in build/ that takes the one before's output:
//   catalogues.ts  locales/*/messages.po -> compiled, checked, short ids, catalogue files
//   bundle.ts      src/ + catalogues -> the JavaScript and CSS (esbuild, once for all brands)
//   papers.ts      the bundle's metafile + licence-policy.json -> the bundled packages, checked,
//                  and the third-party notices (once for all brands)
//   site.ts        bundle + notices + brands/<brand>/ -> the brand's files, index.html among them
//   compress.ts    files -> their gzip bytes (zopfli)
//   manifest.ts    gzip bytes -> <out>/<brand>/*.gz and manifest.json
//   sbom.ts        manifest + packages -> <out>/<brand>/sbom.cdx.json (CycloneDX 1.6)
//   budget.ts      manifest + size-budget.json -> the brand's report
//   embed.ts       <out>/<brand>/ -> <out>/embed/<brand>/ (--server, --c-table)
//   report.ts      reports -> the size table, then the locale table (locales.ts)
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBudget, localeBytes, report, type BrandReport } from './build/budget.ts';
import { buildApp } from './build/bundle.ts';
import { catalogues } from './build/catalogues.ts';
import { compressor } from './build/compress.ts';
import { writeEmbedding } from './build/embed.ts';
import { printLocales } from './build/locales.ts';
import { writeSet } from './build/manifest.ts';
import { parseArgs, type BuildOptions } from './build/options.ts';
import { loadPolicy, papers as bundledPapers } from './build/papers.ts';
import { ROOT, targets } from './build/project.ts';
import { printReports } from './build/report.ts';
import { sourceTime, writeSbom } from './build/sbom.ts';
import { brandSite } from './build/site.ts';

/** The steps in order: the catalogues, the bundle and its papers once, then per brand its site to its embedding. */
export async function build(options: BuildOptions = {}): Promise<BrandReport[]> {
  const { brands, locales } = targets(options);
  const outRoot = resolve(ROOT, options.out ?? (options.react ? 'dist-react' : 'dist'));
  const quiet = options.quiet ?? false;

  const fresh = options.cache === false ? false : undefined; // --no-cache: nothing kept is read
  const cat = catalogues(locales, options.extract ?? true, quiet, fresh);
  const app = await buildApp(locales, cat, options.react);
  const papers = bundledPapers(app.metafile, loadPolicy(options.licences));
  const budget = loadBudget(options.budget);
  const compress = compressor(fresh);
  const time = sourceTime();
  const reports: BrandReport[] = [];
  for (const brand of brands) {
    const site = await brandSite(app, papers, brand);
    const gz = await compress(site.files);
    const outDir = join(outRoot, brand);
    const manifest = writeSet(outDir, site, gz);
    writeSbom(outDir, manifest, papers, time);
    reports.push(report(manifest, app, budget));
    writeEmbedding(options, outDir, join(outRoot, 'embed', brand), manifest, quiet);
  }
  if (!quiet) {
    if (options.react) console.log('\nReact 19 + react-dom build: never flashed; the budget column is for comparison only.');
    printReports(reports, budget, relative(ROOT, outRoot) || '.');
    printLocales(cat.rows, (l) => localeBytes(reports[0], app, l), budget.perLocale);
  }
  return reports;
}

/**
 * A brand's set in dist/<brand>/ for a command or a test that serves or flashes
 * it: built first when there is none (no manifest.json), or always with
 * `rebuild`. `log` is told that there was none before the build starts. The
 * reports of that build; none when the set was there.
 */
export async function ensureBuilt(brand: string, o: Pick<BuildOptions, 'quiet' | 'extract'> & { rebuild?: boolean; log?: (line: string) => void } = {}): Promise<BrandReport[]> {
  const there = existsSync(join(ROOT, 'dist', brand, 'manifest.json'));
  if (there && !o.rebuild) return [];
  if (!there) o.log?.(`No build of brand ${brand} yet: building it (npm run build -- --brand ${brand}).`);
  return build({ brands: [brand], quiet: o.quiet, extract: o.extract });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const options = parseArgs(process.argv.slice(2));
    const reports = await build(options);
    const over = options.react ? [] : reports.flatMap((r) => r.overBudget);
    if (over.length) {
      console.error(`\nover the size budget (size-budget.json):\n  ${over.join('\n  ')}`);
      process.exit(1);
    }
  } catch (err) {
    console.error(`build failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
