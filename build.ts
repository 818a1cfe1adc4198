// Build: the console for each brand as a set of precompressed files for a
// terminal's flash, with a manifest, under the size budget.
//
//   npm run build                                  all brands, all locales
//   npm run build -- --brand anviz --locales en,es  a subset
//   npm run build -- --out /tmp/x                   another output folder
//   npm run build -- --react                        the same source on React 19 and react-dom
//                                                   (dist-react/; never flashed, no budget)
//   npm run build -- --server lighttpd,nginx [--root /www --listen 80 --https 443 --api 127.0.0.1:8081 --etc /etc/console]
//                                                   also a web server's configuration per brand
//   npm run build -- --c-table                      also the set as a C table (console_files.c/.h)
//                                                   both in <out>/embed/<brand>/ (docs/EMBEDDING.md)
//
// The JavaScript and CSS are built once and are the same for every brand;
// each brand's index.html carries its title, colours, copyright and logo.
import { build as esbuild, transform, type Metafile, type Plugin } from 'esbuild';
import { gzipAsync } from '@gfx/zopfli';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeLocale } from './src/i18n/locale.ts';
import { checkLocales, localeProblems, printLocales } from './build/locales.ts';
import { annotateAll } from './build/po-comments.ts';
import { cspFor, servingProblems } from './build/serving.ts';
import { SERVERS, SERVER_DEFAULTS, serverFiles, type ServerKind } from './build/servers.ts';
import { writeCTable } from './build/c-table.ts';

const ROOT = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

export interface BuildOptions {
  brands?: string[];
  locales?: string[];
  out?: string;
  /** Size budget file (default size-budget.json). */
  budget?: string;
  /** Skip `lingui extract` (tests that build twice extract once). */
  extract?: boolean;
  quiet?: boolean;
  /**
   * Build with React 19 and react-dom instead of preact/compat: proof that the
   * source is React code, and the measure of what Preact saves. Never flashed;
   * the size budget is reported against but not enforced.
   */
  react?: boolean;
  /** Also write these web servers' configurations to <out>/embed/<brand>/ (build/servers.ts). */
  servers?: ServerKind[];
  /** The configurations' install path, HTTP and HTTPS listen addresses, API address and the device's folder (certificate, access file). */
  serverRoot?: string;
  listen?: string;
  https?: string;
  api?: string;
  etc?: string;
  /** Also write the set as a C99 table to <out>/embed/<brand>/ (build/c-table.ts). */
  cTable?: boolean;
}

export interface ManifestFile {
  path: string;
  bytes: number;
  gzipBytes: number;
  sha256: string;
}
export interface Manifest {
  brand: string;
  version: string;
  /** The Content-Security-Policy header a server sends with the set (build/serving.ts cspFor; index.html carries its meta form). */
  csp: string;
  files: ManifestFile[];
}

export type FileKind = 'html' | 'js' | 'css' | 'catalog' | 'image';
interface Budget {
  perFile: Record<FileKind, number>;
  perBrand: { loginCriticalPath: number; totalEnglish: number; total: number };
  /** Gzip bytes of one locale's catalogues together (its core and screen texts). */
  perLocale: number;
}

export interface BrandReport {
  brand: string;
  files: (ManifestFile & { kind: FileKind; critical: boolean })[];
  criticalPath: number;
  totalEnglish: number;
  total: number;
  /** Gzip bytes of each locale's catalogues (its core and screen texts). */
  locales: Record<string, number>;
  overBudget: string[];
}

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

