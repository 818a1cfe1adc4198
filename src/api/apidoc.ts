// Generates docs/API.md from the contract (`npm run docs`). A unit test fails
// when docs/API.md differs from what this prints, so the document cannot drift.
// Runs on Node only; the console never imports it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLS, ENVELOPE, GOFORM_PREFIX, HEADERS, REQUEST_TIMEOUT_MS, TIMESTAMP_PARAM, type CallSpec, type Field, type Fields } from './contract.ts';
import { CODE_MESSAGES, MESSAGES } from './errors.ts';
import { ACTIVATE_FIRST, WEAK_PASSWORD, ADDED_CODES, FW_BAD_SIGNATURE, FW_CHECKSUM, FW_NOT_NEWER, FW_UNKNOWN_KEY, FW_UNSIGNED, LOGIN_LOCKED, LOGIN_LOCK_RULES, REQUEST_MAX_BYTES, UNKNOWN_COMMAND } from './codes.ts';
import { COMMANDS, FIRMWARE_MAX_BYTES, PACKAGE, SIGNATURE } from './maintenance.ts';
import { HOST_NAMES_MAX } from './settings/network.ts';
import { HOST_REFUSED, ORIGIN_REFUSED } from '../../build/serving.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** msgid -> English text, from the English catalogue. */
function english(): Map<string, string> {
  const out = new Map<string, string>();
  const text = readFileSync(join(ROOT, 'locales/en/messages.po'), 'utf8');
  const re = /^msgid (".*")\nmsgstr (".*")$/gm;
  for (const m of text.matchAll(re)) out.set(JSON.parse(m[1]), JSON.parse(m[2]));
  return out;
}

const BEHAVIOUR: Record<number, string> = {
  10002: 'Shows the message, signs out after 1 s.',
  11001: 'As 10002.',
  10003: 'Handed to the screen, which marks the field named in `field`.',
  10005: 'Handed to the screen, which marks the field named in `field`.',
  40104: 'Signs out after 1 s (the device ended the session: idle too long).',
};

function kindText(f: Field): string {
  const parts: string[] = [f.kind === 'flag' ? '0 or 1' : f.kind];
  if (f.min !== undefined || f.max !== undefined) parts.push(`${f.min ?? '…'} to ${f.max ?? '…'}`);
  if (f.maxLength !== undefined) parts.push(`at most ${f.maxLength} characters`);
  if (f.pattern) parts.push(`matches \`${f.pattern}\``);
  if (f.values) parts.push(`one of ${f.values.map((v) => `\`${v}\``).join(', ')}`);
  return parts.join(', ');
}

function fieldRows(fields: Fields, prefix = ''): string[] {
  const rows: string[] = [];
  for (const [name, f] of Object.entries(fields)) {
    rows.push(`| \`${prefix}${name}\` | ${kindText(f)} | ${f.optional ? 'no' : 'yes'} | ${f.doc} |`);
    if (f.fields) rows.push(...fieldRows(f.fields, `${prefix}${name}${f.kind === 'objects' ? '[]' : ''}.`));
  }
  return rows;
}

function fieldTable(title: string, fields: Fields): string[] {
  if (!Object.keys(fields).length) return [`${title}: none.`, ''];
  return [`${title}:`, '', '| field | kind | required | meaning |', '|---|---|---|---|', ...fieldRows(fields), ''];
}

