// Build step 4, the site of a brand. In: the bundle (build/bundle.ts), the
// papers (build/papers.ts) and brands/<brand>/ (brand.json, logo.svg,
// favicon.svg). Out: the brand's files by served name: the bundle's, the
// third-party notices, its favicon, and its index.html with its title,
// colours, copyright and logo; and the Content-Security-Policy its server sends.
import { transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeLocale } from '../src/i18n/locale.ts';
import { INLINE_LOCALE, type AppBuild } from './bundle.ts';
import type { Papers } from './papers.ts';
import { ROOT } from './project.ts';
import { NOTICES, cspFor, servingProblems } from './serving.ts';

export interface BrandSite {
  brand: string;
  /** Served name -> content. */
  files: Map<string, Uint8Array>;
  /** The Content-Security-Policy header a server sends with the set (index.html carries its meta form). */
  csp: string;
  /** The logo as the page data carries it (a data: URL): the login page shows it. */
  logo: string;
}

/** The step: one brand's set of files, checked against what the servers serve (build/serving.ts). */
export async function brandSite(app: AppBuild, papers: Papers, brand: string): Promise<BrandSite> {
  const dir = join(ROOT, 'brands', brand);
  const conf = JSON.parse(readFileSync(join(dir, 'brand.json'), 'utf8'));
  const logoSvg = readFileSync(join(dir, 'logo.svg'), 'utf8');
  const favSvg = readFileSync(join(dir, 'favicon.svg'));
  const favicon = hashName('favicon', 'svg', favSvg);
  const logo = svgDataUrl(logoSvg);
  const { html, csp } = indexHtml({
    title: conf.title,
    app,
    favicon,
    colors: conf.colors,
    pageData: {
      brand: { id: brand, title: conf.title, copyright: conf.copyright, logo },
      layoutCss: `/${app.layoutCss}`,
    },
    inline: await preloadScript(app),
  });
  const files = new Map(app.files);
  files.set('index.html', Buffer.from(html));
  files.set(favicon, favSvg);
  // The same bytes in every brand: compressed once per build (build/compress.ts), one content in every set.
  files.set(NOTICES, papers.notices);

  const serving = servingProblems([...files.keys()]);
  if (serving.length) throw new Error(`${brand}: ${serving.join('; ')}`);
  return { brand, files, csp, logo };
}

/**
 * The logo as a data: URL, carried in index.html's page data: the login page and the sidebar show it
 * without a request of their own (over HTTP/1.1 a request on its own may open a connection with its
 * handshakes). Percent-encoded where a URL needs it; the rest stays text, which gzip takes well.
 */
function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${svg.trim().replace(/\s+/g, ' ').replace(/[%#"<>\n]/g, encodeURIComponent)}`;
}

function hashName(base: string, ext: string, content: Uint8Array): string {
  return `${base}-${createHash('sha256').update(content).digest('hex').slice(0, 8).toUpperCase()}.${ext}`;
}

/**
 * Inline in index.html: the downloads the first screen needs besides the shared code. The login
 * page's texts are in the document for the default locale; another locale's are requested at once.
 * With a session cookie, the layout, its screens and their texts are requested at once too. Without
 * one (the login page) those are prefetched once the login page has what it needs: the page has
 * loaded (its scripts are in), and so have its texts. On a thin link the prefetch then never shares
 * it with the login page's files, and is in the browser by the time the password has been typed.
 * The page's Content-Security-Policy allows this script by the SHA-256 of the text returned here
 * (indexHtml).
 */
async function preloadScript(app: AppBuild): Promise<string> {
  const data = { l: Object.keys(app.catalogs).join(), h: app.catalogHash, o: app.layout, i: INLINE_LOCALE };
  const src = `(function(d){function p(f){var k=document.createElement("link"),c=/css$/.test(f);k.rel=c?"preload":"modulepreload";if(c)k.as="style";k.href="/"+f;return document.head.appendChild(k)}var l="en";try{l=(${normalizeLocale.toString()})(localStorage.getItem("language"),d.l.split(","))}catch(e){}var c=l==d.i?0:p("lang-"+l+"-"+d.h+".js");function o(){p("text-"+l+"-"+d.h+".js");d.o.forEach(function(f){p(f)})}function w(){document.readyState=="complete"?o():addEventListener("load",o)}/(^|; *)Admin-Token=/.test(document.cookie)?o():c?c.onload=c.onerror=w:w()})(${JSON.stringify(data)})`;
  return (await transform(src, { minify: true, loader: 'js' })).code.trim();
}

/** Code or a stylesheet put inside <script> or <style> as it is: it must not end the element early. */
function inlineText(text: string, element: 'script' | 'style', what: string): string {
  if (new RegExp(`</${element}|<!--`, 'i').test(text)) throw new Error(`${what} holds "</${element}" or "<!--": it cannot go inline in index.html`);
  return text;
}

/** JSON text made safe inside <script type="application/json">: no "<" to end the element (JSON reads \u003c back). */
const scriptJson = (json: string) => json.replace(/</g, '\\u003c');

function indexHtml(opts: {
  title: string;
  app: AppBuild;
  favicon: string;
  colors: Record<string, string>;
  pageData: unknown;
  inline: string;
}): { html: string; csp: string } {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const c = opts.colors;
  const { entry, css, texts } = opts.app.inline;
  // The brand's colours, then the login page's stylesheet: one style element.
  const style = inlineText(`:root{--brand:${c.brand};--brand-ink:${c.brandInk};--side-bg:${c.sidebar}}${css}`, 'style', 'the stylesheet');
  const code = inlineText(entry, 'script', 'the entry module');
  // No 'unsafe-inline': the inline scripts and the style are allowed by the hashes of these exact texts.
  const inline = { scripts: [opts.inline, code], styles: [style] };
  const html =
    // The policy first: it covers only what comes after it.
    `<!doctype html><html lang="en"><head><meta http-equiv="Content-Security-Policy" content="${esc(cspFor(inline, 'meta'))}">` +
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${esc(opts.title)}</title>` +
    `<link rel="icon" href="/${opts.favicon}" type="image/svg+xml">` +
    // The script that starts the other downloads (another locale's texts, the signed-in part), the stylesheet,
    // the page data and the default locale's texts; then, last, the entry module, whose import asks for the one
    // file the login page needs after this document, the shared code. Last (and no <link rel=modulepreload>
    // earlier), so the browser asks for it once the document is in: over HTTP/1.1 it then takes the document's
    // connection, free again, where a request made while the document still comes in opens a connection of its
    // own with its handshakes (docs/PERFORMANCE.md, "The slow line"). Over HTTP/2 it is the same connection.
    `<script>${opts.inline}</script>` +
    `<style>${style}</style>` +
    `<script type="application/json" id="console-data">${scriptJson(JSON.stringify(opts.pageData))}</script>` +
    `<script type="application/json" id="console-lang-${INLINE_LOCALE}">${scriptJson(texts)}</script>` +
    `<script type="module">${code}</script>` +
    '</head><body><div id="app"></div><noscript>This console needs JavaScript.</noscript></body></html>\n';
  return { html, csp: cspFor(inline, 'header') };
}
