// Settings backup and restore (issue 9 §5, /advSetting/backup): what the file
// holds, how it is checked, and the reads and writes behind the screen.
//
// The file (JSON, UTF-8), named <serial>-<YYYY-MM-DD>.json:
//
//   { "format": "terminal-settings", "version": 1,
//     "brand": "ia",                                  the console's brand (build time)
//     "model": "…", "firmware": "…", "serial": "…",   SetInfoParam Model, Build_Version, Serial
//     "date": "2026-11-23T09:30:00.000Z", "passwords": false,
//     "settings": { "<read call>[?<param>=<n>]": values, … },
//     "check": "89abcdef" }
//
// - settings: one entry per read, keyed by the read call and its query
//   ("SetMachineParam", "SetGroupInfo?GroupNum=3", "SetGroupTime?Type=1"), in
//   PARTS order. A pair or numbered record is the object the read answers,
//   cut to the fields of its write call; a list (periods, work groups) is the
//   array of its items without `Num` (the device numbers what is added).
//   Parts the terminal lacks (by its function list, as the sidebar) are left out.
// - Not carried: the terminal's screen language (TimeParam Language: changing
//   it restarts the terminal, SPEC §4, which would cut a restore short) and
//   its clock (DateTimeParam Date, Time); passwords (field names matching
//   /pass|pwd$/i) unless "passwords" is true. A restore leaves what the file
//   lacks as the terminal has it: an optional write field is left out
//   ("absent: unchanged"), a required one is sent with the value just read.
// - check: FNV-1a (32 bit, 8 lower-case hex digits) of the UTF-8 bytes of
//   the file without "check" as compact JSON (no spaces, keys in file order:
//   JSON.stringify). It finds edits and damage; it is not a signature (anyone
//   can recompute it; on plain http the console has no crypto.subtle). The
//   values are the device's to check: a write it refuses stops the restore
//   there, naming the setting.
// - Refused whole, before anything is written: not JSON or another format, a
//   newer version, a failed check, another brand or model, an unknown entry.
import { i18n } from '@lingui/core';
import type { ShippedCall } from '../../api/shipped.ts';
import { rulesOf } from '../../api/rules.ts';
import { requestGoform } from '../../api/request.ts';
import { messageFor } from '../../api/errors.ts';
import type { Problem } from '../../form/validation.ts';
import { ROUTES, allowedBy } from '../../routing/routes.ts';
import { brand } from '../../brand.ts';

export const FORMAT = 'terminal-settings';
export const VERSION = 1;

type V = Record<string, any>;

export interface Part {
  /** GET Set<Name>. */
  read: ShippedCall;
  /** POST Get<Name>; for a list, its add call. */
  write: ShippedCall;
  /** Title id of the part's route: names it, and the function list gates it as it gates the sidebar. */
  title: string;
  /** A numbered record: the key, numbers 1..n. */
  key?: string;
  n?: number;
  /** A list: the reply field holding it; `params` go with its read and add, `drop` with DelSomeGroup. */
  items?: string;
  params?: V;
  drop?: V;
  /** May cut this page off the device (SPEC §4): written last, after the warning. */
  link?: 1;
}

/** A settings pair (SPEC §7: read GET Set<Name>, write POST Get<Name>), a screen's title, and more. */
const pair = (name: string, title: string, more?: Partial<Part>) => ({ read: `Set${name}`, write: `Get${name}`, title, ...more }) as Part;
const link = { link: 1 } as const;