/** What a device must refuse (issue 13): the rules the simulator keeps and the fuzz test checks. */
function refuseSection(): string[] {
  const r = LOGIN_LOCK_RULES;
  const waits: number[] = [];
  for (let n = r.free + 1; n < r.lockAfter; n++) waits.push(Math.min(r.firstWaitS * 2 ** (n - r.free - 1), r.maxWaitS));
  return [
    '## What a device must refuse',
    '',
    'The simulated terminal keeps every rule below, and the contract fuzz test (`npm test`; [HIL.md, "Fuzzing the API"](HIL.md#fuzzing-the-api))',
    'checks them on any terminal. Each refusal is an envelope (HTTP 200 unless said), never a 5xx, a reset or a hang, and',
    'a refused write changes nothing: the read afterwards answers exactly what it answered before.',
    '',
    '| the request has | the answer |',
    '|---|---|',
    '| a field the call does not list, built-in object names included (`toString`, `valueOf`, `constructor`, `__proto__`) | 10005 naming it. Nothing the contract does not name is ever stored or answered. |',
    '| `null` for any field, required or optional | 10005 naming it: a read never answers null where a number or text is promised |',
    '| a required field missing (absent; or empty, except for text fields) | 10003 naming it |',
    '| a value of another kind, outside `min`/`max`, longer than `maxLength`, off its `pattern` or not one of its `values` | 10005 naming it |',
    '| a control character (U+0000 to U+001F, U+007F to U+009F) in any text, or half of a UTF-16 surrogate pair (`"\\ud800"` in JSON) | 10005 naming the field: C firmware cuts text at NUL, and no field of this contract takes control characters |',
    '| a date or date and time (a field with a date format) that does not exist, such as 2031-02-30 or 2030-02-29 | 10005 naming it |',
    '| a body or query that is not UTF-8, or %-escapes that do not decode to UTF-8 | 10005 with `field` empty: never stored as U+FFFD |',
    '| a body that is not the call\'s encoding (not JSON, or JSON that is not an object; a multipart body that does not parse) | 10005 with `field` empty |',
    `| a JSON or URL-encoded body over ${REQUEST_MAX_BYTES} bytes (1 MiB); a multipart body over its file limit and 64 KiB | read to its end, then 10101 with \`field\` empty (a multipart call names its file field) |`,
    '| a call with the other method | HTTP 405 with `Allow` naming the call\'s method, envelope 10001 |',
    '| a path under `/goform/` that is no call | HTTP 404, envelope 10001 |',
    '| a file path whose %-escapes are not UTF-8 (`/%zz`, `/%e0%a4%a`) | HTTP 400 |',
    '| a token that is missing or unknown (calls that need a session) | 10002 |',
    '',
    '### Sign-in attempts',
    '',
    `\`chklogin\` limits password guessing with state a terminal can afford: a counter and a deadline per source address and`,
    `typed user name, and one per address (at most ${r.maxEntries} entries in all; past it the oldest that is not closed is dropped).`,
    '',
    `- The first ${r.free} wrong passwords (or unknown user names) for an address and user name cost nothing. Each further one`,
    `  closes sign-in for that pair for ${waits.join(', ')} s in turn; the ${r.lockAfter}th locks it for ${r.lockS / 60} minutes.`,
    `- The address counts too, whatever the user name: ${r.addressFree} free, then the same waits, and the ${r.addressLockAfter}th locks the`,
    `  address for ${r.lockS / 60} minutes, so made-up user names do not get round the lock.`,
    `- While closed, \`chklogin\` answers ${LOGIN_LOCKED} (\`msg.loginLocked\`) with \`wait\`, the seconds left, and \`minutes\`, the same rounded up,`,
    '  without looking at the password. The wrong password that closes it answers its own code (40301 or 40302) with `wait`.',
    '- Nothing waits on the device: no reply is held, no timer runs. A right password resets its address and user name;',
    `  a pair with no wrong password for ${r.forgetS / 60} minutes starts again from nothing.`,
    `- Nothing locks for good: the longest lock is ${r.lockS / 60} minutes, and restarting the terminal clears every lock (the`,
    '  administrator\'s last resort). A lock from one address never closes sign-in from another, so an attacker on the',
    '  network cannot lock the administrator out from every place.',
    '- Not covered: guessing spread over many addresses. The six-digit password space needs about a million guesses;',
    `  at ${r.lockAfter} every ${r.lockS / 60} minutes per address that is years per address.`,
    '',
    '### Headers with the console\'s files',
    '',
    'A device\'s web server should send, with `index.html` at least, the console\'s Content-Security-Policy as a header',
    '(`manifest.json` holds it; the page carries it as a meta tag too, but `frame-ancestors` works only as a header),',
    '`X-Frame-Options: DENY` and `X-Content-Type-Options: nosniff` (docs/EMBEDDING.md lists every header and why).',
    '',
  ];
}

