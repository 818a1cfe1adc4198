// The papers step (build/papers.ts): the third-party notices name every
// package esbuild's metafile has in the output, with its licence text, for
// Preact and for --react's React 19; on a fixture of small packages bundled
// by esbuild, the step stops naming a package without a licence text or under
// a licence outside the policy; and the build command stops the same way.
// tests/build/sbom.test.ts checks the SBOM made from the same list.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { build as esbuild, type Metafile } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildApp } from '../../build/bundle.ts';
import { catalogues } from '../../build/catalogues.ts';
import { loadPolicy, papers, type Policy } from '../../build/papers.ts';
import { packagesInOutput, packagesRead } from '../support/metafile.ts';

const ROOT = join(import.meta.dirname, '../..');
const cat = catalogues(['en'], false, true);

/** A text as the notices hold it: LF line ends, no trailing blanks. */
const normal = (text: string) => text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trim();
/** The notices' headings: "name version (licence...)". */
const headings = (notices: string) => [...notices.matchAll(/^== (\S+) (\S+) \(([^;)]+)/gm)].map((m) => `${m[1]}@${m[2]} ${m[3]}`);

/** Each package of the metafile's output in the notices: its heading and its licence text (its own, or the policy's for it). */
function checkNotices(meta: Metafile, notices: string): string[] {
  const policy = JSON.parse(readFileSync(join(ROOT, 'licence-policy.json'), 'utf8'));
  const inOutput = packagesInOutput(meta, ROOT);
  assert.equal(headings(notices).sort(), [...inOutput.values()].map((p) => `${p.name}@${p.version} ${p.license}`).sort(), 'one section per package in the output, no other');
  for (const [id, p] of inOutput) {
    const own = readdirSync(p.dir).filter((f) => /^(licen[cs]e|copying)/i.test(f));
    const texts = own.length ? own.map((f) => readFileSync(join(p.dir, f), 'utf8')) : [readFileSync(join(ROOT, policy.supplied[id].text), 'utf8')];
    for (const t of texts) assert.ok(notices.includes(normal(t)), `${id}: its licence text`);
    // The copyright lines too: the MIT licence asks that they go with every copy.
    for (const line of texts.join('\n').split('\n').filter((l) => /copyright \(c\)|copyright \d/i.test(l))) assert.ok(notices.includes(line.trim()), `${id}: ${line.trim()}`);
  }
  return [...inOutput.values()].map((p) => p.name);
}

