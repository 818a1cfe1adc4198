// Simulated terminal: the Users area (src/api/users.ts). Users live in the
// store (DeviceState.users, kept in numeric ID order); lookups go through a
// Map index by UserID, built once per store state (a change replaces the
// array, so the next read builds it anew). Photos are files beside the store
// file (<store>.photos/<UserID>), written before the change that sets Photo 1.
// An enrolment runs in memory only (one at a time, per simulator), as the
// terminal's sensor does; `enrolment(store)` is its state, for tests.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { CellValue, Workbook, Worksheet } from 'exceljs';
import { FINGERS, PHOTO_MAX_BYTES, SHEET_MAX_BYTES, SHEET_MAX_ROWS, USER_FIELDS } from '../../../src/api/users.ts';
import { ADDED_CODES, ADD_LIMIT, ENROLL_BUSY, ENROLL_FAILED, ENROLL_TIMEOUT } from '../../../src/api/codes.ts';
import type { DeviceProfile, EnrollOutcome } from '../profile.ts';
import { writeFileAtomic } from '../store.ts';
import { coerce, validate } from '../validate.ts';
import { fail, failureOf, reject, type CallImpl, type Context, type FileReply, type Reply, type Upload, type User } from '../types.ts';

type Params = Record<string, unknown>;
type FieldName = keyof typeof USER_FIELDS;
interface Problem {
  code: number;
  field: string;
}

const FIELD_NAMES = Object.keys(USER_FIELDS) as FieldName[];
/** What ExportUserAll writes: every field but Password (a PIN that opens the door stays on the device). */
export const EXPORT_FIELDS = FIELD_NAMES.filter((k) => k !== 'Password');
const CARD_MAX = 4294967295;
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
/** Codes for malformed values instead of 10005 (the contract's docs). */
const INVALID_CODES = { UserID: 40401, Password: 40404 };
const problem = (code: number, field: string): Problem => ({ code, field });
/** The `msg` of a code: the contract's own key for the codes it adds (msg.addUpToLimit, msg.enrollFailed, ...), else err.<code>. */
const msgOf = (code: number) => ADDED_CODES.find((c) => c.code === code)?.msg ?? `err.${code}`;
const refuse = (p: Problem): never => reject(p.code, msgOf(p.code), { field: p.field });
const noUser = (): never => reject(40401, 'err.40401', { field: 'UserID' });

// ---------------------------------------------------------------------------
// The users and their index

/** Numeric order of user IDs (no leading zeros: length, then text). */
export const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
const sortUsers = (list: User[]) => list.sort((a, b) => byId(a.UserID, b.UserID));

class Index {
  readonly byId = new Map<string, User>();
  readonly byCard = new Map<string, User>();
  readonly byPassword = new Map<string, User>();
  constructor(users: readonly User[]) {
    for (const u of users) this.add(u);
  }
  add(u: User): void {
    this.byId.set(u.UserID, u);
    if (u.CardNo) this.byCard.set(u.CardNo, u);
    if (u.Password) this.byPassword.set(u.Password, u);
  }
}

interface View {
  index: Index;
  /** The users in numeric ID order. */
  sorted: readonly User[];
}
const VIEWS = new WeakMap<readonly User[], View>();

/** The index of the store's current users, built once per state. */
function view(ctx: Context): View {
  const users = ctx.store.get().users;
  let v = VIEWS.get(users);
  if (!v) {
    const inOrder = users.every((u, i) => i === 0 || byId(users[i - 1].UserID, u.UserID) < 0);
    v = { index: new Index(users), sorted: inOrder ? users : sortUsers([...users]) };
    VIEWS.set(users, v);
  }
  return v;
}

const find = (ctx: Context, id: unknown) => view(ctx).index.byId.get(String(id));
/** A user by ID, through the index (the records name users by ID). */
export const userById = (ctx: Context, id: string): User | undefined => find(ctx, id);

/** Insert or replace `u`, keeping numeric ID order. */
function put(users: User[], u: User): void {
  let lo = 0;
  let hi = users.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byId(users[mid].UserID, u.UserID) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (users[lo]?.UserID === u.UserID) users[lo] = u;
  else users.splice(lo, 0, u);
}

const bits = (n: number) => {
  let c = 0;
  for (let m = n; m; m &= m - 1) c++;
  return c;
};

/** What SetInfoParam counts. */
export function userCounts(users: readonly User[]) {
  let fp = 0;
  let face = 0;
  let card = 0;
  for (const u of users) {
    fp += bits(u.FPMask);
    face += u.Face;
    if (u.CardNo) card++;
  }
  return { UserCount: users.length, FPCount: fp, FaceCount: face, CardCount: card };
}

