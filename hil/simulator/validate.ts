// Request validation from the contract's field tables: what the simulated
// terminal accepts is exactly what docs/API.md says.
import type { Field, Fields } from '../../src/api/contract.ts';

export interface Invalid {
  /** 10003: a required field is missing; 10005: a value is out of its range or form. */
  code: 10003 | 10005;
  field: string;
}

/** Values from a query string or form body arrive as text: turn them into their kinds. */
export function coerce(raw: Record<string, unknown>, fields: Fields, fromText: boolean): Record<string, unknown> {
  if (!fromText) return raw;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const f = fields[k];
    if (typeof v !== 'string' || !f) {
      out[k] = v;
      continue;
    }
    if ((f.kind === 'int' || f.kind === 'flag') && /^-?\d+$/.test(v)) out[k] = Number(v);
    else if (f.kind === 'strings' || f.kind === 'object' || f.kind === 'objects') {
      try {
        out[k] = JSON.parse(v);
      } catch {
        out[k] = v;
      }
    } else out[k] = v;
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
    const v = params[name];
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
    if (!(name in fields)) return { code: 10005, field: prefix + name };
  }
  return null;
}