function run(cmd: string, args: string[], quiet: boolean): void {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed\n${r.stdout ?? ''}${r.stderr ?? ''}`);
}

/** Minimal PO reader: msgid -> msgstr (used to check English is complete). */
export function readPo(file: string): Map<string, string> {
  const out = new Map<string, string>();
  const text = readFileSync(file, 'utf8');
  const unquote = (s: string) => JSON.parse(s) as string;
  let id: string | null = null;
  let str = '';
  let field: 'id' | 'str' | null = null;
  const flush = () => {
    if (id) out.set(id, str);
    id = null;
    str = '';
    field = null;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#~')) continue; // obsolete entries
    if (line.startsWith('msgid ')) {
      flush();
      id = unquote(line.slice(6));
      field = 'id';
    } else if (line.startsWith('msgstr ')) {
      str = unquote(line.slice(7));
      field = 'str';
    } else if (line.startsWith('"') && field) {
      if (field === 'id') id += unquote(line);
      else str += unquote(line);
    } else if (line === '') {
      flush();
    }
  }
  flush();
  return out;
}

/** Extract and compile the catalogues (SPEC §1: same keys in every locale). */
export function prepareCatalogs(extract: boolean, quiet: boolean): void {
  const lingui = join(ROOT, 'node_modules/.bin/lingui');
  if (extract) {
    run(lingui, ['extract', '--clean'], quiet);
    annotateAll(ROOT, allLocales(), readPo);
  }
  const en = readPo(join(ROOT, 'locales/en/messages.po'));
  const missing = [...en].filter(([id, s]) => !s || s === id).map(([id]) => id);
  if (missing.length) throw new Error(`English text missing in locales/en/messages.po for: ${missing.join(', ')}`);
  run(lingui, ['compile'], quiet);
}

/**
 * Names of the calls the console's source makes: requestGoform('<name>', ...),
 * download / upload('<name>', ...) and definitions (read:, write:, add:,
 * del:, call:, list:, file: '<name>', or the same as JSX props). Code in
 * src/form/ calls requestGoform with the names those definitions give it.
 * With `checked`, only the calls whose request fields the forms check
 * (write: and add: of a definition, rulesOf('<name>')).
 */
export function callsUsed(dir = join(ROOT, 'src'), checked = false): Set<string> {
  const used = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\/api\/(request|file)\.ts$/.test(p)) {
        const src = readFileSync(p, 'utf8');
        // A definition's calls: `write: 'X'` in an object, write="X" as a JSX prop (list, call: a search's list call, whose fields it checks).
        const defs = checked
          ? /\b(?:write|add|call|list)[:=]\s*['"](\w+)['"]|rulesOf\(\s*['"](\w+)['"]/g
          : /\b(?:read|write|add|del|call|list|file)[:=]\s*['"](\w+)['"]|(?:rulesOf|download|upload)\(\s*['"](\w+)['"]/g;
        for (const m of src.matchAll(defs)) used.add(m[1] ?? m[2]);
        // The form engine and the settings backup call with names from definitions (the backup's are the
        // settings screens' calls: tests/unit/backup.test.ts checks that this function sees every one).
        if (checked || /[\\/]form[\\/]|[\\/]maint[\\/]backup\.ts$/.test(p)) continue;
        for (const m of src.matchAll(/(?:requestGoform|requestFile)\(\s*([^,)\s]*)/g)) {
          const lit = /^['"](\w+)['"]$/.exec(m[1]);
          if (!lit) throw new Error(`${relative(ROOT, p)}: requestGoform / requestFile need a literal call name (the build ships only the calls it sees)`);
          used.add(lit[1]);
        }
      }
    }
  };
  walk(dir);
  return used;
}

/**
 * esbuild plugin: the console ships only what its requests need from the
 * contract (method and encoding of each call it makes, and the constants);
 * field tables and documentation stay with the simulator and docs/API.md.
 */
function contractPlugin(): Plugin {
  return {
    name: 'contract',
    setup(b) {
      b.onLoad({ filter: /src[\\/]api[\\/]contract\.ts$/ }, async () => {
        const contract = await import('./src/api/contract.ts');
        const used = callsUsed();
        // SPEC §7's naming rule, then the calls that differ from it: fewer bytes on the login path than a full table.
        const rule = (name: string) => (name.startsWith('Set') ? 'GET query' : 'POST json');
        const odd: Record<string, string> = {};
        for (const name of [...used].sort()) {
          const c = (contract.CALLS as Record<string, { method: string; path: string; encoding: string }>)[name];
          if (!c) throw new Error(`requestGoform('${name}'): no such call in src/api/contract.ts`);
          if (c.path !== name) throw new Error(`contract: ${name} has path ${c.path}; the client table assumes they match`);
          const how = `${c.method} ${c.encoding}`;
          if (how !== rule(name)) odd[name] = how;
        }
        const lines = Object.entries(contract)
          .filter(([k, v]) => k !== 'CALLS' && k !== 'ENVELOPE' && typeof v !== 'function')
          .map(([k, v]) => `export const ${k} = ${JSON.stringify(v)};`);
        lines.push(
          `const O = ${JSON.stringify(odd)};`,
          `export function routeOf(n) { const [method, encoding] = (O[n] || (n.startsWith("Set") ? "GET query" : "POST json")).split(" "); return { method, path: n, encoding }; }`,
        );
        return { contents: lines.join('\n'), loader: 'js' };
      });
      // src/api/rules.ts: the field constraints of the calls the forms check, nothing else.
      b.onLoad({ filter: /src[\\/]api[\\/]rules\.ts$/ }, async () => {
        const contract = await import('./src/api/contract.ts');
        const rules: Record<string, Record<string, object>> = {};
        for (const name of [...callsUsed(undefined, true)].sort()) {
          const req = (contract.CALLS as Record<string, { method: string; request?: Record<string, { doc?: string; fields?: unknown; format?: string }> }>)[name]?.request ?? {};
          if (!Object.keys(req).length) continue;
          // The calendar check (format) is the device's: the forms check the pattern, the device refuses a day that does not exist (10005 at the field).
          rules[name] = Object.fromEntries(Object.entries(req).map(([k, f]) => [k, (({ doc, fields, format, ...rest }) => (void doc, void fields, void format, rest))(f as { doc?: string; fields?: unknown; format?: string })]));
        }
        // Field rules repeat (a time, a flag, a date): each distinct one is written once and referred to by number.
        const distinct: string[] = [];
        const ref = (f: Record<string, unknown>) => {
          const j = JSON.stringify(f);
          if (!distinct.includes(j)) distinct.push(j);
          return distinct.indexOf(j);
        };
        const table = Object.fromEntries(Object.entries(rules).map(([call, fs]) => [call, Object.fromEntries(Object.entries(fs).map(([k, f]) => [k, ref(f as Record<string, unknown>)]))]));
        return {
          contents: `const F = [${distinct.join(',')}];\nconst R = ${JSON.stringify(table)};\nexport function rulesOf(name) { const r = R[name] || {}; return Object.fromEntries(Object.entries(r).map(([k, i]) => [k, F[i]])); }`,
          loader: 'js',
        };
      });
    },
  };
}

/**
 * Message ids of the screens inside the layout start with these prefixes;
 * their texts ship in a second file per locale ("screen texts"), loaded once
 * the layout opens, so the login page carries only the core texts.
 */
export const SCREEN_TEXT_PREFIXES = ['att.', 'unit.', 'basic.', 'net.', 'acc.', 'form.', 'user.', 'msg.enroll', 'rec.', 'maint.', 'bak.', 'msg.fw', 'msg.cert', 'msg.badCommand', 'act.', 'msg.activateFirst', 'msg.weakPassword', 'route.', 'menu.', 'pwd.', 'info.', 'layout.'];

/**
 * Message ids are readable in the source and the PO files ("basic.volume");
 * what ships uses a short id per message instead ("a", "b", ... "Zz"), in the
 * code and in the compiled catalogues alike, the way Lingui itself ships
 * generated ids. The table is built from the sorted English ids, so it is the
 * same for every build of the same catalogue. Ids a device may name in its
 * replies ("msg.*", "err.*") are not shortened.
 */
/** Namespaces of the ids a device may send as a reply's msg (SPEC §8). */
export const DEVICE_MESSAGE_PREFIXES = ['msg.', 'err.'];
export function shortIds(): Map<string, string> {
  const ids = [...readPo(join(ROOT, 'locales/en/messages.po')).keys()].sort();
  const bad = ids.filter((id) => !/^[A-Za-z]\w*(\.\w+)+$/.test(id));
  // A namespaced id cannot be mistaken for a call name, a field name or a path.
  if (bad.length) throw new Error(`message ids need a namespace ("group.name"): ${bad.join(', ')}`);
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const out = new Map<string, string>();
  // Ids a device sends in a reply's msg (SPEC §8) keep their name.
  ids.filter((id) => !DEVICE_MESSAGE_PREFIXES.some((p) => id.startsWith(p))).forEach((id, i) => {
    let short = '';
    for (let n = i; n >= 0; n = Math.floor(n / letters.length) - 1) short = letters[n % letters.length] + short;
    out.set(id, short);
  });
  return out;
}

/**
 * esbuild plugin for src/: every string literal that is a message id becomes
 * its short id; and for Preact, JSX's React names `className` and `htmlFor`
 * are written as the `class` and `for` Preact sets as they are (compat would
 * map them at run time): the source stays React code, the bytes are Preact's.
 */
function sourcePlugin(ids: Map<string, string>, preact: boolean): Plugin {
  return {
    name: 'source',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, (a) => {
        let code = readFileSync(a.path, 'utf8').replace(/(['"])([\w.]+)\1/g, (all, q: string, id: string) => (ids.has(id) ? q + ids.get(id) + q : all));
        const tsx = a.path.endsWith('.tsx');
        if (tsx && preact) code = code.replace(/(\s)className=/g, '$1class=').replace(/(\s)htmlFor=/g, '$1for=');
        return { contents: code, loader: tsx ? 'tsx' : 'ts' };
      });
    },
  };
}

/** Fail when a readable message id is left in the shipped code (it would show as a raw id). */
function checkNoReadableIds(files: Map<string, Uint8Array>, ids: Map<string, string>): void {
  const left: string[] = [];
  for (const [name, content] of files) {
    if (!name.endsWith('.js')) continue;
    const text = Buffer.from(content).toString('utf8');
    for (const m of text.matchAll(/["'`]([A-Za-z]\w*(?:\.\w+)+)["'`]/g)) if (ids.has(m[1])) left.push(`${name}: ${m[1]}`);
  }
  if (left.length) throw new Error(`message ids not shortened (build them from literals):\n  ${left.join('\n  ')}`);
}