/** A stored user from request values (validated), keeping what `old` has enrolled. */
function userFrom(p: Params, old?: User): User {
  const text = (k: FieldName) => (typeof p[k] === 'string' ? (p[k] as string) : '');
  const int = (k: FieldName) => (typeof p[k] === 'number' ? (p[k] as number) : 0);
  return {
    UserID: text('UserID'),
    UserName: text('UserName'),
    Password: text('Password'),
    CardNo: text('CardNo'),
    CardType: int('CardType'),
    Admin: int('Admin'),
    Group: int('Group'),
    IdentifyMode: int('IdentifyMode'),
    Shift: int('Shift'),
    AccessBegin: text('AccessBegin'),
    AccessEnd: text('AccessEnd'),
    Face: old?.Face ?? 0,
    FPMask: old?.FPMask ?? 0,
    Photo: old?.Photo ?? 0,
  };
}

/** The checks beyond one field's form: a card number over 32 bits, a period that ends before it begins. */
function rangeProblem(u: User): Problem | null {
  if (u.CardNo && Number(u.CardNo) > CARD_MAX) return problem(10005, 'CardNo');
  if (u.AccessBegin && u.AccessEnd && u.AccessEnd < u.AccessBegin) return problem(10005, 'AccessEnd');
  return null;
}

/**
 * Whether `u` may be saved beside the users of `index` (`count` of them):
 * 'add' refuses an ID that exists, 'replace' replaces it, 'edit' needs it.
 */
function saveProblem(index: Index, count: number, u: User, mode: 'add' | 'replace' | 'edit', profile: DeviceProfile): Problem | null {
  const old = index.byId.get(u.UserID);
  if (old && mode === 'add') return problem(40402, 'UserID');
  if (!old && mode === 'edit') return problem(40401, 'UserID');
  const card = u.CardNo ? index.byCard.get(u.CardNo) : undefined;
  if (card && card.UserID !== u.UserID) return problem(40403, 'CardNo');
  const pin = u.Password ? index.byPassword.get(u.Password) : undefined;
  if (pin && pin.UserID !== u.UserID) return problem(40405, 'Password');
  if (!old && count >= profile.MaxUser) return problem(ADD_LIMIT, 'UserID');
  if (u.CardNo && !old?.CardNo && index.byCard.size >= profile.MaxCard) return problem(ADD_LIMIT, 'CardNo');
  return null;
}

/** Save one user (add, replace or edit) in one store change; checks run on the state the change applies to. */
async function save(ctx: Context, p: Params, mode: 'add' | 'replace' | 'edit'): Promise<void> {
  const range = rangeProblem(userFrom(p));
  if (range) refuse(range);
  await ctx.store.update((s) => {
    const index = new Index(s.users);
    const u = userFrom(p, index.byId.get(String(p.UserID)));
    const bad = saveProblem(index, s.users.length, u, mode, ctx.profile);
    if (bad) refuse(bad);
    put(s.users, u);
  });
}

// ---------------------------------------------------------------------------
// Photos

const photoDir = (ctx: Context) => `${ctx.store.file}.photos`;
/** The photo file of a user; the ID has passed the contract's pattern (digits only). */
const photoFile = (ctx: Context, id: string) => join(photoDir(ctx), id);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The image type by its first bytes (never by the name or the declared type). */
export function sniffImage(data: Buffer): 'image/jpeg' | 'image/png' | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG)) return 'image/png';
  return null;
}

function removePhotos(ctx: Context, ids: readonly string[]): void {
  for (const id of ids) rmSync(photoFile(ctx, id), { force: true });
}

// ---------------------------------------------------------------------------
// Enrolment: one at a time on the terminal, in memory only.

interface Run {
  UserID: string;
  /** 0 face, 1 finger. */
  Type: 0 | 1;
  Finger: number;
  started: number;
  ms: number;
  outcome: EnrollOutcome;
  timeoutMs: number;
  /** Set once the outcome is being applied. */
  settling?: Promise<void>;
}

export interface EnrolmentState {
  run: Run | null;
  /** The final answer of the last run, for the next poll. */
  result: Reply | null;
}

const ENROLMENTS = new WeakMap<object, EnrolmentState>();

/** The enrolment state of the simulator that owns `store`. */
export function enrolment(store: object): EnrolmentState {
  let e = ENROLMENTS.get(store);
  if (!e) ENROLMENTS.set(store, (e = { run: null, result: null }));
  return e;
}

