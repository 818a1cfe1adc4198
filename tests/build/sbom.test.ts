// The SBOM step (build/sbom.ts): a brand's build writes sbom.cdx.json beside
// its manifest, and readers other than the build take it: CycloneDX's own
// JSON schema (1.6, with its SPDX and JSF schemas) through
// @cyclonedx/cyclonedx-library's validator, and each purl through
// packageurl-js. Each package agrees with node_modules and package-lock.json
// (version, licence, tarball hash), nothing marked dev in the lock is in the
// Preact build's, the React build's names React, the set's files are there
// with their SHA-256, and nothing serves it. Two builds giving the same bytes:
// tests/build/build.test.ts compares every file of two full builds, this one
// among them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { PackageURL } from 'packageurl-js';
import type { Metafile } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../../build.ts';
import { writeCTable } from '../../build/c-table.ts';
import type { Manifest } from '../../build/manifest.ts';
import { integrityHashes, npmPurl, sbom, sourceTime, SBOM_FILE } from '../../build/sbom.ts';
import { lighttpdConf, nginxConf } from '../../build/servers.ts';
import { packagesInOutput, type InOutput } from '../support/metafile.ts';

const ROOT = join(import.meta.dirname, '../..');
const pkgJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { integrity?: string; dev?: boolean; devOptional?: boolean }> };
const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);

/** The SBOM as its JSON reads, as far as these tests look. */
interface Component {
  type: string;
  'bom-ref': string;
  group?: string;
  name: string;
  version?: string;
  purl: string;
  licenses?: unknown;
  hashes: { alg: string; content: string }[];
}
interface Bom {
  bomFormat: string;
  specVersion: string;
  serialNumber: string;
  metadata: { timestamp?: string; component: Component; properties: unknown };
  components: Component[];
  dependencies: { ref: string; dependsOn: string[] }[];
}

interface Built {
  dir: string;
  text: string;
  bom: Bom;
  manifest: Manifest;
  meta: Metafile;
}

/** One brand, English only, built as `npm run build` builds it; esbuild's metafile beside it (BUILD_METAFILE). */
async function buildIa(react: boolean): Promise<Built> {
  const out = mkdtempSync(join(tmpdir(), 'sbom-'));
  process.env.BUILD_METAFILE = join(out, 'meta.json');
  try {
    await build({ brands: ['ia'], locales: ['en'], out, quiet: true, extract: false, react });
  } finally {
    delete process.env.BUILD_METAFILE;
  }
  const dir = join(out, 'ia');
  const text = readFileSync(join(dir, SBOM_FILE), 'utf8');
  const read = (f: string) => JSON.parse(readFileSync(f, 'utf8'));
  return { dir, text, bom: JSON.parse(text), manifest: read(join(dir, 'manifest.json')), meta: read(join(out, 'meta.json')) };
}

/** The library components, checked against the metafile's output (read by the tests' own reader), node_modules and the lock. */
function checkPackages(b: Built): Map<string, InOutput> {
  const inOutput = packagesInOutput(b.meta, ROOT);
  const libraries = b.bom.components.filter((c) => c.type === 'library');
  const named = (c: Component) => (c.group ? `${c.group}/${c.name}` : c.name);
  assert.equal(libraries.map((c) => `${named(c)}@${c.version}`).sort(), [...inOutput.keys()].sort(), 'exactly the packages esbuild put in the output');
  for (const c of libraries) {
    const id = `${named(c)}@${c.version}`;
    const p = inOutput.get(id)!;
    const purl = PackageURL.fromString(c.purl);
    assert.is(purl.type, 'npm', id);
    assert.is(purl.namespace ? `${purl.namespace}/${purl.name}` : purl.name, p.name, `${id}: the purl names the package node_modules holds`);
    assert.is(purl.version, p.version, `${id}: the purl's version is the installed one`);
    assert.is(c['bom-ref'], c.purl);
    assert.equal(c.licenses, [{ license: { id: p.license } }], `${id}: the licence its package.json names`);
    const entry = lock.packages[p.lockKey];
    assert.ok(entry?.integrity, `${id}: in package-lock.json at ${p.lockKey}`);
    assert.equal(c.hashes.map((h) => `${h.alg.replace('-', '').toLowerCase()}-${Buffer.from(h.content, 'hex').toString('base64')}`), entry.integrity!.split(' '), `${id}: the tarball's hash as the lock has it`);
  }
  return inOutput;
}

