// The flash set: per-brand gzip files, manifest, reproducibility, budget gate.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from '../../build.ts';
import { loadBudget, report } from '../../build/budget.ts';
import { buildApp } from '../../build/bundle.ts';
import { catalogues, shortIds } from '../../build/catalogues.ts';
import { compressor } from '../../build/compress.ts';
import { writeSet, type Manifest } from '../../build/manifest.ts';
import { readPo } from '../../build/po.ts';
import { allBrands, defaultBrand } from '../../build/project.ts';
import { loadPolicy, papers } from '../../build/papers.ts';
import { SBOM_FILE, writeSbom } from '../../build/sbom.ts';
import { NOTICES, UNHASHED } from '../../build/serving.ts';
import { brandSite } from '../../build/site.ts';

const ROOT = join(import.meta.dirname, '../..');
const outA = mkdtempSync(join(tmpdir(), 'build-a-'));
const outB = mkdtempSync(join(tmpdir(), 'build-b-'));
/** The second build's reports (every brand, every locale): the real budget's test reads them. */
let reports: Awaited<ReturnType<typeof build>> = [];

function tree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const brand of readdirSync(dir)) for (const f of readdirSync(join(dir, brand))) files.set(`${brand}/${f}`, readFileSync(join(dir, brand, f)));
  return files;
}

test('two builds of the same sources are byte-identical', async () => {
  // Both may read the gzip files an earlier build kept (build/compress.ts): a kept file's key is the bytes it
  // stands for with zopfli's version and settings, so a change in any build step's output is compressed afresh and
  // shows here. That a kept file is the very bytes a fresh compression gives is compress.test.ts's.
  await build({ out: outA, quiet: true });
  reports = await build({ out: outB, quiet: true, extract: false });
  const a = tree(outA);
  const b = tree(outB);
  assert.equal([...a.keys()].sort(), [...b.keys()].sort());
  for (const [name, content] of a) assert.ok(content.equals(b.get(name)!), `${name} differs`);
  assert.equal(readdirSync(outA).sort(), allBrands());
  // Issue 33: the notices and the SBOM among them, so both are byte-identical from build to build.
  for (const brand of allBrands()) for (const f of [`${NOTICES}.gz`, SBOM_FILE]) assert.ok(a.has(`${brand}/${f}`), `${brand}/${f}`);
});

test('the notices are one content for every brand: the same bytes, the same hash in each manifest', () => {
  const sums = allBrands().map((brand) => {
    const m: Manifest = JSON.parse(readFileSync(join(outA, brand, 'manifest.json'), 'utf8'));
    return m.files.find((f) => f.path === NOTICES)?.sha256;
  });
  assert.ok(sums[0]);
  assert.equal(new Set(sums).size, 1, sums.join(', '));
});

