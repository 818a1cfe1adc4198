// Contract-driven fuzzing of the /goform/ API (issue 13 §3).
//
// Every call of src/api/contract.ts is sent malformed inputs built from its
// own fields' kinds and constraints (wrong types, missing and unknown fields,
// boundaries and one past them, control characters, bad UTF-8, %-junk, bodies
// that are not JSON, mis-encodings, deep nesting, huge values and bodies) and
// valid ones built from the same constraints. A call or field added to the
// contract later is fuzzed without touching this file.
//
// What every answer must be: an envelope (a JSON object with an integer
// retvalue; a file for a call whose success is a file), never a 5xx, never a
// dropped connection, never later than the timeout. Malformed input answers a
// code this call documents (10003 / 10005, the codes its purpose and its
// fields' docs name, src/api/codes.ts ADDED_CODES, the sign-in codes), and a
// refused write leaves the device as it was (its read-backs answer the same
// before and after). A valid write of a settings pair (POST Get<Name>)
// answers 0 and the read (GET Set<Name>) answers what was written.
//
// The oracle is this file's own reading of the contract (judgeValue and
// verdictOf below), stricter than the kinds alone on what no field takes:
// control characters, lone surrogates, bytes that are not UTF-8, days that do
// not exist, null. Where the contract leaves the answer open (-0, "1.0", a
// lone "%", a body that is a JSON string holding JSON, a field sent in another
// encoding's place) only the envelope is checked.
//
// Run it as part of the unit tests (tests/unit/fuzz.test.ts starts its own
// simulated terminal), or against a terminal:
//   npx tsx tests/fuzz/contract-fuzz.ts --url http://<terminal> [--allow-writes] [--runs N] [--seed S]
// Without --allow-writes only calls that change nothing are sent (reads, sign-in,
// the password check). See README ("Fuzzing the API").

import fc from 'fast-check';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pathToFileURL } from 'node:url';
import { CALLS, ENVELOPE, GOFORM_PREFIX, HEADERS, TIMESTAMP_PARAM, type CallSpec, type Field, type Fields } from '../../src/api/contract.ts';
import { ADDED_CODES } from '../../src/api/codes.ts';
import { CODE_MESSAGES } from '../../src/api/errors.ts';
import { COMMANDS } from '../../src/api/maintenance.ts';
import { TEST_ADMIN } from '../admin.ts';

// ===========================================================================
// The contract, as the fuzzer reads it

const SPECS = CALLS as unknown as Record<string, CallSpec>;
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
type Encoding = CallSpec['encoding'];
type Values = Record<string, unknown>;

/**
 * Calls never sent, and why: each would end the run.
 * (Also never sent, by construction rather than by name: a valid firmware
 * package — UpdateMachine only ever gets files from FILES below, none of which
 * starts with the package magic — the fuzz session's own logout (logout gets
 * a second session), a valid EditPwd that would leave the password changed
 * (see EditPwd in baseOf and restorePassword), and ExecuteCommand
 * codes that restart (RESTARTING_COMMANDS).)
 */
export const NEVER_SENT: Readonly<Record<string, string>> = {
  RestartMachine: 'restarts the terminal: every session ends and it stops answering for up to 30 s',
  InitMachine: 'wipes every user, record and setting (and the administrator password), then restarts',
};

/** ExecuteCommand codes whose description says they restart or wipe the device: never generated. None today. */
const RESTARTING_COMMANDS = new Set(
  Object.entries(COMMANDS as Record<string, string>)
    .filter(([, what]) => /restart|reboot|reset|factory|initiali[sz]|wipe|format/i.test(what))
    .map(([code]) => Number(code)),
);

/**
 * The read of a settings pair: POST Get<X> takes fields that Set<X> answers,
 * name for name (SPEC §7: the read is Set, the write Get). Calls that only
 * share the prefixes (GetUniversalGroup adds a group, SetUniversalGroup lists
 * them) are not pairs: their fields differ.
 */
export function pairRead(name: string): string | null {
  if (!name.startsWith('Get')) return null;
  const read = `Set${name.slice(3)}`;
  if (!own(SPECS, read)) return null;
  const w = SPECS[name];
  const keys = Object.keys(w.request);
  if (w.method !== 'POST' || !keys.length || SPECS[read].reply === 'file') return null;
  return keys.every((k) => own(SPECS[read].response, k)) ? read : null;
}
const PAIR_WRITES = Object.keys(SPECS).filter((n) => pairRead(n));
const PAIR_READS = new Set(PAIR_WRITES.map((n) => pairRead(n)!));

/**
 * Calls that change nothing on the device, besides the reads of settings
 * pairs. Any call not here (a call added later too) counts as a write: it is
 * sent only with --allow-writes.
 */
const READ_ONLY = new Set([
  'chklogin', // a session, nothing stored (but wrong passwords close sign-in for a while: the illegal-login lock)
  'checkPower', // compares a password
  'GetDeviceFunList',
  'SetInfoParam',
  'GetInfoParam', // "System information has nothing writable: the device recounts"
  'getLanList',
  'userlist',
  'GetUserInfo',
  'GetUserPhoto',
  'ExportUserAll',
  'searchrecord',
  'DownloadRecordForm',
  'GetReportFormInfo',
  'DownloadReportForm',
  'searchThermometryRecord',
  'SetGroupTime',
  'SetUniversalGroup',
  'SetAnvizWiegandAuthorize',
  'SetBluetoothAuthorize',
  'SetBleDevGroup',
  'SetCertificate', // the certificate served; the first-boot one is made once, at first use
  'test_takephoto', // the camera takes a picture; nothing is stored
]);
export const isReadOnly = (name: string) => PAIR_READS.has(name) || READ_ONLY.has(name);

/** Codes of SPEC §8's table and of the contract's additions: a number in a doc is a code only if it is one of these. */
const KNOWN_CODES = new Set([...Object.keys(CODE_MESSAGES).map(Number), ...ADDED_CODES.map((c) => c.code)]);

/**
 * Codes a call answers that neither its purpose nor its fields' docs name:
 * SPEC §8's sign-in codes, and AnvizWiegandMatch's "Answers 1" (not a
 * five-digit code).
 */
const UNNAMED_CODES: Readonly<Record<string, readonly number[]>> = {
  chklogin: [40101, 40102, 40201, 40202, 40301, 40302],
  EditPwd: [40201, 40202, 40203, 40301, 40302],
  AnvizWiegandMatch: [1],
};

function docsOf(fields: Fields): string {
  return Object.values(fields)
    .map((f) => `${f.doc} ${f.fields ? docsOf(f.fields) : ''}`)
    .join(' ');
}

/** The codes a call may answer for bad input: 10003, 10005 and the codes it documents. */
export function documentedCodes(name: string): Set<number> {
  const s = SPECS[name];
  const codes = new Set([10003, 10005]);
  for (const m of `${s.purpose} ${docsOf(s.request)}`.matchAll(/\b\d{5}\b/g)) if (KNOWN_CODES.has(Number(m[0]))) codes.add(Number(m[0]));
  for (const c of ADDED_CODES) if (c.calls.includes(name)) codes.add(c.code);
  for (const c of UNNAMED_CODES[name] ?? []) codes.add(c);
  return codes;
}
/** What a call with a session token answers without one (SPEC §8: 10002 Token Failed, 11001 as 10002; 40104 an ended session). */
const AUTH_CODES = new Set([10002, 11001, 40104]);
/** Codes that say the device did change something although the call failed: 30102, "the device has switched back to AP mode". */
const CHANGING_CODES = new Set([30102]);
/** Calls that may answer retvalue "wait" (their purpose says so). */
const waits = (name: string) => /"wait"/.test(SPECS[name].purpose);

/** Fields whose doc says a change restarts the device (TimeParam's Language): a valid write keeps the device's value. */
const restartsOnChange = (f: Field) => /restarts the device/i.test(f.doc);

/**
 * Against a real terminal, the fields that carry the connection to it keep
 * the device's values in valid writes: a random address, port or Wi-Fi mode
 * would cut the run off ("*": every field). The simulator gets them all.
 */
const CONNECTION_FIELDS: Readonly<Record<string, readonly string[] | '*'>> = {
  GetEthernetParam: ['IpMode', 'Ip', 'Mask', 'Gateway'],
  GetInternetParam: ['WanMode'],
  GetRestParam: ['Protocol', 'Port'],
  GetWirless: '*',
};

// ---------------------------------------------------------------------------
// Text rules no field of the contract lets through

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const cleanText = (s: string) => !CONTROL.test(s) && !LONE_SURROGATE.test(s);

/** A field that names a day (YYYY-MM-DD) or a day and time: the contract's `format`, else read from its pattern. */
function momentOf(f: Field): 'date' | 'datetime' | null {
  const format = (f as { format?: string }).format;
  if (format === 'date' || format === 'datetime') return format;
  if (f.kind !== 'string' || !f.pattern || !/\{4\}-\(0\[1-9\]\|1\[0-2\]\)-/.test(f.pattern)) return null;
  return /\) \(/.test(f.pattern) ? 'datetime' : 'date';
}
/** The day in a YYYY-MM-DD[...] text exists (2031-02-30 does not). */
function realDay(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (!m) return true; // the pattern's business
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return days !== undefined && d >= 1 && d <= days;
}

// ===========================================================================
// The oracle: what a device that keeps the contract does with a value

