// How a brand's set is served, in one place: the content types, the cache
// policy, the ETag. The simulator serves by these rules, the generated web
// server configurations (build/servers.ts) and the C file table
// (build/c-table.ts) carry them to a terminal's own server.

/** Content type by file extension (what the console ships, and what a brand may add). */
export const CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['html', 'text/html; charset=utf-8'],
  ['js', 'text/javascript; charset=utf-8'],
  ['css', 'text/css; charset=utf-8'],
  ['svg', 'image/svg+xml'],
  ['png', 'image/png'],
  ['ico', 'image/x-icon'],
  ['woff2', 'font/woff2'],
]);

export const contentType = (path: string) => CONTENT_TYPES.get(path.slice(path.lastIndexOf('.') + 1)) ?? 'application/octet-stream';

/** The one page: asked for at every URL the console routes, so it must be revalidated each time. */
export const INDEX = 'index.html';

/** Every other file carries its content hash in its name (app-4K4OOUAK.js): it never changes. */
export const HASHED_STEM = '[a-z0-9]+(?:-[a-z0-9]+)*-[A-Z0-9]{8}';
export const HASHED_NAME = new RegExp(`^${HASHED_STEM}\\.[a-z0-9]+$`);

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';
export const cacheControl = (path: string) => (path === INDEX ? CACHE_REVALIDATE : CACHE_IMMUTABLE);

/** The ETag of a file: its gzip bytes' SHA-256 (the manifest's sha256), first 128 bits, quoted. */
export const etagOf = (sha256: string) => `"${sha256.slice(0, 32)}"`;

/** Sent with every file. */
export const COMMON_HEADERS: ReadonlyArray<[string, string]> = [['X-Content-Type-Options', 'nosniff']];

/** Paths the console's web server hands to the device's API instead of serving a file. */
export const API_PREFIX = '/goform/';

/** A brand's files that break these rules (an unknown type, a name without a hash): the build refuses them. */
export function servingProblems(paths: string[]): string[] {
  const problems: string[] = [];
  for (const p of paths) {
    if (!CONTENT_TYPES.has(p.slice(p.lastIndexOf('.') + 1))) problems.push(`${p}: no content type for its extension (build/serving.ts)`);
    if (p !== INDEX && !HASHED_NAME.test(p)) problems.push(`${p}: not index.html and no content hash in its name, so it cannot be cached for good`);
  }
  return problems;
}
