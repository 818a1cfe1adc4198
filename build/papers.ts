// Build step 3, the papers. In: the bundle's metafile (build/bundle.ts), the
// packages as installed (node_modules, package-lock.json) and the licence
// policy (licence-policy.json). Out: the packages whose code is in the bundle,
// each with its version, licence, licence text and the hash of its tarball,
// checked against the policy; and from them the third-party notices, a file
// of every brand's set (NOTICES in build/serving.ts). The SBOM step
// (build/sbom.ts) writes the same list per brand.
//
// The list is what esbuild put in the output, not what is installed: an input
// counts when it left bytes in some output file (bytesInOutput > 0), so dev
// dependencies, the simulator's libraries, the test tools and a module that
// was read but shaken out entirely never appear.
import type { Metafile } from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from './project.ts';

/** What licence-policy.json holds (docs/EMBEDDING.md, "The papers"). */
export interface Policy {
  /** SPDX identifiers a bundled package may be under. */
  allow: string[];
  /**
   * Licence texts the repository supplies for a package whose tarball carries none, by
   * "name@version" (a new version is looked at again): the licence its package.json must
   * name, the text's file (from the policy's folder) and why it is supplied.
   */
  supplied: Record<string, { licence: string; text: string; why: string }>;
  /** The policy's file, as the build names it in a refusal; supplied texts are read from its folder. */
  file: string;
}

/** A package whose code is in the bundle. */
export interface BundledPackage {
  name: string;
  version: string;
  /** Its SPDX licence identifier, as its package.json states it. */
  licence: string;
  /** Its folder from the root, as package-lock.json keys it (node_modules/preact, node_modules/a/node_modules/b). */
  path: string;
  /** package-lock.json's integrity for it: the hash of its tarball ("sha512-<base64>"). */
  integrity: string;
  /** Its licence files (and NOTICE files) as it ships them, or the policy's supplied text. */
  texts: { file: string; text: string }[];
  /** Why the text is the policy's, when it is. */
  supplied?: string;
  /** The bundled packages it depends on (package-lock.json), by path. */
  dependsOn: string[];
}

export interface Papers {
  packages: BundledPackage[];
  /** The third-party notices: UTF-8 text, the same for every brand of a build. */
  notices: Uint8Array;
}

/** What the notices call the console: package.json's name and version. */
export interface Product {
  name: string;
  version: string;
}

export const POLICY_FILE = 'licence-policy.json';

/** A licence file: LICENSE*, LICENCE*, COPYING* (and UNLICENSE*), in any case (LICENSE, license.md, LICENSE-MIT, COPYING.txt). */
const LICENCE_FILE = /^(un)?licen[cs]e|^copying/i;
/** Apache-2.0 asks that a NOTICE file go with the work: it joins the texts when a package has one. */
const NOTICE_FILE = /^notice/i;
/** A module or data file that only starts like one of those (license.js, notice.json) is no text. */
const CODE_FILE = /\.(?:[cm]?[jt]sx?|json|map)$/i;

/** A policy file (from the root, or absolute), checked for its two fields. */
export function loadPolicy(file = POLICY_FILE): Policy {
  const p = JSON.parse(readFileSync(resolve(ROOT, file), 'utf8')) as Omit<Policy, 'file'>;
  if (!Array.isArray(p.allow) || typeof p.supplied !== 'object' || !p.supplied) throw new Error(`${file}: needs "allow" (SPDX identifiers) and "supplied" (texts by name@version)`);
  return { allow: p.allow, supplied: p.supplied, file };
}

/** The console as package.json names it. */
export function product(root = ROOT): Product {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return { name: pkg.name, version: pkg.version };
}

/**
 * The package folders (from `root`, with /) whose files left bytes in the output: the part of each
 * input's path up to its last node_modules/<name> or node_modules/@scope/<name>.
 */
export function bundledPaths(meta: Metafile, root = ROOT): string[] {
  const paths = new Set<string>();
  for (const output of Object.values(meta.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0) continue;
      // Inputs are relative to esbuild's working directory; a plugin's own (virtual:catalogs) is no file.
      const file = relative(root, resolve(root, input)).split('\\').join('/');
      const m = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
      // Under a symlinked node_modules esbuild names the real folder (../main/node_modules/x): the lock's key starts at node_modules/.
      if (m) paths.add(file.slice(file.indexOf('node_modules/'), m.index + m[0].length - 1));
    }
  return [...paths].sort();
}

interface Lock {
  packages: Record<string, { version?: string; integrity?: string; dependencies?: Record<string, string> }>;
}

/** Where Node finds `dep` from the package at `path`: its own node_modules, then each one above it. */
function lockPathOf(lock: Lock, path: string, dep: string): string | undefined {
  for (let at = path; ; ) {
    const candidate = `${at}/node_modules/${dep}`;
    if (lock.packages[candidate]) return candidate;
    const up = at.lastIndexOf('/node_modules/');
    if (up < 0) return lock.packages[`node_modules/${dep}`] ? `node_modules/${dep}` : undefined;
    at = at.slice(0, up);
  }
}

