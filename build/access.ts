// Who the console's web server answers, and how, on a terminal: the access
// file the firmware writes from RestParam (HostNames, Protocol), the TLS
// settings and the HSTS header the three servers share, and lighttpd's
// access.lua, which applies build/serving.ts's hostAllowed and originAllowed
// (lighttpd's configuration cannot compare one header with another, so the
// Origin check needs a script; the Host check goes with it, reading the same
// plain file as the civetweb server). docs/EMBEDDING.md, "Host names and
// HTTPS", is the firmware engineer's page for all of it.
import { API_PREFIX, HOST_NAMES_MAX, HOST_NAME_PATTERN, HOST_REFUSED, ORIGIN_REFUSED } from './serving.ts';

/** The folder the device keeps these in; each file's name in it is below (options: --etc). */
export const ETC_DEFAULT = '/etc/console';
/** The device's certificate and key (PEM): made at first boot, or installed from the console (RestParam's certificate screen). */
export const TLS_FILES = { cert: 'cert.pem', key: 'key.pem' } as const;
/** The access file in its two formats: plain (lighttpd's access.lua and the civetweb server read it) and nginx's include. */
export const ACCESS_FILES = { plain: 'access.txt', nginx: 'access-nginx.conf' } as const;
export type AccessFormat = keyof typeof ACCESS_FILES;
/** lighttpd's script (mod_magnet), written by the build beside the access file. */
export const ACCESS_LUA = 'access.lua';

/** TLS 1.2 and 1.3 only. TLS 1.2 with forward secrecy and AEAD ciphers alone (Mozilla's "intermediate"); 1.3's suites are all good. */
export const TLS_MIN = 'TLSv1.2';
export const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');
/** How long a server keeps an idle connection: longer than a password takes to type, so the sign-in reuses the login page's connection. */
export const KEEP_ALIVE_SECONDS = 60;
/** How long a TLS session may be resumed (a ticket's lifetime): a second visit within it skips the certificate. */
export const TLS_SESSION_SECONDS = 3600;
/**
 * The most a server puts in one TLS record (plaintext bytes): with its 22 bytes of TLS 1.3 framing a
 * record fits one TCP segment (1,460 bytes on Ethernet, less with options or a tunnel). A browser
 * can read a record only once all of it has come, so with 16 KB records (OpenSSL's default) it gets
 * the document's headers and first bytes when the whole document has crossed a slow line, and only
 * then starts the page (docs/PERFORMANCE.md); with records a segment long it reads each as it
 * arrives, as over plain HTTP. The cost: 22 bytes a record, about 1.6 %.
 */
export const TLS_RECORD_BYTES = 1400;
/** Sent over HTTPS when Protocol is 1 (HTTPS only): the browser then never tries HTTP for that name for a year. */
export const HSTS = 'max-age=31536000';
/** The headers a refusal (HOST_REFUSED, ORIGIN_REFUSED) goes with, as the simulator sends them. */
export const REFUSAL_HEADERS: ReadonlyArray<[string, string]> = [
  ['Content-Type', 'text/plain; charset=utf-8'],
  ['Cache-Control', 'no-store'],
  ['X-Content-Type-Options', 'nosniff'],
];

/** What the web server needs of RestParam: the names added besides IP literals and localhost, and 0 (HTTP and HTTPS) or 1 (HTTPS only). */
export interface Access {
  names: readonly string[];
  protocol: 0 | 1;
}

/** RestParam as the contract has it (HostNames: names separated by single spaces). */
export const accessOf = (rest: { HostNames?: unknown; Protocol?: unknown }): Access => ({
  names: String(rest.HostNames ?? '').split(' ').filter(Boolean),
  protocol: rest.Protocol === 1 ? 1 : 0,
});

const NAME = new RegExp(HOST_NAME_PATTERN);

/**
 * The access file, as the firmware writes it whenever HostNames or Protocol
 * changes (the build writes the factory one: no names, Protocol 0). Each name
 * is checked again here: the file goes into a server's configuration, so a
 * name that is not one (a quote, a space, a regular expression) must never
 * reach it.
 */
export function accessFile(format: AccessFormat, a: Access): string {
  if (a.names.length > HOST_NAMES_MAX) throw new Error(`${a.names.length} host names: at most ${HOST_NAMES_MAX}`);
  for (const n of a.names) if (!NAME.test(n)) throw new Error(`${JSON.stringify(n)} is not a host name (build/serving.ts HOST_NAME_PATTERN)`);
  if (a.protocol !== 0 && a.protocol !== 1) throw new Error(`Protocol ${String(a.protocol)}: 0 or 1`);
  const head = `# The console's access file (docs/EMBEDDING.md, "Host names and HTTPS"): RestParam's\n# HostNames and Protocol, written by the firmware whenever they change.\n`;
  if (format === 'nginx')
    return `${head}# Included in the console's server block; then \`nginx -s reload\`.\n${a.names.length ? `server_name ${a.names.join(' ')};\n` : ''}set $console_https_only ${a.protocol};\n`;
  return `${head}# Read when it changes: nothing to reload.\nprotocol ${a.protocol}\n${a.names.map((n) => `name ${n}\n`).join('')}`;
}

/** A Lua string literal for ASCII text. */
const luaString = (s: string) => {
  if (!/^[\x20-\x7e\n]*$/.test(s)) throw new Error(`not printable ASCII, cannot go in access.lua: ${JSON.stringify(s)}`);
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
};