/** Compiled Lingui catalogue of a locale, split into core and screen texts (keys: short ids). */
export function splitCatalog(locale: string, ids = shortIds()): { core: Record<string, unknown>; screens: Record<string, unknown> } {
  const text = readFileSync(join(ROOT, 'locales', locale, 'messages.mjs'), 'utf8');
  const m = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(text);
  if (!m) throw new Error(`locales/${locale}/messages.mjs: not a compiled catalogue`);
  // The compiler's own string literal, read as JavaScript (it may escape a no-break space as \xA0, which JSON does not know).
  const all = JSON.parse(new Function(`return ${m[1]}`)()) as Record<string, unknown>;
  const core: Record<string, unknown> = {};
  const screens: Record<string, unknown> = {};
  for (const [id, msg] of Object.entries(all)) (SCREEN_TEXT_PREFIXES.some((p) => id.startsWith(p)) ? screens : core)[ids.get(id) ?? id] = msg;
  return { core, screens };
}

/**
 * The catalogue files: per built locale, its core texts (`lang-<l>-<H>.js`)
 * and its screens' texts (`text-<l>-<H>.js`), each a module exporting the
 * compiled messages. They are made here, not by esbuild, so that their names
 * can be known before bundling: one hash `H` over all of them, so the
 * console finds any locale's file from its code alone and ships no table of
 * names (adding a language adds nothing to the English login path).
 */
