// Build step 10, the report. In: the brands' reports (build/budget.ts). Out:
// the size table on stdout, one per brand, against the budget: each file (the
// notices among them), the login path, the English console, the English set
// with its notices, and the total; the locale table follows it (build/locales.ts
// printLocales).
import type { BrandReport, Budget } from './budget.ts';

export function printReports(reports: BrandReport[], budget: Budget, out: string): void {
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  for (const r of reports) {
    console.log(`\n${out}/${r.brand}  (gzip bytes; * = on the English login critical path)`);
    console.log(`  ${'file'.padEnd(28)} ${pad('kind', 8)} ${pad('bytes', 8)} ${pad('gzip', 7)} ${pad('budget', 7)}`);
    for (const f of r.files)
      console.log(
        `${f.critical ? '*' : ' '} ${f.path.padEnd(28)} ${pad(f.kind, 8)} ${pad(f.bytes, 8)} ${pad(f.gzipBytes, 7)} ${pad(budget.perFile[f.kind] ?? '-', 7)}`,
      );
    const pb = budget.perBrand;
    console.log(`  login critical path ${pad(r.criticalPath, 27)} ${pad(pb.loginCriticalPath, 7)}`);
    console.log(`  console, English only ${pad(r.totalEnglish, 25)} ${pad(pb.totalEnglish, 7)}`);
    // What an English-only terminal puts in flash: the console and its notices (no cap of its own).
    console.log(`  + notices = set, English only ${pad(r.totalEnglish + r.notices, 17)} ${pad('-', 7)}`);
    console.log(`  total, all locales and notices ${pad(r.total, 16)} ${pad(pb.total, 7)}`);
  }
}
