// Build step (--server lighttpd|nginx): the configuration that serves a
// brand's set on a Linux terminal's web server by build/serving.ts's rules.
// Only the .gz files are installed; the configuration answers each request
// from its .gz twin with Content-Encoding: gzip, the right content type,
// a year's cache for hashed names and revalidation for index.html, the
// security headers (nosniff, X-Frame-Options, the set's Content-Security-
// Policy), index.html (200) for every other path outside /goform/, and
// /goform/ handed to the device's API with Host and Origin as they came.
// Over HTTP and HTTPS (TLS 1.2 and up, the device's certificate), only for a
// Host the terminal answers (421 otherwise), /goform/ only from the page's
// own Origin (403 otherwise), by the access file the firmware writes from
// RestParam (build/access.ts). tests/servers proves both on Debian's packages.
import { API_PREFIX, CACHE_IMMUTABLE, CACHE_REVALIDATE, CONTENT_TYPES, HASHED_STEM, HOST_REFUSED, INDEX, IP_LITERALS, NOTICES, ORIGIN_REFUSED, securityHeaders } from './serving.ts';
import { ACCESS_FILES, ACCESS_LUA, ETC_DEFAULT, HSTS, KEEP_ALIVE_SECONDS, REFUSAL_HEADERS, TLS12_CIPHERS, TLS_FILES, TLS_MIN, TLS_RECORD_BYTES, TLS_SESSION_SECONDS, accessFile, accessLua } from './access.ts';
import { FIRMWARE_MAX_BYTES } from '../contract/maintenance.ts';

export const SERVERS = ['lighttpd', 'nginx'] as const;
export type ServerKind = (typeof SERVERS)[number];

export interface ServerOptions {
  brand: string;
  version: string;
  /** Where the set is installed: the folder (or the symlink to the live release) holding the .gz files. */
  root: string;
  /** HTTP: "80", or "127.0.0.1:8080". */
  listen: string;
  /** HTTPS: "443", or "127.0.0.1:8443". */
  https?: string;
  /** The device's API: "127.0.0.1:8081", or "unix:/run/api.sock". */
  api: string;
  /** The folder holding cert.pem, key.pem and the access file (and lighttpd's access.lua): build/access.ts. */
  etc?: string;
  /** The set's Content-Security-Policy header (its manifest's csp); without it none is sent. */
  csp?: string;
}

export const SERVER_DEFAULTS = { root: '/www', listen: '80', https: '443', api: '127.0.0.1:8081', etc: ETC_DEFAULT };

/** The file name a server's configuration is written under. */
export const CONFIG_FILE: Record<ServerKind, string> = { lighttpd: 'lighttpd.conf', nginx: 'nginx-console.conf' };
/** The access file each server reads (its factory form is written beside the configuration). */
export const SERVER_ACCESS_FILE: Record<ServerKind, string> = { lighttpd: ACCESS_FILES.plain, nginx: ACCESS_FILES.nginx };

/** Largest request the API gets through the server: a firmware image plus its multipart envelope. */
const MAX_BODY_MIB = Math.ceil(FIRMWARE_MAX_BYTES / 1048576) + 1;

function parseListen(listen: string, flag = '--listen'): { host?: string; port: number } {
  const m = /^(?:(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]):)?(\d{1,5})$/.exec(listen);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) throw new Error(`${flag} ${listen}: use a port (80) or address:port (127.0.0.1:8080)`);
  return { host: m[1], port: Number(m[2]) };
}

function parseApi(api: string): { socket: string } | { host: string; port: number } {
  if (api.startsWith('unix:/')) return { socket: api.slice(5) };
  const m = /^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(api);
  if (!m) throw new Error(`--api ${api}: use host:port (127.0.0.1:8081) or unix:/path/to/socket`);
  return { host: m[1], port: Number(m[2]) };
}

function checkPath(path: string, flag: string): string {
  if (!/^\/[A-Za-z0-9._/-]*$/.test(path)) throw new Error(`${flag} ${path}: an absolute path of letters, digits, . _ - and /`);
  return path.replace(/(.)\/+$/, '$1');
}

/** Both listeners and the device's files, checked: HTTP and HTTPS must differ. */
function places(o: ServerOptions) {
  const http = parseListen(o.listen);
  const https = parseListen(o.https ?? SERVER_DEFAULTS.https, '--https');
  if ((http.host ?? '') === (https.host ?? '') && http.port === https.port) throw new Error(`--listen ${o.listen} and --https ${o.https}: HTTP and HTTPS need their own port`);
  const etc = checkPath(o.etc ?? SERVER_DEFAULTS.etc, '--etc');
  return { root: checkPath(o.root, '--root'), http, https, etc, cert: `${etc}/${TLS_FILES.cert}`, key: `${etc}/${TLS_FILES.key}` };
}