function catalogFiles(locales: string[], ids: Map<string, string>): { hash: string; files: Map<string, Uint8Array>; core: Record<string, string>; screens: Record<string, string> } {
  const contents: [string, 'lang' | 'text', string][] = [];
  for (const l of locales) {
    const { core, screens } = splitCatalog(l, ids);
    for (const [kind, m] of [['lang', core], ['text', screens]] as const) contents.push([l, kind, `export const messages=JSON.parse(${JSON.stringify(JSON.stringify(m))});\n`]);
  }
  const hash = createHash('sha256').update(contents.map((c) => c.join('\0')).join('\0')).digest('hex').slice(0, 8).toUpperCase();
  const files = new Map<string, Uint8Array>();
  const core: Record<string, string> = {};
  const screens: Record<string, string> = {};
  for (const [l, kind, text] of contents) {
    const file = `${kind}-${l}-${hash}.js`;
    files.set(file, Buffer.from(text));
    (kind === 'lang' ? core : screens)[l] = file;
  }
  return { hash, files, core, screens };
}

/** esbuild plugin: `virtual:catalogs`, the loader of a locale's core or screen texts by name. */
function catalogsPlugin(hash: string): Plugin {
  return {
    name: 'catalogs',
    setup(b) {
      b.onResolve({ filter: /^virtual:catalogs$/ }, () => ({ path: 'catalogs', namespace: 'virtual' }));
      b.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({
        loader: 'js',
        // A computed URL: esbuild leaves it to the browser.
        contents: `export default (l, screens) => { const u = "/" + (screens ? "text" : "lang") + "-" + l + "-${hash}.js"; return import(u); };`,
      }));
    },
  };
}

export interface AppBuild {
  files: Map<string, Uint8Array>; // served name -> content
  entry: string;
  css: string;
  layoutCss: string;
  catalogHash: string; // the one hash in every catalogue file's name
  catalogs: Record<string, string>; // locale -> served name of its core texts
  screenTexts: Record<string, string>; // locale -> served name of its screen texts
  preload: string[]; // the entry's static imports, preloaded by index.html
  layout: string[]; // the layout's and screens' files: preloaded when signed in, requested at sign-in on the login page
  critical: Set<string>; // served names on the English login path (besides index.html)
}