/** Apply the outcome of the running enrolment once its time has come (ctx.now()); resolves when it is stored. */
export function settleEnrolment(ctx: Context): Promise<void> {
  const e = enrolment(ctx.store);
  const run = e.run;
  if (!run) return Promise.resolve();
  if (run.settling) return run.settling;
  const t = ctx.now() - run.started;
  let code: number;
  if (run.outcome === 'timeout') {
    if (t < run.timeoutMs) return Promise.resolve();
    code = ENROLL_TIMEOUT;
  } else {
    if (t < run.ms) return Promise.resolve();
    code = run.outcome === 'success' ? 0 : ENROLL_FAILED;
  }
  run.settling = (async () => {
    let result: Reply = code ? fail(code, msgOf(code)) : { retvalue: 0 };
    if (!code) {
      try {
        await ctx.store.update((s) => {
          const u = s.users.find((x) => x.UserID === run.UserID);
          // The user was deleted while the terminal enrolled.
          if (!u) noUser();
          else if (run.Type === 0) u.Face = 1;
          else u.FPMask |= 1 << run.Finger;
        });
      } catch (err) {
        result = failureOf(err) ?? fail(10001);
      }
    }
    // A cancel while this was being stored leaves nothing to report.
    if (e.run === run) {
      e.run = null;
      e.result = result;
    }
  })();
  return run.settling;
}

/** Start an enrolment after the checks every start shares; what differs (support, capacity) comes in `check`. */
async function startEnrolment(ctx: Context, UserID: string, Type: 0 | 1, Finger: number, check: (u: User) => void): Promise<Params> {
  await settleEnrolment(ctx);
  const u = find(ctx, UserID) ?? noUser();
  check(u);
  const e = enrolment(ctx.store);
  if (e.run) reject(ENROLL_BUSY, msgOf(ENROLL_BUSY));
  const { ms, outcome, timeoutMs } = ctx.profile.enroll;
  e.run = { UserID, Type, Finger, started: ctx.now(), ms, outcome, timeoutMs };
  e.result = null;
  return {};
}

// ---------------------------------------------------------------------------
// Spreadsheets (exceljs, loaded on first use: the rest of the simulator does not wait for it)

let excelModule: Promise<typeof import('exceljs')> | undefined;
async function excel(): Promise<typeof import('exceljs')> {
  const m = (await (excelModule ??= import('exceljs'))) as typeof import('exceljs') & { default?: typeof import('exceljs') };
  return m.default ?? m;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TEXT_FIELDS = new Set<string>(FIELD_NAMES.filter((k) => USER_FIELDS[k].kind === 'string'));

/** ExportUserAll: one sheet "Users", a header row of field names, a row per user in ID order. */
async function exportUsers(users: readonly User[]): Promise<Buffer> {
  const ExcelJS = await excel();
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Simulated terminal';
  const ws = wb.addWorksheet('Users');
  // Text columns carry the Text number format ('@'): IDs and card numbers
  // keep their digits, and what is typed there later stays text. Every text
  // value is a string cell, so one starting with = + - @ is never a formula.
  ws.columns = EXPORT_FIELDS.map((k) => ({
    header: k,
    key: k,
    width: k === 'UserName' ? 26 : 14,
    style: TEXT_FIELDS.has(k) ? { numFmt: '@' } : {},
  }));
  for (const u of users) ws.addRow(EXPORT_FIELDS.map((k) => (u[k] === '' ? null : u[k])));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Sum of the uncompressed sizes a zip's central directory declares, or null when it is not a readable zip. */
function zipContentSize(data: Buffer): number | null {
  const min = Math.max(0, data.length - 22 - 0xffff);
  for (let at = data.length - 22; at >= min; at--) {
    if (data.readUInt32LE(at) !== 0x06054b50) continue;
    const entries = data.readUInt16LE(at + 10);
    let p = data.readUInt32LE(at + 16);
    let total = 0;
    for (let i = 0; i < entries; i++) {
      if (p + 46 > data.length || data.readUInt32LE(p) !== 0x02014b50) return null;
      total += data.readUInt32LE(p + 24);
      p += 46 + data.readUInt16LE(p + 28) + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
    }
    return total;
  }
  return null;
}
/**
 * A 1 MiB workbook may declare this much unpacked; more is refused (10101)
 * before anything is unpacked. (A zip that understates its sizes is caught by
 * the reader's own size check, after unpacking.)
 */
const XLSX_MAX_UNPACKED = 64 << 20;

/** A cell as the text a person typed: numbers as their digits, dates as YYYY-MM-DD. */
function cellText(v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) {
    const iso = Number.isNaN(v.getTime()) ? '' : v.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('error' in v) return String(v.error);
  if ('formula' in v || 'sharedFormula' in v) return cellText((v as { result?: CellValue }).result ?? null);
  if ('text' in v) return cellText(v.text as CellValue);
  return '';
}

interface Sheet {
  /** Row number (1 is the header) and its cells as text, from column 1. */
  rows: { n: number; cells: string[] }[];
}

function rowsOf(ws: Worksheet): Sheet {
  const rows: Sheet['rows'] = [];
  ws.eachRow({ includeEmpty: false }, (row, n) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
    rows.push({ n, cells });
  });
  return { rows };
}

const badFile = (): never => reject(10102, 'err.10102', { field: 'File' });

/** An .xlsx (its first sheet) or a UTF-8 .csv, told apart by the bytes; anything else 10102. */
async function readSheet(data: Buffer): Promise<Sheet> {
  const ExcelJS = await excel();
  const wb: Workbook = new ExcelJS.Workbook();
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) {
    const size = zipContentSize(data);
    if (size === null) badFile();
    if (size! > XLSX_MAX_UNPACKED) reject(10101, 'err.10101', { field: 'File' });
    try {
      // A copy as a plain ArrayBuffer (what exceljs's types ask for; it reads that too).
      await wb.xlsx.load(new Uint8Array(data).buffer);
    } catch {
      badFile();
    }
    const ws = wb.worksheets[0];
    if (!ws) badFile();
    return rowsOf(ws);
  }
  if (!data.length || data.includes(0)) badFile();
  let text = '';
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    badFile();
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  try {
    // Every value stays the text it is: no numbers, no dates (leading zeros kept).
    const ws = await wb.csv.read(Readable.from([Buffer.from(text)]), { map: (v: unknown) => v, parserOptions: { delimiter: ',', quote: '"', escape: '"' } });
    return rowsOf(ws);
  } catch {
    return badFile();
  }
}

