// The contract fuzz (contract-fuzz.ts): the oracle. What a device that keeps
// the contract does with a value (judgeValue) and with a whole request, as it
// reads it off the wire (verdictOf): take it, refuse it, or either.
import type { Field, Fields } from '../../../contract/index.ts';
import { SPECS, cleanText, knownZone, momentOf, own, realDay, type Encoding, type Values } from './contract.ts';

// ===========================================================================
// The oracle: what a device that keeps the contract does with a value

export type Verdict = { v: 'ok' } | { v: 'bad' | 'unsure'; why: string };
export const OK: Verdict = { v: 'ok' };
export const bad = (why: string): Verdict => ({ v: 'bad', why });
const unsure = (why: string): Verdict => ({ v: 'unsure', why });
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v);
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
      // A device's tz database may have names Intl's list lacks (links such as
      // Asia/Kolkata where Node lists Asia/Calcutta, newer names): what it answers
      // is its own. What this fuzz sends is drawn from the list or edited from it.
      if (f.format === 'zone' && !knownZone(v)) {
        const why = `${JSON.stringify(v)} is no time zone Intl lists or TimeZone's doc names`;
        return reply ? unsure(`${path}: ${why}`) : no(why);
      }
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
export function judgeRecord(fields: Fields, entries: [string, unknown][], prefix: string, reply: boolean): Verdict {
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
export const isToken = (v: unknown): v is Token => isPlainObject(v) && typeof v.$ === 'string' && Object.keys(v).length <= 5 && ['text', 'raw', 'bytes', 'deep', 'file'].includes(v.$ as string);
export const isFile = (v: unknown): v is Token & { $: 'file' } => isToken(v) && v.$ === 'file';

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

export const deepText = (t: { open: '[' | '{'; n: number }) => (t.open === '[' ? '['.repeat(t.n) + ']'.repeat(t.n) : '{"a":'.repeat(t.n) + '1' + '}'.repeat(t.n));

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
export function textOf(w: unknown, enc: Encoding, path: string): Decoded {
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
export const RULES: Readonly<Record<string, { fix: (v: Values) => Values; ok: (v: Values) => boolean }>> = (() => {
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
