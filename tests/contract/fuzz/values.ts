// The contract fuzz (contract-fuzz.ts): the values the generators draw from:
// valid values of a field from its kind and constraints, and the odd ones
// (control characters, bytes that are not UTF-8, days that do not exist,
// wrong types, numbers past the ends, unknown field names).
import fc from 'fast-check';
import type { Field, Fields } from '../../../contract/index.ts';
import { ZONES, cleanText, momentOf, realDay, type Encoding, type Values } from './contract.ts';
import { judgeValue, type Token } from './oracle.ts';

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
export const FILES: fc.Arbitrary<Token> = fc.oneof(
  fc.constant<Token>({ $: 'file', name: 'face.png', type: 'image/png', hex: PNG_HEX }),
  fc.constant<Token>({ $: 'file', name: 'face.jpg', type: 'image/jpeg', hex: JPEG_HEX }),
  fc
    .tuple(fc.stringMatching(/^[1-9][0-9]{0,9}$/), fc.string({ unit: TEXT_UNIT, minLength: 1, maxLength: 20 }))
    .map(([id, name]): Token => ({ $: 'file', name: 'users.csv', type: 'text/csv', hex: Buffer.from(`UserID,UserName\r\n${id},"${name.replace(/"/g, '""').trim() || 'x'}"\r\n`).toString('hex') })),
  fc.uint8Array({ maxLength: 64 }).map((b): Token => ({ $: 'file', name: 'data.bin', type: 'application/octet-stream', hex: Buffer.from(b).toString('hex').replace(/^54414657/, '00') })),
  fc.constant<Token>({ $: 'file', name: 'empty.txt', type: 'text/plain', hex: '' }),
);

export const fitsValue = (f: Field, v: unknown) => judgeValue(f, v, '').v === 'ok';

/** Valid values of a field, from its kind and constraints. */
export function validValue(f: Field): fc.Arbitrary<unknown> {
  switch (f.kind) {
    case 'string': {
      if (f.values) return fc.constantFrom(...f.values);
      if (f.format === 'zone') return fc.constantFrom(...ZONES);
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
export function validRecord(fields: Fields): fc.Arbitrary<Values> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, f] of Object.entries(fields)) model[k] = validValue(f);
  return fc.record(model, { requiredKeys: Object.keys(fields).filter((k) => !fields[k].optional) }) as fc.Arbitrary<Values>;
}

/** A text of exactly n characters that fits the field, if a simple one does. */
export function textOfLength(f: Field, n: number): string | null {
  for (const ch of ['x', '1', 'A', 'a', '字', 'é', '0', 'F']) {
    const s = ch.repeat(n);
    if (new RegExp(f.pattern ?? '').test(s) && cleanText(s) && (!momentOf(f) || realDay(s))) return s;
  }
  return null;
}

export const CONTROL_CHARS = ['\u0000', '\u0001', '\u001b', '\u007f', '\n', '\r'];
/** Bytes that are not UTF-8: 0xFF, 0xFE, an overlong '/', a cut-off euro sign, a surrogate encoded (CESU), past U+10FFFF, a lone continuation byte. */
export const NOT_UTF8 = ['ff', 'fe', 'c0af', 'e282', 'eda080', 'f4908080', '80'];
export const IMPOSSIBLE_DAYS = ['2031-02-30', '2031-02-29', '2030-04-31', '2100-02-29', '1900-02-29', '2030-06-31', '2030-09-31', '2030-11-31'];
/** Unknown field names, among them the names of every object's own and inherited properties. */
export const EXTRA_NAMES = ['toString', 'valueOf', 'constructor', '__proto__', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', '__defineGetter__', 'prototype', 'length', 'admin', 'x'.repeat(300), 'a\u0000b', ''];
export const EXTRA_VALUES: unknown[] = [1, 'x', {}, [], { admin: 1 }, true];
/** Wrong types per kind, in JSON. */
export const WRONG_JSON: Record<Field['kind'], unknown[]> = {
  string: [null, 0, 1, true, false, [], {}, ['x'], { a: 1 }],
  int: [null, '1', '', 'x', true, false, [], {}, [1], { a: 1 }, 0.5],
  flag: [null, '1', '', true, false, [], {}, 2],
  strings: [null, 'x', '["x"]', '', 1, true, {}, [1], [null], [['x']], [{}]],
  object: [null, '{"a":1}', 'x', '', 1, [], [{}], true],
  objects: [null, {}, '[{}]', 'x', '', 1, [1], [null], [[]]],
  file: [null, 'x', 1],
};
/** Wrong types per kind, as text (query, form, multipart). */
export const WRONG_TEXT: Record<Field['kind'], unknown[]> = {
  string: [],
  int: ['abc', '1.5', 'true', '[]', '{}', 'null', '0x1F', '１', '٣', '1e3', ' ', '--1', 'NaN', 'Infinity'],
  flag: ['abc', 'true', 'false', 'yes', '2', '1.0', '[]'],
  strings: ['x', '{', '1', 'null', '[1]', '{"a":1}', '"x"'],
  object: ['x', '[]', '1', 'null', '{', '"{}"'],
  objects: ['x', '{}', '1', 'null', '[1]', '['],
  file: ['x', ''],
};
/** Numbers at and past the ends of any range, and numbers that are not integers or not numbers at all (raw: JSON text as is). */
export const ODD_NUMBERS: unknown[] = [
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
export const sizes = (enc: Encoding) => (enc === 'query' ? { huge: 4000, deep: 1000 } : { huge: 256 * 1024, deep: 10_000 });
export const MIB = 1 << 20;