/** Activation, whom the device answers, and how long a session lasts (issue 23; docs/SECURITY.md maps them to ETSI EN 303 645). */
function securitySection(): string[] {
  return [
    '## Activation',
    '',
    'No universal password in service (ETSI EN 303 645 provision 5.1-1). A terminal is in its **factory state** when it is',
    'new from production, or after initialization (`InitMachine`). Then:',
    '',
    '- The factory credential (user `admin`, the password printed in the manual; the simulated terminal\'s profile',
    '  `admin`) signs in, and `chklogin` answers `activate: 1`. That session may make only two calls: `Activate`, which',
    `  sets the administrator password, and \`logout\`. Every other call answers ${ACTIVATE_FIRST} (\`msg.activateFirst\`).`,
    '- The console shows one step after sign-in: the new password twice, the rules said at the field, and then the page the',
    '  administrator wanted.',
    `- The new password is six digits (SPEC §5), and \`Activate\` (like \`EditPwd\` later) refuses with ${WEAK_PASSWORD}`,
    '  (`msg.weakPassword`, field `newpwd`) what a brute-force list tries first:',
    '  - the factory password;',
    '  - one digit repeated (`000000`, `777777`);',
    '  - a run up or down, wrapping from 9 to 0 (`123456`, `890123`, `654321`, `109876`);',
    '  - six digits in a row of the serial number (`SetInfoParam` `Serial`, printed on the label).',
    '- Once activated, the factory credential no longer signs in (40302), an activation session opened meanwhile ends, and',
    '  the session that activated goes on as a full one. The password lives in the device\'s store like any setting.',
    '- The factory test\'s calls (`test_takephoto`, `SetDebugParam`, `GetDebugParam`: /test) are open without a session in',
    '  the factory state, as a production line needs; once activated they need a session like every other call.',
    '- `InitMachine` returns the terminal to its factory state; the serial-number keys and the firmware stay.',
    '',
    '## Host and Origin',
    '',
    'A device answers only requests meant for it, which defeats DNS rebinding (a web page whose own name an attacker',
    'points at the terminal\'s address). The rules are in `build/serving.ts`; the simulated terminal, the lighttpd and',
    'nginx configurations the build writes and the civetweb reference server apply the same (docs/EMBEDDING.md).',
    '',
    `- **Host.** The device answers a \`Host\` that is an IPv4 literal, an IPv6 literal in brackets, \`localhost\` (each with or`,
    `  without a port), or one of the names the administrator added in \`RestParam.HostNames\` (at most ${HOST_NAMES_MAX}; compared`,
    `  without case). Anything else, files and calls alike, gets HTTP ${HOST_REFUSED.status} and a short text page.`,
    `- **Origin.** A \`/goform/\` call whose \`Origin\` header does not name the same host and port as \`Host\` (or is \`null\`) gets`,
    `  HTTP ${ORIGIN_REFUSED.status} before anything is read: a cross-site form post or \`fetch\` cannot sign in or change a setting. A call`,
    '  without `Origin` (a script, the harness, a QA tool) is judged by its token as before.',
    '',
    '## Sessions',
    '',
    '- A session unused for `RestParam.IdleMinutes` minutes (1 to 60; 10 at the factory) ends: its next call answers 40104.',
    '  The console then says so on the sign-in page and returns to the same page after sign-in.',
    '- Sessions live in memory: a restart ends them all. Over HTTPS the console marks its cookies `Secure`.',
    '',
  ];
}

