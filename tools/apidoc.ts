// Generates docs/API.md from the contract (`npm run docs`). A unit test fails
// when docs/API.md differs from what this prints, so the document cannot drift.
// Runs on Node only; the console never imports it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLS, ENVELOPE, GOFORM_PREFIX, HEADERS, REQUEST_TIMEOUT_MS, TIMESTAMP_PARAM, type CallSpec, type Field, type Fields } from '../contract/index.ts';
import { CODE_MESSAGES, MESSAGES } from '../src/api/errors.ts';
import { ACTIVATE_FIRST, DOOR_NOT_LOCK, DOOR_SECONDS, NO_RELAY, WEAK_PASSWORD, ADDED_CODES, FW_BAD_SIGNATURE, FW_CHECKSUM, FW_NOT_NEWER, FW_UNKNOWN_KEY, FW_UNSIGNED, LOGIN_LOCKED, LOGIN_LOCK_RULES, REQUEST_MAX_BYTES, UNKNOWN_COMMAND } from '../contract/codes.ts';
import { COMMANDS, FIRMWARE_MAX_BYTES, PACKAGE, SIGNATURE } from '../contract/maintenance.ts';
import { HOST_NAMES_MAX } from '../contract/settings/network.ts';
import { OPLOG_KINDS, OPLOG_SIZE } from '../contract/oplog.ts';
import { ENDED_TOKENS_KEPT } from '../contract/sessions.ts';
import { EVENTS_KEPT, EVENTS_PER_PAGE, EVENT_HEARTBEAT_MS } from '../contract/events.ts';
import { OPEN_MAX_S, OPEN_NOW } from '../contract/door.ts';
import { HOST_REFUSED, ORIGIN_REFUSED } from '../build/serving.ts';
import { argsOrExit, readArgs } from '../build/args.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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
  40104: 'Signs out after 1 s (the device ended the session: idle too long, or signed out by GetSessionLogout).',
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
    '  the factory state, as a production line needs; once activated they need a session like every other call. Its events',
    '  at the reader (`test_event`, `test_enroll`; "Live events") need a session in every state.',
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
    '- `SetSessionList` lists the sessions a device holds (account, address, since, last active, the caller\'s marked);',
    '  each is named by a random `Id`, never by its token, so reading the list gives no one a token. `GetSessionLogout`',
    `  ends one by its \`Id\`: that token's next call answers 40104 once, as after idle time (the console shows the sign-in`,
    `  page saying the session ended), then 10002. A device remembers the last ${ENDED_TOKENS_KEPT} tokens ended so; an older one answers`,
    '  10002 at once. Ending the caller\'s own session is allowed and works the same. The console\'s screen offers "Sign out"',
    '  on every session but its own (the menu\'s "Log out" ends that one).',
    '',
  ];
}

/** What the operation log holds (contract/oplog.ts, issue 25 §3). */
function oplogSection(): string[] {
  return [
    '## Operation log',
    '',
    `The device records who did what in a ring of the last ${OPLOG_SIZE} entries (\`OPLOG_SIZE\`, contract/oplog.ts; the oldest is`,
    'dropped first), kept with the settings: it survives a restart, and initialization keeps it, so that the reset itself',
    'is in it (an audit log a factory reset could wipe would hide the one action that most needs it). `searchOperationLog`',
    'pages it newest first; `DownloadOperationLog` gives the same search as a workbook. Each entry has its time (device',
    'time), the account (the session\'s; for a failed sign-in the name that was typed), the requester\'s IP address, and:',
    '',
    '| Kind | name | logged when | Detail |',
    '|---|---|---|---|',
    `| 1 | ${OPLOG_KINDS[1]} | \`chklogin\` succeeds | empty |`,
    `| 2 | ${OPLOG_KINDS[2]} | \`chklogin\` answers 40301 or 40302 | \`unknown user\` or \`wrong password\` |`,
    `| 3 | ${OPLOG_KINDS[3]} | the failed sign-in that closed sign-in (its reply has \`wait\`; see "Sign-in attempts") | as 2 |`,
    `| 4 | ${OPLOG_KINDS[4]} | \`logout\` | \`logout\` |`,
    `| 5 | ${OPLOG_KINDS[5]} | a settings pair's write (POST \`Get*\`, also \`GetCertificate\`, \`GetSNKeyParam\`), \`EditPwd\`, \`Activate\`, and any other POST that changed what the device stores | the call and the names of the fields whose stored value changed: \`GetRestParam: HostNames, IdleMinutes\`; the call alone when nothing changed |`,
    `| 6 | ${OPLOG_KINDS[6]} | \`adduser\`, \`GetExcelAddUser\` | the call and the user IDs added |`,
    `| 7 | ${OPLOG_KINDS[7]} | \`edituser\`, \`UploadUserPhoto\`, \`regfp\`, \`getOnlineEnrollStatus\` with Start or Delete, \`InitAdminCard\` | the call and the user ID (\`InitAdminCard\`: the cards removed) |`,
    `| 8 | ${OPLOG_KINDS[8]} | \`deleteuser\`, \`deletsomeuser\` | the call and the IDs deleted; more than one: their count and the first five (\`deletsomeuser: 7: 1, 2, 3, 4, 5, …\`) |`,
    `| 9 | ${OPLOG_KINDS[9]} | \`UpdateMachine\` accepts a package | the versions, \`UpdateMachine: V2.6.18 to V2.6.19\` |`,
    `| 10 | ${OPLOG_KINDS[10]} | \`RestartMachine\` | the call |`,
    `| 11 | ${OPLOG_KINDS[11]} | \`InitMachine\` | the call |`,
    `| 12 | ${OPLOG_KINDS[12]} | \`ExportUserAll\`; \`noteOperation\` Kind 12 (the console exported the settings) | the call, or empty |`,
    `| 13 | ${OPLOG_KINDS[13]} | \`noteOperation\` Kind 13 (the console starts a restore; each of its writes is then a 5) | empty |`,
    `| 14 | ${OPLOG_KINDS[14]} | \`GetDoorAction\` takes an action; \`ExecuteCommand\` 300 | the call and the action: \`GetDoorAction: open now, 5 s\`, \`GetDoorAction: remain open\` |`,
    '',
    '- **Never a value.** An entry names calls, fields and user IDs, never what a field holds: no password, PIN, card',
    '  number, key or certificate can be in the log or its download.',
    `- Only sign-in logs a refusal. A refusal while sign-in is closed (${LOGIN_LOCKED}) is not logged again: one entry per lock.`,
    '  Any other call is logged only when it succeeds; reads are never logged.',
    '- Backup and restore happen in the console, as reads and writes; the device logs them when the console says so',
    '  (`noteOperation`), with the session\'s account and address.',
    '',
  ];
}