interface Refusal {
  Row: number;
  Field: string;
  Code: number;
  Msg: string;
}
const REFUSALS_LISTED = 200;

/**
 * The rows of an import checked as adduser checks a request, against the
 * users of `users` and the rows accepted before them: what to add, what not.
 */
function planImport(users: readonly User[], columns: (FieldName | null)[], rows: Sheet['rows'], profile: DeviceProfile) {
  const index = new Index(users);
  let count = users.length;
  const added: User[] = [];
  const refused: Refusal[] = [];
  for (const row of rows) {
    const raw: Params = Object.create(null);
    columns.forEach((name, i) => {
      if (!name) return;
      const text = row.cells[i] ?? '';
      // A blank cell is a value left out (0 or empty), except for the two that are needed.
      if (text !== '' || name === 'UserID' || name === 'UserName') raw[name] = text;
    });
    const p = coerce(raw, USER_FIELDS, true);
    for (const k of FIELD_NAMES) if (!own(p, k)) p[k] = USER_FIELDS[k].kind === 'int' ? 0 : '';
    const invalid = validate(p, USER_FIELDS);
    let bad: Problem | null = invalid ? problem(invalid.code === 10005 && own(INVALID_CODES, invalid.field) ? INVALID_CODES[invalid.field as keyof typeof INVALID_CODES] : invalid.code, invalid.field) : null;
    const u = userFrom(p);
    bad ??= rangeProblem(u) ?? saveProblem(index, count, u, 'add', profile);
    if (bad) {
      refused.push({ Row: row.n, Field: bad.field, Code: bad.code, Msg: msgOf(bad.code) });
      continue;
    }
    added.push(u);
    index.add(u);
    count++;
  }
  return { added, refused };
}

async function importUsers(ctx: Context, file: Upload): Promise<Params> {
  if (file.data.length > SHEET_MAX_BYTES) reject(10101, 'err.10101', { field: 'File' });
  const sheet = await readSheet(file.data);
  const blank = (cells: string[]) => cells.every((c) => c.trim() === '');
  const header = sheet.rows[0]?.n === 1 ? sheet.rows[0].cells : [];
  const rows = sheet.rows.filter((r) => r.n > 1 && !blank(r.cells));
  if (rows.length > SHEET_MAX_ROWS) reject(10101, 'err.10101', { field: 'File' });

  const columns: (FieldName | null)[] = [];
  for (const cell of header) {
    const name = cell.trim();
    if (!name) columns.push(null);
    else if (!own(USER_FIELDS, name) || columns.includes(name as FieldName)) reject(10102, 'err.10102', { field: name.slice(0, 64) });
    else columns.push(name as FieldName);
  }
  for (const need of ['UserID', 'UserName'] as const) if (!columns.includes(need)) reject(10003, 'err.10003', { field: need });

  let plan = planImport(ctx.store.get().users, columns, rows, ctx.profile);
  if (plan.added.length) {
    // Checked again on the state the change applies to, and added in one change.
    await ctx.store.update((s) => {
      plan = planImport(s.users, columns, rows, ctx.profile);
      s.users.push(...plan.added);
      sortUsers(s.users);
    });
  }
  return { Added: plan.added.length, Refused: plan.refused.slice(0, REFUSALS_LISTED), RefusedCount: plan.refused.length };
}