/** The set's files as components: the manifest's, each with the SHA-256 of its .gz as it ships. */
function checkFiles(b: Built): void {
  const files = b.bom.components.filter((c) => c.type === 'file');
  assert.equal(files.map((f) => f.name), b.manifest.files.map((f) => `${f.path}.gz`));
  for (const [i, f] of files.entries()) {
    assert.equal(f.hashes, [{ alg: 'SHA-256', content: b.manifest.files[i].sha256 }], f.name);
    assert.is(createHash('sha256').update(readFileSync(join(b.dir, f.name))).digest('hex'), f.hashes[0].content, `${f.name}: the bytes in the set`);
  }
  assert.ok(files.some((f) => f.name === 'THIRD-PARTY-NOTICES.txt.gz'), 'the notices are a file of the set');
}

/** Every reference of the dependency graph names the root or a component. */
function checkGraph(bom: Bom): void {
  const refs = new Set([bom.metadata.component['bom-ref'], ...bom.components.map((c) => c['bom-ref'])]);
  for (const d of bom.dependencies) for (const r of [d.ref, ...d.dependsOn]) assert.ok(refs.has(r), r);
}

let preact: Promise<Built>;

test('the Preact build: valid CycloneDX 1.6, the console at its root, each bundled package as node_modules and the lock have it, no dev dependency', async () => {
  const b = await (preact = buildIa(false));
  assert.is(await validator.validate(b.text), null, "CycloneDX's own JSON schema (strict) takes it");
  assert.is(b.bom.bomFormat, 'CycloneDX');
  assert.is(b.bom.specVersion, '1.6');
  assert.equal(b.bom.metadata.component, { type: 'application', 'bom-ref': `${pkgJson.name}@${pkgJson.version}`, name: pkgJson.name, version: pkgJson.version });
  assert.equal(b.bom.metadata.properties, [{ name: `${pkgJson.name}:brand`, value: 'ia' }]);
  const inOutput = checkPackages(b);
  for (const n of ['preact', 'nanostores', 'wouter', 'regexparam']) assert.ok([...inOutput.values()].some((p) => p.name === n), n);
  for (const p of inOutput.values()) assert.not.ok(lock.packages[p.lockKey].dev || lock.packages[p.lockKey].devOptional, `${p.name} is marked dev in package-lock.json`);
  const names = b.bom.components.map((c) => c.name);
  for (const n of ['exceljs', 'react', 'react-dom', 'esbuild', 'uvu', 'playwright', 'serialport']) assert.not.ok(names.includes(n), `${n} is not bundled`);
  assert.equal(b.bom.dependencies[0], { ref: `${pkgJson.name}@${pkgJson.version}`, dependsOn: ['pkg:npm/nanostores@1.5.5', 'pkg:npm/preact@11.2.0', 'pkg:npm/wouter@3.13.0'].filter((r) => b.bom.components.some((c) => c.purl === r)) });
  assert.ok(b.bom.dependencies.some((d) => d.ref.startsWith('pkg:npm/wouter@') && d.dependsOn.some((r) => r.startsWith('pkg:npm/regexparam@'))), 'wouter -> regexparam');
  checkGraph(b.bom);
  checkFiles(b);

  // Beside the set, never in it: not in the manifest, so not in the C table, not served by any configuration.
  assert.not.ok(b.manifest.files.some((f) => f.path.includes('sbom')));
  const c = writeCTable(b.dir, join(b.dir, '..', 'c'));
  const table = readFileSync(c.source, 'utf8') + readFileSync(c.header, 'utf8');
  assert.not.ok(table.includes('sbom'), 'not in the C table');
  assert.ok(table.includes('"/THIRD-PARTY-NOTICES.txt", "text/plain; charset=utf-8"'), 'the notices are');
  const conf = { brand: 'ia', version: pkgJson.version, root: '/www', listen: '80', api: '127.0.0.1:8081', csp: b.manifest.csp };
  for (const text of [lighttpdConf(conf), nginxConf(conf)]) assert.not.ok(/sbom|cdx/i.test(text), 'no configuration names it');

  // No clock: the last commit's time (or SOURCE_DATE_EPOCH), and a serial number from the content.
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const git = spawnSync('git', ['log', '-1', '--format=%cI'], { cwd: ROOT, encoding: 'utf8' });
  const expected = epoch ? Number(epoch) * 1000 : git.status === 0 ? Date.parse(git.stdout.trim()) : undefined;
  assert.is(b.bom.metadata.timestamp && Date.parse(b.bom.metadata.timestamp), expected, 'SOURCE_DATE_EPOCH, else the last commit, else none');
  const again = sbom(b.manifest, { packages: [], notices: new Uint8Array() }, b.bom.metadata.timestamp);
  assert.match(again.serialNumber, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is.not(again.serialNumber, b.bom.serialNumber, 'another content, another serial number');
  assert.is(sbom(b.manifest, { packages: [], notices: new Uint8Array() }, b.bom.metadata.timestamp).serialNumber, again.serialNumber, 'the same content, the same one');
});

test("docs/EMBEDDING.md's merge by hand: the console nested in a firmware's SBOM, its graph hung from the firmware's root, still valid", async () => {
  const b = await preact;
  const firmware = {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    metadata: { component: { type: 'firmware', 'bom-ref': 't10@2.6.19', name: 't10', version: '2.6.19' } },
    components: [{ type: 'operating-system', 'bom-ref': 'linux@6.1', name: 'linux', version: '6.1' }] as object[],
    dependencies: [{ ref: 't10@2.6.19', dependsOn: ['linux@6.1'] }],
  };
  // The jq program of "Merging it into the firmware's SBOM", step by step.
  const consoleRoot = b.bom.metadata.component;
  const merged = {
    ...firmware,
    components: [...firmware.components, { ...consoleRoot, components: b.bom.components }],
    dependencies: [...firmware.dependencies.map((d) => (d.ref === firmware.metadata.component['bom-ref'] ? { ...d, dependsOn: [...d.dependsOn, consoleRoot['bom-ref']] } : d)), ...b.bom.dependencies],
  };
  const text = JSON.stringify(merged);
  assert.is(await validator.validate(text), null);
  const refs = [...text.matchAll(/"bom-ref":"([^"]+)"/g)].map((m) => m[1]);
  assert.is(new Set(refs).size, refs.length, 'every bom-ref once');
  for (const d of merged.dependencies) for (const r of [d.ref, ...d.dependsOn]) assert.ok(refs.includes(r), r);
});

test('the React 19 build: its own SBOM, naming React, react-dom and scheduler, not Preact', async () => {
  const b = await buildIa(true);
  assert.is(await validator.validate(b.text), null);
  const names = [...checkPackages(b).values()].map((p) => p.name);
  for (const n of ['react', 'react-dom', 'scheduler']) assert.ok(names.includes(n), n);
  assert.not.ok(names.includes('preact'));
  assert.ok(b.bom.dependencies.some((d) => d.ref.startsWith('pkg:npm/react-dom@') && d.dependsOn.some((r) => r.startsWith('pkg:npm/scheduler@'))), 'react-dom -> scheduler');
  checkGraph(b.bom);
  checkFiles(b);
});

test("the SBOM's pieces: purls with a scope, hashes from the lock's integrity, the time without a clock", () => {
  assert.is(npmPurl('@lingui/core', '5.9.5'), 'pkg:npm/%40lingui/core@5.9.5');
  assert.is(PackageURL.fromString(npmPurl('@lingui/core', '5.9.5')).namespace, '@lingui');
  assert.is(npmPurl('preact', '11.2.0'), 'pkg:npm/preact@11.2.0');
  const bytes = createHash('sha512').update('tarball').digest();
  assert.equal(integrityHashes(`sha512-${bytes.toString('base64')}`), [{ alg: 'SHA-512', content: bytes.toString('hex') }]);
  assert.equal(integrityHashes('sha1-AAAA sha256-AAAA').map((h) => h.alg), ['SHA-1', 'SHA-256']);
  assert.throws(() => integrityHashes('md5-AAAA'), /md5-AAAA: not a hash CycloneDX knows/);
  assert.is(sourceTime(ROOT, { SOURCE_DATE_EPOCH: '1700000000' }), '2023-11-14T22:13:20Z');
  assert.throws(() => sourceTime(ROOT, { SOURCE_DATE_EPOCH: 'yesterday' }), /SOURCE_DATE_EPOCH=yesterday/);
  assert.is(sourceTime(mkdtempSync(join(tmpdir(), 'no-git-')), {}), undefined, 'outside a clone: no timestamp at all');
});

test.run();
