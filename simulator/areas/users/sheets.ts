// ExportUserAll and GetExcelAddUser: the users as a spreadsheet, and a
// spreadsheet (.xlsx or .csv) read back as users, each row checked as adduser
// checks a request. exceljs is loaded on first use: the rest of the simulator
// does not wait for it.
import { Readable } from 'node:stream';
import type { CellValue, Workbook, Worksheet } from 'exceljs';
import { SHEET_MAX_BYTES, SHEET_MAX_ROWS, USER_FIELDS } from '../../../contract/users.ts';
import type { DeviceModel } from '../../model.ts';
import { coerce, validate } from '../../validate.ts';
import { msgOf, refuse, type Context, type Upload, type User } from '../../types.ts';
import { FIELD_NAMES, INVALID_CODES, Index, own, problem, rangeProblem, saveProblem, sortUsers, userFrom, type FieldName, type Params, type Problem } from './list.ts';

/** What ExportUserAll writes: every field but Password (a PIN that opens the door stays on the device). */
export const EXPORT_FIELDS = FIELD_NAMES.filter((k) => k !== 'Password');

let excelModule: Promise<typeof import('exceljs')> | undefined;
async function excel(): Promise<typeof import('exceljs')> {
  const m = (await (excelModule ??= import('exceljs'))) as typeof import('exceljs') & { default?: typeof import('exceljs') };
  return m.default ?? m;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TEXT_FIELDS = new Set<string>(FIELD_NAMES.filter((k) => USER_FIELDS[k].kind === 'string'));

/** ExportUserAll: one sheet "Users", a header row of field names, a row per user in ID order. */
export async function exportUsers(users: readonly User[]): Promise<Buffer> {
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

const badFile = (): never => refuse(10102, { field: 'File' });

/** An .xlsx (its first sheet) or a UTF-8 .csv, told apart by the bytes; anything else 10102. */
async function readSheet(data: Buffer): Promise<Sheet> {
  const ExcelJS = await excel();
  const wb: Workbook = new ExcelJS.Workbook();
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) {
    const size = zipContentSize(data);
    if (size === null) badFile();
    if (size! > XLSX_MAX_UNPACKED) refuse(10101, { field: 'File' });
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
function planImport(users: readonly User[], columns: (FieldName | null)[], rows: Sheet['rows'], model: DeviceModel) {
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
    bad ??= rangeProblem(u) ?? saveProblem(index, count, u, 'add', model);
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

export async function importUsers(ctx: Context, file: Upload): Promise<Params> {
  if (file.data.length > SHEET_MAX_BYTES) refuse(10101, { field: 'File' });
  const sheet = await readSheet(file.data);
  const blank = (cells: string[]) => cells.every((c) => c.trim() === '');
  const header = sheet.rows[0]?.n === 1 ? sheet.rows[0].cells : [];
  const rows = sheet.rows.filter((r) => r.n > 1 && !blank(r.cells));
  if (rows.length > SHEET_MAX_ROWS) refuse(10101, { field: 'File' });

  const columns: (FieldName | null)[] = [];
  for (const cell of header) {
    const name = cell.trim();
    if (!name) columns.push(null);
    else if (!own(USER_FIELDS, name) || columns.includes(name as FieldName)) refuse(10102, { field: name.slice(0, 64) });
    else columns.push(name as FieldName);
  }
  for (const need of ['UserID', 'UserName'] as const) if (!columns.includes(need)) refuse(10003, { field: need });

  let plan = planImport(ctx.store.get().users, columns, rows, ctx.model);
  if (plan.added.length) {
    // Checked again on the state the change applies to, and added in one change.
    await ctx.store.update((s) => {
      plan = planImport(s.users, columns, rows, ctx.model);
      s.users.push(...plan.added);
      sortUsers(s.users);
    });
  }
  return { Added: plan.added.length, Refused: plan.refused.slice(0, REFUSALS_LISTED), RefusedCount: plan.refused.length };
}