/** The firmware package's layout, signature and rules (UpdateMachine), from PACKAGE and SIGNATURE. */
function packageSection(): string[] {
  const [modelAt, modelLen] = PACKAGE.model;
  const [versionAt, versionLen] = PACKAGE.firmware;
  const [keyIdAt, keyIdLen] = SIGNATURE.keyId;
  const [valueAt, valueLen] = SIGNATURE.value;
  const rows: [number, number | string, string][] = [
    [0, PACKAGE.magic.length, `magic, the ASCII text \`${PACKAGE.magic}\``],
    [PACKAGE.magic.length, 1, `format version: ${PACKAGE.version}`],
    [PACKAGE.magic.length + 1, modelAt - PACKAGE.magic.length - 1, 'zero'],
    [modelAt, modelLen, 'model: SetInfoParam\'s `Model`; text field'],
    [versionAt, versionLen, 'firmware version, SetInfoParam\'s `Build_Version` after the upgrade; text field'],
    [PACKAGE.length, 4, 'payload length in bytes, unsigned, little-endian'],
    [PACKAGE.sha256, 32, 'SHA-256 of the payload'],
    [PACKAGE.header, '…', 'payload'],
  ];
  const block: [number, number, string][] = [
    [0, SIGNATURE.magic.length, `magic, the ASCII text \`${SIGNATURE.magic}\``],
    [SIGNATURE.magic.length, 1, `algorithm: ${SIGNATURE.ed25519}, Ed25519 (RFC 8032; pure Ed25519, over the bytes themselves, not a hash of them)`],
    [SIGNATURE.magic.length + 1, keyIdAt - SIGNATURE.magic.length - 1, 'zero'],
    [keyIdAt, keyIdLen, `key id: the first ${keyIdLen} bytes of SHA-256 of the signing key's 32-byte raw public key`],
    [valueAt, valueLen, 'the Ed25519 signature of every byte before the block: the header and the payload'],
  ];
  return [
    '## Firmware package',
    '',
    `\`UpdateMachine\` takes one file: a ${PACKAGE.header}-byte header, the payload, then the signature block (${SIGNATURE.bytes} bytes);`,
    `${FIRMWARE_MAX_BYTES} bytes in all at most.`,
    '',
    '| offset | bytes | content |',
    '|---|---|---|',
    ...rows.map(([at, n, what]) => `| ${at} | ${n} | ${what} |`),
    '',
    '- Text fields hold printable ASCII (one character or more, no space at either end), then NUL bytes to the end of the',
    '  field (nothing after the first NUL).',
    '- A version is an optional letter, then decimal numbers separated by dots (`V2.6.19`, `V2.6.18.2026.11`).',
    '- Newer: the numbers are compared left to right, as numbers; the first that differs decides. A missing number counts',
    '  as 0 and the letter does not count: `V2.6` = `V2.6.0` < `V2.6.0.1` < `V2.10`.',
    '',
    '### The signature',
    '',
    `Right after the payload (at ${PACKAGE.header} + the payload length) comes the vendor's signature block:`,
    '',
    '| offset in the block | bytes | content |',
    '|---|---|---|',
    ...block.map(([at, n, what]) => `| ${at} | ${n} | ${what} |`),
    '',
    '- The signature covers everything before it, byte for byte: no field is blanked while signing, and the header, with',
    '  the payload length and SHA-256, is signed along with the payload.',
    `- The header stays format ${PACKAGE.version}: a package from before signing is the same bytes without the block. A file exactly`,
    `  ${PACKAGE.header} + the payload length long is an unsigned package (${FW_UNSIGNED}), not garbage; any other length, or a block`,
    `  without its magic or with reserved bytes that are not zero, is not a package (10102).`,
    '- The device holds its vendor\'s public keys, for its brand, in its firmware (the simulated terminal: its profile\'s',
    '  `firmwareKeys`, a list per brand and a `default` list, each key the base64 of its 32 raw bytes). It looks the key',
    '  up by its key id; a signature can only be checked with the key it names, so an unknown key is answered before a',
    '  signature that does not verify.',
    '- Keys: `npm run firmware -- --new-key vendor.pem` writes a new private key (PKCS#8 PEM, mode 0600) and prints its',
    '  public key in the profile\'s form and its key id. With OpenSSL: `openssl genpkey -algorithm ed25519 -out vendor.pem`,',
    '  and the public key in the same form: `openssl pkey -in vendor.pem -pubout -outform DER | tail -c 32 | base64`.',
    '- Signing: `npm run firmware -- --model T10 --version V2.6.19 --out fw.bin --key vendor.pem`. Without `--key` the',
    `  package is unsigned and every device refuses it (${FW_UNSIGNED}). \`tests/keys/vendor-test.pem\` is a test key, public in this`,
    '  repository: the simulated terminal\'s default profile holds it so that tests and `npm start` can upgrade. A real',
    '  terminal never holds it.',
    '',
    '### Key rotation',
    '',
    'The key list is part of the firmware, so it changes only with an upgrade. A device holds several keys per brand,',
    'so the vendor can change its signing key without leaving a device behind:',
    '',
    '1. Make the new key. Publish a release, signed with the old key, whose key list holds both keys.',
    '2. From then on, sign with the new key. A device that installed that release accepts it; one that missed it',
    `   answers ${FW_UNKNOWN_KEY} until it has installed the bridging release (still signed with the old key, so keep it published).`,
    '3. Later, once the devices in the field have moved on, a release signed with the new key drops the old key from',
    '   the list. A leaked key is withdrawn the same way at once: a release signed with a key that stays drops it.',
    '',
    'The forced upgrade (`SetWebUpgradeMode`, /up) cannot get round any of this: it skips only "not newer".',
    '',
    'The device checks, in this order, before anything changes:',
    '',
    `1. Over ${FIRMWARE_MAX_BYTES} bytes: 10101.`,
    `2. Not a package (shorter than the header, another magic or format version, bytes ${PACKAGE.magic.length + 1} to ${modelAt - 1} not zero, a text`,
    `   field or version not as above, a file length other than ${PACKAGE.header} + the payload length, with or without the`,
    `   ${SIGNATURE.bytes}-byte block; a block that is not one), or another model: 10102.`,
    `3. The payload's SHA-256 is not the header's: ${FW_CHECKSUM}.`,
    `4. No signature block: ${FW_UNSIGNED}.`,
    `5. The block's algorithm is not Ed25519: ${FW_BAD_SIGNATURE}.`,
    `6. No key the device holds has the block's key id: ${FW_UNKNOWN_KEY}.`,
    `7. The signature does not verify with that key: ${FW_BAD_SIGNATURE}.`,
    `8. The version is not newer than the running firmware: ${FW_NOT_NEWER}, unless \`SetWebUpgradeMode\` opened the forced upgrade.`,
    '',
    '`npm run firmware -- --model T10 --version V2.6.19 --out fw.bin --key vendor.pem` writes a package (`hil/firmware.ts`;',
    '`--size`, `--zero`, `--corrupt`).',
    '',
  ];
}