// ---------------------------------------------------------------------------
// The calls

const text = (v: unknown) => (typeof v === 'string' ? v : '');

export const handlers: Record<string, CallImpl> = {
  userlist: {
    handle(ctx, p) {
      const { sorted } = view(ctx);
      const id = text(p.UserID);
      const start = text(p.Start);
      const end = text(p.End);
      const matches =
        id || start || end
          ? sorted.filter(
              (u) =>
                (!id || u.UserID.startsWith(id)) &&
                // The period reaches Start or later (no end: always) and begins on or before End (no beginning: always).
                (!start || !u.AccessEnd || u.AccessEnd >= start) &&
                (!end || !u.AccessBegin || u.AccessBegin <= end),
            )
          : sorted;
      const size = p.PageSize as number;
      const from = ((p.Page as number) - 1) * size;
      return {
        Total: matches.length,
        List: matches.slice(from, from + size).map((u) => ({ UserID: u.UserID, UserName: u.UserName, CardNo: u.CardNo })),
      };
    },
  },

  GetUserInfo: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      await settleEnrolment(ctx);
      return { ...(find(ctx, p.UserID) ?? noUser()) };
    },
  },

  adduser: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      await save(ctx, p, p.Replace === 1 ? 'replace' : 'add');
      return {};
    },
  },

  edituser: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      await save(ctx, p, 'edit');
      return {};
    },
  },

  deleteuser: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      const id = String(p.UserID);
      await ctx.store.update((s) => {
        const at = s.users.findIndex((u) => u.UserID === id);
        if (at < 0) noUser();
        s.users.splice(at, 1);
      });
      removePhotos(ctx, [id]);
      return {};
    },
  },

  deletsomeuser: {
    async handle(ctx, p) {
      const ids = p.UserIDs as string[];
      const pattern = new RegExp(USER_FIELDS.UserID.pattern);
      if (ids.length < 1 || ids.length > 100 || !ids.every((id) => pattern.test(id))) reject(10005, 'err.10005', { field: 'UserIDs' });
      const gone = new Set(ids);
      let deleted: string[] = [];
      if (ids.some((id) => find(ctx, id))) {
        await ctx.store.update((s) => {
          deleted = s.users.filter((u) => gone.has(u.UserID)).map((u) => u.UserID);
          s.users = s.users.filter((u) => !gone.has(u.UserID));
        });
      }
      removePhotos(ctx, deleted);
      return { Deleted: deleted.length };
    },
  },

  regfp: {
    invalidCodes: INVALID_CODES,
    handle(ctx, p) {
      const finger = p.Finger as number;
      return startEnrolment(ctx, String(p.UserID), 1, finger, (u) => {
        if (!ctx.profile.funOption.FP) reject(10005, 'err.10005', { field: 'Finger' });
        const total = userCounts(ctx.store.get().users).FPCount;
        // Enrolling an enrolled finger replaces it: no new place is taken.
        if (!(u.FPMask & (1 << finger)) && total >= ctx.profile.MaxFP) reject(ADD_LIMIT, msgOf(ADD_LIMIT), { field: 'Finger' });
      });
    },
  },

  getOnlineEnrollStatus: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      const flags = (['Start', 'Cancel', 'Delete'] as const).filter((k) => p[k] === 1);
      if (flags.length > 1) reject(10005, 'err.10005', { field: flags[1] });
      const e = enrolment(ctx.store);

      if (p.Cancel === 1) {
        e.run = null;
        e.result = null;
        return {};
      }

      if (p.Delete === 1) {
        const id = String(p.UserID);
        if (p.Type === 1 && p.Finger === undefined) reject(10003, 'err.10003', { field: 'Finger' });
        await settleEnrolment(ctx);
        await ctx.store.update((s) => {
          const u = s.users.find((x) => x.UserID === id) ?? noUser();
          if (p.Type === 0) u.Face = 0;
          else u.FPMask &= ~(1 << (p.Finger as number));
        });
        return {};
      }

      if (p.Start === 1) {
        // Fingerprints start with regfp.
        if (p.Type !== 0 || !ctx.profile.funOption.FACE) reject(10005, 'err.10005', { field: 'Type' });
        return startEnrolment(ctx, String(p.UserID), 0, 0, (u) => {
          if (!u.Face && userCounts(ctx.store.get().users).FaceCount >= ctx.profile.MaxFACE) reject(ADD_LIMIT, msgOf(ADD_LIMIT), { field: 'Type' });
        });
      }

      // A poll: "wait" while the terminal enrols, then the outcome once; afterwards 0.
      await settleEnrolment(ctx);
      if (e.run) return { retvalue: 'wait' };
      const result = e.result;
      e.result = null;
      return result ?? {};
    },
  },

  UploadUserPhoto: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      const id = String(p.UserID);
      const photo = p.Photo as Upload;
      if (!find(ctx, id)) noUser();
      if (photo.data.length > PHOTO_MAX_BYTES) reject(10101, 'err.10101', { field: 'Photo' });
      if (!sniffImage(photo.data)) reject(10102, 'err.10102', { field: 'Photo' });
      // The file first, then the change that says it is there.
      writeFileAtomic(photoFile(ctx, id), photo.data);
      try {
        await ctx.store.update((s) => {
          const u = s.users.find((x) => x.UserID === id) ?? noUser();
          u.Photo = 1;
        });
      } catch (err) {
        if (!find(ctx, id)) removePhotos(ctx, [id]);
        throw err;
      }
      return {};
    },
  },

  GetUserPhoto: {
    invalidCodes: INVALID_CODES,
    handle(ctx, p): FileReply {
      const id = String(p.UserID);
      const u = find(ctx, id);
      if (!u?.Photo) noUser();
      let data: Buffer;
      try {
        data = readFileSync(photoFile(ctx, id));
      } catch {
        return noUser();
      }
      const type = sniffImage(data) ?? noUser();
      return { file: { name: `user-${id}.${type === 'image/png' ? 'png' : 'jpg'}`, type, data } };
    },
  },

  GetExcelAddUser: {
    handle: (ctx, p) => importUsers(ctx, p.File as Upload),
  },

  ExportUserAll: {
    async handle(ctx): Promise<FileReply> {
      await settleEnrolment(ctx);
      return { file: { name: 'users.xlsx', type: XLSX_TYPE, data: await exportUsers(view(ctx).sorted) } };
    },
  },
};