export type Verdict = { v: 'ok' } | { v: 'bad' | 'unsure'; why: string };
const OK: Verdict = { v: 'ok' };
const bad = (why: string): Verdict => ({ v: 'bad', why });
const unsure = (why: string): Verdict => ({ v: 'unsure', why });
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v);
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a value fits a field. `reply`: judging an answer (newlines in text are fine there: ExecuteCommand's Output has lines). */
export function judgeValue(f: Field, v: unknown, path: string, reply = false): Verdict {
  const no = (why: string) => bad(`${path}: ${why}`);
  switch (f.kind) {
    case 'string':
      if (typeof v !== 'string') return no(`${typeName(v)} for a text`);
      if (!reply && !cleanText(v)) return no('a control character or a lone surrogate');
      if (f.maxLength !== undefined && v.length > f.maxLength) return no(`${v.length} characters, more than ${f.maxLength}`);
      if (f.pattern && !new RegExp(f.pattern).test(v)) return no(`${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)} does not match ${f.pattern}`);
      if (f.values && !f.values.includes(v)) return no(`${JSON.stringify(v)} is not one of ${f.values.join(', ')}`);
      if (momentOf(f) && v !== '' && !realDay(v)) return no(`${JSON.stringify(v)} is no day of the calendar`);
      return OK;
    case 'int':
    case 'flag': {
      if (typeof v !== 'number') return no(`${typeName(v)} for a number`);
      if (Object.is(v, -0)) return unsure(`${path}: -0`);
      if (!Number.isInteger(v)) return no(`${v} is not an integer`);
      const [min, max] = f.kind === 'flag' ? [0, 1] : [f.min, f.max];
      if (min !== undefined && v < min) return no(`${v} < ${min}`);
      if (max !== undefined && v > max) return no(`${v} > ${max}`);
      if (f.values && !f.values.includes(v)) return no(`${v} is not one of ${f.values.join(', ')}`);
      if (!Number.isSafeInteger(v)) return unsure(`${path}: ${v} is past 2^53`);
      return OK;
    }
    case 'strings':
      if (!Array.isArray(v)) return no(`${typeName(v)} for a list of texts`);
      for (const [i, x] of v.entries()) {
        if (typeof x !== 'string') return no(`[${i}] is ${typeName(x)}`);
        if (!reply && !cleanText(x)) return no(`[${i}] has a control character or a lone surrogate`);
      }
      return OK;
    case 'object':
      if (!isPlainObject(v)) return no(`${typeName(v)} for a record`);
      return judgeRecord(f.fields ?? {}, Object.entries(v), `${path}.`, reply);
    case 'objects':
      if (!Array.isArray(v)) return no(`${typeName(v)} for a list of records`);
      for (const [i, x] of v.entries()) {
        if (!isPlainObject(x)) return no(`[${i}] is ${typeName(x)}`);
        const r = judgeRecord(f.fields ?? {}, Object.entries(x), `${path}[${i}].`, reply);
        if (r.v !== 'ok') return r;
      }
      return OK;
    case 'file':
      if (!isFile(v)) return no(`${typeName(v)} for a file`);
      // An empty part with no file name is what a browser sends for "no file chosen".
      return v.name || v.hex ? OK : no('no file chosen (an empty part with no name)');
  }
}

/** Whether a record fits its fields: each present one fits, the required ones are there, nothing else is. */
function judgeRecord(fields: Fields, entries: [string, unknown][], prefix: string, reply: boolean): Verdict {
  let doubt: Verdict | null = null;
  const seen = new Set<string>();
  for (const [k, v] of entries) {
    if (!own(fields, k)) return bad(`unknown field ${JSON.stringify(prefix + k)}`);
    seen.add(k);
    // '' on an optional field reads as "not given" (the console leaves optional text empty); in an answer, as
    // text that is not set (SetCommMode's Password), never as a number.
    if (v === '' && fields[k].optional && (!reply || fields[k].kind === 'string')) {
      if (judgeValue(fields[k], v, prefix + k, reply).v !== 'ok') doubt ??= unsure(`${prefix}${k}: '' on an optional field`);
      continue;
    }
    const r = judgeValue(fields[k], v, prefix + k, reply);
    if (r.v === 'bad') return r;
    if (r.v === 'unsure') doubt ??= r;
  }
  for (const [k, f] of Object.entries(fields)) if (!f.optional && !seen.has(k)) return bad(`${prefix}${k} is missing`);
  return doubt ?? OK;
}

// ===========================================================================
// What goes on the wire

/** Values that are not plain JSON: big texts that print small, raw wire text, raw bytes, deep nesting, files. */
export type Token =
  | { $: 'text'; s: string; n: number } // s repeated n times
  | { $: 'raw'; text: string } // verbatim: JSON text in a JSON body, already %-encoded text in a query or form, literal text in a multipart part
  | { $: 'bytes'; pre: string; hex: string } // the text `pre` followed by these bytes (not UTF-8)
  | { $: 'deep'; open: '[' | '{'; n: number } // an array or object nested n deep
  | { $: 'file'; name: string; type: string; hex: string; n?: number }; // a file part: the bytes (hex), repeated n times
const isToken = (v: unknown): v is Token => isPlainObject(v) && typeof v.$ === 'string' && Object.keys(v).length <= 5 && ['text', 'raw', 'bytes', 'deep', 'file'].includes(v.$ as string);
const isFile = (v: unknown): v is Token & { $: 'file' } => isToken(v) && v.$ === 'file';

/** One request the fuzzer sends. fast-check prints it as the counterexample. */
export interface Case {
  call: string;
  /** The mutation (a property is one call and one kind). */
  kind: string;
  /** In words. */
  what: string;
  method: 'GET' | 'POST';
  /** How the fields travel (the call's own encoding, or another one: a mis-encoding). */
  enc: Encoding;
  fields: [string, unknown][];
  /** The whole body instead of the fields' (a token or a JSON value). */
  body?: unknown;
  /** Raw text added to the query (query calls) or to the form body. */
  tail?: string;
  /** Content-Type instead of the encoding's own. */
  ctype?: string;
  token: 'session' | 'none' | string;
  /** The verdict when the fields alone cannot say (mis-encodings, bodies that are not JSON). */
  expect?: 'refuse' | 'any';
  /** Codes allowed besides the call's documented ones (10101 for a body over the limit, 10001 for a wrong method). */
  codes?: number[];
}

/** A wire value as the device reads it: its value (absent: as if not sent; doubt: the contract leaves open whether it is taken), or a verdict (bad). */
type Decoded = { value: unknown; absent?: boolean; lone?: boolean; doubt?: Verdict } | { verdict: Verdict };

const deepText = (t: { open: '[' | '{'; n: number }) => (t.open === '[' ? '['.repeat(t.n) + ']'.repeat(t.n) : '{"a":'.repeat(t.n) + '1' + '}'.repeat(t.n));

/** What a device reading JSON sees in a wire value. */
function fromJson(w: unknown, path: string): Decoded {
  if (isToken(w)) {
    switch (w.$) {
      case 'text':
        return { value: w.s.repeat(w.n) };
      case 'raw':
        try {
          return { value: JSON.parse(w.text) };
        } catch {
          return { verdict: bad(`${path}: not JSON (${w.text.slice(0, 20)})`) };
        }
      case 'bytes':
        return { verdict: bad(`${path}: bytes that are not UTF-8`) };
      case 'deep':
        return { verdict: bad(`${path}: nested ${w.n} deep`) };
      case 'file':
        return { verdict: bad(`${path}: a file in JSON`) };
    }
  }
  if (Array.isArray(w)) {
    const out: unknown[] = [];
    for (const x of w) {
      const d = fromJson(x, path);
      if ('verdict' in d) return d;
      out.push(d.value);
    }
    return { value: out };
  }
  return { value: w };
}

/** Percent-decoding as a URL-encoded body or query is read: '+' is a space; a '%' not followed by two hex digits stays itself (unsure: a strict parser refuses it). */
function percentDecode(text: string, path: string): Decoded {
  const bytes: number[] = [];
  let lone = false;
  const src = Buffer.from(text.replace(/\+/g, ' '), 'utf8');
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 0x25 && /^[0-9A-Fa-f]{2}$/.test(String.fromCharCode(src[i + 1] ?? 0, src[i + 2] ?? 0))) {
      bytes.push(parseInt(String.fromCharCode(src[i + 1], src[i + 2]), 16));
      i += 2;
    } else {
      if (src[i] === 0x25) lone = true;
      bytes.push(src[i]);
    }
  }
  let s: string;
  try {
    s = new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return { verdict: bad(`${path}: %-escapes that are not UTF-8`) };
  }
  return { value: s, lone };
}

/** The text a device reading a query, a form or a multipart part sees in a wire value. */
function textOf(w: unknown, enc: Encoding, path: string): Decoded {
  if (isToken(w)) {
    switch (w.$) {
      case 'text':
        return { value: w.s.repeat(w.n) };
      case 'raw':
        return enc === 'multipart' ? { value: w.text } : percentDecode(w.text, path);
      case 'bytes':
        return { verdict: bad(`${path}: bytes that are not UTF-8`) };
      case 'deep':
        return { value: deepText(w) };
      case 'file':
        return { verdict: bad(`${path}: a file`) };
    }
  }
  if (typeof w === 'string') return { value: w };
  if (typeof w === 'number') return { value: Object.is(w, -0) ? '-0' : String(w) };
  if (typeof w === 'boolean' || w === null) return { value: String(w) };
  return { value: JSON.stringify(w) };
}

/** What a field's wire value means to a device that keeps the contract. */
function decodeField(f: Field, w: unknown, enc: Encoding, path: string): Decoded {
  if (enc === 'json') {
    const d = fromJson(w, path);
    if ('verdict' in d) return d;
    if (d.value === '' && f.optional) return f.kind === 'string' && judgeValue(f, '', path).v === 'ok' ? { value: '' } : { value: '', absent: true, doubt: unsure(`${path}: '' on an optional field`) };
    return d;
  }
  if (f.kind === 'file') return isFile(w) && enc === 'multipart' ? { value: w } : { verdict: bad(`${path}: text for a file`) };
  const d = textOf(w, enc, path);
  if ('verdict' in d) return d;
  const s = d.value as string;
  const lone = d.lone;
  if (s === '' && f.optional) return { value: '', absent: true };
  const decoded = ((): Decoded => {
    switch (f.kind) {
      case 'string':
        return { value: s };
      case 'int':
      case 'flag':
        if (/^(0|-?[1-9][0-9]*)$/.test(s)) return { value: Number(s) };
        if (/^\s*[+-]?[0-9]+\s*$/.test(s)) return { value: Number(s), doubt: unsure(`${path}: ${JSON.stringify(s)}: digits, not in the canonical form`) };
        return { verdict: bad(`${path}: ${JSON.stringify(s.slice(0, 30))} is not a decimal integer`) };
      default:
        try {
          return { value: JSON.parse(s) };
        } catch {
          return { verdict: bad(`${path}: not JSON`) };
        }
    }
  })();
  if (lone && !('verdict' in decoded)) return { ...decoded, doubt: unsure(`${path}: a '%' that escapes nothing`) };
  return decoded;
}

/**
 * Rules between fields that the docs state: `fix` makes a generated valid
 * request follow them; `ok` says whether a request does (the oracle expects
 * a settings write to be taken only then).
 */