test('the notices name every package esbuild put in the Preact bundle, with its licence text, and nothing else', async () => {
  const app = await buildApp(['en'], cat);
  const p = papers(app.metafile, loadPolicy());
  const notices = Buffer.from(p.notices).toString('utf8');
  const names = checkNotices(app.metafile, notices);
  for (const n of ['preact', 'nanostores', 'wouter', 'regexparam']) assert.ok(names.includes(n), n);
  for (const n of ['react', 'react-dom', 'scheduler', 'exceljs', 'esbuild', 'uvu']) assert.not.ok(notices.includes(`== ${n} `), `${n} is not bundled`);
  assert.match(notices, /^Third-party software notices: terminal-console \d+\.\d+\.\d+\n/);
  // wouter's tarball has no licence file: the text is the policy's, and the notices say so.
  assert.match(notices, /^== wouter \S+ \(Unlicense; the package ships no licence text, so this is the licence's own\)$/m);
  assert.is(p.packages.find((x) => x.name === 'wouter')!.texts[0].file, 'build/licences/Unlicense.txt');
});

test('the React 19 build has notices of its own: React, react-dom and scheduler, not Preact; what was read but shaken out is not there', async () => {
  const app = await buildApp(['en'], cat, true);
  const notices = Buffer.from(papers(app.metafile, loadPolicy()).notices).toString('utf8');
  const names = checkNotices(app.metafile, notices);
  for (const n of ['react', 'react-dom', 'scheduler', '@lingui/core']) assert.ok(names.includes(n), n);
  assert.not.ok(names.includes('preact'));
  // Lingui's message parser is among esbuild's inputs but leaves no byte in the output (build/bundle.ts checks it).
  const readOnly = [...packagesRead(app.metafile)].filter((n) => !names.includes(n));
  assert.ok(readOnly.includes('@messageformat/parser'), `read but not bundled: ${readOnly.join(', ')}`);
  for (const n of readOnly) assert.not.ok(notices.includes(`== ${n} `), `${n} left no byte in the output`);
});

// A fixture: packages in a node_modules of their own, bundled by esbuild from an entry, with a package-lock.json.
const fixture = mkdtempSync(join(tmpdir(), 'papers-fixture-'));
const MIT = 'Permission is hereby granted, free of charge, to any person obtaining a copy of this software.';
const lock: Record<string, object> = {};
function pkg(path: string, json: Record<string, unknown>, files: Record<string, string>, locked: Record<string, unknown> = {}): void {
  const dir = join(fixture, path);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(json));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  lock[path] = { version: json.version, integrity: `sha512-${Buffer.from(path).toString('base64')}`, license: json.license, ...locked };
}
pkg('node_modules/alpha', { name: 'alpha', version: '1.0.0', license: 'MIT', dependencies: { delta: '^2.0.0' } }, {
  'index.js': "import d from 'delta';\nexport default 'alpha' + d;\n",
  'LICENCE.md': `Copyright (c) Alpha\r\n\r\n${MIT}  \r\n`,
  'NOTICE': 'Alpha includes work of the Delta project.',
  'license.js': 'export const notALicence = 1;',
}, { dependencies: { delta: '^2.0.0' } });
// alpha's own delta, 2.0.0, is what it bundles, not the top-level 1.0.0.
pkg('node_modules/alpha/node_modules/delta', { name: 'delta', version: '2.0.0', license: 'ISC' }, { 'index.js': "export default 'delta2';\n", 'COPYING': 'Copyright (c) Delta\n\nISC text.' });
pkg('node_modules/delta', { name: 'delta', version: '1.0.0', license: 'ISC' }, { 'index.js': "export default 'delta1';\n", 'LICENSE': 'ISC, the old one.' });
pkg('node_modules/@scope/beta', { name: '@scope/beta', version: '3.1.4', license: 'BSD-3-Clause' }, { 'index.js': "export default 'beta';\n", 'license': 'Copyright (c) Beta\n\nBSD text.' });
// Imported, never used, no side effects: esbuild reads it and leaves nothing of it in the output.
pkg('node_modules/shaken', { name: 'shaken', version: '1.0.0', license: 'GPL-3.0-only', sideEffects: false }, { 'index.js': "export const unused = 'shaken';\n" });
pkg('node_modules/gamma', { name: 'gamma', version: '1.0.0', license: 'MIT' }, { 'index.js': "export default 'gamma';\n", 'README.md': 'No licence file here.' });
pkg('node_modules/epsilon', { name: 'epsilon', version: '1.0.0', license: 'GPL-3.0-only' }, { 'index.js': "export default 'epsilon';\n", 'LICENSE': 'GNU GPL text.' });
// The same version twice, at the top and under psi: one library bundled twice.
pkg('node_modules/omega', { name: 'omega', version: '1.0.0', license: 'MIT' }, { 'index.js': "export default 'omega';\n", 'LICENSE': MIT });
pkg('node_modules/psi', { name: 'psi', version: '1.0.0', license: 'MIT' }, { 'index.js': "import o from 'omega';\nexport default 'psi' + o;\n", 'LICENSE': MIT }, { dependencies: { omega: '1.0.0' } });
pkg('node_modules/psi/node_modules/omega', { name: 'omega', version: '1.0.0', license: 'MIT' }, { 'index.js': "export default 'omega, again';\n", 'LICENSE': MIT });
writeFileSync(join(fixture, 'package.json'), JSON.stringify({ name: 'fixture-console', version: '9.9.9' }));
writeFileSync(join(fixture, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': {}, ...lock } }));
const policyFile = join(fixture, 'fixture-policy.json');
const policy: Policy = { allow: ['MIT', 'ISC', 'BSD-3-Clause'], supplied: {}, file: policyFile };

/** esbuild's metafile for an entry importing `imports` (name -> how the entry uses it). */
async function bundle(imports: Record<string, string>): Promise<Metafile> {
  const entry = join(fixture, 'entry.js');
  writeFileSync(entry, Object.entries(imports).map(([name, use], i) => `import ${use.startsWith('{') ? use : `m${i}`} from '${name}';\nconsole.log(${use.startsWith('{') ? '1' : `m${i}`});\n`).join(''));
  const r = await esbuild({ absWorkingDir: fixture, entryPoints: ['entry.js'], bundle: true, format: 'esm', write: false, outdir: 'out', metafile: true, logLevel: 'silent' });
  return r.metafile;
}

test('on a fixture: scoped and nested packages found with their lock entries, licence files in any spelling, a NOTICE too, a module named license.js not', async () => {
  const meta = await bundle({ alpha: 'default', '@scope/beta': 'default', shaken: '{ unused }' });
  const p = papers(meta, policy, fixture);
  assert.equal(p.packages.map((x) => `${x.name}@${x.version} ${x.path}`), [
    '@scope/beta@3.1.4 node_modules/@scope/beta',
    'alpha@1.0.0 node_modules/alpha',
    'delta@2.0.0 node_modules/alpha/node_modules/delta',
  ]);
  const alpha = p.packages[1];
  assert.equal(alpha.texts.map((t) => t.file), ['node_modules/alpha/LICENCE.md', 'node_modules/alpha/NOTICE']);
  assert.equal(alpha.dependsOn, ['node_modules/alpha/node_modules/delta']);
  assert.is(alpha.integrity, `sha512-${Buffer.from('node_modules/alpha').toString('base64')}`);
  const notices = Buffer.from(p.notices).toString('utf8');
  assert.ok(notices.startsWith('Third-party software notices: fixture-console 9.9.9\n'));
  assert.ok(notices.includes(`== alpha 1.0.0 (MIT)\n\nCopyright (c) Alpha\n\n${MIT}\n\nAlpha includes work of the Delta project.\n`), 'CRLF and trailing blanks gone, the words kept');
  assert.ok(notices.includes('== delta 2.0.0 (ISC)\n\nCopyright (c) Delta\n\nISC text.\n') && !notices.includes('the old one'), "alpha's own delta");
  assert.not.ok(notices.includes('shaken'), 'read, but no byte of it in the output');
  assert.not.ok(notices.includes('notALicence'));
});

test('on a fixture: a package without a licence text, or under a licence outside the policy, stops the step naming it', async () => {
  const noText = await bundle({ gamma: 'default' });
  assert.throws(() => papers(noText, policy, fixture), /^third-party packages: gamma 1\.0\.0: licence MIT but no licence text \(no LICENSE\*, LICENCE\* or COPYING\* in node_modules\/gamma, none supplied in .*fixture-policy\.json\)$/);
  const gpl = await bundle({ epsilon: 'default' });
  assert.throws(() => papers(gpl, policy, fixture), /^third-party packages: epsilon 1\.0\.0: licence GPL-3\.0-only is not in .*fixture-policy\.json's allow-list \(MIT, ISC, BSD-3-Clause\)$/);
  // Both at once: one line naming each.
  const both = await bundle({ gamma: 'default', epsilon: 'default' });
  assert.throws(() => papers(both, policy, fixture), (e: Error) => !e.message.includes('\n') && /epsilon 1\.0\.0: licence GPL-3\.0-only .*; gamma 1\.0\.0: licence MIT but no licence text/.test(e.message));
  // A text the policy supplies for that very version is taken, and said to be the policy's.
  writeFileSync(join(fixture, 'mit.txt'), `${MIT}\n`);
  const supplied: Policy = { ...policy, supplied: { 'gamma@1.0.0': { licence: 'MIT', text: 'mit.txt', why: 'gamma ships none' } } };
  const notices = Buffer.from(papers(noText, supplied, fixture).notices).toString('utf8');
  assert.ok(notices.includes(`== gamma 1.0.0 (MIT; the package ships no licence text, so this is the licence's own)\n\n${MIT}\n`));
  assert.throws(() => papers(noText, { ...supplied, supplied: { 'gamma@1.0.0': { ...supplied.supplied['gamma@1.0.0'], licence: 'ISC' } } }, fixture), /gamma 1\.0\.0: .* supplies a ISC text, but the package names MIT/);
  assert.throws(() => papers(noText, { ...policy, supplied: { 'gamma@0.9.0': supplied.supplied['gamma@1.0.0'] } }, fixture), /gamma 1\.0\.0: licence MIT but no licence text/, 'another version is looked at again');
});

test('on a fixture: one version of a package bundled from two folders stops the step', async () => {
  const meta = await bundle({ omega: 'default', psi: 'default' });
  assert.throws(() => papers(meta, policy, fixture), /^third-party packages: omega 1\.0\.0 is bundled from node_modules\/omega and node_modules\/psi\/node_modules\/omega$/);
});

test('on a fixture: a package installed at another version than package-lock.json says stops the step', async () => {
  const meta = await bundle({ '@scope/beta': 'default' });
  const file = join(fixture, 'package-lock.json');
  const good = readFileSync(file, 'utf8');
  try {
    writeFileSync(file, good.replace('"version":"3.1.4"', '"version":"3.1.3"'));
    assert.throws(() => papers(meta, policy, fixture), /@scope\/beta 3\.1\.4: package-lock\.json has 3\.1\.3 at node_modules\/@scope\/beta \(run npm ci\)/);
  } finally {
    writeFileSync(file, good);
  }
});

test('the build command stops in one line naming each package and its licence, and writes no set', () => {
  const out = mkdtempSync(join(tmpdir(), 'papers-build-'));
  const strict = join(out, 'strict-policy.json');
  // Nothing but the Unlicense, and no supplied text: every MIT package is refused, and wouter has no text of its own.
  writeFileSync(strict, JSON.stringify({ allow: ['Unlicense'], supplied: {} }));
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'build.ts', '--brand', 'ia', '--locales', 'en', '--out', out, '--licences', strict, '--no-extract', '--quiet'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 1);
  const lines = r.stderr.trim().split('\n');
  assert.is(lines.length, 1, r.stderr);
  assert.match(lines[0], /^build failed: third-party packages: /);
  for (const n of ['nanostores', 'preact', 'regexparam']) assert.match(lines[0], new RegExp(`${n} \\S+: licence MIT is not in \\S*strict-policy\\.json's allow-list \\(Unlicense\\)`));
  assert.match(lines[0], /wouter \S+: licence Unlicense but no licence text \(no LICENSE\*, LICENCE\* or COPYING\* in node_modules\/wouter/);
  assert.not.ok(existsSync(join(out, 'ia')), 'no set written');
  assert.ok(existsSync(dirname(strict)));
});

test.run();