/** A text as the notices carry it: line ends as LF, no trailing blanks. */
const clean = (text: string) => text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trim();

/** One bundled package, read and checked; a problem is thrown as one line naming the package. */
function readPackage(root: string, path: string, lock: Lock, policy: Policy, bundled: string[]): BundledPackage {
  const dir = join(root, path);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string; license?: unknown };
  const named = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const id = `${pkg.name} ${pkg.version}`;
  if (pkg.name !== named) throw new Error(`${path} holds the package "${pkg.name}", not ${named}`);
  const entry = lock.packages[path];
  if (!entry) throw new Error(`${id}: ${path} is not in package-lock.json (run npm ci)`);
  if (entry.version !== pkg.version) throw new Error(`${id}: package-lock.json has ${entry.version} at ${path} (run npm ci)`);
  if (!entry.integrity) throw new Error(`${id}: package-lock.json has no integrity (tarball hash) for ${path}`);
  // One SPDX identifier from the allow-list; an expression (MIT OR Apache-2.0) or the old `licenses` array is refused until someone reads it.
  const licence = typeof pkg.license === 'string' ? pkg.license : undefined;
  if (!licence) throw new Error(`${id}: its package.json names no licence (license)`);
  if (!policy.allow.includes(licence)) throw new Error(`${id}: licence ${licence} is not in ${policy.file}'s allow-list (${policy.allow.join(', ')})`);

  const files = readdirSync(dir).filter((f) => !CODE_FILE.test(f) && statSync(join(dir, f)).isFile()).sort();
  const read = (f: string) => ({ file: `${path}/${f}`, text: clean(readFileSync(join(dir, f), 'utf8')) });
  let texts = files.filter((f) => LICENCE_FILE.test(f)).map(read);
  let supplied: string | undefined;
  if (!texts.length) {
    // A package's name is data from outside: read as an own property only (never __proto__ or a method).
    const key = `${pkg.name}@${pkg.version}`;
    const s = Object.hasOwn(policy.supplied, key) ? policy.supplied[key] : undefined;
    if (!s) throw new Error(`${id}: licence ${licence} but no licence text (no LICENSE*, LICENCE* or COPYING* in ${path}, none supplied in ${policy.file})`);
    if (s.licence !== licence) throw new Error(`${id}: ${policy.file} supplies a ${s.licence} text, but the package names ${licence}`);
    const file = resolve(ROOT, dirname(policy.file), s.text);
    if (!existsSync(file)) throw new Error(`${id}: ${policy.file} supplies ${s.text}, which is not there`);
    texts = [{ file: relative(ROOT, file).split('\\').join('/'), text: clean(readFileSync(file, 'utf8')) }];
    supplied = s.why;
  }
  texts.push(...files.filter((f) => NOTICE_FILE.test(f)).map(read));
  const dependsOn = Object.keys(entry.dependencies ?? {})
    .map((dep) => lockPathOf(lock, path, dep))
    .filter((p): p is string => p !== undefined && bundled.includes(p))
    .sort();
  return { name: pkg.name!, version: pkg.version!, licence, path, integrity: entry.integrity, texts, supplied, dependsOn };
}

/**
 * The notices: a title, then for each package a heading with its name, version and licence, and the texts
 * it ships (or the policy's, said so). Plain text, each text as the package words and wraps it, and as short
 * as that allows: it is in every terminal's flash.
 */
export function noticesText(packages: BundledPackage[], of: Product): string {
  const sections = packages.map((p) => [
    `== ${p.name} ${p.version} (${p.licence}${p.supplied ? '; the package ships no licence text, so this is the licence\'s own' : ''})`,
    ...p.texts.map((t) => t.text),
  ]);
  return [`Third-party software notices: ${of.name} ${of.version}`, ...sections.flat()].join('\n\n') + '\n';
}

/**
 * The step: the bundled packages of `meta` (sorted by name and version), each checked (found in
 * package-lock.json at its installed version, a licence of the allow-list, a licence text), and the
 * notices. Every problem is thrown together, one line: the build stops naming each package.
 * `root` is esbuild's working directory, holding package.json and package-lock.json.
 */
export function papers(meta: Metafile, policy: Policy, root = ROOT): Papers {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;
  const bundled = bundledPaths(meta, root);
  const packages: BundledPackage[] = [];
  const problems: string[] = [];
  for (const path of bundled) {
    try {
      packages.push(readPackage(root, path, lock, policy, bundled));
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  // One version of a package from two folders is one library bundled twice (bytes wasted, and two components with one purl).
  for (const p of packages) {
    const same = packages.filter((q) => q.name === p.name && q.version === p.version);
    if (same[0] === p && same.length > 1) problems.push(`${p.name} ${p.version} is bundled from ${same.map((q) => q.path).join(' and ')}`);
  }
  if (problems.length) throw new Error(`third-party packages: ${problems.join('; ')}`);
  packages.sort((a, b) => (a.name === b.name ? (a.version < b.version ? -1 : 1) : a.name < b.name ? -1 : 1));
  return { packages, notices: Buffer.from(noticesText(packages, product(root)), 'utf8') };
}