/** How live events travel (contract/events.ts, issue 25 §2). */
function liveSection(): string[] {
  return [
    '## Live events',
    '',
    'What happens at the door (a person verified or refused at the reader, the door opened, forced or closed, an alarm,',
    'an administrator\'s action on it: "The door" below) reaches',
    'the console as it happens, as Server-Sent Events from `EventStream`:',
    '',
    '```',
    'retry: 2000',
    ': live',
    '',
    'id: 7',
    'data: {"Id":7,"Time":"2026-11-26 09:00:00","Kind":1,"UserID":"3","UserName":"Ann","Mode":2}',
    '',
    '```',
    '',
    `- Each event is one message of about a hundred bytes; a comment line comes at least every ${EVENT_HEARTBEAT_MS / 1000} s, so the console`,
    '  notices a dead link (it waits two heartbeats) and a proxy keeps the connection.',
    '- The console reads the stream with `fetch` (the token goes in `X-Token`; `EventSource` cannot send it) and only',
    '  while the Live events screen or the Door screen is open. When the link drops it says so, opens the stream again after 2 s with',
    `  \`After\` set to the last Id it has (a browser's own EventSource sends \`Last-Event-ID\`; the device takes either), and the`,
    `  device sends first what happened meanwhile: it keeps the newest ${EVENTS_KEPT}. Ids start again at 1 when the device starts;`,
    '  an Id above the newest tells the device that the console last heard it before a restart.',
    '- **A web server in front must pass the stream on as it comes.** The device answers with `X-Accel-Buffering: no`',
    '  (nginx honours it); the lighttpd configuration the build writes sets `server.stream-response-body = 2` for',
    '  /goform/; the civetweb reference server (embed/civetweb) relays an event stream line by line. tests/servers/servers.test.ts',
    '  proves each: every event arrives while the stream is open, before the next one is made.',
    `- **Where a server cannot stream**, the device answers \`EventStream\` with 10001 and the console asks \`SetEventList\` every`,
    `  3 s instead (at most ${EVENTS_PER_PAGE} events an answer, asking again at once while pages are full). A proxy that holds the stream`,
    '  back is found the same way: two streams in a row that bring nothing at all, not even the first line, and the console',
    '  polls. The screen says which it does: "Live" or "Live (checked every few seconds)".',
    '- An open stream does not keep a session alive: when the session ends (signed out, ended on the sessions screen, idle',
    '  past `RestParam.IdleMinutes`, a restart) the device ends the stream, and the console\'s next request gets the code.',
    '- **Test events at the reader** (the factory test, /test): `test_event` makes the device announce an event as if it had',
    '  happened at the reader or the door (a person verified or refused, by a user it has or by someone it does not know,',
    '  the door opened or forced, an alarm), numbered and stamped like any other, and answers it; `test_enroll` ends the',
    '  enrolment running for a user as if the person had presented a good sample (the template is stored) or a poor one',
    '  (the enrolment fails). Neither does anything else: no attendance record, no relay, no alarm output, no entry in the',
    '  operation log, and a test template goes as any other does. They need an administrator\'s session in every state. With',
    '  them QA proves the live events and enrolment on a terminal no one stands at ([HIL.md](HIL.md#events-at-the-reader));',
    '  the console does not call them.',
    '',
  ];
}