/** One esbuild pass for all brands. */
async function buildApp(locales: string[], react = false): Promise<AppBuild> {
  const ids = shortIds();
  const cat = catalogFiles(locales, ids);
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: 'src/main.tsx', out: 'app' },
      // The layout's stylesheet is its own file: the login page does not load it.
      { in: 'src/shell/layout.css', out: 'layout' },
    ],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome91', 'firefox90', 'safari15'],
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    outdir: 'out',
    entryNames: '[name]-[hash]',
    chunkNames: 'c-[hash]',
    metafile: true,
    jsx: 'automatic',
    jsxImportSource: 'react',
    // The UI is written against React's API; Preact runs it (DESIGN.md), or React itself with --react.
    alias: {
      ...(react ? {} : { react: 'preact/compat', 'react-dom': 'preact/compat' }),
      // wouter reaches useSyncExternalStore through the CommonJS shim, which
      // would pull its own fallback in; preact/compat has the real thing.
      'use-sync-external-store/shim/index.js': './src/shim/use-sync-external-store.ts',
      'use-sync-external-store/shim': './src/shim/use-sync-external-store.ts',
    },
    define: {
      'process.env.NODE_ENV': '"production"',
      __LOCALES__: JSON.stringify(locales.join(',')),
    },
    // contractPlugin first: it answers for contract.ts and rules.ts (no message ids there).
    plugins: [catalogsPlugin(cat.hash), contractPlugin(), sourcePlugin(ids, !react)],
  });
  const files = new Map<string, Uint8Array>();
  for (const f of result.outputFiles) files.set(basename(f.path), f.contents);
  checkNoReadableIds(files, ids);
  for (const [n, c] of cat.files) files.set(n, c);
  const meta: Metafile = result.metafile;
  if (process.env.BUILD_METAFILE) writeFileSync(process.env.BUILD_METAFILE, JSON.stringify(meta));
  checkSingleCopies(meta);
  const outputs = Object.entries(meta.outputs);
  const name = (p: string) => basename(p);
  const entryOut = outputs.find(([, o]) => o.entryPoint === 'src/main.tsx')!;
  const entry = name(entryOut[0]);
  const css = name(entryOut[1].cssBundle!);
  const layoutCss = name(outputs.find(([, o]) => o.entryPoint === 'src/shell/layout.css')![0]);
  const catalogs = cat.core;
  const screenTexts = cat.screens;
  // Static imports of a chunk, transitively.
  const staticDeps = (file: string, seen = new Set<string>()): Set<string> => {
    for (const imp of meta.outputs[`out/${file}`].imports) {
      if (imp.kind === 'import-statement' && !seen.has(name(imp.path))) {
        seen.add(name(imp.path));
        staticDeps(name(imp.path), seen);
      }
    }
    return seen;
  };
  const chunkFor = (src: string) => {
    const o = outputs.find(([, out]) => out.entryPoint === src);
    if (!o) throw new Error(`no output for ${src}`);
    const file = name(o[0]);
    return [file, ...staticDeps(file)];
  };
  const always = [...staticDeps(entry)];
  const without = (list: string[]) => [...new Set(list)].filter((f) => f !== entry && !always.includes(f));
  const layout = [...without(chunkFor('src/shell/SignedIn.tsx')), layoutCss];
  const critical = new Set([entry, css, ...always]);
  if (catalogs.en) critical.add(catalogs.en);
  return { files, entry, css, layoutCss, catalogHash: cat.hash, catalogs, screenTexts, preload: always, layout, critical };
}

