// The form engine's validation, as plain functions: which fields show
// (LuCI-style `dependsOn`), what each value must be, what changed, what is
// sent. The contract (contract/index.ts) is the one place ranges and options
// live, and reaches the forms as the field rules of src/api/rules.ts; a
// screen adds only how a field looks.
import type { FieldRule } from '../api/rules.ts';
import { IPV4 } from '../../contract/ipv4.ts';

export type WidgetKind =
  | 'text'
  | 'number'
  | 'select'
  | 'switch'
  | 'radio'
  | 'time'
  | 'date'
  /** "YYYY-MM-DD HH:MM" in one box. */
  | 'datetime'
  | 'ip'
  | 'mask'
  | 'port'
  | 'password'
  /** A time zone chosen from the browser's list (src/i18n/zones.ts), each with its offset now. */
  | 'zone'
  | 'weekdays';

export type Value = string | number;
export type Values = Record<string, Value>;

export interface Option {
  value: Value;
  /** Message id. */
  label?: string;
  /** Shown as it is, in every language (baud rates, encodings, a language's own name): no catalogue entry. */
  text?: string;
}

export interface FieldDef {
  /** Name in the device payload. */
  name: string;
  kind: WidgetKind;
  /** Message id. */
  label: string;
  /** Message id of a unit shown after the box (min, s, %). */
  unit?: string;
  options?: readonly Option[];
  /** Shown only while every named field has one of the listed values. */
  dependsOn?: Readonly<Record<string, readonly Value[]>>;
  /** Required even when the contract marks it optional (e.g. only when shown). */
  required?: boolean;
  /** Message id said when it is left empty (SPEC §5 words per field), instead of the general one. */
  requiredMsg?: string;
  /** Shown, sent, never edited (a record's key). */
  readOnly?: boolean;
  /**
   * `weekdays`: a table with a row per weekday (Monday first) and these
   * columns; the cell of a day sends `<Day><suffix>` (MonStart, or Mon for an
   * empty suffix). `label` heads the day column; `name` only keys the table.
   */
  cols?: readonly WeekColumn[];
}

export interface WeekColumn {
  suffix: string;
  /** Message id of the column header. */
  label: string;
  kind: WidgetKind;
}

/** Options whose values are 0, 1, 2, ... in order, labelled by message ids. */
export const opts = (...labels: string[]): Option[] => labels.map((label, value) => ({ value, label }));

/** Device names of the weekdays, Monday first (SPEC §3). */
export const DAY_KEYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** A field's definition with the contract's constraints folded in. */
export interface BoundField extends FieldDef {
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: string;
  values?: readonly Value[];
  optional?: boolean;
  /** `weekdays`: the cells, a row per day, a field per column. */
  cells?: BoundField[][];
  /** A table cell: its day (0 Monday). */
  day?: number;
}

export function bindFields(defs: readonly FieldDef[], contract: Readonly<Record<string, FieldRule>>): BoundField[] {
  const bind = (d: FieldDef): BoundField => {
    if (d.kind === 'weekdays') return { ...d, cells: DAY_KEYS.map((day, i) => d.cols!.map((c) => ({ ...bind({ name: day + c.suffix, kind: c.kind, label: c.label, dependsOn: d.dependsOn }), day: i }))) };
    const c = contract[d.name];
    if (!c) throw new Error(`form field ${d.name} is not in the contract`);
    return { ...d, min: c.min, max: c.max, maxLength: c.maxLength, pattern: c.pattern, values: c.values, optional: c.optional };
  };
  return defs.map(bind);
}

/** The fields that carry values: weekday tables stand for their cells. */
export function valueFields(fields: readonly BoundField[]): BoundField[] {
  return fields.flatMap((f) => (f.cells ? f.cells.flat() : [f]));
}

export function visible(f: Pick<FieldDef, 'dependsOn'>, values: Values): boolean {
  if (!f.dependsOn) return true;
  return Object.entries(f.dependsOn).every(([k, allowed]) => allowed.some((a) => String(a) === String(values[k])));
}