const RULES: Readonly<Record<string, { fix: (v: Values) => Values; ok: (v: Values) => boolean }>> = (() => {
  const daysIn = (m: number) => [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 31;
  const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  const ordered = (a: string, b: string, strict = false) => (v: Values) => !v[a] || !v[b] || (strict ? String(v[b]) > String(v[a]) : String(v[b]) >= String(v[a]));
  const order = (a: string, b: string) => (v: Values) => (ordered(a, b)(v) ? v : { ...v, [a]: v[b], [b]: v[a] });
  const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);
  const report = {
    // GetReportFormInfo: End "not before Start, and the period at most 31 days in all".
    // End: Start and a few days (the last digit of the generated End).
    fix: (v: Values) => (typeof v.Start === 'string' && /^\d{4}-/.test(v.Start) && Number(v.Start.slice(0, 4)) < 9999 ? { ...v, End: addDays(v.Start, Number(String(v.End ?? '').slice(-1)) || 0) } : v),
    ok: (v: Values) => ordered('Start', 'End')(v) && Date.parse(String(v.End)) - Date.parse(String(v.Start)) <= 30 * 86400000,
  };
  const user = {
    // adduser / edituser: AccessEnd "not before AccessBegin"; CardNo "4294967295 at most".
    fix: (v: Values) => {
      const out = order('AccessBegin', 'AccessEnd')(v);
      return typeof out.CardNo === 'string' && Number(out.CardNo) > 4294967295 ? { ...out, CardNo: out.CardNo.slice(0, 9) } : out;
    },
    ok: (v: Values) => ordered('AccessBegin', 'AccessEnd')(v) && !(Number(v.CardNo) > 4294967295),
  };
  return {
    // DSTParam, date format (Mode 1): "10005 naming this field for a day the month does not have (29 February is accepted)".
    GetDSTParam: {
      fix: (v) => (v.Mode !== 1 ? v : { ...v, StartDay: Math.min(Number(v.StartDay), daysIn(Number(v.StartMonth))), EndDay: Math.min(Number(v.EndDay), daysIn(Number(v.EndMonth))) }),
      ok: (v) => v.Mode !== 1 || (Number(v.StartDay) <= daysIn(Number(v.StartMonth)) && Number(v.EndDay) <= daysIn(Number(v.EndMonth))),
    },
    // A time zone's day: End "not before the start".
    GetTimeIntervalInfo: {
      fix: (v) => DAYS.reduce((out, d) => order(`${d}Start`, `${d}End`)(out), v),
      ok: (v) => DAYS.every((d) => ordered(`${d}Start`, `${d}End`)(v)),
    },
    // DateTimeParam: NtpServer "Required with Mode 1: the device answers 10003 naming it otherwise".
    GetDateTimeParam: { fix: (v) => (v.Mode === 1 && !v.NtpServer ? { ...v, NtpServer: 'pool.ntp.org' } : v), ok: (v) => v.Mode !== 1 || !!v.NtpServer },
    // Wirless: saving station mode (WifiMode 0) joins the network, which fails unless it is in range
    // with that password (30102, back to AP mode), and checks the password's length (10005); access
    // point mode (1) is stored as sent. Valid writes are AP mode; a station-mode write is judged
    // only by the envelope.
    GetWirless: { fix: (v) => ({ ...v, WifiMode: 1 }), ok: (v) => v.WifiMode === 1 },
    // A period: End "later than Start" (10005 with field End).
    AddGroupTime: { fix: order('Start', 'End'), ok: ordered('Start', 'End', true) },
    adduser: user,
    edituser: user,
    // Records: End "Before Start: 10005 naming End".
    searchrecord: { fix: order('Start', 'End'), ok: ordered('Start', 'End') },
    DownloadRecordForm: { fix: order('Start', 'End'), ok: ordered('Start', 'End') },
    GetReportFormInfo: report,
    DownloadReportForm: report,
  };
})();

/** What a device that keeps the contract must do with a case: take it (ok), refuse it (bad), or either (unsure). */
export function verdictOf(c: Case): Verdict & { values?: Values } {
  const s = SPECS[c.call];
  if (c.expect) return c.expect === 'refuse' ? bad(c.what) : unsure(c.what);
  const values: Values = {};
  const entries: [string, unknown][] = [];
  let doubt: Verdict | null = null;
  const names = new Set<string>();
  for (const [name, w] of c.fields) {
    if (!own(s.request, name)) return bad(`unknown field ${JSON.stringify(name)}`);
    if (names.has(name)) doubt ??= unsure(`${name} sent twice`);
    names.add(name);
    const d = decodeField(s.request[name], w, c.enc, name);
    if ('verdict' in d) return d.verdict;
    if (d.doubt) doubt ??= d.doubt;
    if (d.absent) continue;
    entries.push([name, d.value]);
    values[name] = d.value;
  }
  const r = judgeRecord(s.request, entries, '', false);
  if (r.v === 'bad') return r;
  doubt ??= r.v === 'unsure' ? r : null;
  if (!doubt && RULES[c.call] && !RULES[c.call].ok(values)) doubt = unsure('a rule between fields (see RULES)');
  return doubt ? { ...doubt, values } : { v: 'ok', values };
}

// ---------------------------------------------------------------------------
// Encoding a case as an HTTP request

