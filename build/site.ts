// Build step 3, the site of a brand. In: the bundle (build/bundle.ts) and
// brands/<brand>/ (brand.json, logo.svg, favicon.svg). Out: the brand's
// files by served name: the bundle's, its logo and favicon, and its
// index.html with its title, colours and copyright; and the
// Content-Security-Policy its server sends.
import { transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeLocale } from '../src/i18n/locale.ts';
import type { AppBuild } from './bundle.ts';
import { ROOT } from './project.ts';
import { cspFor, servingProblems } from './serving.ts';

export interface BrandSite {
  brand: string;
  /** Served name -> content. */
  files: Map<string, Uint8Array>;
  /** The Content-Security-Policy header a server sends with the set (index.html carries its meta form). */
  csp: string;
  /** The logo's served name: the login page shows it. */
  logo: string;
}

/** The step: one brand's set of files, checked against what the servers serve (build/serving.ts). */
export async function brandSite(app: AppBuild, brand: string): Promise<BrandSite> {
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
  return { brand, files, csp, logo };
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