/** The door (contract/door.ts, issue 35). */
function doorSection(): string[] {
  return [
    '## The door',
    '',
    'A terminal with a relay (`door` in its function list) drives its door\'s lock with it when `SetAccessControl` `RelayMode`',
    'is 2 (door open). `SetDoorState` says how the door is now; `GetDoorAction` acts on it.',
    '',
    '- **Modes.** Normal (0): a verification at the reader unlocks the door for the relay delay, an always-open period',
    '  keeps it unlocked and an always-closed one locked (it wins when both hold; the reader does not open it then).',
    '  Remain open (1) and remain closed (2) hold whatever the periods say, until back to normal (`Action` 0); the device',
    '  keeps them with its settings, so they survive a restart. The console says so while one holds.',
    `- **Open now** (\`Action\` ${OPEN_NOW}) energises the relay for \`Seconds\` (1 to ${OPEN_MAX_S}) or the relay delay, in any mode: the mode holds,`,
    '  and a door that remains closed locks again when the time is up. Remain closed ends an open now at once. A restart',
    '  ends it too: it lives in memory. `ExecuteCommand` 300 does the same for the relay delay.',
    '- **The sensor** (`DoorSensor` 1 or 2) reads the door open a moment after the lock releases and closed after the',
    '  person passed. Open while the relay is released and no one verified: `Forced`. Still open a while after the relay',
    '  released: `HeldOpen`. Both end when the door closes.',
    '- **Live events.** Every change is an event of `EventStream`: 3 the door opened (unlocked, or swung open), 4 forced,',
    '  5 an alarm (held open, a sensor fault), 6 the door closed (locked, or swung shut), and each action\'s own kind:',
    '  7 open now, 8 remain open, 9 remain closed, 10 back to normal. An opening the sensor will report is announced by the',
    '  sensor, a release while the door stands open by its closing: one pass reads 3, then 6. A second console sees an',
    '  action at once; the console reads `SetDoorState` again at each of these events.',
    '- **Operation log.** Each action taken is an entry of Kind 14 with the account, the address and the action.',
    `- **Refusals.** ${NO_RELAY} on a terminal without a relay (both calls); ${DOOR_NOT_LOCK} for an action while the relay rings a bell or`,
    `  drives nothing (\`SetDoorState\` still answers, with \`Lock\` 0); ${DOOR_SECONDS} naming \`Seconds\` when it is out of bounds or`,
    '  comes with another action. A refused action changes nothing and is no entry and no event.',
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
    `  package is unsigned and every device refuses it (${FW_UNSIGNED}). \`tests/support/keys/vendor-test.pem\` is a test key, public in this`,
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
    '`npm run firmware -- --model T10 --version V2.6.19 --out fw.bin --key vendor.pem` writes a package (`tools/firmware.ts`;',
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
  if (c.reply === 'stream') lines.push('- A success answers a stream of Server-Sent Events (text/event-stream) that stays open; the response table is one event. A failure answers the JSON envelope with its code.');
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
    '<!-- Generated from contract/index.ts by `npm run docs`. Do not edit: a test compares this file with the generator. -->',
    '',
    'For: the firmware team that implements the calls, and anyone who calls a terminal\'s API. After reading you know every',
    'call the console makes, its fields and replies, the result codes and what the device must refuse; the rules of',
    'activation, Host and Origin, and sessions; and the firmware package\'s format.',
    '',
    'This is the contract between the console and the terminal firmware (SPEC §7, §8: the product\'s specification, which',
    '[PRODUCT.md](PRODUCT.md) retells). The console, the simulated terminal (`simulator/`) and this document are all',
    'derived from one table in `contract/index.ts`.',
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
    'console shows the message of that key (source: `contract/codes.ts`).',
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
    '(finger screens), `wifi`, `bluetooth`, `mqtt`, `cloud`, `wiegand`, `print`, `thermometry`, `door` (a relay: the Door',
    'screen and its calls; a terminal without one, attendance only, leaves it out). The keys `face`, `iris`, `card`',
    'and `report` are reserved for the screens that use them. Routes themselves only require a session (SPEC §6).',
    '',
    ...refuseSection(),
    ...securitySection(),
    ...packageSection(),
    ...commandSection(),
    ...oplogSection(),
    ...liveSection(),
    ...doorSection(),
  ];
  for (const [area, calls] of areas) {
    out.push(`## Calls: ${area}`, '');
    for (const [name, c] of calls) out.push(...callSection(name, c));
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

export const API_DOC = join(ROOT, 'docs/API.md');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  argsOrExit('docs', 2, () => readArgs(process.argv.slice(2), {}, 'usage: npm run docs\nWrites docs/API.md from the contract (contract/index.ts); it takes no options.'));
  writeFileSync(API_DOC, renderApiDoc());
  console.log(`wrote ${API_DOC}`);
}