/** ExecuteCommand's codes, from COMMANDS. */
function commandSection(): string[] {
  return [
    '## Command codes',
    '',
    `\`ExecuteCommand\` runs these codes and no other: any other code answers ${UNKNOWN_COMMAND} with \`field\` \`Code\`. None runs a shell`,
    'or any program. `Output` is plain text, lines separated by `\\n`.',
    '',
    '| code | what it does |',
    '|---|---|',
    ...Object.entries(COMMANDS).map(([code, what]) => `| ${code} | ${what} |`),
    '',
  ];
}

function callSection(name: string, c: CallSpec): string[] {
  const lines = [`### ${c.method} ${GOFORM_PREFIX}${c.path}`, '', c.purpose, ''];
  const enc = { query: 'URL query', json: 'JSON body (`application/json`)', form: 'URL-encoded body (`application/x-www-form-urlencoded`)', multipart: 'multipart body (`multipart/form-data`): text fields as text, files as file parts' }[c.encoding];
  lines.push(`- Parameters travel as: ${enc}.`, `- Needs a session token: ${c.auth === 'factory' ? 'once activated (without one only in the factory state, see "Activation")' : c.auth ? 'yes' : 'no'}.`);
  if (c.reply === 'file') lines.push('- A success answers the file itself (not JSON); a failure answers the JSON envelope with its code.');
  if (c.fieldsPending) {
    lines.push(`- Fields: not yet defined (${c.fieldsPending}). The simulated terminal answers 10001 until then.`, '');
    return lines;
  }
  lines.push('');
  lines.push(...fieldTable('Request', c.request), ...fieldTable('Response (besides the envelope)', c.response));
  return lines;
}