test('the manifest lists every served file with sizes and the SHA-256 of its gzip file', () => {
  for (const brand of allBrands()) {
    const dir = join(outA, brand);
    const m: Manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    assert.is(m.brand, brand);
    assert.is(m.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    // Beside the set, not in it: the manifest and the SBOM (tests/build/sbom.test.ts).
    const gz = readdirSync(dir).filter((f) => f !== 'manifest.json' && f !== SBOM_FILE);
    assert.equal(gz.sort(), m.files.map((f) => `${f.path}.gz`).sort(), 'only gzip files ship, each listed');
    for (const f of m.files) {
      const z = readFileSync(join(dir, `${f.path}.gz`));
      assert.is(z.length, f.gzipBytes, f.path);
      assert.is(createHash('sha256').update(z).digest('hex'), f.sha256, f.path);
      assert.is(gunzipSync(z).length, f.bytes, f.path);
      if (!UNHASHED.includes(f.path)) assert.match(f.path, /-[A-Z0-9]{8}\.(js|css|svg)$/, 'content-hashed name');
    }
    assert.not.ok(gz.some((f) => f.endsWith('.map.gz')), 'no source maps in the flash set');
  }
});

test('each brand shows only its own assets, and its title and copyright', () => {
  for (const brand of allBrands()) {
    const conf = JSON.parse(readFileSync(join(ROOT, 'brands', brand, 'brand.json'), 'utf8'));
    const html = gunzipSync(readFileSync(join(outA, brand, 'index.html.gz'))).toString();
    assert.ok(html.includes(`<title>${conf.title}</title>`), brand);
    assert.ok(html.includes(JSON.stringify(conf.copyright).slice(1, -1)), `${brand} copyright`);
    // The logo is in the page data as a data: URL (issue 31: no request of its own on the login path).
    const logo = readFileSync(join(ROOT, 'brands', brand, 'logo.svg'), 'utf8');
    const data = JSON.parse(/<script type="application\/json" id="console-data">(.*?)<\/script>/.exec(html)![1].replace(/\\u003c/g, '<'));
    assert.ok(data.brand.logo.startsWith('data:image/svg+xml,'), `${brand}: the logo is a data: URL`);
    assert.is(decodeURIComponent(data.brand.logo.slice('data:image/svg+xml,'.length)), logo.trim().replace(/\s+/g, ' '), `${brand} carries its own logo`);
    assert.equal(readdirSync(join(outA, brand)).filter((f) => f.startsWith('logo-')), [], 'no logo file');
    for (const other of allBrands().filter((b) => b !== brand)) {
      const otherConf = JSON.parse(readFileSync(join(ROOT, 'brands', other, 'brand.json'), 'utf8'));
      assert.not.ok(html.includes(otherConf.title), `${brand} mentions ${other}`);
    }
  }
  assert.ok(allBrands().includes(defaultBrand()));
  assert.equal(allBrands(), ['anviz', 'ia', 'nice', 'sdh', 'secu365']);
});

test('index.html preloads the catalogue, and references only files in the set', () => {
  const dir = join(outA, defaultBrand());
  const m: Manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const html = gunzipSync(readFileSync(join(dir, 'index.html.gz'))).toString();
  const refs = [...html.matchAll(/"\/([\w.-]+\.(?:js|css|svg))"/g)].map((x) => x[1]);
  assert.ok(refs.length >= 4);
  for (const r of refs) assert.ok(m.files.some((f) => f.path === r), `${r} is shipped`);
  assert.ok(html.includes('modulepreload'));
});

test('a subset build: one brand, chosen locales (English always included)', () => {
  const out = mkdtempSync(join(tmpdir(), 'build-sub-'));
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'build.ts', '--brand', 'anviz', '--locales', 'es', '--out', out, '--no-extract'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.equal(readdirSync(out), ['anviz']);
  // English's core texts are in index.html (issue 31); its screen texts and Spanish's two files ship.
  const catalogues = readdirSync(join(out, 'anviz')).filter((f) => /^(lang|text)-/.test(f)).map((f) => f.slice(0, 7)).sort();
  assert.equal(catalogues, ['lang-es', 'text-en', 'text-es']);
  assert.ok(gunzipSync(readFileSync(join(out, 'anviz', 'index.html.gz'))).toString().includes('<script type="application/json" id="console-lang-en">'));
  assert.match(r.stdout, /login critical path/, 'prints the size table');
  // The notices' bytes in it, visibly: their own row, and the English set's line that adds them.
  const row = new RegExp(`^  ${NOTICES.replace(/\./g, '\\.')} +notices +\\d+ +(\\d+) +\\d+$`, 'm').exec(r.stdout);
  assert.ok(row, 'a row of its own, not on the login path (no *)');
  const consoleBytes = Number(/^  console, English only +(\d+)/m.exec(r.stdout)![1]);
  assert.is(Number(/^  \+ notices = set, English only +(\d+)/m.exec(r.stdout)![1]), consoleBytes + Number(row![1]));
});

test('the build exits non-zero naming each file over budget', () => {
  const out = mkdtempSync(join(tmpdir(), 'build-over-'));
  const budget = join(out, 'tight.json');
  writeFileSync(budget, JSON.stringify({ perFile: { html: 100, js: 100000, css: 100000, catalog: 100000, image: 100000 }, perBrand: { loginCriticalPath: 1000, totalEnglish: 100000, total: 100000 } }));
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'build.ts', '--brand', 'ia', '--out', out, '--budget', budget, '--no-extract'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 1);
  assert.match(r.stderr, /ia\/index\.html: \d+ > 100 \(html\)/);
  assert.match(r.stderr, /ia login critical path: \d+ > 1000/);
});

test('an unknown brand or locale is refused with the list of known ones', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'build.ts', '--brand', 'acme', '--no-extract'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 1);
  assert.match(r.stderr, /unknown brand: acme \(have anviz, ia, nice, sdh, secu365\)/);
});

test('the real budget holds for every brand (login path and English total)', () => {
  assert.equal(reports.map((r) => r.brand).sort(), allBrands());
  const budget = JSON.parse(readFileSync(join(ROOT, 'size-budget.json'), 'utf8'));
  for (const r of reports) {
    assert.equal(r.overBudget, [], r.brand);
    assert.ok(r.criticalPath <= budget.perBrand.loginCriticalPath);
  }
});