const exts = [...CONTENT_TYPES.keys()].join('|');
/** A file name as a literal in a lighttpd regular expression: each character a regular expression reads otherwise after a backslash. */
const lighttpdLiteral = (name: string) => name.replace(/[.+*?()[\]{}|^$\\]/g, (c) => `\\${c}`);

/** The security headers, each value checked to go between a configuration's double quotes as it is (no ", \ or $). */
function security(o: ServerOptions): Array<[string, string]> {
  const headers = securityHeaders(o.csp);
  for (const [name, value] of headers) if (!/^[\x20-\x7e]*$/.test(value) || /["\\$]/.test(value)) throw new Error(`${name}: ${JSON.stringify(value)} cannot be quoted in a configuration`);
  return headers;
}

const banner = (o: ServerOptions, kind: ServerKind) =>
  `# The web console (brand ${o.brand}, version ${o.version}) on ${kind}.\n` +
  `# Generated by \`npm run build -- --brand ${o.brand} --server ${kind} --root ${o.root} --listen ${o.listen} --https ${o.https ?? SERVER_DEFAULTS.https} --api ${o.api} --etc ${o.etc ?? SERVER_DEFAULTS.etc}\`; see docs/EMBEDDING.md.\n` +
  `# Install the brand's *.gz files (dist/${o.brand}/) in ${o.root}; nothing uncompressed is needed.\n`;

/**
 * A whole lighttpd.conf (lighttpd 1.4.60 or later, with mod_openssl and
 * mod_magnet): `lighttpd -f lighttpd.conf`. The URL is rewritten to its .gz
 * file, so the content type comes from the name before .gz and the headers
 * are set by the rewritten URL. A client that does not accept gzip still
 * gets gzip (lighttpd cannot decompress): every browser accepts it. Host,
 * Origin and Protocol are access.lua's (build/access.ts), run first.
 */
export function lighttpdConf(o: ServerOptions): string {
  const { root, http, https, etc, cert, key } = places(o);
  const api = parseApi(o.api);
  const backend = 'socket' in api ? `"socket" => "${api.socket}"` : `"host" => "${api.host.replace(/^\[|\]$/g, '')}", "port" => ${api.port}`;
  const types = [...CONTENT_TYPES].map(([ext, type]) => `  ".${ext}.gz" => "${type}",`).join('\n');
  const common = [['Content-Encoding', 'gzip'], ['Vary', 'Accept-Encoding'], ...security(o)].map(([k, v]) => `"${k}" => "${v}"`).join(', ');
  return `${banner(o, 'lighttpd')}
server.modules = ( "mod_magnet", "mod_rewrite", "mod_setenv", "mod_proxy", "mod_openssl" )
server.document-root = "${root}"
${http.host ? `server.bind = "${http.host.replace(/^\[|\]$/g, '')}"\n` : ''}server.port = ${http.port}
# Started as root? Name the account it should drop to (it reads the key first):
# server.username = "www-data"
# server.groupname = "www-data"
server.upload-dirs = ( "/tmp" )
# An idle connection stays open a minute (lighttpd's default is 5 s): the sign-in, typed after the
# login page has loaded, goes over the login page's connection instead of a new TCP and TLS handshake.
server.max-keep-alive-idle = ${KEEP_ALIVE_SECONDS}
# An update swaps ${root} to the new release (docs/EMBEDDING.md): no stat cache, so the next request sees it.
server.stat-cache-engine = "disable"
# A firmware image (${FIRMWARE_MAX_BYTES / 1048576} MiB) and its multipart envelope, in KiB.
server.max-request-size = ${MAX_BODY_MIB * 1024}

# HTTPS with the device's certificate (docs/EMBEDDING.md, "First boot: the certificate"), TLS 1.2 and up.
# lighttpd 1.4 has no setting for the size of its TLS records (up to 16 KB, where nginx and the civetweb
# server send ${TLS_RECORD_BYTES} bytes a record): the browser reads an answer only once all of its record has come.
$SERVER["socket"] == "${https.host ?? ''}:${https.port}" {
  ssl.engine = "enable"
  ssl.pemfile = "${cert}"
  ssl.privkey = "${key}"
  ssl.openssl.ssl-conf-cmd = ( "MinProtocol" => "${TLS_MIN}", "CipherString" => "${TLS12_CIPHERS}" )
}

# Before anything else: the Host the console answers (421), the Origin of a /goform/ call (403),
# and Protocol 1's redirect and HSTS, by the access file ${etc}/${ACCESS_FILES.plain}.
magnet.attract-raw-url-to = ( "${etc}/${ACCESS_LUA}" )

# The name before .gz decides the type (longest suffix wins).
mimetype.assign = (
${types}
)

# Every request outside ${API_PREFIX} is answered from a .gz file: a hashed name's own, the
# notices' own, else index.html (the console routes in the browser). A hashed name that is
# missing falls to the 404 handler, which also answers index.html with status 200.
url.rewrite-once = (
  "^(${API_PREFIX}.*)$" => "$1",
  "^/(${HASHED_STEM}\\.(?:${exts}))(?:\\?.*)?$" => "/$1.gz",
  "^/(${lighttpdLiteral(NOTICES)})(?:\\?.*)?$" => "/$1.gz",
  "^/" => "/${INDEX}.gz",
)
server.error-handler-404 = "/${INDEX}.gz"

$HTTP["url"] =~ "^${API_PREFIX}" {
  # The device's API (docs/API.md), Host as the browser sent it.
  proxy.server = ( "" => ( ( ${backend} ) ) )
  # Answers go on as they come, not held whole: live events (EventStream) stream through.
  server.stream-response-body = 2
} else $HTTP["url"] =~ "^/(${lighttpdLiteral(INDEX)}|${lighttpdLiteral(NOTICES)})\\.gz$" {
  # Names without a hash: the next release may change them under the same name.
  setenv.set-response-header = ( ${common}, "Cache-Control" => "${CACHE_REVALIDATE}" )
} else $HTTP["url"] =~ "\\.gz$" {
  # Hashed names (app-4K4OOUAK.js) never change content.
  setenv.set-response-header = ( ${common}, "Cache-Control" => "${CACHE_IMMUTABLE}" )
}
`;
}

/** A text as an nginx double-quoted string (nginx reads \\n and \\" in it). */
const nginxString = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;

/**
 * An nginx configuration (nginx 1.9.5 or later, with the ssl, http_v2, gzip_static and
 * gunzip modules, which Debian builds): put it in /etc/nginx/conf.d/ (it
 * holds a map and two server blocks). The first server answers every name
 * the console does not (HOST_REFUSED); the console's server answers the IP
 * literals, localhost and, from the access file, the added names. gzip_static
 * answers from the .gz file; a client that does not accept gzip gets it
 * decompressed by gunzip.
 */
export function nginxConf(o: ServerOptions): string {
  const { root, http, https, etc, cert, key } = places(o);
  const api = parseApi(o.api);
  const upstream = 'socket' in api ? `http://unix:${api.socket}:` : `http://${api.host}:${api.port}`;
  const byType = new Map<string, string[]>();
  for (const [ext, type] of CONTENT_TYPES) {
    const t = type.replace(/;.*$/, '');
    byType.set(t, [...(byType.get(t) ?? []), ext]);
  }
  const types = [...byType].map(([t, e]) => `    ${t} ${e.join(' ')};`).join('\n');
  const charsetTypes = [...byType.keys()].filter((t) => t !== 'text/html' && [...CONTENT_TYPES.values()].some((v) => v.startsWith(`${t};`)));
  const prefix = API_PREFIX.replace(/\/$/, '');
  const headers = (always: string) => [...security(o), ['Strict-Transport-Security', '$console_hsts'] as [string, string]].map(([k, v]) => `    add_header ${k} "${v}"${always};`).join('\n');
  const at = (l: { host?: string; port: number }) => `${l.host ? `${l.host}:` : ''}${l.port}`;
  // HTTP/2 over TLS: the login page's files come over the document's connection in parallel, where
  // HTTP/1.1 opens a connection (a TCP and a TLS handshake) for each (docs/PERFORMANCE.md). nginx 1.25.1
  // and later prefer \`http2 on;\` and warn about this form, which they still take.
  const listen = (extra: string) => `  listen ${at(http)}${extra};\n  listen ${at(https)} ssl http2${extra};`;
  // Sessions resumed for an hour (tickets, and a cache for clients without them): a second visit skips the
  // certificate. TLS 1.3's resumption keeps a fresh key exchange (psk_dhe_ke), so forward secrecy holds.
  const tls =
    `  ssl_certificate ${cert};\n  ssl_certificate_key ${key};\n  ssl_protocols ${TLS_MIN} TLSv1.3;\n  ssl_ciphers ${TLS12_CIPHERS};\n  ssl_prefer_server_ciphers off;\n` +
    `  ssl_session_cache shared:console_tls:1m;\n  ssl_session_timeout ${TLS_SESSION_SECONDS}s;\n` +
    // TLS records a TCP segment long (TLS_RECORD_BYTES): the browser reads the answers as they arrive.
    `  ssl_buffer_size ${TLS_RECORD_BYTES};`;
  const refusal = (what: { status: number; body: string }, indent: string) =>
    [...REFUSAL_HEADERS.filter(([k]) => k !== 'Content-Type').map(([k, v]) => `add_header ${k} "${v}" always;`), `return ${what.status} ${nginxString(what.body)};`].map((l) => indent + l).join('\n');
  return `${banner(o, 'nginx')}
# 1 when a /goform/ call's Origin does not name the Host it was sent to (build/serving.ts
# originAllowed): no Origin passes; an Origin passes when it is scheme://Host, the scheme's
# default port spelt out or left out on either side.
map "$http_host $http_origin" $console_foreign_origin {
  default 1;
  "~^\\S* $" 0;
  "~*^(\\S+) https?://\\1$" 0;
  "~*^(\\S+):80 http://\\1$" 0;
  "~*^(\\S+):443 https://\\1$" 0;
  "~*^(\\S+) http://\\1:80$" 0;
  "~*^(\\S+) https://\\1:443$" 0;
}

# 1 when the Host header is not a name and an optional port (build/serving.ts hostName): nginx
# itself would take "127.0.0.1:80:80" as 127.0.0.1.
map $http_host $console_host_malformed {
  "~^\\s*(\\[[^\\]]*\\]|[^:\\[\\]]*)(:\\d{1,5})?\\s*$" 0;
  default 1;
}

# Every name the console does not answer (a rebound DNS name, a missing Host): ${HOST_REFUSED.status} and a short page.
server {
${listen(' default_server')}
${tls}
  types { }
  default_type "text/plain; charset=utf-8";
${refusal(HOST_REFUSED, '  ')}
}

server {
${listen('')}
  # IP literals (v4; v6 in brackets) and localhost; the access file adds the administrator's names.
  server_name localhost "~${IP_LITERALS.v4}" "~${IP_LITERALS.v6}";
  if ($console_host_malformed) {
    rewrite ^ /.console-host-refused last;
  }
  set $console_https_only 0;
  include ${etc}/${ACCESS_FILES.nginx};
  # Protocol 1 (HTTPS only): HTTP answers a redirect to the same path on https, HTTPS carries HSTS.
  set $console_hsts "";
  set $console_protocol "$console_https_only$scheme";
  if ($console_protocol = 1http) {
    return 301 https://$host${https.port === 443 ? '' : `:${https.port}`}$request_uri;
  }
  if ($console_protocol = 1https) {
    set $console_hsts "${HSTS}";
  }
${tls}
  root ${root};

  types {
${types}
  }
  default_type application/octet-stream;
  charset utf-8;
  charset_types ${charsetTypes.join(' ')};

  # Only the .gz files are installed.
  gzip_static always;
  gunzip on;
  gzip_vary on;

  location = / {
    rewrite ^ /${INDEX} last;
  }
  location = /${INDEX} {
    add_header Cache-Control "${CACHE_REVALIDATE}" always;
${headers(' always')}
  }
  location = /${NOTICES} {
    # No hash in its name: the next release may change it under the same name.
    add_header Cache-Control "${CACHE_REVALIDATE}";
${headers('')}
  }
  location / {
    # Any path that names no file: index.html, status 200 (the console routes in the browser).
    error_page 404 = /${INDEX};
    add_header Cache-Control "${CACHE_IMMUTABLE}";
${headers('')}
  }
  location = ${prefix} {
    rewrite ^ /${INDEX} last;
  }
  location = /.console-host-refused {
    internal;
    types { }
    default_type "text/plain; charset=utf-8";
${refusal(HOST_REFUSED, '    ')}
  }
  location ${API_PREFIX} {
    # The device's API (docs/API.md): a call from another site's page is refused here.
    default_type "text/plain; charset=utf-8";
    if ($console_foreign_origin) {
${refusal(ORIGIN_REFUSED, '      ')}
    }
    proxy_pass ${upstream};
    proxy_http_version 1.1;
    # Host and Origin as the browser sent them (the API checks them again), and the scheme it used.
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header Connection "";
    client_max_body_size ${MAX_BODY_MIB}m;
    proxy_read_timeout 120s;
  }
}
`;
}

export const serverConf = (kind: ServerKind, o: ServerOptions) => (kind === 'nginx' ? nginxConf(o) : lighttpdConf(o));

/**
 * Everything the build writes for a server, by file name: its configuration,
 * the factory access file (no added names, Protocol 0; the firmware rewrites
 * it) and, for lighttpd, access.lua. The last two go in --etc on the device.
 */
export function serverFiles(kind: ServerKind, o: ServerOptions): Array<[string, string]> {
  const { etc, https } = places(o);
  const factory = { names: [], protocol: 0 } as const;
  if (kind === 'nginx') return [[CONFIG_FILE.nginx, nginxConf(o)], [ACCESS_FILES.nginx, accessFile('nginx', factory)]];
  return [
    [CONFIG_FILE.lighttpd, lighttpdConf(o)],
    [ACCESS_FILES.plain, accessFile('plain', factory)],
    [ACCESS_LUA, accessLua({ accessFile: `${etc}/${ACCESS_FILES.plain}`, httpsPort: https.port })],
  ];
}
