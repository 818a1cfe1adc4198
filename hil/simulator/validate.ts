// Request validation from the contract's field tables: what the simulated
// terminal accepts is exactly what docs/API.md says.
import type { Field, Fields } from '../../src/api/contract.ts';
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

function checkValue(v: unknown, f: Field, path: string): Invalid | null {
  const bad: Invalid = { code: 10005, field: path };
  switch (f.kind) {
    case 'string':
      if (typeof v !== 'string') return bad;
      if (f.maxLength !== undefined && v.length > f.maxLength) return bad;
      if (f.pattern && !new RegExp(f.pattern).test(v)) return bad;
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
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return bad;
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

/** First problem with a request, or null when it fits the contract. */
export function validate(params: Record<string, unknown>, fields: Fields, prefix = ''): Invalid | null {
  for (const [name, f] of Object.entries(fields)) {
    const v = own(params, name) ? params[name] : undefined;
    if (v === undefined || v === null || v === '') {
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