test('message ids ship short: the same table every build, device message keys kept, no readable id left', async () => {
  const ids = shortIds();
  assert.equal([...shortIds()], [...ids], 'deterministic');
  assert.is(new Set(ids.values()).size, ids.size, 'unique');
  const en = readPo(join(ROOT, 'locales/en/messages.po'));
  for (const id of en.keys()) assert.is(ids.has(id), !/^(msg|err)\./.test(id), id);
  const dir = join(outA, defaultBrand());
  const shipped = new Map<string, unknown>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.js.gz'))) {
    const js = gunzipSync(readFileSync(join(dir, f))).toString();
    for (const id of en.keys()) assert.not.ok(ids.has(id) && js.includes(JSON.stringify(id)), `${f} ships the readable id ${id}`);
    if (/^(lang|text)-en-/.test(f)) {
      const { messages } = await import(`data:text/javascript,${encodeURIComponent(js)}`);
      for (const [k, v] of Object.entries(messages)) shipped.set(k, v);
    }
  }
  // English's core texts ship in index.html (issue 31), as JSON the catalogue loader reads.
  const html = gunzipSync(readFileSync(join(dir, 'index.html.gz'))).toString();
  const core = /<script type="application\/json" id="console-lang-en">(.*?)<\/script>/.exec(html);
  assert.ok(core, 'index.html carries the English core texts');
  for (const [k, v] of Object.entries(JSON.parse(core![1]))) shipped.set(k, v);
  for (const id of en.keys()) assert.not.ok(ids.has(id) && html.includes(JSON.stringify(id)), `index.html ships the readable id ${id}`);
  // Every English text is in the shipped catalogues under its short id (or its own, for device keys).
  for (const id of en.keys()) assert.ok(shipped.has(ids.get(id) ?? id), id);
  assert.is(shipped.size, en.size);
});

test('each step runs alone, on the output of the one before: catalogues, bundle, papers, site, compress, manifest, budget, SBOM', async () => {
  const cat = catalogues(['en'], false, true);
  assert.equal(Object.keys(cat.core), ['en']);
  const app = await buildApp(['en'], cat);
  for (const f of cat.files.keys()) assert.is(app.files.has(f), f !== cat.core.en, `the bundle carries ${f} (English's core texts go inline)`);
  const p = papers(app.metafile, loadPolicy());
  const site = await brandSite(app, p, defaultBrand());
  assert.ok(site.files.has('index.html') && site.logo.startsWith('data:image/svg+xml,'));
  assert.is(site.files.get(NOTICES), p.notices, 'the papers step hands the notices to every brand');
  // The login page's own code, stylesheet and English texts are in index.html, not files of their own.
  const html = Buffer.from(site.files.get('index.html')!).toString();
  assert.ok(html.includes(app.inline.entry) && html.includes(app.inline.css) && html.includes('id="console-lang-en"'));
  assert.not.ok(site.files.has(app.catalogs.en), 'no lang-en file: its texts are in the document');
  // The login path after the document: the shared code alone, which the entry (last in the document) imports.
  assert.equal([...app.critical], [...app.inline.entry.matchAll(/from"\/([\w.-]+\.js)"/g)].map((m) => m[1]));
  assert.is(app.critical.size, 1);
  assert.ok(/<script type="module">[^]*<\/script><\/head><body>/.test(html), 'the entry module ends the head: nothing is asked for before the document is in');
  const gz = await compressor()(site.files);
  assert.equal([...gz.keys()], [...site.files.keys()].sort());
  for (const [n, z] of gz) assert.ok(gunzipSync(z).equals(Buffer.from(site.files.get(n)!)), n);
  const dir = join(mkdtempSync(join(tmpdir(), 'build-steps-')), defaultBrand());
  const m = writeSet(dir, site, gz);
  assert.equal(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), m);
  assert.equal(readdirSync(dir).sort(), ['manifest.json', ...[...gz.keys()].map((n) => `${n}.gz`)].sort());
  const r = report(m, app, loadBudget());
  assert.equal(Object.keys(r.locales), ['en']);
  assert.equal(r.overBudget, []);
  // The notices count in the set's total and show in the table, not on the login path or in the English console.
  const notices = r.files.find((f) => f.path === NOTICES)!;
  assert.equal([notices.kind, notices.critical], ['notices', false]);
  assert.is(r.notices, notices.gzipBytes);
  assert.is(r.total, r.files.reduce((n, f) => n + f.gzipBytes, 0));
  assert.is(r.totalEnglish, r.total - r.notices, 'English only here: every file but the notices');
  const file = writeSbom(dir, m, p, undefined);
  assert.equal(readdirSync(dir).sort(), ['manifest.json', SBOM_FILE, ...[...gz.keys()].map((n) => `${n}.gz`)].sort());
  assert.not.ok('timestamp' in JSON.parse(readFileSync(file, 'utf8')).metadata, 'no time given, none written');
});

test.run();
