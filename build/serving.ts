// How a brand's set is served, in one place: the content types, the cache
// policy, the ETag, the security headers and the Content-Security-Policy.
// The simulator serves by these rules, the generated web server
// configurations (build/servers.ts) and the C file table (build/c-table.ts)
// carry them to a terminal's own server.
import { createHash } from 'node:crypto';
import { IPV4 } from '../contract/ipv4.ts';

/** Content type by file extension (what the console ships, and what a brand may add). */
export const CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['html', 'text/html; charset=utf-8'],
  ['js', 'text/javascript; charset=utf-8'],
  ['css', 'text/css; charset=utf-8'],
  ['svg', 'image/svg+xml'],
  ['png', 'image/png'],
  ['ico', 'image/x-icon'],
  ['woff2', 'font/woff2'],
  ['txt', 'text/plain; charset=utf-8'],
]);

export const contentType = (path: string) => CONTENT_TYPES.get(path.slice(path.lastIndexOf('.') + 1)) ?? 'application/octet-stream';

/** The one page: asked for at every URL the console routes, so it must be revalidated each time. */
export const INDEX = 'index.html';

/**
 * The third-party notices (build/papers.ts): plain text under the name such files usually have, so a
 * firmware's open-source notices screen or document takes it as it is, from the set or from its URL.
 */
export const NOTICES = 'THIRD-PARTY-NOTICES.txt';

/** The files whose names carry no hash: each keeps its name from release to release, so each is revalidated. */
export const UNHASHED: readonly string[] = [INDEX, NOTICES];

/** Every other file carries its content hash in its name (app-4K4OOUAK.js): it never changes. */
export const HASHED_STEM = '[a-z0-9]+(?:-[a-z0-9]+)*-[A-Z0-9]{8}';
export const HASHED_NAME = new RegExp(`^${HASHED_STEM}\\.[a-z0-9]+$`);

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';
export const cacheControl = (path: string) => (UNHASHED.includes(path) ? CACHE_REVALIDATE : CACHE_IMMUTABLE);

/** The ETag of a file: its gzip bytes' SHA-256 (the manifest's sha256), first 128 bits, quoted. */
export const etagOf = (sha256: string) => `"${sha256.slice(0, 32)}"`;

/**
 * Sent with every file: the browser must not guess a type (a device reply
 * served as a script), and no other site may show the console in a frame
 * (clickjacking; CSP's frame-ancestors says the same to newer browsers).
 */