export function renderApiDoc(): string {
  const en = english();
  const text = (id: string) => en.get(id) ?? id;
  const areas = new Map<string, [string, CallSpec][]>();
  for (const [name, c] of Object.entries(CALLS) as [string, CallSpec][]) {
    if (!areas.has(c.area)) areas.set(c.area, []);
    areas.get(c.area)!.push([name, c]);
  }
  const codes = Object.entries(CODE_MESSAGES).map(([code, id]) => `| ${code} | \`${id}\` | ${text(id)} | ${BEHAVIOUR[Number(code)] ?? 'Shows the message; the screen keeps what was typed.'} |`);
  const out = [
    '# The /goform/ API the console expects',
    '',
    '<!-- Generated from src/api/contract.ts by `npm run docs`. Do not edit: a test compares this file with the generator. -->',
    '',
    'For: the firmware team that implements the calls, and anyone who calls a terminal\'s API. After reading you know every',
    'call the console makes, its fields and replies, the result codes and what the device must refuse; the rules of',
    'activation, Host and Origin, and sessions; and the firmware package\'s format.',
    '',
    'This is the contract between the console and the terminal firmware (SPEC §7, §8: the product\'s specification, which',
    '[PRODUCT.md](PRODUCT.md) retells). The console, the simulated terminal (`hil/simulator/`) and this document are all',
    'derived from one table in `src/api/contract.ts`.',
    '',
    '## Conventions',
    '',
    `- Every path sits under \`${GOFORM_PREFIX}\`.`,
    `- Every request carries \`Cache-Control: no-cache\`, \`Pragma: no-cache\`, a \`${TIMESTAMP_PARAM}\` query parameter holding the`,
    '  client time in milliseconds, and the language header.',
    `- \`${HEADERS.token}\`: the session token from \`chklogin\`, on every request once signed in.`,
    `- \`${HEADERS.language}\`: the console language (\`en\`, \`es\`, \`zh\`, ...), from the browser's local storage; \`en\` by default.`,
    `- The console gives up on a request after ${REQUEST_TIMEOUT_MS / 1000} s.`,
    '- GET requests carry their fields in the URL query; POST requests in a JSON body unless the call says otherwise.',
    '  Fields sent as text (query, URL-encoded body) carry numbers in decimal and lists or records as JSON.',
    '- A read is a GET on the path prefixed `Set`, a write a POST on the path prefixed `Get` (SPEC §7): the names are',
    '  swapped relative to their purpose, and kept as the firmware has them.',
    '- Answers are JSON. A body that is a JSON string holding JSON is accepted.',
    '- Device strings (names, SSIDs, record fields) are shown as text, never as markup.',
    '',
    '## The reply envelope',
    '',
    'Every reply is a JSON object with these fields beside the call\'s own response fields:',
    '',
    '| field | kind | required | meaning |',
    '|---|---|---|---|',
    ...fieldRows(ENVELOPE),
    '',
    `A reply with \`reboot\` true is handled first, whatever its \`retvalue\`: the console shows "${text(MESSAGES.deviceRestart)}"`,
    'and signs out after 1 s.',
    '',
    '## Result codes',
    '',
    'Codes 11000 (rejected silently) and 11003 (sets the super-login state, SPEC §4) show nothing. Any other code shows the',
    'message keyed by `msg` when the console catalogue has that id, else `msg` as plain text, else "Failed".',
    '',
    '| retvalue | message id | English | console behaviour |',
    '|---|---|---|---|',
    ...codes,
    '',
    'Codes 10005 ("Parameter Value Error") and 40104 ("Session ended") are not in SPEC §8\'s table; SPEC names 10005 and',
    'leaves 40104 without a message. This contract gives them the meanings above.',
    '',
    '### Codes this contract adds',
    '',
    'SPEC describes these situations without a code. The device answers with the code and the `msg` key below; the',
    'console shows the message of that key (source: `src/api/codes.ts`).',
    '',
    '| retvalue | msg | English | calls | meaning | console behaviour |',
    '|---|---|---|---|---|---|',
    ...ADDED_CODES.map((c) => `| ${c.code} | \`${c.msg}\` | ${text(c.msg)} | ${c.anyCall ?? c.calls.map((n) => `\`${n}\``).join(', ')} | ${c.meaning} | ${c.console} |`),
    '',
    '## Message ids for `msg`',
    '',
    '| id | English |',
    '|---|---|',
    ...Object.values(MESSAGES).map((id) => `| \`${id}\` | ${text(id)} |`),
    '',
    '## Device function list',
    '',
    '`funs` (in `chklogin` and `GetDeviceFunList`) lists menu keys. The sidebar shows a top-level entry only when its key is',
    'listed: `user`, `network`, `basicSetting`, `AccSetting`, `advSetting`. Feature keys show single screens: `fingerprint`',
    '(finger screens), `wifi`, `bluetooth`, `mqtt`, `cloud`, `wiegand`, `print`, `thermometry`. The keys `face`, `iris`, `card`',
    'and `report` are reserved for the screens that use them. Routes themselves only require a session (SPEC §6).',
    '',
    ...refuseSection(),
    ...securitySection(),
    ...packageSection(),
    ...commandSection(),
  ];
  for (const [area, calls] of areas) {
    out.push(`## Calls: ${area}`, '');
    for (const [name, c] of calls) out.push(...callSection(name, c));
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

export const API_DOC = join(ROOT, 'docs/API.md');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(API_DOC, renderApiDoc());
  console.log(`wrote ${API_DOC}`);
}