/** What a backup holds, in restore order: basic setup, access control, then network (the link-breaking parts last). */
export const PARTS: Part[] = [
  pair('MachineParam', /*i18n*/ 'route.device'),
  pair('TimeParam', /*i18n*/ 'route.display'),
  pair('IdentifyParam', /*i18n*/ 'route.identifyMode'),
  pair('FPCompareParam', /*i18n*/ 'route.fingerPrint'),
  pair('KaoqinParam', /*i18n*/ 'route.attendance'),
  pair('DateTimeParam', /*i18n*/ 'route.timeSetting'),
  pair('DSTParam', /*i18n*/ 'route.dst'),
  pair('StatusChangeInfo', /*i18n*/ 'route.statusChange'),
  pair('PrintParam', /*i18n*/ 'route.print'),
  pair('ApplyParam', /*i18n*/ 'route.applyStatus'),
  pair('WorkModeSwitch', /*i18n*/ 'route.workMode'),
  pair('AccessControl', /*i18n*/ 'route.access'),
  pair('CardInfo', /*i18n*/ 'route.card'),
  // Time zones before the time groups that name them, time groups before the work groups.
  pair('TimeIntervalInfo', /*i18n*/ 'route.timezone', { key: 'ZoneNum', n: 32 }),
  pair('GroupInfo', /*i18n*/ 'route.group', { key: 'GroupNum', n: 16 }),
  pair('ShiftsInfo', /*i18n*/ 'route.shifts', { key: 'ShiftNum', n: 8 }),
  pair('GroupTime', /*i18n*/ 'route.alwaysOpen', { write: 'AddGroupTime', items: 'Periods', params: { Type: 1 } }),
  pair('GroupTime', /*i18n*/ 'route.alwaysClose', { write: 'AddGroupTime', items: 'Periods', params: { Type: 0 } }),
  pair('UniversalGroup', /*i18n*/ 'route.workGroup', { items: 'Groups', drop: { Type: 2 } }),
  pair('CommMode', /*i18n*/ 'route.commMode'),
  pair('CloudParam', /*i18n*/ 'route.cloud'),
  pair('MqttCloudParam', /*i18n*/ 'route.mqtt'),
  pair('BluetoothParam', /*i18n*/ 'route.bluetooth'),
  pair('Wirless', /*i18n*/ 'route.wirless', link),
  pair('InternetParam', /*i18n*/ 'route.internet', link),
  pair('EthernetParam', /*i18n*/ 'route.ethernet', link),
  pair('RestParam', /*i18n*/ 'route.securityOne', link),
];

/** One read: a part, and the query that picks a numbered record or a list. */
export interface Item {
  id: string;
  part: Part;
  q: V;
}

export const ITEMS: Item[] = PARTS.flatMap((part) =>
  (part.n ? Array.from({ length: part.n }, (_, i) => ({ [part.key!]: i + 1 })) : [part.params ?? {}]).map((q) => ({
    part,
    q,
    id: part.read + (Object.keys(q).length ? '?' + new URLSearchParams(q) : ''),
  })),
);

/** "Time zones 3": the screen's title, and a record's number. */
export const nameOf = ({ part, q }: Item) => i18n._(part.title) + (part.key ? ' ' + q[part.key] : '');

/** Does the terminal have the part (its route and the route's group are in the function list)? */
export const has = (p: Part, funs: readonly string[]) => [...ROUTES.values()].some((r) => r.title == p.title && allowedBy(r, funs) && allowedBy(r.parent ?? r, funs));

const PW = /pass|pwd$/i;
const KEPT = ['Language', 'Date', 'Time'];

/** What of a read goes into the file. */
export const carry = (p: Part, v: any, pw: boolean) =>
  p.items ? v.map(({ Num, ...x }: V) => x) : Object.fromEntries(Object.entries(v).filter(([k]) => !KEPT.includes(k) && (pw || !PW.test(k))));

