// Build step 7, the SBOM. In: a brand's manifest (build/manifest.ts) and the
// papers (build/papers.ts). Out: <out>/<brand>/sbom.cdx.json, a CycloneDX 1.6
// bill of materials in JSON beside manifest.json: the console as the root
// component, each bundled package with its purl, version, licence and the
// hash of its tarball (package-lock.json's integrity), and the set's files
// with the SHA-256 of each as it ships (the manifest's). It is the firmware
// team's record, not a file of the set: the manifest does not list it, so no
// server, C table or flash image carries it (docs/EMBEDDING.md, "The papers").
//
// Reproducible: no clock. The timestamp is SOURCE_DATE_EPOCH when set (the
// reproducible-builds convention), else the last commit's time, else there is
// none; the serial number is a UUID derived from the document's own content.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { version as esbuildVersion } from 'esbuild';
import type { Manifest } from './manifest.ts';
import { product, type BundledPackage, type Papers } from './papers.ts';
import { ROOT } from './project.ts';

export const SBOM_FILE = 'sbom.cdx.json';

/** Subresource Integrity's names (package-lock.json) as CycloneDX names the algorithms. */
const ALGORITHMS: Record<string, string> = { sha1: 'SHA-1', sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' };

/** package-lock.json's integrity ("sha512-<base64>", several separated by spaces) as CycloneDX hashes (hex). */
export function integrityHashes(integrity: string): { alg: string; content: string }[] {
  return integrity
    .trim()
    .split(/\s+/)
    .map((sri) => {
      const [, name, base64] = /^(sha\d+)-([A-Za-z0-9+/=]+)$/.exec(sri) ?? [];
      if (!name || !ALGORITHMS[name]) throw new Error(`integrity ${sri}: not a hash CycloneDX knows`);
      return { alg: ALGORITHMS[name], content: Buffer.from(base64, 'base64').toString('hex') };
    });
}

/** The purl of an npm package: a scope is its namespace, its @ written %40 (the purl specification's npm type). */
export function npmPurl(name: string, version: string): string {
  const at = name.startsWith('@') ? name.indexOf('/') : -1;
  const path = at < 0 ? encodeURIComponent(name) : `${encodeURIComponent(name.slice(0, at))}/${encodeURIComponent(name.slice(at + 1))}`;
  return `pkg:npm/${path}@${encodeURIComponent(version)}`;
}

/**
 * The time the SBOM states, without a clock: SOURCE_DATE_EPOCH (seconds) when set, else the last
 * commit's committer time from git, else undefined (no git, or not a clone): then the SBOM has none.
 */
export function sourceTime(root = ROOT, env = process.env): string | undefined {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
  if (env.SOURCE_DATE_EPOCH) {
    const s = Number(env.SOURCE_DATE_EPOCH);
    if (!Number.isInteger(s) || s < 0) throw new Error(`SOURCE_DATE_EPOCH=${env.SOURCE_DATE_EPOCH}: not a count of seconds`);
    return iso(s);
  }
  const git = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' });
  const s = Number(git.stdout?.trim());
  return git.status === 0 && Number.isInteger(s) && s > 0 ? iso(s) : undefined;
}

/** A name-based UUID (version 5, RFC 9562) of a text: the same content, the same serial number. */
function uuidOf(text: string): string {
  // RFC 9562's URL namespace, as bytes: the name is the content's SHA-256 as a URN.
  const namespace = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
  const name = `urn:sha256:${createHash('sha256').update(text).digest('hex')}`;
  const b = createHash('sha1').update(namespace).update(name).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const packageRef = (p: Pick<BundledPackage, 'name' | 'version'>) => npmPurl(p.name, p.version);

function packageComponent(p: BundledPackage) {
  const scope = p.name.startsWith('@') ? p.name.slice(0, p.name.indexOf('/')) : undefined;
  return {
    type: 'library',
    'bom-ref': packageRef(p),
    ...(scope ? { group: scope, name: p.name.slice(scope.length + 1) } : { name: p.name }),
    version: p.version,
    hashes: integrityHashes(p.integrity),
    licenses: [{ license: { id: p.licence } }],
    purl: npmPurl(p.name, p.version),
  };
}

/** The SBOM of a brand's set, as an object in the order its JSON is written; `time` as sourceTime() gives it. */
export function sbom(manifest: Manifest, papers: Papers, time: string | undefined) {
  const of = product();
  const root = `${of.name}@${of.version}`;
  const byPath = new Map(papers.packages.map((p) => [p.path, packageRef(p)]));
  // The root depends on the bundled packages package.json names (dependencies, or devDependencies for --react's
  // React); those reached through another bundled package hang from it.
  const direct = new Set(directNames());
  const body = {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    metadata: {
      ...(time ? { timestamp: time } : {}),
      lifecycles: [{ phase: 'build' }],
      tools: { components: [{ type: 'application', name: 'esbuild', version: esbuildVersion, description: 'the bundler: its metafile says which packages are in the set' }] },
      component: { type: 'application', 'bom-ref': root, name: of.name, version: of.version },
      properties: [{ name: `${of.name}:brand`, value: manifest.brand }],
    },
    components: [
      ...papers.packages.map(packageComponent),
      ...manifest.files.map((f) => ({ type: 'file', 'bom-ref': `file:${f.path}.gz`, name: `${f.path}.gz`, hashes: [{ alg: 'SHA-256', content: f.sha256 }] })),
    ],
    dependencies: [
      { ref: root, dependsOn: papers.packages.filter((p) => direct.has(p.name)).map(packageRef) },
      ...papers.packages.map((p) => ({ ref: packageRef(p), dependsOn: p.dependsOn.map((d) => byPath.get(d)!) })),
    ],
  };
  const { bomFormat, specVersion, ...rest } = body;
  return { bomFormat, specVersion, serialNumber: `urn:uuid:${uuidOf(JSON.stringify(body))}`, ...rest };
}

/** The packages the console names itself in package.json. */
function directNames(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
}

/** The step: <outDir>/sbom.cdx.json for the brand's set in outDir; `time` from sourceTime(), once per build. */
export function writeSbom(outDir: string, manifest: Manifest, papers: Papers, time: string | undefined): string {
  const file = join(outDir, SBOM_FILE);
  writeFileSync(file, JSON.stringify(sbom(manifest, papers, time), null, 2) + '\n');
  return file;
}