// ---------------------------------------------------------------------------
// Seeding: a few hundred users in many scripts, the same every time.

/**
 * Given names (m, f) and family names ("masculine|feminine" where they
 * differ) per language, so a name reads as one person's; `first` puts the
 * family name first, `join` is what stands between.
 */
const NAMES: { lang: string; weight: number; m: string[]; f: string[]; family: string[]; join?: string; first?: boolean }[] = [
  // Latin script, with accents
  { lang: 'es', weight: 8, m: ['José', 'Ángel', 'Mateo', 'Sebastián', 'Andrés'], f: ['María', 'Mónica', 'Lucía', 'Begoña', 'Inés'], family: ['García', 'Sánchez', 'Núñez', 'Ibáñez', 'Muñoz', 'Peña'] },
  { lang: 'pt', weight: 4, m: ['João', 'Luís', 'Gonçalo', 'Tomé'], f: ['Inês', 'Conceição', 'Leonor', 'Lúcia'], family: ['Gonçalves', 'da Conceição', 'Simões', 'Magalhães', 'Araújo'] },
  { lang: 'fr', weight: 4, m: ['François', 'Jean-Luc', 'Noël', 'Jérôme'], f: ['Hélène', 'Chloé', 'Anaïs', 'Renée', 'Zoë'], family: ['Lefèvre', 'Dubois', 'Mercier', 'Lemaître', 'Girard'] },
  { lang: 'de', weight: 4, m: ['Jürgen', 'Lukas', 'Jörg', 'Matthias'], f: ['Dörte', 'Jana', 'Käthe', 'Sophie'], family: ['Müller', 'Schäfer', 'Größer', 'Köhler', 'Weiß'] },
  { lang: 'nordic', weight: 2, m: ['Björn', 'Søren', 'Ólafur', 'Jyrki'], f: ['Åsa', 'Ingrid', 'Sigríður', 'Päivi'], family: ['Østergaard', 'Jääskeläinen', 'Sigurðsson', 'Lindqvist'] },
  { lang: 'pl-cs', weight: 4, m: ['Łukasz', 'Paweł', 'Tomáš', 'Jiří'], f: ['Małgorzata', 'Agnieszka', 'Eliška', 'Kateřina'], family: ['Kowalczyk', 'Wiśniewski|Wiśniewska', 'Dvořák|Dvořáková', 'Novák|Nováková'] },
  { lang: 'tr', weight: 2, m: ['Çağan', 'Emre', 'Barış'], f: ['Ayşe', 'Gülşen', 'Şule'], family: ['Öztürk', 'Yılmaz', 'Çelik', 'Şahin'] },
  { lang: 'vi', weight: 3, m: ['Văn An', 'Minh Tuấn', 'Đức Huy'], f: ['Thị Hoa', 'Thu Trang', 'Ngọc Ánh'], family: ['Nguyễn', 'Trần', 'Lê', 'Phạm'], first: true },
  // Other scripts
  { lang: 'ru-uk', weight: 10, m: ['Александр', 'Дмитрий', 'Сергей', 'Олександр', 'Богдан', 'Андрей', 'Тарас'], f: ['Ольга', 'Наталья', 'Ирина', 'Оксана', 'Светлана', 'Елена', 'Софія'], family: ['Иванов|Иванова', 'Смирнов|Смирнова', 'Шевченко', 'Коваленко', 'Бондаренко', 'Петров|Петрова', 'Волков|Волкова'] },
  { lang: 'el', weight: 7, m: ['Γιώργος', 'Νίκος', 'Δημήτρης', 'Γιάννης', 'Κώστας'], f: ['Μαρία', 'Ελένη', 'Κατερίνα', 'Σοφία', 'Δέσποινα'], family: ['Παπαδόπουλος|Παπαδοπούλου', 'Οικονόμου', 'Γεωργίου', 'Νικολάου', 'Καραγιάννης|Καραγιάννη', 'Βασιλείου'] },
  { lang: 'ar', weight: 8, m: ['محمد', 'أحمد', 'يوسف', 'عمر', 'خالد', 'إبراهيم'], f: ['فاطمة', 'ليلى', 'مريم', 'نور', 'سارة', 'عائشة'], family: ['الحسيني', 'العلي', 'حداد', 'منصور', 'الخطيب', 'ناصر', 'الشامي'] },
  { lang: 'he', weight: 6, m: ['דוד', 'יוסף', 'משה', 'אברהם', 'יונתן', 'איתי'], f: ['שרה', 'רחל', 'נועה', 'מיכל', 'תמר', 'יעל'], family: ['כהן', 'לוי', 'מזרחי', 'פרץ', 'ביטון', 'פרידמן', 'שפירא'] },
  { lang: 'th', weight: 7, m: ['สมชาย', 'วิชัย', 'ประเสริฐ', 'อนุชา', 'ธนากร'], f: ['สมศรี', 'สุดารัตน์', 'กาญจนา', 'มาลี', 'พิมพ์ชนก'], family: ['ใจดี', 'ศรีสุข', 'วงศ์สวัสดิ์', 'รัตนพันธ์', 'ทองดี', 'แสงทอง'] },
  { lang: 'hi-mr', weight: 7, m: ['राहुल', 'अमित', 'विजय', 'संजय', 'अर्जुन', 'प्रकाश'], f: ['प्रिया', 'सुनीता', 'अनीता', 'पूजा', 'कविता', 'दीपिका'], family: ['शर्मा', 'वर्मा', 'गुप्ता', 'पाटील', 'सिंह', 'जोशी', 'देशपांडे'] },
  // CJK
  { lang: 'zh', weight: 12, m: ['伟', '强', '磊', '军', '洋', '志明', '建国'], f: ['芳', '娜', '秀英', '敏', '静', '丽', '婷婷'], family: ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '欧阳'], join: '', first: true },
  { lang: 'ja', weight: 7, m: ['翔太', '大輝', '健一', '拓海', '蓮'], f: ['さくら', '陽菜', '美咲', '結衣', 'あおい'], family: ['佐藤', '鈴木', '高橋', '田中', '渡辺', '山本'], first: true },
  { lang: 'ko', weight: 6, m: ['민준', '지훈', '도윤', '예준'], f: ['서연', '하은', '수빈', '지우'], family: ['김', '이', '박', '최', '정', '강'], join: '', first: true },
];