/**
 * lighttpd's access.lua (mod_magnet, lighttpd 1.4.60 or later:
 * magnet.attract-raw-url-to), run before anything else for every request:
 * a Host the console does not answer gets HOST_REFUSED (421); a /goform/
 * call whose Origin is not its Host gets ORIGIN_REFUSED (403); with
 * Protocol 1, HTTP answers a redirect to the same path on https and HTTPS
 * carries HSTS. It reads the plain access file at each request (a few
 * hundred bytes), so a change needs no reload.
 */
export function accessLua(o: { accessFile: string; httpsPort: number }): string {
  const headers = REFUSAL_HEADERS.map(([k, v]) => `  r.resp_header[${luaString(k)}] = ${luaString(v)}`).join('\n');
  return `-- access.lua: who the web console answers, for lighttpd's mod_magnet. Generated by
-- \`npm run build -- --server lighttpd\`; see docs/EMBEDDING.md, "Host names and HTTPS".
-- The rules are build/serving.ts's hostAllowed and originAllowed.
local ACCESS_FILE = ${luaString(o.accessFile)}
local HTTPS_PORT = ${o.httpsPort}
local NAMES_MAX = ${HOST_NAMES_MAX}
local API_PREFIX = ${luaString(API_PREFIX)}
local HSTS = ${luaString(HSTS)}
local HOST_REFUSED = ${luaString(HOST_REFUSED.body)}
local ORIGIN_REFUSED = ${luaString(ORIGIN_REFUSED.body)}

local r = lighty.r

-- The access file: "protocol 0" or "protocol 1", and a "name <host>" line per added name.
-- Missing: no names, Protocol 0 (the factory settings).
local function read_access()
  local names, protocol = {}, 0
  local f = io.open(ACCESS_FILE, "r")
  if f == nil then return names, protocol end
  for line in f:lines() do
    local key, value = line:match("^(%a+)%s+(%S+)%s*$")
    if key == "protocol" then
      protocol = value == "1" and 1 or 0
    elseif key == "name" and #names < NAMES_MAX then
      names[#names + 1] = (value:lower():gsub("%.$", ""))
    end
  end
  f:close()
  return names, protocol
end

-- A Host header's name without its port ("192.168.1.5", "[fe80::1]", "terminal.example"), or nil.
local function host_name(host)
  if host == nil then return nil end
  host = host:match("^%s*(.-)%s*$"):lower()
  local name, rest
  if host:sub(1, 1) == "[" then
    name, rest = host:match("^(%[[^%]]*%])(.*)$")
  else
    name, rest = host:match("^([^:%[%]]*)(.*)$")
  end
  if name == nil or name == "" then return nil end
  if rest ~= "" and rest:match("^:%d%d?%d?%d?%d?$") == nil then return nil end
  return name
end

local function ipv4(name)
  local octets = { name:match("^(%d+)%.(%d+)%.(%d+)%.(%d+)$") }
  if #octets ~= 4 then return false end
  for _, o in ipairs(octets) do
    if #o > 3 or (#o > 1 and o:sub(1, 1) == "0") or tonumber(o) > 255 then return false end
  end
  return true
end

local function ipv6(name)
  return name:match("^%[[%x:.]+%]$") ~= nil or name:match("^%[[%x:.]+%%25[%w._~-]+%]$") ~= nil
end

local function host_allowed(host, names)
  local name = host_name(host)
  if name == nil then return false end
  name = name:gsub("%.$", "")
  if name == "" then return false end
  if ipv4(name) or ipv6(name) or name == "localhost" then return true end
  for _, n in ipairs(names) do
    if n == name then return true end
  end
  return false
end

-- No Origin: a script or an old browser, judged by its token. Else scheme://host[:port] naming Host.
local function origin_allowed(origin, host)
  if origin == nil then return true end
  if host == nil then return false end
  origin = origin:lower()
  local scheme, name, rest = origin:match("^(https?)://(%[[^%]/]+%])(.*)$")
  if scheme == nil then scheme, name, rest = origin:match("^(https?)://([^:/%[%]]+)(.*)$") end
  if scheme == nil then return false end
  local port = rest:match("^:(%d+)$")
  if rest ~= "" and port == nil then return false end
  local default = scheme == "https" and "443" or "80"
  if port == default then port = nil end
  local own = host:match("^%s*(.-)%s*$"):lower()
  return own == name .. (port and ":" .. port or "") or own == name .. ":" .. (port or default)
end

local function refuse(what)
${headers}
  r.resp_body:set({ what })
end

local host = r.req_attr["uri.authority"]
local names, protocol = read_access()
if not host_allowed(host, names) then
  refuse(HOST_REFUSED)
  return ${HOST_REFUSED.status}
end
local https = r.req_attr["uri.scheme"] == "https"
if protocol == 1 and not https then
  local port = HTTPS_PORT == 443 and "" or ":" .. HTTPS_PORT
  r.resp_header["Location"] = "https://" .. host_name(host) .. port .. r.req_attr["request.orig-uri"]
  return 301
end
local path = r.req_attr["uri.path"] or ""
if path:sub(1, #API_PREFIX) == API_PREFIX and not origin_allowed(r.req_header["Origin"], host) then
  refuse(ORIGIN_REFUSED)
  return ${ORIGIN_REFUSED.status}
end
if protocol == 1 and https then r.resp_header["Strict-Transport-Security"] = HSTS end
return 0
`;
}