export function isIPv4(s: string): boolean {
  return IPV4.test(s);
}

/** A subnet mask: dotted quad whose bits are ones then zeros. */
export function isMask(s: string): boolean {
  if (!isIPv4(s)) return false;
  const n = s.split('.').reduce((acc, p) => acc * 256 + Number(p), 0);
  const inv = 0xffffffff - n;
  return n !== 0 && (inv & (inv + 1)) === 0;
}

export interface Problem {
  /** Message id. */
  id: string;
  values?: Record<string, Value>;
}

/** The first problem with a field's value, or null. Hidden fields have none. */
export function checkField(f: BoundField, values: Values): Problem | null {
  if (!visible(f, values)) return null;
  const v = values[f.name];
  const text = v === undefined || v === null ? '' : String(v);
  if (text === '') return f.optional && !f.required ? null : { id: f.requiredMsg ?? /*i18n*/ 'form.required' };
  switch (f.kind) {
    case 'ip':
      if (!isIPv4(text)) return { id: /*i18n*/ 'form.ip' };
      break;
    case 'mask':
      if (!isMask(text)) return { id: /*i18n*/ 'form.mask' };
      break;
    case 'port':
      if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 65535) return { id: /*i18n*/ 'form.port' };
      break;
    case 'time':
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(text)) return { id: /*i18n*/ 'form.time' };
      break;
    case 'date':
      if (!/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(text)) return { id: /*i18n*/ 'form.date' };
      break;
    case 'datetime':
      if (!/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d$/.test(text)) return { id: /*i18n*/ 'form.datetime' };
      break;
  }
  if (f.kind === 'number' || f.kind === 'port' || typeof f.min === 'number' || typeof f.max === 'number') {
    if (!/^-?\d+$/.test(text)) return { id: /*i18n*/ 'form.integer' };
    const n = Number(text);
    if ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max)) return { id: /*i18n*/ 'form.range', values: { min: f.min ?? '', max: f.max ?? '' } };
  }
  if (f.maxLength !== undefined && text.length > f.maxLength) return { id: /*i18n*/ 'form.maxLength', values: { max: f.maxLength } };
  if (f.pattern && !new RegExp(f.pattern).test(text)) return { id: /*i18n*/ 'form.format' };
  if (f.values && !f.values.some((x) => String(x) === text)) return { id: /*i18n*/ 'form.choice' };
  return null;
}

export function checkForm(fields: readonly BoundField[], values: Values): Record<string, Problem> {
  const out: Record<string, Problem> = {};
  for (const f of valueFields(fields)) {
    const p = checkField(f, values);
    if (p) out[f.name] = p;
  }
  return out;
}

/** Names whose value differs from what was loaded. */
export function changed(fields: readonly BoundField[], initial: Values, values: Values): string[] {
  return valueFields(fields).filter((f) => String(initial[f.name] ?? '') !== String(values[f.name] ?? '')).map((f) => f.name);
}

/**
 * What a form sends: every field, typed as the contract says (numbers as
 * numbers). A hidden field sends the value it was loaded with (`initial`), so
 * a value typed and then hidden neither reaches the device nor blocks the
 * save; an empty optional text field sends "" so it can be cleared; an empty
 * optional number is left out.
 */
export function payload(fields: readonly BoundField[], values: Values, contract: Readonly<Record<string, FieldRule>>, initial?: Values): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const f of valueFields(fields)) {
    const v = initial && !visible(f, values) ? initial[f.name] : values[f.name];
    const kind = contract[f.name]?.kind;
    const numeric = kind === 'int' || kind === 'flag';
    if ((v === undefined || v === '') && contract[f.name]?.optional && (numeric || initial?.[f.name] === undefined)) continue;
    out[f.name] = numeric ? Number(v) : String(v ?? '');
  }
  return out;
}
