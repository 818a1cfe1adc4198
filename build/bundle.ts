// Build step 2, the bundle. In: src/ and the catalogues (build/catalogues.ts).
// Out: the console's JavaScript and CSS, one esbuild pass for every brand,
// message ids shortened; the catalogue files join it, and the lists of which
// files the login page and the layout need; and esbuild's metafile, which
// says what went into the output (build/papers.ts reads the packages from it).
// The contract the console ships is src/api/shipped.ts, checked current first
// (build/calls.ts).
import { build as esbuild, type Metafile, type Plugin } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { checkShipped } from './calls.ts';
import type { Catalogues } from './catalogues.ts';
import { ROOT } from './project.ts';

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

/** esbuild plugin: `virtual:catalogs`, the loader of a locale's core or screen texts by name. */
function catalogsPlugin(hash: string): Plugin {
  return {
    name: 'catalogs',
    setup(b) {
      b.onResolve({ filter: /^virtual:catalogs$/ }, () => ({ path: 'catalogs', namespace: 'virtual' }));
      b.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({
        loader: 'js',
        // A locale's core texts carried by the document (INLINE_LOCALE's: build/site.ts), else its file. A computed
        // URL: esbuild leaves it to the browser.
        contents:
          `export default (l, screens) => { const e = !screens && document.getElementById("console-lang-" + l);` +
          ` return e ? Promise.resolve({ messages: JSON.parse(e.textContent) }) : import("/" + (screens ? "text" : "lang") + "-" + l + "-${hash}.js"); };`,
      }));
    },
  };
}

/**
 * The locale whose core texts index.html carries (with the entry's code and stylesheet): the default
 * one, so that the English login page needs one file after the document. Another locale's core texts
 * are a file, requested with the shared code.
 */
export const INLINE_LOCALE = 'en';

/** What index.html carries in itself instead of as files: the login page's own code, stylesheet and texts. */
export interface Inline {
  /** The entry module's code: its imports name the shared code by absolute path (publicPath). */
  entry: string;
  /** The entry's stylesheet (styles.css and what the login page imports). */
  css: string;
  /** INLINE_LOCALE's core texts, as JSON. */
  texts: string;
}

export interface AppBuild {
  files: Map<string, Uint8Array>; // served name -> content (the inline parts are not among them)
  inline: Inline;
  layoutCss: string;
  catalogHash: string; // the one hash in every catalogue file's name
  catalogs: Record<string, string>; // locale -> served name of its core texts
  screenTexts: Record<string, string>; // locale -> served name of its screen texts
  layout: string[]; // the layout's and screens' files: preloaded when signed in, requested at sign-in on the login page
  critical: Set<string>; // served names on the English login path besides index.html: the shared code, which the entry imports
  metafile: Metafile; // esbuild's account of which input went into which output: the papers step reads the packages from it
}

/** The step: one esbuild pass for all brands. */
export async function buildApp(locales: string[], cat: Catalogues, react = false): Promise<AppBuild> {
  // A table older than the source would ship wrong routes or rules: stop, naming the command that writes it.
  checkShipped();
  const ids = cat.ids;
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
    // Chunks import each other by absolute path: the entry runs inline in index.html, whose URL is any route.
    publicPath: '/',
    entryNames: '[name]-[hash]',
    chunkNames: 'c-[hash]',
    metafile: true,
    // JSX as React.createElement calls (the names come from src/shim/jsx.ts): children as arguments,
    // not a `children` array in the props as the automatic runtime writes them (about 270 B less).
    // tsconfig.json keeps the automatic runtime for the typecheck, the unit tests and editors.
    tsconfigRaw: { compilerOptions: { jsx: 'react', jsxFactory: '__h', jsxFragmentFactory: '__F' } },
    inject: ['./src/shim/jsx.ts'],
    // The UI is written against React's API; Preact runs it (DESIGN.md), or React itself with --react.
    alias: {
      ...(react ? {} : { react: 'preact/compat', 'react-dom': 'preact/compat' }),
      // wouter reaches useSyncExternalStore through the CommonJS shim, which
      // would pull its own fallback in; preact/compat has the real thing.
      'use-sync-external-store/shim/index.js': './src/shim/use-sync-external-store.ts',
      'use-sync-external-store/shim': './src/shim/use-sync-external-store.ts',
      // Lingui's runtime as far as the console uses it (compiled catalogues, Intl): about 1,670 B less on the login
      // path. The React 19 build keeps Lingui's own, so the same source is proven on it (tests/console/lingui-shim.test.ts
      // compares every message of every locale).
      ...(react ? {} : { '@lingui/core': './src/shim/lingui-core.ts' }),
    },
    define: {
      'process.env.NODE_ENV': '"production"',
      __LOCALES__: JSON.stringify(locales.join(',')),
    },
    plugins: [catalogsPlugin(cat.hash), sourcePlugin(ids, !react)],
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
  // The entry, its stylesheet and the default locale's core texts go into index.html (build/site.ts), not the set.
  const text = (f: string) => Buffer.from(files.get(f)!).toString('utf8');
  const inline: Inline = { entry: text(entry).trim(), css: text(css).trim(), texts: cat.coreJson[INLINE_LOCALE] };
  for (const f of [entry, css, catalogs[INLINE_LOCALE]]) files.delete(f);
  return { files, inline, layoutCss, catalogHash: cat.hash, catalogs, screenTexts, layout, critical: new Set(always), metafile: meta };
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