export const COMMON_HEADERS: ReadonlyArray<[string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/** A CSP source for inline code: its text's SHA-256 (UTF-8), exactly as it stands between the tags. */
export const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The console's Content-Security-Policy, written once here: index.html
 * carries the meta form (a server that sends no headers still gets it), the
 * manifest's `csp` holds the header form, which adds frame-ancestors
 * (ignored in a meta tag). No 'unsafe-inline': index.html's inline scripts
 * (the one that starts the downloads, the entry module) and its one inline
 * style are allowed by their hashes (`inline`, the exact texts), so an
 * injected script or style runs nowhere.
 *
 * - default-src 'self': everything else (fetch and XHR to /goform/, the
 *   app's modules and stylesheets) comes from the terminal itself;
 * - img-src blob:: the face photo and the test shot are /goform/ replies
 *   shown through object URLs (URL.createObjectURL); data:: the brand's logo,
 *   carried in index.html (an image: it runs no script);
 * - object-src, base-uri 'none'; form-action 'self' (no form leaves the
 *   terminal): these do not fall back to default-src.
 *
 * Styles the console sets from code go through the CSSOM (element.style),
 * which CSP does not restrict; it writes no style attribute into markup.
 */
export function cspFor(inline: { scripts: string[]; styles: string[] }, form: 'meta' | 'header' = 'header'): string {
  const own = (list: string[]) => ["'self'", ...list.map(cspHash)].join(' ');
  const directives = [
    "default-src 'self'",
    `script-src ${own(inline.scripts)}`,
    `style-src ${own(inline.styles)}`,
    "img-src 'self' blob: data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    ...(form === 'header' ? ["frame-ancestors 'none'"] : []),
  ];
  return directives.join(';');
}

/** The headers every file of a set is sent with: COMMON_HEADERS and, when the set has one (its manifest's csp), the policy. */
export const securityHeaders = (csp: string | undefined): Array<[string, string]> => [
  ...COMMON_HEADERS,
  ...(csp ? [['Content-Security-Policy', csp] as [string, string]] : []),
];

/** Paths the console's web server hands to the device's API instead of serving a file. */
export const API_PREFIX = '/goform/';

/** A brand's files that break these rules (an unknown type, a name without a hash): the build refuses them. */
export function servingProblems(paths: string[]): string[] {
  const problems: string[] = [];
  for (const p of paths) {
    if (!CONTENT_TYPES.has(p.slice(p.lastIndexOf('.') + 1))) problems.push(`${p}: no content type for its extension (build/serving.ts)`);
    if (!UNHASHED.includes(p) && !HASHED_NAME.test(p)) problems.push(`${p}: not ${UNHASHED.join(' or ')} and no content hash in its name, so it cannot be cached for good`);
  }
  return problems;
}

// ---------------------------------------------------------------------------
// Who the terminal answers (docs/API.md, "Host and Origin"): the same rules in
// the simulator, the generated lighttpd and nginx configurations and the
// civetweb reference server.

/** What a request for a Host the terminal does not answer gets: HTTP 421 (Misdirected Request) and this page. */
export const HOST_REFUSED = { status: 421, body: 'This terminal does not answer to that name. Open it by its IP address, or add the name under Network > Security protocol.\n' };
/** What a /goform/ call whose Origin is not the page it was sent to gets: HTTP 403 and this text. */
export const ORIGIN_REFUSED = { status: 403, body: 'Refused: the call came from another site (Origin does not match Host).\n' };
/** How many names the administrator may add (RestParam.HostNames), and how long each may be: the contract's. */
export { HOST_NAMES_MAX, HOST_NAME_MAX_LENGTH } from '../contract/settings/network.ts';
/** A name the administrator may add (the contract's rule for one name of RestParam.HostNames). */
export { HOST_NAME_PATTERN } from '../contract/settings/network.ts';

const V6 = /^\[[0-9A-Fa-f:.]+(%25[0-9A-Za-z._~-]+)?\]$/;
/** The IP literals hostAllowed takes, as regular expression sources: the nginx configuration names them (build/servers.ts). */
export const IP_LITERALS = { v4: IPV4.source, v6: V6.source } as const;

/** A Host header's name, without its port: "192.168.1.5", "[fe80::1]", "terminal.example". Null when it is not a Host at all. */
export function hostName(host: string | undefined): string | null {
  if (!host) return null;
  const m = /^(\[[^\]]*\]|[^:\[\]]*)(?::(\d{1,5}))?$/.exec(host.trim());
  return m && m[1] ? m[1].toLowerCase() : null;
}

/**
 * Whether the terminal answers a request with this Host header: an IPv4
 * literal, an IPv6 literal in brackets, `localhost`, or one of the names the
 * administrator added (compared without case; a trailing dot is the same
 * name). Anything else, a missing Host included, is answered HOST_REFUSED:
 * that is what defeats DNS rebinding (a page whose own name now points at
 * the terminal sends that name).
 */
export function hostAllowed(host: string | undefined, names: readonly string[]): boolean {
  const name = hostName(host)?.replace(/\.$/, '');
  if (!name) return false;
  if (IPV4.test(name) || V6.test(name) || name === 'localhost') return true;
  return names.some((n) => n.toLowerCase().replace(/\.$/, '') === name);
}

/**
 * Whether a /goform/ call may go on by its Origin header: no Origin (a
 * script, the harness, an old browser's same-origin GET) is judged by its
 * token alone; an Origin must name the same host and port as Host (any
 * scheme: a page on https:// calls its own host). "null" (a sandboxed frame,
 * a file: page) is refused.
 */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (!host) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const port = url.port ? `:${url.port}` : '';
  const own = host.trim().toLowerCase();
  // Host may leave out the scheme's default port that Origin leaves out too, or spell it.
  const withDefault = `${url.hostname}${port || (url.protocol === 'https:' ? ':443' : ':80')}`;
  return own === `${url.hostname}${port}` || own === withDefault;
}
