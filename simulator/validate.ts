// Request validation from the contract's field tables: what the simulated
// terminal accepts is exactly what docs/API.md says.
import type { Field, Fields } from '../contract/index.ts';
import { isUpload } from './types.ts';

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export interface Invalid {
  /** 10003: a required field is missing; 10005: a value is out of its range or form. */
  code: 10003 | 10005;
  field: string;
}

/**
 * Values from a query string, a form body or a multipart body's text parts
 * arrive as text: turn them into their kinds. Files (Upload) stay as they
 * are. Every name becomes an own property, `__proto__` too (validate()
 * then refuses it as unknown), never the object's prototype.
 */
export function coerce(raw: Record<string, unknown>, fields: Fields, fromText: boolean): Record<string, unknown> {
  if (!fromText) return raw;
  const out: Record<string, unknown> = {};
  const set = (k: string, value: unknown) => Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of Object.entries(raw)) {
    const f = own(fields, k) ? fields[k] : undefined;
    // An empty form or query field of a non-text kind is an absent one (a form's empty number box).
    if (v === '' && f && f.kind !== 'string') continue;
    if (typeof v !== 'string' || !f) {
      set(k, v);
      continue;
    }
    if ((f.kind === 'int' || f.kind === 'flag') && /^-?\d+$/.test(v)) set(k, Number(v));
    else if (f.kind === 'strings' || f.kind === 'object' || f.kind === 'objects') {
      try {
        set(k, JSON.parse(v));
      } catch {
        set(k, v);
      }
    } else set(k, v);
  }
  return out;
}

/**
 * Control characters (C0, DEL, C1): a C firmware stores text as C strings and
 * shows it on a small screen; NUL would cut it, the others garble it. No
 * field of the contract takes them.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Half of a surrogate pair alone ("\ud800" in JSON): no text, UTF-8 cannot carry it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const badText = (s: string) => CONTROL.test(s) || LONE_SURROGATE.test(s);

/** A date (YYYY-MM-DD) or date and time (YYYY-MM-DD HH:MM) that exists: not 2031-02-30. */
export function realMoment(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(2000, mo - 1, d));
  t.setUTCFullYear(y);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && (m[4] === undefined || (Number(m[4]) < 24 && Number(m[5]) < 60));
}

/** A time zone name this terminal's tz database has (Node's Intl), or a stored ±HH:MM offset the pattern has checked. */
export function knownZone(v: string): boolean {
  if (/^[+-]\d\d:\d\d$/.test(v)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

function checkValue(v: unknown, f: Field, path: string): Invalid | null {
  const bad: Invalid = { code: 10005, field: path };
  switch (f.kind) {
    case 'string':
      if (typeof v !== 'string') return bad;
      if (badText(v)) return bad;
      if (f.maxLength !== undefined && v.length > f.maxLength) return bad;
      if (f.pattern && !new RegExp(f.pattern).test(v)) return bad;
      if (f.format === 'zone' ? !knownZone(v) : f.format && v !== '' && !realMoment(v)) return bad;
      break;
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v)) return bad;
      if (f.min !== undefined && v < f.min) return bad;
      if (f.max !== undefined && v > f.max) return bad;
      break;
    case 'flag':
      if (v !== 0 && v !== 1) return bad;
      break;
    case 'strings':
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || badText(x))) return bad;
      break;
    case 'object':
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad;
      return validate(v as Record<string, unknown>, f.fields ?? {}, `${path}.`);
    case 'file':
      if (!isUpload(v)) return bad;
      break;
    case 'objects':
      if (!Array.isArray(v)) return bad;
      for (let i = 0; i < v.length; i++) {
        if (typeof v[i] !== 'object' || v[i] === null) return { code: 10005, field: `${path}[${i}]` };
        const r = validate(v[i], f.fields ?? {}, `${path}[${i}].`);
        if (r) return r;
      }
      break;
  }
  if (f.values && !f.values.includes(v as string | number)) return bad;
  return null;
}

/**
 * First problem with a request, or null when it fits the contract. `null` is
 * no value of any kind: refused (10005) wherever it stands, so a read never
 * answers null where docs/API.md promises a number or a text.
 */
export function validate(params: Record<string, unknown>, fields: Fields, prefix = ''): Invalid | null {
  for (const [name, f] of Object.entries(fields)) {
    const v = own(params, name) ? params[name] : undefined;
    if (v === null) return { code: 10005, field: prefix + name };
    // "" is text: for a field of another kind in JSON it is no value of that kind (coerce() drops it from text encodings).
    if (v === '' && f.kind !== 'string' && f.optional) return { code: 10005, field: prefix + name };
    if (v === undefined || v === '') {
      if (f.optional) continue;
      // An empty string is a value for text fields; only absence is "missing" there.
      if (v === '' && f.kind === 'string') {
        const r = checkValue(v, f, prefix + name);
        if (r) return r;
        continue;
      }
      return { code: 10003, field: prefix + name };
    }
    const r = checkValue(v, f, prefix + name);
    if (r) return r;
  }
  for (const name of Object.keys(params)) {
    if (!own(fields, name)) return { code: 10005, field: prefix + name };
  }
  return null;
}