/** mulberry32: a small seeded generator, so every fresh store is the same (records.ts seeds with it too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86400000;
/** Seeded names stay short enough for any list column (the contract allows more). */
const SEED_NAME_MAX = 24;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The users of a fresh store: `profile.seedUsers` (at most MaxUser), IDs 1..N, within every capacity. */
export function seedUsers(profile: DeviceProfile): User[] {
  const rnd = prng(0x5eed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const chance = (p: number) => rnd() < p;
  const totalWeight = NAMES.reduce((n, s) => n + s.weight, 0);
  const n = Math.max(0, Math.min(profile.seedUsers ?? 300, profile.MaxUser));
  const cards = new Set<string>();
  const pins = new Set<string>();
  let faces = 0;
  let fingers = 0;
  const users: User[] = [];
  const fixed = ['Ana García', '李伟', 'Νίκος Παπαδόπουλος'];

  for (let i = 1; i <= n; i++) {
    let name = fixed[i - 1];
    while (!name || name.length > SEED_NAME_MAX) {
      let w = rnd() * totalWeight;
      const l = NAMES.find((x) => (w -= x.weight) < 0) ?? NAMES[0];
      const female = chance(0.5);
      const given = pick(female ? l.f : l.m);
      const family = pick(l.family).split('|');
      const fam = (female && family[1]) || family[0];
      name = l.first ? fam + (l.join ?? ' ') + given : given + (l.join ?? ' ') + fam;
    }
    let CardNo = '';
    if (cards.size < profile.MaxCard && chance(0.6)) {
      do CardNo = String(1 + Math.floor(rnd() * 4294967295));
      while (cards.has(CardNo));
      cards.add(CardNo);
    }
    let Password = '';
    if (chance(0.15)) {
      do Password = String(Math.floor(rnd() * 10 ** (4 + Math.floor(rnd() * 3)))).padStart(4, '0');
      while (pins.has(Password));
      pins.add(Password);
    }
    let AccessBegin = '';
    let AccessEnd = '';
    const period = rnd();
    const begin = Date.UTC(2025, 0, 1) + Math.floor(rnd() * 730) * DAY;
    const end = begin + (30 + Math.floor(rnd() * 700)) * DAY;
    if (period < 0.2) [AccessBegin, AccessEnd] = [dayText(begin), dayText(end)];
    else if (period < 0.3) AccessBegin = dayText(begin);
    else if (period < 0.4) AccessEnd = dayText(end);
    let Face: 0 | 1 = 0;
    if (profile.funOption.FACE && faces < profile.MaxFACE && chance(0.55)) {
      Face = 1;
      faces++;
    }
    let FPMask = 0;
    if (profile.funOption.FP && chance(0.7)) {
      // Forefingers and thumbs first, as enrolment stations ask.
      for (const f of [6, 3, 5, 4].slice(0, 1 + Math.floor(rnd() * 3))) {
        if (fingers >= profile.MaxFP) break;
        FPMask |= 1 << f;
        fingers++;
      }
    }
    users.push({
      UserID: String(i),
      UserName: name,
      Password,
      CardNo,
      CardType: CardNo && chance(0.3) ? 1 : 0,
      Admin: i === 1 ? 1 : chance(0.02) ? 1 + Math.floor(rnd() * 3) : 0,
      Group: chance(0.3) ? 1 : 0,
      IdentifyMode: chance(0.7) ? 0 : 1 + Math.floor(rnd() * 6),
      Shift: chance(0.5) ? 0 : 1 + Math.floor(rnd() * 2),
      AccessBegin,
      AccessEnd,
      Face,
      FPMask,
      Photo: 0,
    });
  }
  return users;
}

/** Users of a store written before they had the contract's shape ({id, name, card, fingerprints, face}); null when nothing needs doing. */
export function upgradeUsers(list: readonly unknown[]): User[] | null {
  const current = (u: unknown): u is User => typeof (u as User)?.UserID === 'string';
  if (list.every(current) && list.every((u, i) => i === 0 || byId((list[i - 1] as User).UserID, u.UserID) < 0)) return null;
  const out = new Map<string, User>();
  for (const x of list) {
    let u: User;
    if (current(x)) u = x;
    else {
      const o = (x ?? {}) as { id?: unknown; name?: unknown; card?: unknown; fingerprints?: unknown; face?: unknown };
      const fingers = Math.min(FINGERS.length, Math.max(0, Number(o.fingerprints) || 0));
      u = {
        ...userFrom({ UserID: String(o.id ?? ''), UserName: String(o.name ?? ''), CardNo: typeof o.card === 'string' ? o.card : '' }),
        Face: o.face ? 1 : 0,
        FPMask: (1 << fingers) - 1,
      };
    }
    if (/^[1-9][0-9]{0,9}$/.test(u.UserID) && !out.has(u.UserID)) out.set(u.UserID, u);
  }
  return sortUsers([...out.values()]);
}
