// The contract fuzz (contract-fuzz.ts): contract/index.ts as the fuzzer
// reads it. Which calls are never sent, which only read, the codes a call
// documents, the fields a connection depends on; and the text rules no field
// of the contract lets through.
import { ADDED_CODES } from '../../../contract/codes.ts';
import { CALLS, type CallSpec, type Field, type Fields } from '../../../contract/index.ts';
import { CODE_MESSAGES } from '../../../src/api/errors.ts';
import { COMMANDS } from '../../../contract/maintenance.ts';

// ===========================================================================
// The contract, as the fuzzer reads it

export const SPECS = CALLS as unknown as Record<string, CallSpec>;
export const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
export type Encoding = CallSpec['encoding'];
export type Values = Record<string, unknown>;

/**
 * Calls never sent, and why: each would end the run.
 * (Also never sent, by construction rather than by name: a valid firmware
 * package — UpdateMachine only ever gets files from FILES (values.ts), none of which
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
export const RESTARTING_COMMANDS = new Set(
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
export const PAIR_WRITES = Object.keys(SPECS).filter((n) => pairRead(n));
const PAIR_READS = new Set(PAIR_WRITES.map((n) => pairRead(n)!));

/**
 * Calls that change nothing on the device, besides the reads of settings
 * pairs. Any call not here (a call added later too) counts as a write: it is
 * sent only with --allow-writes.
 */
export const READ_ONLY = new Set([
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
  'SetDoorState',
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
export const AUTH_CODES = new Set([10002, 11001, 40104]);
/** Codes that say the device did change something although the call failed: 30102, "the device has switched back to AP mode". */
export const CHANGING_CODES = new Set([30102]);
/** Calls that may answer retvalue "wait" (their purpose says so). */
export const waits = (name: string) => /"wait"/.test(SPECS[name].purpose);

/** Fields whose doc says a change restarts the device (TimeParam's Language): a valid write keeps the device's value. */
export const restartsOnChange = (f: Field) => /restarts the device/i.test(f.doc);

/**
 * Against a real terminal, the fields that carry the connection to it keep
 * the device's values in valid writes: a random address, port or Wi-Fi mode
 * would cut the run off ("*": every field). The simulator gets them all.
 */
export const CONNECTION_FIELDS: Readonly<Record<string, readonly string[] | '*'>> = {
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
export const cleanText = (s: string) => !CONTROL.test(s) && !LONE_SURROGATE.test(s);

/** A field that names a day (YYYY-MM-DD) or a day and time: the contract's `format`, else read from its pattern. */
export function momentOf(f: Field): 'date' | 'datetime' | null {
  const format = (f as { format?: string }).format;
  if (format === 'date' || format === 'datetime') return format;
  if (f.kind !== 'string' || !f.pattern || !/\{4\}-\(0\[1-9\]\|1\[0-2\]\)-/.test(f.pattern)) return null;
  return /\) \(/.test(f.pattern) ? 'datetime' : 'date';
}
/**
 * Zone names the contract accepts, from sources of their own rather than the
 * simulator's check, which this oracle judges: the names Intl lists, and the
 * fixed zones TimeZone's doc adds to them, "UTC and Etc/GMT-14 to Etc/GMT+12"
 * (Intl's list holds neither). Etc/GMT-9 is nine hours east of UTC.
 */
const ZONE_NAMES = new Set([
  ...Intl.supportedValuesOf('timeZone'),
  ...Array.from({ length: 27 }, (_, i) => i - 14).map((h) => (h ? `Etc/GMT${h > 0 ? '+' : ''}${h}` : 'UTC')),
]);
/** A value of a field of format `zone` that fits its pattern: a name above, or a stored ±HH:MM offset. */
export const knownZone = (v: string) => /^[+-]\d\d:\d\d$/.test(v) || ZONE_NAMES.has(v);
/** Valid zones to draw from: the names Node lists, UTC, a fixed Etc zone, stored offsets. */
export const ZONES = [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/GMT-9', '+05:45', '-03:30'];
/** The day in a YYYY-MM-DD[...] text exists (2031-02-30 does not). */
export function realDay(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (!m) return true; // the pattern's business
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return days !== undefined && d >= 1 && d <= days;
}