interface Wire {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

function jsonText(w: unknown): Buffer {
  if (isToken(w)) {
    switch (w.$) {
      case 'text':
        return Buffer.from(JSON.stringify(w.s.repeat(w.n)));
      case 'raw':
        return Buffer.from(w.text);
      case 'bytes':
        return Buffer.concat([Buffer.from(JSON.stringify(w.pre).slice(0, -1)), Buffer.from(w.hex, 'hex'), Buffer.from('"')]);
      case 'deep':
        return Buffer.from(deepText(w));
      case 'file':
        return Buffer.from(JSON.stringify(`${w.name}:${w.hex}`));
    }
  }
  if (Array.isArray(w)) return Buffer.concat([Buffer.from('['), ...w.flatMap((x, i) => (i ? [Buffer.from(','), jsonText(x)] : [jsonText(x)])), Buffer.from(']')]);
  if (typeof w === 'number' && Object.is(w, -0)) return Buffer.from('-0');
  return Buffer.from(JSON.stringify(w) ?? 'null');
}
function jsonObject(entries: [string, unknown][]): Buffer {
  const parts: Buffer[] = [Buffer.from('{')];
  entries.forEach(([k, v], i) => parts.push(Buffer.from(`${i ? ',' : ''}${JSON.stringify(k)}:`), jsonText(v)));
  parts.push(Buffer.from('}'));
  return Buffer.concat(parts);
}

/** A value as %-encoded text (query, form body). */
function urlText(w: unknown): string {
  if (isToken(w) && w.$ === 'raw') return w.text;
  if (isToken(w) && w.$ === 'bytes') return encodeURIComponent(w.pre) + w.hex.replace(/../g, (h) => `%${h.toUpperCase()}`);
  if (isToken(w) && w.$ === 'file') return encodeURIComponent(w.name);
  return encodeURIComponent(plainText(w));
}
/** The text of a value that is no raw or bytes token. */
function plainText(w: unknown): string {
  const d = textOf(w, 'multipart', '');
  return 'value' in d ? String(d.value) : '';
}
const urlPairs = (entries: [string, unknown][]) => entries.map(([k, v]) => `${encodeURIComponent(k)}=${urlText(v)}`).join('&');

function multipartBody(entries: [string, unknown][], boundary: string): Buffer {
  const parts: Buffer[] = [];
  const name = (k: string) => k.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  for (const [k, w] of entries) {
    if (isFile(w)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name(k)}"; filename="${name(w.name)}"\r\nContent-Type: ${w.type}\r\n\r\n`));
      parts.push(Buffer.from(w.hex.repeat(w.n ?? 1), 'hex'), Buffer.from('\r\n'));
      continue;
    }
    let data: Buffer;
    if (isToken(w) && w.$ === 'bytes') data = Buffer.concat([Buffer.from(w.pre), Buffer.from(w.hex, 'hex')]);
    else data = Buffer.from(plainText(w));
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name(k)}"\r\n\r\n`), data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

const BOUNDARY = '----fuzz7MA4YWxkTrZu0gW';
function toWire(c: Case, token: string | undefined): Wire {
  const spec = SPECS[c.call];
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache', Pragma: 'no-cache', [HEADERS.language]: 'en' };
  if (token !== undefined) headers[HEADERS.token] = token;
  let query = `${TIMESTAMP_PARAM}=${Date.now()}`;
  let body: Buffer | undefined;
  if (c.enc === 'query') {
    const pairs = urlPairs(c.fields);
    if (pairs) query += `&${pairs}`;
    if (c.tail) query += c.tail;
  } else if (c.enc === 'form') {
    body = Buffer.from(urlPairs(c.fields) + (c.tail ?? ''));
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (c.enc === 'multipart') {
    body = multipartBody(c.fields, BOUNDARY);
    headers['Content-Type'] = `multipart/form-data; boundary=${BOUNDARY}`;
  } else {
    body = jsonObject(c.fields);
    headers['Content-Type'] = 'application/json';
  }
  if (c.body !== undefined) body = isToken(c.body) && c.body.$ === 'bytes' ? Buffer.concat([Buffer.from(c.body.pre), Buffer.from(c.body.hex, 'hex')]) : isToken(c.body) && c.body.$ === 'raw' ? Buffer.from(c.body.text) : jsonText(c.body);
  if (c.ctype !== undefined) {
    if (c.ctype) headers['Content-Type'] = c.ctype;
    else delete headers['Content-Type'];
  }
  return { method: c.method, path: `${GOFORM_PREFIX}${spec.path}?${query}`, headers, body };
}

// ---------------------------------------------------------------------------
// HTTP: one request, with a timeout; a dropped connection is an answer too

export interface Outcome {
  status?: number;
  /** The reply, parsed, when it is JSON. */
  json?: unknown;
  /** Content type and size when the reply is not JSON. */
  file?: { type: string; size: number; head: string };
  error?: string;
  ms: number;
}

function collect(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

class Http {
  private readonly agent: HttpAgent;
  requests = 0;
  constructor(
    readonly base: URL,
    readonly timeoutMs: number,
  ) {
    this.agent = base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false }) : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  }
  close() {
    this.agent.destroy();
  }

  async send(w: Wire, retried = false): Promise<Outcome> {
    this.requests++;
    const started = Date.now();
    const request = this.base.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Outcome>((resolve) => {
      let reused = false;
      const req = request({
        host: this.base.hostname.replace(/^\[|\]$/g, ''), // [::1] -> ::1
        port: this.base.port || undefined,
        method: w.method,
        path: w.path,
        headers: { ...w.headers, ...(w.body ? { 'Content-Length': String(w.body.length) } : {}) },
        agent: this.agent,
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      req.on('socket', () => (reused = (req as unknown as { reusedSocket: boolean }).reusedSocket));
      req.on('response', (res) => {
        collect(res).then(
          (buf) => {
            clearTimeout(timer);
            const type = String(res.headers['content-type'] ?? '');
            const ms = Date.now() - started;
            if (/json/i.test(type) || (!type && /^\s*[{[]/.test(buf.toString('latin1', 0, 8)))) {
              try {
                resolve({ status: res.statusCode, json: JSON.parse(buf.toString('utf8')), ms });
              } catch {
                resolve({ status: res.statusCode, file: { type, size: buf.length, head: buf.toString('utf8', 0, 120) }, ms });
              }
            } else resolve({ status: res.statusCode, file: { type, size: buf.length, head: buf.toString('utf8', 0, 120) }, ms });
          },
          (err: Error) => {
            clearTimeout(timer);
            resolve({ status: res.statusCode, error: `the reply broke off (${err.message})`, ms: Date.now() - started });
          },
        );
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // A kept-alive connection the server closed as the request went out: once more, on a new connection
        // (a request that itself makes the server drop the connection is dropped again there, and reported).
        if (reused && !retried && ['ECONNRESET', 'EPIPE'].includes(err.code ?? '')) {
          this.requests--;
          resolve(this.send(w, true));
          return;
        }
        resolve({ error: err.message.startsWith('no answer') ? err.message : `connection dropped (${err.code ?? err.message})`, ms: Date.now() - started });
      });
      req.end(w.body);
    });
  }
}

// ===========================================================================
// Generators

/** Characters of valid text: printable ASCII most often, some other scripts, a space that is not ASCII, an emoji. */
const TEXT_UNIT = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', 'Ω', 'Ж', 'ש', 'ع', '字', 'ｱ', '€', '\u00a0', '😀') },
);

const PNG_HEX = '89504e470d0a1a0a0000000d4948445200000001000000010806000000';
const JPEG_HEX = 'ffd8ffe000104a46494600010100000100010000ffd9';
/**
 * Files sent to multipart calls: images, a spreadsheet as CSV, random and
 * empty files. None is a firmware package (they do not start with "TAFW"),
 * let alone one signed with a key the terminal holds, so UpdateMachine
 * never installs anything.
 */
const FILES: fc.Arbitrary<Token> = fc.oneof(
  fc.constant<Token>({ $: 'file', name: 'face.png', type: 'image/png', hex: PNG_HEX }),
  fc.constant<Token>({ $: 'file', name: 'face.jpg', type: 'image/jpeg', hex: JPEG_HEX }),
  fc
    .tuple(fc.stringMatching(/^[1-9][0-9]{0,9}$/), fc.string({ unit: TEXT_UNIT, minLength: 1, maxLength: 20 }))
    .map(([id, name]): Token => ({ $: 'file', name: 'users.csv', type: 'text/csv', hex: Buffer.from(`UserID,UserName\r\n${id},"${name.replace(/"/g, '""').trim() || 'x'}"\r\n`).toString('hex') })),
  fc.uint8Array({ maxLength: 64 }).map((b): Token => ({ $: 'file', name: 'data.bin', type: 'application/octet-stream', hex: Buffer.from(b).toString('hex').replace(/^54414657/, '00') })),
  fc.constant<Token>({ $: 'file', name: 'empty.txt', type: 'text/plain', hex: '' }),
);

const fitsValue = (f: Field, v: unknown) => judgeValue(f, v, '').v === 'ok';

/** Valid values of a field, from its kind and constraints. */
export function validValue(f: Field): fc.Arbitrary<unknown> {
  switch (f.kind) {
    case 'string': {
      if (f.values) return fc.constantFrom(...f.values);
      const text = f.pattern ? fc.stringMatching(new RegExp(f.pattern)) : fc.string({ unit: TEXT_UNIT, maxLength: f.maxLength ?? 40 });
      return text.filter((s) => fitsValue(f, s));
    }
    case 'int': {
      if (f.values) return fc.constantFrom(...f.values);
      const min = f.min ?? -(2 ** 31);
      const max = f.max ?? 2 ** 31 - 1;
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case 'flag':
      return fc.constantFrom(0, 1);
    case 'strings':
      return fc.array(fc.string({ unit: TEXT_UNIT, maxLength: 20 }), { maxLength: 4 });
    case 'object':
      return validRecord(f.fields ?? {});
    case 'objects':
      return fc.array(validRecord(f.fields ?? {}), { maxLength: 3 });
    case 'file':
      return FILES;
  }
}
function validRecord(fields: Fields): fc.Arbitrary<Values> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, f] of Object.entries(fields)) model[k] = validValue(f);
  return fc.record(model, { requiredKeys: Object.keys(fields).filter((k) => !fields[k].optional) }) as fc.Arbitrary<Values>;
}

/** A text of exactly n characters that fits the field, if a simple one does. */
function textOfLength(f: Field, n: number): string | null {
  for (const ch of ['x', '1', 'A', 'a', '字', 'é', '0', 'F']) {
    const s = ch.repeat(n);
    if (new RegExp(f.pattern ?? '').test(s) && cleanText(s) && (!momentOf(f) || realDay(s))) return s;
  }
  return null;
}

const CONTROL_CHARS = ['\u0000', '\u0001', '\u001b', '\u007f', '\n', '\r'];
/** Bytes that are not UTF-8: 0xFF, 0xFE, an overlong '/', a cut-off euro sign, a surrogate encoded (CESU), past U+10FFFF, a lone continuation byte. */
const NOT_UTF8 = ['ff', 'fe', 'c0af', 'e282', 'eda080', 'f4908080', '80'];
const IMPOSSIBLE_DAYS = ['2031-02-30', '2031-02-29', '2030-04-31', '2100-02-29', '1900-02-29', '2030-06-31', '2030-09-31', '2030-11-31'];
/** Unknown field names, among them the names of every object's own and inherited properties. */
const EXTRA_NAMES = ['toString', 'valueOf', 'constructor', '__proto__', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', '__defineGetter__', 'prototype', 'length', 'admin', 'x'.repeat(300), 'a\u0000b', ''];
const EXTRA_VALUES: unknown[] = [1, 'x', {}, [], { admin: 1 }, true];
/** Wrong types per kind, in JSON. */
const WRONG_JSON: Record<Field['kind'], unknown[]> = {
  string: [null, 0, 1, true, false, [], {}, ['x'], { a: 1 }],
  int: [null, '1', '', 'x', true, false, [], {}, [1], { a: 1 }, 0.5],
  flag: [null, '1', '', true, false, [], {}, 2],
  strings: [null, 'x', '["x"]', '', 1, true, {}, [1], [null], [['x']], [{}]],
  object: [null, '{"a":1}', 'x', '', 1, [], [{}], true],
  objects: [null, {}, '[{}]', 'x', '', 1, [1], [null], [[]]],
  file: [null, 'x', 1],
};
/** Wrong types per kind, as text (query, form, multipart). */
const WRONG_TEXT: Record<Field['kind'], unknown[]> = {
  string: [],
  int: ['abc', '1.5', 'true', '[]', '{}', 'null', '0x1F', '１', '٣', '1e3', ' ', '--1', 'NaN', 'Infinity'],
  flag: ['abc', 'true', 'false', 'yes', '2', '1.0', '[]'],
  strings: ['x', '{', '1', 'null', '[1]', '{"a":1}', '"x"'],
  object: ['x', '[]', '1', 'null', '{', '"{}"'],
  objects: ['x', '{}', '1', 'null', '[1]', '['],
  file: ['x', ''],
};
/** Numbers at and past the ends of any range, and numbers that are not integers or not numbers at all (raw: JSON text as is). */
const ODD_NUMBERS: unknown[] = [
  0.5,
  -1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  1e20,
  -1e20,
  { $: 'raw', text: '9007199254740993' },
  { $: 'raw', text: '1e309' },
  { $: 'raw', text: '-1e309' },
  { $: 'raw', text: '-0' },
  { $: 'raw', text: '1.0' },
  { $: 'raw', text: '1e2' },
  { $: 'raw', text: '0.5e1' },
  { $: 'raw', text: '1E400' },
];

/** Limits that keep a query call's URL within what HTTP servers read (16 KiB in Node): huge values and deep nesting are smaller there. */
const sizes = (enc: Encoding) => (enc === 'query' ? { huge: 4000, deep: 1000 } : { huge: 256 * 1024, deep: 10_000 });
const MIB = 1 << 20;

// ---------------------------------------------------------------------------
// Mutators: per call, the kinds of mutation that apply, each an arbitrary of cases

interface Mutator {
  kind: string;
  arb: fc.Arbitrary<Case>;
  /** Cases tried at every run, before the random ones: every field meets every mutation of its kind once. */
  examples: (base: Values) => Case[];
}

interface Base {
  /** Valid requests of the call (with the documented rules, pinned fields and overrides applied). */
  valid: fc.Arbitrary<Values>;
  /** The same, for requests that are meant to be refused (EditPwd: never a new password). */
  malformed: fc.Arbitrary<Values>;
}

const entriesOf = (v: Values): [string, unknown][] => Object.entries(v);
const withField = (v: Values, name: string, w: unknown): [string, unknown][] => {
  const out = entriesOf(v).filter(([k]) => k !== name);
  out.push([name, w]);
  return out;
};
const shown = (w: unknown) => {
  const t = isToken(w) ? (w.$ === 'text' ? `${JSON.stringify(w.s)}×${w.n}` : w.$ === 'deep' ? `${w.open} nested ${w.n} deep` : w.$ === 'bytes' ? `${JSON.stringify(w.pre)} + bytes ${w.hex}` : w.$ === 'file' ? `file ${w.name}` : `raw ${w.text}`) : JSON.stringify(w);
  return t === undefined ? String(w) : t.length > 60 ? `${t.slice(0, 60)}…` : t;
};

/** Same shape of constraints: one sweep example covers all such fields of a call (the 14 HH:MM of a time zone). */
const shapeOf = (f: Field) => JSON.stringify({ ...f, doc: '' });

export function mutators(call: string, base: Base): Mutator[] {
  const s = SPECS[call];
  const enc = s.encoding;
  const fields = Object.entries(s.request);
  const required = fields.filter(([, f]) => !f.optional).map(([k]) => k);
  const texts = enc !== 'json';
  const { huge, deep } = sizes(enc);
  const out: Mutator[] = [];
  const mk = (kind: string, what: string, v: Values, patch: Partial<Case> = {}): Case => ({ call, kind, what, method: s.method, enc, fields: entriesOf(v), token: 'session', ...patch });

  /** One mutator per kind: `per` lists, for a field, the wire values to try; the sweep takes each field shape once. */
  const perField = (kind: string, per: (name: string, f: Field) => unknown[], sweepAll = false) => {
    const targets = fields.map(([name, f]) => ({ name, f, values: per(name, f) })).filter((t) => t.values.length);
    if (!targets.length) return;
    const arb = fc
      .tuple(base.malformed, fc.constantFrom(...targets))
      .chain(([v, t]) => fc.constantFrom(...t.values).map((w) => mk(kind, `${t.name} ← ${shown(w)}`, {}, { fields: withField(v, t.name, w) })));
    const shapes = new Set<string>();
    const sweep = targets.filter((t) => !shapes.has(shapeOf(t.f)) && shapes.add(shapeOf(t.f)));
    out.push({
      kind,
      arb,
      examples: (v) => sweep.flatMap((t) => (sweepAll ? t.values : t.values.slice(0, 1)).map((w) => mk(kind, `${t.name} ← ${shown(w)}`, {}, { fields: withField(v, t.name, w) }))),
    });
  };
  const simple = (kind: string, cases: ((v: Values) => Case)[]) => {
    if (!cases.length) return;
    out.push({ kind, arb: base.malformed.chain((v) => fc.constantFrom(...cases).map((f) => f(v))), examples: (v) => cases.map((f) => f(v)) });
  };

  // --- Wrong types: null anywhere, and each kind's wrong kinds.
  perField('null', () => (texts ? [] : [null]), true);
  perField('type', (_, f) => (texts ? WRONG_TEXT[f.kind] : WRONG_JSON[f.kind].filter((w) => w !== null)));

  // --- Missing fields.
  if (required.length) {
    simple(
      'missing',
      required.map((k) => (v: Values) => mk('missing', `${k} left out`, Object.fromEntries(entriesOf(v).filter(([n]) => n !== k)))),
    );
  }
  simple('empty', [(_v: Values) => mk('empty', 'no fields at all', {})]);

  // --- Unknown fields, the names of built-in object properties among them.
  const variants = fields.flatMap(([k]) => [k.toLowerCase(), k.toUpperCase(), `${k} `, ` ${k}`]).filter((k) => !own(s.request, k));
  // An empty name is an unknown field in JSON; in a query or form ("=1") a device may skip it (see the percent kind).
  const extraNames = [...EXTRA_NAMES, ...variants.slice(0, 4)].filter((k) => k || !texts);
  out.push({
    kind: 'extra',
    arb: fc.tuple(base.malformed, fc.constantFrom(...extraNames), fc.constantFrom(...EXTRA_VALUES)).map(([v, k, w]) => mk('extra', `unknown field ${JSON.stringify(k.length > 20 ? `${k.slice(0, 20)}…` : k)} = ${shown(w)}`, {}, { fields: [...entriesOf(v), [k, w]] })),
    examples: (v) => extraNames.map((k) => mk('extra', `unknown field ${JSON.stringify(k.length > 20 ? `${k.slice(0, 20)}…` : k)}`, {}, { fields: [...entriesOf(v), [k, k === '__proto__' ? { admin: 1 } : 1]] })),
  });

  // --- Boundaries and one past them; numbers that are not integers.
  perField('bounds', (_, f) => {
    if (f.kind === 'int') {
      const ends = [f.min !== undefined ? f.min - 1 : undefined, f.max !== undefined ? f.max + 1 : undefined, f.min, f.max];
      const vals = (f.values ?? []) as number[];
      const near = vals.length ? [Math.max(...vals) + 1, Math.min(...vals) - 1, ...vals.map((x) => x + 1).filter((x) => !vals.includes(x)).slice(0, 1)] : [];
      return [...ends, ...near, ...ODD_NUMBERS].filter((x) => x !== undefined);
    }
    if (f.kind === 'flag') return [2, -1, { $: 'raw', text: '-0' }, { $: 'raw', text: '1.0' }, { $: 'raw', text: '0.0' }];
    if (f.kind === 'string' && f.values) {
      const v0 = String(f.values[0]);
      return [v0.toUpperCase() === v0 ? v0.toLowerCase() : v0.toUpperCase(), `${v0} `, ` ${v0}`, '', 'xx', `${v0}${v0}`];
    }
    if (f.kind === 'string' && f.maxLength !== undefined) {
      const exact = textOfLength(f, f.maxLength);
      return [exact === null ? 'x'.repeat(f.maxLength + 1) : `${exact}${exact.slice(-1)}`, ...(exact === null ? [] : [exact]), '字'.repeat(f.maxLength + 1)];
    }
    return [];
  });
  // Near misses of a pattern: a valid value with a character more, less or changed.
  if (fields.some(([, f]) => f.kind === 'string' && f.pattern)) {
    const targets = fields.filter(([, f]) => f.kind === 'string' && f.pattern && !f.values);
    if (targets.length) {
      const edits: [string, (x: string) => string][] = [
        ['+x', (x) => `${x}x`],
        ['+0', (x) => `${x}0`],
        ['-1', (x) => x.slice(0, -1)],
        [' +', (x) => ` ${x}`],
        ['+ ', (x) => `${x} `],
        ['digit→a', (x) => x.replace(/[0-9]/, 'a')],
        ['sep→/', (x) => x.replace(/[-:.]/, '/')],
        ['x2', (x) => `${x}${x}`],
      ];
      out.push({
        kind: 'pattern',
        arb: fc.tuple(base.malformed, fc.constantFrom(...targets), fc.constantFrom(...edits)).chain(([v, [k, f], [label, edit]]) =>
          validValue(f).map((x) => mk('pattern', `${k} ← ${label}: ${shown(edit(String(x)))}`, {}, { fields: withField(v, k, edit(String(x))) })),
        ),
        examples: () => [],
      });
    }
  }

  // --- Text no field takes: control characters, lone surrogates, bytes that are not UTF-8, days that do not exist.
  const stringFields = fields.filter(([, f]) => f.kind === 'string');
  if (stringFields.length) {
    const sample = (k: string) => (v: Values) => (typeof v[k] === 'string' ? (v[k] as string) : textOfLength(SPECS[call].request[k], 1) ?? 'x');
    const ctrl = (v: Values, k: string, ch: string, at: number) => {
      const x = sample(k)(v);
      const i = Math.min(at, x.length);
      return x.slice(0, i) + ch + x.slice(i);
    };
    out.push({
      kind: 'control',
      arb: fc.tuple(base.malformed, fc.constantFrom(...stringFields.map(([k]) => k)), fc.constantFrom(...CONTROL_CHARS), fc.nat(40)).map(([v, k, ch, at]) => mk('control', `${k} with ${JSON.stringify(ch)}`, {}, { fields: withField(v, k, ctrl(v, k, ch, at)) })),
      examples: (v) => {
        const seen = new Set<string>();
        return stringFields.filter(([, f]) => !seen.has(shapeOf(f)) && seen.add(shapeOf(f))).flatMap(([k]) => ['\u0000', '\u001b'].map((ch) => mk('control', `${k} with ${JSON.stringify(ch)}`, {}, { fields: withField(v, k, ctrl(v, k, ch, 1)) })));
      },
    });
    const surrogate = (v: Values, k: string, unit: string) => (texts ? { $: 'bytes', pre: sample(k)(v), hex: unit === '\\ud800' ? 'eda080' : 'edbfbf' } : { $: 'raw', text: `${JSON.stringify(sample(k)(v)).slice(0, -1)}${unit}"` });
    out.push({
      kind: 'surrogate',
      arb: fc.tuple(base.malformed, fc.constantFrom(...stringFields.map(([k]) => k)), fc.constantFrom('\\ud800', '\\udfff')).map(([v, k, u]) => mk('surrogate', `${k} with a lone surrogate ${u}`, {}, { fields: withField(v, k, surrogate(v, k, u)) })),
      examples: (v) => stringFields.slice(0, 1).map(([k]) => mk('surrogate', `${k} with a lone surrogate \\ud800`, {}, { fields: withField(v, k, surrogate(v, k, '\\ud800')) })),
    });
    out.push({
      kind: 'utf8',
      arb: fc.tuple(base.malformed, fc.constantFrom(...stringFields.map(([k]) => k)), fc.constantFrom(...NOT_UTF8)).map(([v, k, hex]) => mk('utf8', `${k} with bytes ${hex} (not UTF-8)`, {}, { fields: withField(v, k, { $: 'bytes', pre: sample(k)(v), hex }) })),
      examples: (v) => stringFields.slice(0, 1).flatMap(([k]) => ['ff', 'c0af'].map((hex) => mk('utf8', `${k} with bytes ${hex} (not UTF-8)`, {}, { fields: withField(v, k, { $: 'bytes', pre: sample(k)(v), hex }) }))),
    });
  }
  perField('day', (_, f) => (momentOf(f) ? IMPOSSIBLE_DAYS.map((d) => (momentOf(f) === 'datetime' ? `${d} 12:00` : d)) : []), true);
  perField('list', (_, f) => (f.kind === 'strings' ? [['a\u0000'], ['x', 7], [''], Array.from({ length: 1000 }, (_, i) => String(i + 1))] : []));

  // --- Bodies and encodings.
  const bodies: ((v: Values) => Case)[] = [];
  const hasRequired = required.length > 0;
  if (enc === 'json' || enc === 'form' || enc === 'multipart') {
    const junk: [string, unknown, 'refuse' | 'any'][] =
      enc === 'json'
        ? [
            ['a body that is not JSON', { $: 'raw', text: 'not json' }, 'refuse'],
            ['a cut-off object', { $: 'raw', text: '{"a":' }, 'refuse'],
            ['single quotes', { $: 'raw', text: "{'a':1}" }, 'refuse'],
            ['a trailing comma', { $: 'raw', text: '{"a":1,}' }, 'refuse'],
            ['two objects', { $: 'raw', text: '{}{}' }, 'refuse'],
            ['an object and junk', { $: 'raw', text: '{}x' }, 'refuse'],
            ['a NUL', { $: 'raw', text: '\u0000' }, 'refuse'],
            ['a JSON array', { $: 'raw', text: '[]' }, 'refuse'],
            ['an array of the request', { $: 'raw', text: '[{}]' }, 'refuse'],
            ['a JSON number', { $: 'raw', text: '1' }, 'refuse'],
            ['a JSON string', { $: 'raw', text: '"x"' }, 'refuse'],
            ['JSON null', { $: 'raw', text: 'null' }, 'refuse'],
            ['JSON true', { $: 'raw', text: 'true' }, 'refuse'],
            ['bytes that are not UTF-8', { $: 'bytes', pre: '{"', hex: 'ff' }, 'refuse'],
            ['a key with an overlong "/"', { $: 'bytes', pre: '{"a', hex: 'c0af' }, 'refuse'],
            ['whitespace only', { $: 'raw', text: ' \r\n ' }, hasRequired ? 'refuse' : 'any'],
          ]
        : [
            ['a JSON body', { $: 'raw', text: '{"a":1}' }, 'refuse'],
            ['bytes that are not UTF-8', { $: 'bytes', pre: enc === 'form' ? 'a=' : '--', hex: 'ff' }, 'refuse'],
            ['a NUL', { $: 'raw', text: '\u0000' }, 'refuse'],
          ];
    for (const [what, body, expect] of junk) bodies.push((v) => mk('body', what, v, { body, expect }));
    if (enc === 'json') {
      // The request as a JSON string holding JSON, and after a byte-order mark: a device may read them or not.
      bodies.push((v) => mk('body', 'a JSON string holding the request', v, { body: JSON.stringify(Object.fromEntries(entriesOf(v))), expect: 'any' }));
      bodies.push((v) => mk('body', 'a byte-order mark first', v, { body: { $: 'raw', text: `\ufeff${jsonObject(entriesOf(v)).toString()}` }, expect: 'any' }));
    }
    if (enc === 'multipart') {
      bodies.push((v) => mk('body', 'another boundary than the header says', v, { ctype: 'multipart/form-data; boundary=other', expect: hasRequired ? 'refuse' : 'any' }));
      bodies.push((v) => mk('body', 'no boundary', v, { ctype: 'multipart/form-data', expect: hasRequired ? 'refuse' : 'any' }));
      bodies.push((v) => mk('body', 'a cut-off body', v, { body: { $: 'raw', text: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\nab` }, expect: 'refuse' }));
    }
    bodies.push((v) => mk('body', 'no Content-Type', v, { ctype: '', expect: 'any' }));
    bodies.push((v) => mk('body', 'Content-Type text/plain', v, { ctype: 'text/plain', expect: 'any' }));
  }
  if (enc === 'query' || enc === 'form') {
    // %-junk: escapes that are not UTF-8, a '%' that escapes nothing, empty names.
    const tails: [string, 'refuse' | 'any'][] = [
      ['&%FF=1', 'refuse'],
      ['&%C0%AF=1', 'refuse'],
      ['&%ED%A0%80=1', 'refuse'],
      ['&%E0%A4%A=1', 'refuse'],
      ['&%=1', 'refuse'],
      ['&%ZZ=1', 'refuse'],
      ['&%00=1', 'refuse'],
      ['&a%00=1', 'refuse'],
      ['&=1', 'any'],
      ['&&&', 'any'],
      ['&%2', 'refuse'],
    ];
    for (const [tail, expect] of tails) bodies.push((v) => mk('percent', `${enc === 'query' ? 'query' : 'body'} ends ${JSON.stringify(tail)}`, v, { tail, expect }));
    for (const [k] of fields.slice(0, 3)) {
      for (const raw of ['%', '%G1', '%E0%A4%A', '%FF', '%C0%AF', '%u0041', '100%']) bodies.push((v) => mk('percent', `${k} ← raw ${JSON.stringify(raw)}`, {}, { fields: withField(v, k, { $: 'raw', text: raw }) }));
    }
  }
  // Another encoding than the call's: fields where the device does not look for them leave the required ones missing.
  for (const other of ['json', 'query', 'form', 'multipart'] as const) {
    if (other === enc) continue;
    const elsewhere = (other === 'query') !== (enc === 'query');
    bodies.push((v) => mk('encoding', `sent as ${other} instead of ${enc}`, v, { enc: other, expect: elsewhere && hasRequired ? 'refuse' : 'any' }));
  }
  // The other method: the call is its method and path.
  bodies.push((v) => mk('encoding', `${s.method === 'GET' ? 'POST' : 'GET'} instead of ${s.method}`, v, { method: s.method === 'GET' ? 'POST' : 'GET', expect: 'refuse', codes: [10001] }));
  for (const kind of ['body', 'percent', 'encoding']) {
    const list = bodies.filter((b) => b({}).kind === kind);
    if (list.length) out.push({ kind, arb: base.malformed.chain((v) => fc.constantFrom(...list).map((b) => b(v))), examples: (v) => list.map((b) => b(v)) });
  }

  // --- Size: huge values, empty values, deep nesting, a body over 1 MiB.
  const hugeFor = (f: Field): unknown[] =>
    f.kind === 'string'
      ? [{ $: 'text', s: 'x', n: huge }, { $: 'text', s: '字', n: Math.floor(huge / 9) }]
      : f.kind === 'strings'
        ? [{ $: 'raw', text: `[${'"x",'.repeat(texts ? 500 : 10_000)}"x"]` }, [{ $: 'text', s: 'x', n: huge }]]
        : f.kind === 'file'
          ? []
          : [{ $: 'raw', text: '9'.repeat(texts ? 1000 : 10_000) }];
  perField('huge', (_, f) => hugeFor(f));
  perField('blank', (_, f) => (f.kind === 'strings' ? [[], ''] : f.kind === 'object' ? [{}, ''] : f.kind === 'objects' ? [[], ''] : f.kind === 'file' ? [{ $: 'file', name: '', type: 'application/octet-stream', hex: '' }] : ['']), true);
  const deepCases: ((v: Values) => Case)[] = [];
  for (const open of ['[', '{'] as const) {
    deepCases.push((v) => mk('deep', `unknown field "deep" ← ${open} nested ${deep} deep`, {}, { fields: [...entriesOf(v), ['deep', { $: 'deep', open, n: deep }]] }));
    for (const [k] of fields.slice(0, 4)) deepCases.push((v) => mk('deep', `${k} ← ${open} nested ${deep} deep`, {}, { fields: withField(v, k, { $: 'deep', open, n: deep }) }));
  }
  simple('deep', deepCases);
  const bigName = stringFields[0]?.[0];
  const overMiB = (extra: number) => (v: Values): Case => {
    if (enc === 'multipart') {
      const fileField = fields.find(([, f]) => f.kind === 'file')?.[0] ?? 'File';
      return mk('oversize', `a ${MIB + 64 * 1024 + extra}-byte file part`, {}, { fields: withField(v, fileField, { $: 'file', name: 'big.bin', type: 'application/octet-stream', hex: '00', n: MIB + 64 * 1024 + extra }), expect: 'refuse', codes: [10101] });
    }
    if (enc === 'query') return mk('oversize', `a ${MIB + extra}-byte body to a query call`, v, { body: { $: 'text', s: 'x', n: MIB + extra }, expect: 'any' });
    const name = bigName ?? 'pad';
    return mk('oversize', `a body over 1 MiB (${name} ← "x"×${MIB + extra})`, {}, { fields: withField(v, name, { $: 'text', s: 'x', n: MIB + extra }), expect: 'refuse', codes: [10101] });
  };
  out.push({ kind: 'oversize', arb: fc.tuple(base.malformed, fc.nat(4096)).map(([v, n]) => overMiB(n + 1)(v)), examples: (v) => [overMiB(1)(v)] });

  // --- Without a session: no token, forged tokens.
  if (s.auth) {
    const tokens = ['none', '', 'forged', '0'.repeat(32), 'null', 'x'.repeat(2048), '../../etc/passwd', 'admin'];
    out.push({
      kind: 'auth',
      arb: fc.tuple(base.malformed, fc.constantFrom(...tokens)).map(([v, t]) => mk('auth', t === 'none' ? 'no token' : `token ${JSON.stringify(t.slice(0, 20))}`, v, { token: t })),
      examples: (v) => tokens.slice(0, 3).map((t) => mk('auth', t === 'none' ? 'no token' : `token ${JSON.stringify(t)}`, v, { token: t })),
    });
  }

  // --- Valid requests.
  out.push({ kind: 'valid', arb: base.valid.map((v) => mk('valid', 'a valid request', v)), examples: () => [] });
  return out;
}

// ===========================================================================
// The run

export interface FuzzOptions {
  /** The terminal, http://host[:port]. */
  url: string;
  /** Send calls that change the device (every call but NEVER_SENT). */
  allowWrites: boolean;
  /** Random runs per property (one call, one kind of mutation), after its fixed examples. */
  runs: number;
  /** Base seed; each property's seed derives from it and the property's name. */
  seed: number;
  /** Per request. */
  timeoutMs?: number;
  username?: string;
  password?: string;
  /** Only these properties: call names, call:kind, or :kind. */
  only?: string[];
  /** Not these (same forms): e.g. chklogin on a terminal whose sign-in lock you would rather not close. */
  skip?: string[];
  /** Replay one property (with `only`) along fast-check's path. */
  path?: string;
  /** The target is the simulated terminal: connection fields are fuzzed too (see CONNECTION_FIELDS). */
  simulator?: boolean;
  /** Shrink counterexamples (default true). */
  shrink?: boolean;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface Failure {
  id: string;
  call: string;
  kind: string;
  /** The first problem, in words. */
  problem: string;
  /** Every problem with the request and the reply. */
  detail: string;
  /** fast-check's report: counterexample, seed, path. */
  report: string;
  seed: number;
  path: string | null;
}

export interface FuzzResult {
  failures: Failure[];
  properties: number;
  requests: number;
  ms: number;
  skipped: string[];
}

/** A property's seed, from the base seed and its name: any property replays alone with FUZZ_ONLY and the same FUZZ_SEED. */
export function propertySeed(seed: number, id: string): number {
  let h = seed | 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Bytes as text, with what is not UTF-8 shown as \\xHH. */
function showBytes(b: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return [...b.subarray(0, 4096)].map((x) => (x < 0x80 ? String.fromCharCode(x) : `\\x${x.toString(16).padStart(2, '0')}`)).join('');
  }
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);

class Problem extends Error {}

export async function fuzzContract(o: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const http = new Http(new URL(o.url), o.timeoutMs ?? 10_000);
  const username = o.username ?? 'admin';
  const password = o.password ?? TEST_ADMIN.password;
  const failures: Failure[] = [];
  const skipped: string[] = [];
  let properties = 0;

  const call = async (name: string, params: Values, token?: string): Promise<Outcome> => {
    const c: Case = { call: name, kind: 'read', what: '', method: SPECS[name].method, enc: SPECS[name].encoding, fields: entriesOf(params), token: token === undefined ? 'none' : 'session' };
    return http.send(toWire(c, token));
  };
  const signIn = async (): Promise<string> => {
    const r = await call('chklogin', { username, password });
    const reply = r.json as { retvalue?: unknown; token?: unknown } | undefined;
    if (reply?.retvalue !== 0 || typeof reply.token !== 'string') throw new Error(`cannot sign in as ${username}: ${r.error ?? JSON.stringify(r.json ?? r.file)}`);
    return reply.token;
  };
  let token = await signIn();
  /** The terminal said it restarts (reboot in a reply) or the session ended: wait until it answers, then sign in again. */
  const recover = async () => {
    for (let t = Date.now(); Date.now() - t < 90_000; await new Promise((r) => setTimeout(r, 1000))) {
      try {
        token = await signIn();
        return;
      } catch {
        /* not yet */
      }
    }
    throw new Error('the terminal did not come back within 90 s');
  };

  // Values that valid writes keep: fields whose change restarts the device, and (on a real terminal) the connection's.
  const pins: Record<string, Values> = {};
  for (const name of PAIR_WRITES) {
    const keep = Object.entries(SPECS[name].request)
      .filter(([k, f]) => restartsOnChange(f) || (!o.simulator && (CONNECTION_FIELDS[name] === '*' || CONNECTION_FIELDS[name]?.includes(k))))
      .map(([k]) => k);
    if (!keep.length) continue;
    const r = await call(pairRead(name)!, {}, token);
    const reply = r.json as Values | undefined;
    if (reply?.retvalue !== 0) {
      skipped.push(`${name}: valid writes (cannot read ${pairRead(name)} to keep ${keep.join(', ')})`);
      continue;
    }
    pins[name] = Object.fromEntries(keep.filter((k) => reply[k] !== undefined).map((k) => [k, reply[k]]));
  }

  /** Base requests of a call. */
  const baseOf = (name: string): Base => {
    let valid = validRecord(SPECS[name].request);
    const rule = RULES[name];
    if (rule) valid = valid.map(rule.fix);
    if (pins[name]) valid = valid.map((v) => ({ ...v, ...pins[name] }));
    if (name === 'ExecuteCommand') valid = valid.filter((v) => !RESTARTING_COMMANDS.has(v.Code as number));
    let malformed = valid;
    if (name === 'EditPwd') {
      // Malformed and unauthorised EditPwd keep the password (a wrongly taken one changes nothing); valid ones change it and restorePassword puts it back.
      malformed = valid.map((v) => ({ ...v, userid: username, oldpwd: password, newpwd: password }));
      valid = valid.map((v) => ({ ...v, userid: username, oldpwd: password }));
    }
    return { valid, malformed };
  };

  /** What a refused write must leave as it was: its pair's read, or the read-only calls of its area; fields filled from the request. */
  const readsFor = (name: string, v: Values): { name: string; params: Values }[] => {
    const fill = (read: string): Values | null => {
      const p: Values = {};
      for (const [k, f] of Object.entries(SPECS[read].request)) {
        if (own(v, k) && fitsValue(f, v[k])) p[k] = v[k];
        else if (f.optional) continue;
        else if (f.values?.length) p[k] = f.values[0];
        else if (f.kind === 'int' && f.min !== undefined) p[k] = f.min;
        else return null;
      }
      return p;
    };
    const pair = pairRead(name);
    const names = pair
      ? [pair]
      : [
          ...[...READ_ONLY].filter((r) => SPECS[r].area === SPECS[name].area && !['chklogin', 'checkPower', 'test_takephoto'].includes(r) && SPECS[r].reply !== 'file' && r !== name),
          ...(EXTRA_READS[name] ?? []),
        ];
    return names.flatMap((r) => {
      const params = fill(r);
      return params ? [{ name: r, params }] : [];
    });
  };
  const EXTRA_READS: Record<string, string[]> = {
    // Joining a network saves the Wi-Fi settings; clearing admin cards changes users; an upgrade, the firmware version.
    GetChooseWirless: ['SetWirless'],
    InitAdminCard: ['userlist'],
    UpdateMachine: ['SetInfoParam'],
  };
  /** A read's answer, for comparing: the device clock (SetDateTimeParam's Date and Time) left out, kept apart. */
  const snapshot = async (reads: { name: string; params: Values }[]) => {
    const out: { name: string; reply: unknown; raw: unknown; clock?: number; fits: Verdict }[] = [];
    for (const r of reads) {
      const res = await call(r.name, r.params, token);
      const raw: unknown = res.json ?? res.error ?? res.file;
      let reply = raw;
      const fits = isPlainObject(reply) && reply.retvalue === 0 ? judgeRecord(SPECS[r.name].response, Object.entries(reply).filter(([k]) => !own(ENVELOPE, k)), `${r.name} `, true) : OK;
      let clock: number | undefined;
      if (isPlainObject(reply) && r.name === 'SetDateTimeParam') {
        clock = Date.parse(`${reply.Date}T${reply.Time}:00Z`);
        reply = { ...reply, Date: undefined, Time: undefined };
      }
      out.push({ name: r.name, reply, raw, clock, fits });
    }
    return out;
  };

  /** EditPwd must leave the administrator password as it was (a valid one changes it: put it back). */
  const restorePassword = async (c: Case, verdict: Verdict & { values?: Values }, rv: unknown): Promise<string | null> => {
    const check = await call('checkPower', { password }, token);
    if ((check.json as Values | undefined)?.retvalue === 0) return null;
    const now = verdict.values?.newpwd;
    if (typeof now === 'string') {
      const back = await call('EditPwd', { userid: username, oldpwd: now, newpwd: password }, token);
      // A change the request was meant to make is no problem (it is put back all the same).
      if ((back.json as Values | undefined)?.retvalue === 0) return verdict.v === 'ok' && rv === 0 ? null : `the administrator password changed to ${JSON.stringify(now)} (put back)`;
    }
    throw new Error(`EditPwd: the administrator password is no longer ${password} after ${c.what}; the run stops`);
  };

  const allowed = (c: Case) => (SPECS[c.call].auth && c.token !== 'session' ? AUTH_CODES : new Set([...documentedCodes(c.call), ...(c.codes ?? [])]));

  /** Send a case and check everything about its answer; throws a Problem listing what is wrong. */
  const check = async (c: Case) => {
    const spec = SPECS[c.call];
    const verdict = verdictOf(c);
    const pair = pairRead(c.call);
    const writes = !isReadOnly(c.call);
    const reads = writes ? readsFor(c.call, verdict.values ?? Object.fromEntries(c.fields)) : [];
    const before = reads.length ? await snapshot(reads) : null;
    // logout gets a session of its own: the fuzz session must outlive it.
    const useToken = c.token === 'none' ? undefined : c.token === 'session' ? (c.call === 'logout' ? await signIn() : token) : c.token;
    const wire = toWire(c, useToken);
    const out = await http.send(wire);
    const problems: string[] = [];
    const reply = out.json as Values | undefined;
    const rv = reply?.retvalue;
    const authCase = spec.auth && c.token !== 'session';
    if (out.error) problems.push(out.error);
    else {
      if ((out.status ?? 0) >= 500) problems.push(`HTTP ${out.status}`);
      if (out.file) {
        if (spec.reply !== 'file' || out.status !== 200) problems.push(`not an envelope: HTTP ${out.status} ${out.file.type || 'no type'} ${JSON.stringify(out.file.head.slice(0, 80))}`);
        else if (verdict.v === 'bad' || authCase) problems.push(`a file for a request that should be refused (${verdict.v === 'bad' ? verdict.why : 'no session'})`);
      } else if (!isPlainObject(reply)) problems.push(`not an envelope: ${clip(JSON.stringify(reply), 100)}`);
      else if (rv === 'wait') {
        if (!waits(c.call)) problems.push('retvalue "wait" from a call that never waits');
        if (verdict.v === 'bad' || authCase) problems.push(`"wait" (taken) for a request that should be refused: ${verdict.v === 'bad' ? verdict.why : 'no session'}`);
      } else if (typeof rv !== 'number' || !Number.isInteger(rv)) problems.push(`retvalue ${JSON.stringify(rv)} is not an integer`);
      else if (rv === 0) {
        if (authCase) problems.push(`taken without a session (${c.what})`);
        else if (verdict.v === 'bad') problems.push(`taken: ${verdict.why}`);
        const shape = judgeRecord(spec.response, Object.entries(reply).filter(([k]) => !own(ENVELOPE, k)), 'reply ', true);
        if (shape.v === 'bad') problems.push(`answer does not fit the contract: ${shape.why}`);
      } else {
        const codes = allowed(c);
        if (!codes.has(rv)) problems.push(`code ${rv}${reply.msg ? ` (${reply.msg})` : ''} is not one ${authCase ? 'a call without a session answers' : `${c.call} documents`} (${[...codes].join(', ')})`);
        if (verdict.v === 'ok' && pair && !authCase) problems.push(`a valid write refused: ${rv}${reply.field !== undefined ? ` naming ${JSON.stringify(reply.field)}` : ''}`);
        if (c.token === 'session' && (rv === 10002 || rv === 40104)) await recover();
      }
    }
    if (reply?.reboot === true || reply?.reboot === 1) {
      problems.push(`the terminal restarts (reboot in the reply) after ${c.what}`);
      await recover();
    }
    if (out.error) {
      // The connection went down: is the terminal still there, and is our session?
      const alive = await call('GetDeviceFunList', {}, token);
      if ((alive.json as Values | undefined)?.retvalue !== 0) await recover();
    }
    // A refused write leaves everything as it was; a taken one reads back what it wrote.
    if (before) {
      const after = await snapshot(reads);
      const refused = typeof rv === 'number' && rv !== 0 && !CHANGING_CODES.has(rv);
      for (const [i, a] of after.entries()) {
        // What this request broke (a read that did not fit before is an earlier request's doing, reported there).
        if (a.fits.v === 'bad' && before[i].fits.v !== 'bad') problems.push(`the read afterwards does not fit the contract: ${a.fits.why}`);
        if (refused || out.error) {
          if (!deepEqual(before[i].reply, a.reply)) problems.push(`refused (${rv ?? out.error}), yet ${a.name} changed: ${clip(JSON.stringify(before[i].reply), 200)} → ${clip(JSON.stringify(a.reply), 200)}`);
          const [t0, t1] = [before[i].clock, a.clock];
          if (t0 !== undefined && t1 !== undefined && (t1 - t0 < -60_000 || t1 - t0 > 180_000)) problems.push(`refused (${rv}), yet the device clock moved by ${Math.round((t1 - t0) / 60_000)} min`);
        }
      }
      if (!pair && rv === 0 && verdict.v === 'ok' && verdict.values && !authCase) {
        // A write taken: a read keyed by what the write named (GetUserInfo by the UserID of adduser, edituser) answers
        // what was written, field for field of the same name and kind.
        for (const [i, a] of after.entries()) {
          const r = a.raw as Values | undefined;
          const keys = Object.keys(SPECS[a.name].request);
          if (!keys.length || !keys.every((k) => own(verdict.values!, k)) || !isPlainObject(r) || r.retvalue !== 0) continue;
          for (const [k, v] of Object.entries(verdict.values)) {
            const [w, rd] = [SPECS[c.call].request[k], SPECS[a.name].response[k]];
            if (rd && w.kind === rd.kind && own(r, k) && !deepEqual(r[k], v)) problems.push(`wrote ${k} = ${clip(JSON.stringify(v), 80)}, ${reads[i].name} answers ${clip(JSON.stringify(r[k]), 80)}`);
          }
        }
      }
      if (pair && rv === 0 && verdict.v === 'ok' && verdict.values && !authCase) {
        // Read back what was written (fields the device derives: NOT_VERBATIM).
        const r = after[0].raw as Values;
        for (const [k, v] of Object.entries(verdict.values)) {
          if (NOT_VERBATIM[c.call]?.[k]) continue;
          if (!deepEqual(r?.[k], v)) problems.push(`wrote ${k} = ${clip(JSON.stringify(v), 80)}, ${pair} answers ${clip(JSON.stringify(r?.[k]), 80)}`);
        }
        for (const [k, v] of Object.entries((before[0].reply as Values) ?? {})) {
          if (own(verdict.values, k) || k === 'retvalue' || v === undefined) continue;
          if (own(SPECS[c.call].request, k) && !deepEqual(r?.[k], v)) problems.push(`${k} was not written, yet ${pair} answers ${clip(JSON.stringify(r?.[k]), 80)} instead of ${clip(JSON.stringify(v), 80)}`);
        }
        if (c.call === 'GetDateTimeParam' && verdict.values.Mode === 0) {
          const set = Date.parse(`${verdict.values.Date}T${verdict.values.Time}:00Z`);
          const t = after[0].clock;
          // The contract's Time: sending back the time the device showed (this minute or the last) keeps its clock,
          // so a new TimeZone then moves the wall clock instead. Nothing to compare in that case.
          const shown = before[0].clock;
          const kept = shown !== undefined && (shown === set || shown - set === 60_000);
          if (!kept && (t === undefined || Number.isNaN(t) || t < set || t - set > 180_000)) problems.push(`set the clock to ${verdict.values.Date} ${verdict.values.Time}; the device answers ${r?.Date} ${r?.Time}`);
        }
      }
    }
    if (c.call === 'EditPwd' && !authCase) {
      const changed = await restorePassword(c, verdict, rv);
      if (changed) problems.push(changed);
    }
    if (problems.length) {
      const sent = `${wire.method} ${wire.path.replace(/_t=\d+&?/, '').replace(/\?$/, '')}${wire.body ? ` ${clip(showBytes(wire.body), 200)}` : ''}`;
      const got = out.error ? out.error : `HTTP ${out.status} ${out.file ? `file ${out.file.type} ${out.file.size} bytes` : clip(JSON.stringify(reply), 200)}`;
      throw new Problem(`${problems.join('\n')}\n  case: ${c.what}\n  expected: ${verdict.v === 'ok' ? 'taken' : verdict.v === 'bad' ? `refused (${verdict.why})` : `either (${verdict.why})`}\n  sent: ${sent}\n  got: ${got}`);
    }
  };

  const runProperty = async <T>(id: string, arb: fc.Arbitrary<T>, examples: T[], body: (x: T) => Promise<void>) => {
    const [callName, kind] = id.split(':');
    const matches = (x: string) => x === id || x === callName || x === `:${kind}`;
    if ((o.only?.length && !o.only.some(matches)) || o.skip?.some(matches)) return;
    properties++;
    const seed = propertySeed(o.seed, id);
    const details = await fc.check(fc.asyncProperty(arb, body), {
      seed,
      // fast-check counts the examples among numRuns: the random runs come on top of them.
      numRuns: examples.length + o.runs,
      examples: examples.map((e) => [e] as [T]),
      ...(o.path ? { path: o.path } : {}),
      endOnFailure: o.shrink === false,
    });
    if (!details.failed) return;
    const err = details.errorInstance;
    if (err instanceof Error && !(err instanceof Problem)) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    failures.push({
      id,
      call: callName,
      kind,
      problem: detail.split('\n')[0],
      detail,
      report: clip(fc.defaultReportMessage(details) ?? '', 4000),
      seed,
      path: details.counterexamplePath,
    });
    log(`✘ ${id}: ${detail.split('\n')[0]}`);
  };

  /** Paths outside the calls: %-junk in the console's static paths and in /goform/ names. Static answers need no envelope; /goform/ ones do. */
  const checkPath = async (path: string) => {
    const out = await http.send({ method: 'GET', path, headers: { 'Cache-Control': 'no-cache' } });
    const problems: string[] = [];
    if (out.error) problems.push(out.error);
    else if ((out.status ?? 0) >= 500) problems.push(`HTTP ${out.status}`);
    else if (isGoform(path)) {
      const r = out.json as Values | undefined;
      if (!isPlainObject(r) || typeof r.retvalue !== 'number' || !Number.isInteger(r.retvalue) || r.retvalue === 0) problems.push(`not an envelope with an error code: HTTP ${out.status} ${out.file ? `${out.file.type || 'no type'}, ${out.file.size} bytes` : clip(JSON.stringify(out.json), 100)}`);
    }
    if (out.error) {
      const alive = await call('GetDeviceFunList', {}, token);
      if ((alive.json as Values | undefined)?.retvalue !== 0) await recover();
    }
    if (problems.length) throw new Problem(`${problems.join('\n')}\n  sent: GET ${path}\n  got: ${out.error ?? `HTTP ${out.status} ${out.file ? `${out.file.type || 'no type'}, ${out.file.size} bytes` : clip(JSON.stringify(out.json), 200)}`}`);
  };
  /** A path the server takes for a call, as it reads it (dot segments resolved, %2e%2e too, as URLs are parsed). */
  const isGoform = (p: string) => new URL(p, 'http://terminal').pathname.startsWith(GOFORM_PREFIX);
  const isCallPath = (p: string) => {
    try {
      return own(SPECS, decodeURIComponent(p.slice(GOFORM_PREFIX.length)));
    } catch {
      return false;
    }
  };
  const PATHS = [
    '/%E0%A4%A',
    '/%',
    '/%FF',
    '/%C0%AF',
    '/%ED%A0%80',
    '/%00',
    '/index.html%00',
    '/..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/a%ZZ',
    `/${'x'.repeat(4000)}`,
    '/goform/',
    '/goform/%FF',
    '/goform/%E0%A4%A',
    '/goform/__proto__',
    '/goform/constructor',
    '/goform/toString',
    '/goform/hasOwnProperty',
    '/goform/chklogin/x',
    '/goform/chklogin%00',
    '/goform/../index.html',
    '/goform/%2e%2e/index.html',
  ];
  const pathArb = fc.oneof(fc.constantFrom(...PATHS), fc.stringMatching(/^\/(goform\/)?[%A-Za-z0-9._~-]{0,40}$/)).filter((p) => !isCallPath(p));

  // Sign-in last: wrong passwords close sign-in from this address for a while (the illegal-login lock), and logout before it.
  const order = Object.keys(SPECS).sort((a, b) => Number(a === 'chklogin') - Number(b === 'chklogin') || Number(a === 'logout') - Number(b === 'logout'));
  try {
    // Static paths first: after sign-in has been fuzzed, signing in again may be locked for a while.
    // A terminal with no console installed answers 503 to every static path, by design: then only /goform/ ones.
    const root = await http.send({ method: 'GET', path: '/', headers: {} });
    if (root.status === 503) skipped.push('static paths but /goform/ ones: no console installed (GET / answers 503)');
    await runProperty('static:paths', root.status === 503 ? pathArb.filter(isGoform) : pathArb, root.status === 503 ? PATHS.filter(isGoform) : PATHS, checkPath);
    for (const name of order) {
      if (own(NEVER_SENT, name)) {
        skipped.push(`${name}: ${NEVER_SENT[name]}`);
        continue;
      }
      if (!o.allowWrites && !isReadOnly(name)) {
        skipped.push(`${name}: changes the device (--allow-writes)`);
        continue;
      }
      const base = baseOf(name);
      const sample = fc.sample(base.malformed, { seed: propertySeed(o.seed, name), numRuns: 1 })[0];
      const t0 = Date.now();
      for (const m of mutators(name, base)) await runProperty(`${name}:${m.kind}`, m.arb, m.examples(sample), check);
      log(`${name}: ${Date.now() - t0} ms`);
    }
  } finally {
    http.close();
  }
  return { failures, properties, requests: http.requests, ms: Date.now() - started, skipped };

}

/** Fields of a settings pair whose read does not answer what was written, and why. Every other field must read back as written. */
const NOT_VERBATIM: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  GetDateTimeParam: {
    Date: 'the read answers the device clock now (a Mode 0 write sets it: checked apart, within 3 minutes)',
    Time: 'the same',
  },
};

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== typeof b || typeof a !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).filter((k) => (a as Values)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Values)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => own(b as object, k) && deepEqual((a as Values)[k], (b as Values)[k]));
}

// ===========================================================================
// Reporting, and the command line

/** One failure, for a person: the problem, the request and reply, how to replay it, fast-check's report. */
export function formatFailure(f: Failure, baseSeed: number): string {
  return [
    `✘ ${f.id}: ${f.problem}`,
    ...f.detail.split('\n').slice(1),
    `  replay: FUZZ_SEED=${baseSeed} FUZZ_ONLY=${f.id}${f.path ? ` FUZZ_PATH=${f.path}` : ''} (fast-check seed ${f.seed}${f.path ? `, path ${f.path}` : ''})`,
    ...f.report.split('\n').map((l) => `  | ${l}`),
  ].join('\n');
}

/** FUZZ_SEED: a number, or "random" (a new seed, printed). Default 42. */
export function seedFrom(text: string | undefined): number {
  if (!text) return 42;
  if (text === 'random') return (Math.random() * 2 ** 31) | 0;
  const n = Number(text);
  if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED / --seed: a whole number or "random", not ${JSON.stringify(text)}`);
  return n;
}

const USAGE = `Usage: npx tsx tests/fuzz/contract-fuzz.ts --url http://<terminal> [--allow-writes] [--runs N] [--seed S|random]
         [--only call[:kind],...] [--skip call[:kind],...] [--path P] [--timeout ms] [--user admin] [--password 470213] [--no-shrink]
  --url           the terminal (or TERMINAL_URL)
  --allow-writes  also send calls that change the device: every call but ${Object.keys(NEVER_SENT).join(' and ')}
  --runs          random runs per property (one call, one kind of mutation), after its fixed examples (FUZZ_RUNS; default 4)
  --seed          base seed, or "random" (FUZZ_SEED; default 42)
  --only          only these calls or call:kind properties (FUZZ_ONLY), e.g. GetPrintParam:control,:oversize
  --skip          not these (FUZZ_SKIP), e.g. chklogin (wrong passwords close sign-in from this address for up to 15 min)
  --path          replay fast-check's path of one property (FUZZ_PATH; with --only and the same --seed)`;

async function main(argv: string[]): Promise<number> {
  const args = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}\n${USAGE}`);
    const [k, v] = a.slice(2).split('=', 2);
    if (v !== undefined) args.set(k, v);
    else if (['allow-writes', 'no-shrink', 'help'].includes(k)) args.set(k, true);
    else args.set(k, argv[++i] ?? '');
  }
  if (args.has('help')) {
    console.log(USAGE);
    return 0;
  }
  const str = (k: string, env: string) => (typeof args.get(k) === 'string' ? (args.get(k) as string) : process.env[env]);
  const url = str('url', 'TERMINAL_URL');
  if (!url) throw new Error(`no terminal: --url or TERMINAL_URL\n${USAGE}`);
  const seed = seedFrom(str('seed', 'FUZZ_SEED'));
  const runs = Number(str('runs', 'FUZZ_RUNS') ?? 4);
  const only = str('only', 'FUZZ_ONLY')?.split(',').filter(Boolean);
  const skip = str('skip', 'FUZZ_SKIP')?.split(',').filter(Boolean);
  const allowWrites = args.has('allow-writes');
  console.log(`contract fuzz: ${url}, seed ${seed}, ${runs} runs per property, ${allowWrites ? 'writes allowed' : 'read-only calls only'}`);
  const result = await fuzzContract({
    url,
    allowWrites,
    runs,
    seed,
    only,
    skip,
    path: str('path', 'FUZZ_PATH'),
    timeoutMs: Number(str('timeout', 'FUZZ_TIMEOUT') ?? 10_000),
    username: str('user', 'FUZZ_USER'),
    password: str('password', 'FUZZ_PASSWORD'),
    shrink: !args.has('no-shrink'),
    log: (l) => console.log(l),
  });
  for (const s of result.skipped) console.log(`  not sent: ${s}`);
  for (const f of result.failures) console.log(`\n${formatFailure(f, seed)}`);
  console.log(`\n${result.properties} properties, ${result.requests} requests, ${(result.ms / 1000).toFixed(1)} s, ${result.failures.length} failing; seed ${seed}`);
  return result.failures.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err.message);
      process.exit(2);
    },
  );
}
