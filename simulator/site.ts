// The site: the console as the simulated terminal serves it, one brand's
// gzip set from a build (dist/<brand>: manifest.json and each file's .gz),
// the way firmware would, by build/serving.ts's rules. Everything outside
// /goform/ is the site's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheControl, contentType, etagOf, securityHeaders } from '../build/serving.ts';
import { decodable } from './body.ts';

export interface Site {
  files: Map<string, { sha256: string }>;
  dir: string;
  /** The set's Content-Security-Policy header (manifest.json's csp; a set built before it has none). */
  csp?: string;
  /** The set's brand (manifest.json's brand). */
  brand?: string;
}

/** The set in `dir`, or null: no folder, or no manifest.json in it (no console installed). */
export function loadSite(dir: string | undefined): Site | null {
  if (!dir || !existsSync(join(dir, 'manifest.json'))) return null;
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { csp?: string; brand?: string; files: { path: string; sha256: string }[] };
  return { dir, csp: manifest.csp, brand: manifest.brand, files: new Map(manifest.files.map((f) => [f.path, { sha256: f.sha256 }])) };
}

/** Answer a request outside /goform/: GET and HEAD only. */
export function serveSite(site: Site | null, req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  // A path whose %-escapes are not UTF-8 (/%zz, /%e0%a4%a) names nothing: the request is bad, not the server.
  if (!decodable(url.pathname)) {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request: the path is not valid percent-encoded UTF-8.\n');
    return;
  }
  if (!site) {
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('No console is installed on this terminal.\n');
    return;
  }
  let path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  // Unknown non-API paths get index.html: the console routes in the browser.
  if (!site.files.has(path)) path = 'index.html';
  const entry = site.files.get(path);
  if (!entry) {
    res.writeHead(404).end();
    return;
  }
  const etag = etagOf(entry.sha256);
  // build/serving.ts: hashed names never change content; index.html is revalidated every time;
  // every file carries the security headers (nosniff, X-Frame-Options, the set's policy).
  const headers: Record<string, string> = {
    'Content-Type': contentType(path),
    'Content-Encoding': 'gzip',
    Vary: 'Accept-Encoding',
    ETag: etag,
    'Cache-Control': cacheControl(path),
    ...Object.fromEntries(securityHeaders(site.csp)),
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const body = readFileSync(join(site.dir, `${path}.gz`));
  headers['Content-Length'] = String(body.length);
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