/** FNV-1a, 32 bit, of the UTF-8 bytes, as 8 hex digits. */
export function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) h = Math.imul(h ^ b, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

export interface Backup {
  format: string;
  version: number;
  brand: string;
  model: string;
  firmware: string;
  serial: string;
  date: string;
  passwords: boolean;
  settings: V;
  check?: string;
}

/** The file, or why it is refused as a whole (nothing is written then). */
export function verify(text: string, brandId: string, model: unknown): Backup | Problem {
  const bad = { id: /*i18n*/ 'bak.bad' };
  let f: Backup;
  try {
    f = JSON.parse(text);
  } catch {
    return bad;
  }
  const { check, ...rest } = f ?? {};
  if (f?.format != FORMAT || !(f.version >= 1) || !f.settings) return bad;
  if (f.version > VERSION) return { id: /*i18n*/ 'bak.newer', values: { v: f.version } };
  if (check != fnv(JSON.stringify(rest))) return bad;
  if (f.brand != brandId || f.model != model) return { id: /*i18n*/ 'bak.other', values: { file: f.brand + ' ' + f.model, here: brandId + ' ' + model } };
  for (const id in f.settings) if (!ITEMS.some((x) => x.id == id)) return bad;
  return f;
}

/** A part's values on the terminal now (a pair: the fields of its write; a list: its items). */
async function read({ part, q }: Item): Promise<any> {
  const r = (await requestGoform(part.read, q as never)) as V;
  if (r.retvalue) throw Error(messageFor(r.retvalue, r.msg));
  return part.items ? r[part.items] : Object.fromEntries(Object.keys(rulesOf(part.write)).filter((k) => k in r).map((k) => [k, r[k]]));
}

/** The file for this terminal, and its name. */
export async function backup(funs: readonly string[], passwords: boolean): Promise<[Blob, string]> {
  const { Model, Build_Version, Serial } = await requestGoform('SetInfoParam');
  const settings: V = {};
  for (const it of ITEMS) if (has(it.part, funs)) settings[it.id] = carry(it.part, await read(it), passwords);
  const d = new Date();
  const f: Backup = { format: FORMAT, version: VERSION, brand: brand.id, model: Model!, firmware: Build_Version!, serial: Serial!, date: d.toISOString(), passwords, settings };
  f.check = fnv(JSON.stringify(f));
  // The local date as YYYY-MM-DD (the Swedish format is ISO's).
  return [new Blob([JSON.stringify(f, null, 1)]), (Serial + '-' + d.toLocaleDateString('sv') + '.json').replace(/[^\w.-]/g, '_')];
}

/** A change shown before applying: setting, field, on the terminal, in the file (as text; passwords as ***). */
export type Row = string[];

const show = (k: string, v: any) => (PW.test(k) ? '***' : String(v ?? ''));

/** What writing `v` (the file's) over `cur` (the terminal's) changes. */
export function diff(it: Item, cur: any, v: any): Row[] {
  const name = nameOf(it);
  const list = it.part.items;
  if (!list) return Object.keys(v).flatMap((k) => (String(cur[k]) != String(v[k]) ? [[name, k, show(k, cur[k]), show(k, v[k])]] : []));
  const text = (l: V[]) => l.map((x) => Object.values(x).join(' ')).join('; ');
  const now = carry(it.part, cur, true);
  return JSON.stringify(now) == JSON.stringify(v) ? [] : [[name, list, text(now), text(v)]];
}

export interface Change {
  it: Item;
  v: any;
  rows: Row[];
}

/** The changes a file makes on this terminal, in restore order, and the titles of the parts it lacks. */
export async function plan(f: Backup, funs: readonly string[]): Promise<[Change[], string[]]> {
  const changes: Change[] = [];
  const lacks = new Set<string>();
  for (const it of ITEMS) {
    const v = f.settings[it.id];
    if (v === undefined) continue;
    if (!has(it.part, funs)) lacks.add(i18n._(it.part.title));
    else {
      const rows = diff(it, await read(it), v);
      if (rows.length) changes.push({ it, v, rows });
    }
  }
  return [changes, [...lacks]];
}

/** Sends a write: null, or the device's refusal as text (naming the field it names). */
async function put(call: ShippedCall, body: V): Promise<string | null> {
  const { retvalue, msg, field } = await requestGoform(call, body as never);
  return retvalue ? (field ? field + ': ' : '') + messageFor(retvalue, msg) : null;
}

/**
 * Writes one entry of the file over what the terminal has just now (its
 * clock, the passwords the file leaves alone). A list is replaced: the
 * terminal's items deleted, the file's added in order. Null, or the
 * refusal; throws when the request layer has already said what failed.
 */
export async function restore(it: Item, v: any): Promise<string | null> {
  const { part, q } = it;
  const cur = await read(it);
  if (!part.items) {
    const body = Object.entries(rulesOf(part.write)).flatMap(([k, f]) => (k in v ? [[k, v[k]]] : f.optional || !(k in cur) ? [] : [[k, cur[k]]]));
    return put(part.write, { ...Object.fromEntries(body), ...q });
  }
  const Nums = cur.map((x: V) => x.Num).join();
  let m = Nums ? await put('DelSomeGroup', { ...(part.drop ?? q), Nums }) : null;
  for (const x of v) m ??= await put(part.write, { ...x, ...q });
  return m;
}