/** Fail when a library is bundled twice (e.g. Preact through a CommonJS shim). */
function checkSingleCopies(meta: Metafile): void {
  // What actually ships: inputs that left bytes in some output.
  const inputs = [
    ...new Set(
      Object.values(meta.outputs).flatMap((o) =>
        Object.entries(o.inputs)
          .filter(([, i]) => i.bytesInOutput > 0)
          .map(([p]) => p),
      ),
    ),
  ];
  const preactCores = inputs.filter((p) => /node_modules\/preact\/dist\//.test(p));
  const shims = inputs.filter((p) => p.includes('use-sync-external-store/'));
  const parsers = inputs.filter((p) => p.includes('@messageformat/parser') || p.includes('compileMessage'));
  const problems = [
    preactCores.length > 1 && `two copies of Preact: ${preactCores.join(', ')}`,
    shims.length > 0 && `use-sync-external-store shim bundled: ${shims.join(', ')}`,
    parsers.length > 0 && `runtime message parser bundled: ${parsers.join(', ')}`,
  ].filter(Boolean);
  if (problems.length) throw new Error(`bundle check failed:\n  ${problems.join('\n  ')}`);
}

function hashName(base: string, ext: string, content: Uint8Array): string {
  return `${base}-${createHash('sha256').update(content).digest('hex').slice(0, 8).toUpperCase()}.${ext}`;
}

/**
 * Inline in index.html: start the downloads the first screen needs alongside
 * the app instead of after it: the chosen language's catalogue and the
 * brand's logo (the login page shows it); with a session cookie, the layout,
 * its screens and their texts at once. Without one (the login page) those
 * are prefetched once the login page has what it needs: the page has loaded
 * (its scripts are in), and so have the catalogue and the logo (they do not
 * hold the load event back). On a thin link the prefetch then never shares
 * it with the login page's files, and is in the browser by the time the
 * password has been typed. The page's Content-Security-Policy allows this
 * script by the SHA-256 of the text returned here (indexHtml).
 */
async function preloadScript(app: AppBuild, logo: string): Promise<string> {
  const data = { l: Object.keys(app.catalogs).join(), h: app.catalogHash, o: app.layout, g: `/${logo}` };
  const src = `(function(d){function p(f){var k=document.createElement("link"),c=/css$/.test(f);k.rel=c?"preload":"modulepreload";if(c)k.as="style";k.href="/"+f;return document.head.appendChild(k)}var l="en";try{l=(${normalizeLocale.toString()})(localStorage.getItem("language"),d.l.split(","))}catch(e){}var c=p("lang-"+l+"-"+d.h+".js"),g=new Image,n=2;g.src=d.g;function o(){p("text-"+l+"-"+d.h+".js");d.o.forEach(function(f){p(f)})}/(^|; *)Admin-Token=/.test(document.cookie)?o():c.onload=g.onload=g.onerror=function(){--n||(document.readyState=="complete"?o():addEventListener("load",o))}})(${JSON.stringify(data)})`;
  return (await transform(src, { minify: true, loader: 'js' })).code.trim();
}

function jsonForScript(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c');
}

function indexHtml(opts: {
  title: string;
  css: string;
  entry: string;
  preload: string[];
  favicon: string;
  colors: Record<string, string>;
  pageData: unknown;
  inline: string;
}): { html: string; csp: string } {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const c = opts.colors;
  const style = `:root{--brand:${c.brand};--brand-ink:${c.brandInk};--side-bg:${c.sidebar}}`;
  // No 'unsafe-inline': the inline script and style are allowed by the hashes of these exact texts.
  const inline = { scripts: [opts.inline], styles: [style] };
  const html =
    // The policy first: it covers only what comes after it.
    `<!doctype html><html lang="en"><head><meta http-equiv="Content-Security-Policy" content="${esc(cspFor(inline, 'meta'))}">` +
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${esc(opts.title)}</title>` +
    `<link rel="icon" href="/${opts.favicon}" type="image/svg+xml">` +
    // The inline script first: a script after a stylesheet waits for it, and this one
    // requests the language's catalogue, which the login page needs as much.
    `<script>${opts.inline}</script>` +
    `<link rel="stylesheet" href="/${opts.css}">` +
    opts.preload.map((p) => `<link rel="modulepreload" href="/${p}">`).join('') +
    `<style>${style}</style>` +
    `<script type="application/json" id="console-data">${jsonForScript(opts.pageData)}</script>` +
    `<script type="module" src="/${opts.entry}"></script>` +
    '</head><body><div id="app"></div><noscript>This console needs JavaScript.</noscript></body></html>\n';
  return { html, csp: cspFor(inline, 'header') };
}

function kindOf(path: string, catalogs: Record<string, string>): FileKind {
  if (Object.values(catalogs).includes(path) || /^text-/.test(path)) return 'catalog';
  if (path.endsWith('.html')) return 'html';
  if (path.endsWith('.css')) return 'css';
  if (path.endsWith('.js')) return 'js';
  return 'image';
}

export function loadBudget(file = 'size-budget.json'): Budget {
  return JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'));
}

export async function build(options: BuildOptions = {}): Promise<BrandReport[]> {
  const brands = options.brands?.length ? options.brands : allBrands();
  const locales = options.locales?.length ? options.locales : allLocales();
  const unknownBrand = brands.filter((b) => !allBrands().includes(b));
  if (unknownBrand.length) throw new Error(`unknown brand: ${unknownBrand.join(', ')} (have ${allBrands().join(', ')})`);
  const unknownLocale = locales.filter((l) => !allLocales().includes(l));
  if (unknownLocale.length) throw new Error(`unknown locale: ${unknownLocale.join(', ')} (have ${allLocales().join(', ')})`);
  if (!locales.includes('en')) locales.unshift('en'); // English is the fallback (SPEC §1)
  const outRoot = resolve(ROOT, options.out ?? (options.react ? 'dist-react' : 'dist'));
  const quiet = options.quiet ?? false;

  prepareCatalogs(options.extract ?? true, quiet);
  const localeRows = checkLocales(ROOT, locales, readPo);
  const problems = localeProblems(localeRows);
  if (problems.length) throw new Error(`locales:\n  ${problems.join('\n  ')}`);
  const app = await buildApp(locales, options.react);
  const budget = loadBudget(options.budget);
  const reports: BrandReport[] = [];

  // Compress each distinct content once per build: the brands share all but their index.html, logo and
  // favicon (the bundle and the catalogues are the same bytes), and zopfli is most of a build's time.
  // Per build, not per process: two builds still compress on their own (tests/unit/build.test.ts compares them).
  const compressed = new Map<string, Promise<Uint8Array>>();
  const zopfli = (data: Uint8Array): Promise<Uint8Array> => {
    const key = createHash('sha256').update(data).digest('hex');
    let z = compressed.get(key);
    if (!z) compressed.set(key, (z = gzipAsync(data, { numiterations: 15 })));
    return z;
  };
  for (const brand of brands) {
    const dir = join(ROOT, 'brands', brand);
    const conf = JSON.parse(readFileSync(join(dir, 'brand.json'), 'utf8'));
    const logoSvg = readFileSync(join(dir, 'logo.svg'));
    const favSvg = readFileSync(join(dir, 'favicon.svg'));
    const logo = hashName('logo', 'svg', logoSvg);
    const favicon = hashName('favicon', 'svg', favSvg);
    const { html, csp } = indexHtml({
      title: conf.title,
      css: app.css,
      entry: app.entry,
      preload: app.preload,
      favicon,
      colors: conf.colors,
      pageData: {
        brand: { id: brand, title: conf.title, copyright: conf.copyright, logo: `/${logo}` },
        layoutCss: `/${app.layoutCss}`,
      },
      inline: await preloadScript(app, logo),
    });
    const files = new Map(app.files);
    files.set('index.html', Buffer.from(html));
    files.set(logo, logoSvg);
    files.set(favicon, favSvg);

    const serving = servingProblems([...files.keys()]);
    if (serving.length) throw new Error(`${brand}: ${serving.join('; ')}`);
    const outDir = join(outRoot, brand);
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const manifest: Manifest = { brand, version: pkg.version, csp, files: [] };
    const names = [...files.keys()].sort();
    const gz = await Promise.all(names.map((n) => zopfli(files.get(n)!)));
    names.forEach((n, i) => {
      const z = Buffer.from(gz[i]);
      writeFileSync(join(outDir, `${n}.gz`), z);
      manifest.files.push({
        path: n,
        bytes: files.get(n)!.length,
        gzipBytes: z.length,
        sha256: createHash('sha256').update(z).digest('hex'),
      });
    });
    writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    reports.push(report(manifest, app, budget, logo));
    writeEmbedding(options, outDir, join(outRoot, 'embed', brand), manifest, quiet);
  }
  if (!quiet) {
    if (options.react) console.log('\nReact 19 + react-dom build: never flashed; the budget column is for comparison only.');
    printReports(reports, budget, relative(ROOT, outRoot) || '.');
    printLocales(localeRows, (l) => localeBytes(reports[0], app, l), budget.perLocale);
  }
  return reports;
}

/** --server and --c-table: what a firmware engineer copies into the terminal's image. */
function writeEmbedding(o: BuildOptions, siteDir: string, dir: string, manifest: Manifest, quiet: boolean): void {
  if (!o.servers?.length && !o.cTable) return;
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const kind of o.servers ?? []) {
    const files = serverFiles(kind, {
      brand: manifest.brand,
      version: manifest.version,
      csp: manifest.csp,
      root: o.serverRoot ?? SERVER_DEFAULTS.root,
      listen: o.listen ?? SERVER_DEFAULTS.listen,
      https: o.https ?? SERVER_DEFAULTS.https,
      api: o.api ?? SERVER_DEFAULTS.api,
      etc: o.etc ?? SERVER_DEFAULTS.etc,
    });
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    written.push(files.map(([name]) => name).join(', '));
  }
  if (o.cTable) {
    const c = writeCTable(siteDir, dir);
    written.push(`${basename(c.header)}, ${basename(c.source)} (${c.bytes} bytes of file data)`);
  }
  if (!quiet) console.log(`${relative(ROOT, dir) || dir}: ${written.join('; ')}`);
}

/** Gzip bytes of a locale's catalogues (its core texts and its screen texts) in a brand's set. */
export function localeBytes(r: BrandReport, app: AppBuild, locale: string): number {
  const mine = new Set([app.catalogs[locale], app.screenTexts[locale]]);
  return r.files.filter((f) => mine.has(f.path)).reduce((n, f) => n + f.gzipBytes, 0);
}

/** `logo`: the brand's logo, which the login page shows (on its path with index.html). */
function report(manifest: Manifest, app: AppBuild, budget: Budget, logo: string): BrandReport {
  const nonEnglish = new Set(
    [...Object.entries(app.catalogs), ...Object.entries(app.screenTexts)].filter(([l]) => l !== 'en').map(([, f]) => f),
  );
  const files = manifest.files.map((f) => ({
    ...f,
    kind: kindOf(f.path, app.catalogs),
    critical: f.path === 'index.html' || f.path === logo || app.critical.has(f.path),
  }));
  const sum = (list: typeof files) => list.reduce((n, f) => n + f.gzipBytes, 0);
  const criticalPath = sum(files.filter((f) => f.critical));
  const totalEnglish = sum(files.filter((f) => !nonEnglish.has(f.path)));
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
  const r: BrandReport = { brand: manifest.brand, files, criticalPath, totalEnglish, total, locales: {}, overBudget };
  for (const l of Object.keys(app.catalogs)) {
    const n = (r.locales[l] = localeBytes(r, app, l));
    if (n > budget.perLocale) overBudget.push(`${manifest.brand} locale ${l}: ${n} > ${budget.perLocale} (its catalogues)`);
  }
  return r;
}

function printReports(reports: BrandReport[], budget: Budget, out: string): void {
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  for (const r of reports) {
    console.log(`\n${out}/${r.brand}  (gzip bytes; * = on the English login critical path)`);
    console.log(`  ${'file'.padEnd(28)} ${pad('kind', 8)} ${pad('bytes', 8)} ${pad('gzip', 7)} ${pad('budget', 7)}`);
    for (const f of r.files)
      console.log(
        `${f.critical ? '*' : ' '} ${f.path.padEnd(28)} ${pad(f.kind, 8)} ${pad(f.bytes, 8)} ${pad(f.gzipBytes, 7)} ${pad(budget.perFile[f.kind], 7)}`,
      );
    const pb = budget.perBrand;
    console.log(`  login critical path ${pad(r.criticalPath, 27)} ${pad(pb.loginCriticalPath, 7)}`);
    console.log(`  total, English only ${pad(r.totalEnglish, 27)} ${pad(pb.totalEnglish, 7)}`);
    console.log(`  total, all locales  ${pad(r.total, 27)} ${pad(pb.total, 7)}`);
  }
}

function parseArgs(argv: string[]): BuildOptions {
  const o: BuildOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inlineValue] = argv[i].split('=', 2);
    const value = () => inlineValue ?? argv[++i];
    const list = () => value().split(',').map((s) => s.trim()).filter(Boolean);
    if (flag === '--brand' || flag === '--brands') o.brands = list();
    else if (flag === '--locales' || flag === '--locale') o.locales = list();
    else if (flag === '--out') o.out = value();
    else if (flag === '--budget') o.budget = value();
    else if (flag === '--no-extract') o.extract = false;
    else if (flag === '--quiet') o.quiet = true;
    else if (flag === '--react') o.react = true;
    else if (flag === '--server' || flag === '--servers') {
      const kinds = list();
      const bad = kinds.filter((k) => !(SERVERS as readonly string[]).includes(k));
      if (bad.length || !kinds.length) throw new Error(`--server ${bad.join(',')}: use ${SERVERS.join(', ')} (comma-separated for several)`);
      o.servers = kinds as ServerKind[];
    } else if (flag === '--root') o.serverRoot = value();
    else if (flag === '--listen') o.listen = value();
    else if (flag === '--https') o.https = value();
    else if (flag === '--api') o.api = value();
    else if (flag === '--etc') o.etc = value();
    else if (flag === '--c-table') o.cTable = true;
    else throw new Error(`unknown option ${argv[i]} (use --brand, --locales, --out, --budget, --no-extract, --quiet, --react, --server, --root, --listen, --https, --api, --etc, --c-table)`);
  }
  return o;
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
