// The contract fuzz (contract-fuzz.ts): per call, the kinds of mutation that
// apply to it, each an arbitrary of cases (fast-check).
import fc from 'fast-check';
import type { Field } from '../../../contract/index.ts';
import { SPECS, momentOf, own, type Values } from './contract.ts';
import { isToken, type Case } from './oracle.ts';
import { CONTROL_CHARS, EXTRA_NAMES, EXTRA_VALUES, IMPOSSIBLE_DAYS, MIB, NOT_UTF8, ODD_NUMBERS, WRONG_JSON, WRONG_TEXT, sizes, textOfLength, validValue } from './values.ts';
import { BOUNDARY, jsonObject } from './wire.ts';

// ---------------------------------------------------------------------------
// Mutators: per call, the kinds of mutation that apply, each an arbitrary of cases

interface Mutator {
  kind: string;
  arb: fc.Arbitrary<Case>;
  /** Cases tried at every run, before the random ones: every field meets every mutation of its kind once. */
  examples: (base: Values) => Case[];
}

export interface Base {
  /** Valid requests of the call (with the documented rules, pinned fields and overrides applied). */
  valid: fc.Arbitrary<Values>;
  /** The same, for requests that are meant to be refused (EditPwd: never a new password). */
  malformed: fc.Arbitrary<Values>;
}

export const entriesOf = (v: Values): [string, unknown][] => Object.entries(v);
const withField = (v: Values, name: string, w: unknown): [string, unknown][] => {
  const out = entriesOf(v).filter(([k]) => k !== name);
  out.push([name, w]);
  return out;
};
export const shown = (w: unknown) => {
  const t = isToken(w) ? (w.$ === 'text' ? `${JSON.stringify(w.s)}×${w.n}` : w.$ === 'deep' ? `${w.open} nested ${w.n} deep` : w.$ === 'bytes' ? `${JSON.stringify(w.pre)} + bytes ${w.hex}` : w.$ === 'file' ? `file ${w.name}` : `raw ${w.text}`) : JSON.stringify(w);
  return t === undefined ? String(w) : t.length > 60 ? `${t.slice(0, 60)}…` : t;
};

/** Same shape of constraints: one sweep example covers all such fields of a call (the 14 HH:MM of a time zone). */
const shapeOf = (f: Field) => JSON.stringify({ ...f, doc: '' });

export function mutators(call: string, base: Base): Mutator[] {
  const s = SPECS[call];
  const enc = s.encoding;
  const fields = Object.entries(s.request);
  const required = fields.filter(([, f]) => !f.optional).map(([k]) => k);
  const texts = enc !== 'json';
  const { huge, deep } = sizes(enc);
  const out: Mutator[] = [];
  const mk = (kind: string, what: string, v: Values, patch: Partial<Case> = {}): Case => ({ call, kind, what, method: s.method, enc, fields: entriesOf(v), token: 'session', ...patch });

  /** One mutator per kind: `per` lists, for a field, the wire values to try; the sweep takes each field shape once. */
  const perField = (kind: string, per: (name: string, f: Field) => unknown[], sweepAll = false) => {
    const targets = fields.map(([name, f]) => ({ name, f, values: per(name, f) })).filter((t) => t.values.length);
    if (!targets.length) return;
    const arb = fc
      .tuple(base.malformed, fc.constantFrom(...targets))
      .chain(([v, t]) => fc.constantFrom(...t.values).map((w) => mk(kind, `${t.name} ← ${shown(w)}`, {}, { fields: withField(v, t.name, w) })));
    const shapes = new Set<string>();
    const sweep = targets.filter((t) => !shapes.has(shapeOf(t.f)) && shapes.add(shapeOf(t.f)));
    out.push({
      kind,
      arb,
      examples: (v) => sweep.flatMap((t) => (sweepAll ? t.values : t.values.slice(0, 1)).map((w) => mk(kind, `${t.name} ← ${shown(w)}`, {}, { fields: withField(v, t.name, w) }))),
    });
  };
  const simple = (kind: string, cases: ((v: Values) => Case)[]) => {
    if (!cases.length) return;
    out.push({ kind, arb: base.malformed.chain((v) => fc.constantFrom(...cases).map((f) => f(v))), examples: (v) => cases.map((f) => f(v)) });
  };

  // --- Wrong types: null anywhere, and each kind's wrong kinds.
  perField('null', () => (texts ? [] : [null]), true);
  perField('type', (_, f) => (texts ? WRONG_TEXT[f.kind] : WRONG_JSON[f.kind].filter((w) => w !== null)));

  // --- Missing fields.
  if (required.length) {
    simple(
      'missing',
      required.map((k) => (v: Values) => mk('missing', `${k} left out`, Object.fromEntries(entriesOf(v).filter(([n]) => n !== k)))),
    );
  }
  simple('empty', [(_v: Values) => mk('empty', 'no fields at all', {})]);

  // --- Unknown fields, the names of built-in object properties among them.
  const variants = fields.flatMap(([k]) => [k.toLowerCase(), k.toUpperCase(), `${k} `, ` ${k}`]).filter((k) => !own(s.request, k));
  // An empty name is an unknown field in JSON; in a query or form ("=1") a device may skip it (see the percent kind).
  const extraNames = [...EXTRA_NAMES, ...variants.slice(0, 4)].filter((k) => k || !texts);
  out.push({
    kind: 'extra',
    arb: fc.tuple(base.malformed, fc.constantFrom(...extraNames), fc.constantFrom(...EXTRA_VALUES)).map(([v, k, w]) => mk('extra', `unknown field ${JSON.stringify(k.length > 20 ? `${k.slice(0, 20)}…` : k)} = ${shown(w)}`, {}, { fields: [...entriesOf(v), [k, w]] })),
    examples: (v) => extraNames.map((k) => mk('extra', `unknown field ${JSON.stringify(k.length > 20 ? `${k.slice(0, 20)}…` : k)}`, {}, { fields: [...entriesOf(v), [k, k === '__proto__' ? { admin: 1 } : 1]] })),
  });

  // --- Boundaries and one past them; numbers that are not integers.
  perField('bounds', (_, f) => {
    if (f.kind === 'int') {
      const ends = [f.min !== undefined ? f.min - 1 : undefined, f.max !== undefined ? f.max + 1 : undefined, f.min, f.max];
      const vals = (f.values ?? []) as number[];
      const near = vals.length ? [Math.max(...vals) + 1, Math.min(...vals) - 1, ...vals.map((x) => x + 1).filter((x) => !vals.includes(x)).slice(0, 1)] : [];
      return [...ends, ...near, ...ODD_NUMBERS].filter((x) => x !== undefined);
    }
    if (f.kind === 'flag') return [2, -1, { $: 'raw', text: '-0' }, { $: 'raw', text: '1.0' }, { $: 'raw', text: '0.0' }];
    if (f.kind === 'string' && f.values) {
      const v0 = String(f.values[0]);
      return [v0.toUpperCase() === v0 ? v0.toLowerCase() : v0.toUpperCase(), `${v0} `, ` ${v0}`, '', 'xx', `${v0}${v0}`];
    }
    if (f.kind === 'string' && f.maxLength !== undefined) {
      const exact = textOfLength(f, f.maxLength);
      return [exact === null ? 'x'.repeat(f.maxLength + 1) : `${exact}${exact.slice(-1)}`, ...(exact === null ? [] : [exact]), '字'.repeat(f.maxLength + 1)];
    }
    return [];
  });
  // Near misses of a pattern: a valid value with a character more, less or changed.
  if (fields.some(([, f]) => f.kind === 'string' && f.pattern)) {
    const targets = fields.filter(([, f]) => f.kind === 'string' && f.pattern && !f.values);
    if (targets.length) {
      const edits: [string, (x: string) => string][] = [
        ['+x', (x) => `${x}x`],
        ['+0', (x) => `${x}0`],
        ['-1', (x) => x.slice(0, -1)],
        [' +', (x) => ` ${x}`],
        ['+ ', (x) => `${x} `],
        ['digit→a', (x) => x.replace(/[0-9]/, 'a')],
        ['sep→/', (x) => x.replace(/[-:.]/, '/')],
        ['x2', (x) => `${x}${x}`],
      ];
      out.push({
        kind: 'pattern',
        arb: fc.tuple(base.malformed, fc.constantFrom(...targets), fc.constantFrom(...edits)).chain(([v, [k, f], [label, edit]]) =>
          validValue(f).map((x) => mk('pattern', `${k} ← ${label}: ${shown(edit(String(x)))}`, {}, { fields: withField(v, k, edit(String(x))) })),
        ),
        examples: () => [],
      });
    }
  }

  // --- Text no field takes: control characters, lone surrogates, bytes that are not UTF-8, days that do not exist.
  const stringFields = fields.filter(([, f]) => f.kind === 'string');
  if (stringFields.length) {
    const sample = (k: string) => (v: Values) => (typeof v[k] === 'string' ? (v[k] as string) : textOfLength(SPECS[call].request[k], 1) ?? 'x');
    const ctrl = (v: Values, k: string, ch: string, at: number) => {
      const x = sample(k)(v);
      const i = Math.min(at, x.length);
      return x.slice(0, i) + ch + x.slice(i);
    };
    out.push({
      kind: 'control',
      arb: fc.tuple(base.malformed, fc.constantFrom(...stringFields.map(([k]) => k)), fc.constantFrom(...CONTROL_CHARS), fc.nat(40)).map(([v, k, ch, at]) => mk('control', `${k} with ${JSON.stringify(ch)}`, {}, { fields: withField(v, k, ctrl(v, k, ch, at)) })),
      examples: (v) => {
        const seen = new Set<string>();
        return stringFields.filter(([, f]) => !seen.has(shapeOf(f)) && seen.add(shapeOf(f))).flatMap(([k]) => ['\u0000', '\u001b'].map((ch) => mk('control', `${k} with ${JSON.stringify(ch)}`, {}, { fields: withField(v, k, ctrl(v, k, ch, 1)) })));
      },
    });
    const surrogate = (v: Values, k: string, unit: string) => (texts ? { $: 'bytes', pre: sample(k)(v), hex: unit === '\\ud800' ? 'eda080' : 'edbfbf' } : { $: 'raw', text: `${JSON.stringify(sample(k)(v)).slice(0, -1)}${unit}"` });
    out.push({
      kind: 'surrogate',
      arb: fc.tuple(base.malformed, fc.constantFrom(...stringFields.map(([k]) => k)), fc.constantFrom('\\ud800', '\\udfff')).map(([v, k, u]) => mk('surrogate', `${k} with a lone surrogate ${u}`, {}, { fields: withField(v, k, surrogate(v, k, u)) })),
      examples: (v) => stringFields.slice(0, 1).map(([k]) => mk('surrogate', `${k} with a lone surrogate \\ud800`, {}, { fields: withField(v, k, surrogate(v, k, '\\ud800')) })),
    });
    out.push({
      kind: 'utf8',
      arb: fc.tuple(base.malformed, fc.constantFrom(...stringFields.map(([k]) => k)), fc.constantFrom(...NOT_UTF8)).map(([v, k, hex]) => mk('utf8', `${k} with bytes ${hex} (not UTF-8)`, {}, { fields: withField(v, k, { $: 'bytes', pre: sample(k)(v), hex }) })),
      examples: (v) => stringFields.slice(0, 1).flatMap(([k]) => ['ff', 'c0af'].map((hex) => mk('utf8', `${k} with bytes ${hex} (not UTF-8)`, {}, { fields: withField(v, k, { $: 'bytes', pre: sample(k)(v), hex }) }))),
    });
  }
  perField('day', (_, f) => (momentOf(f) ? IMPOSSIBLE_DAYS.map((d) => (momentOf(f) === 'datetime' ? `${d} 12:00` : d)) : []), true);
  perField('list', (_, f) => (f.kind === 'strings' ? [['a\u0000'], ['x', 7], [''], Array.from({ length: 1000 }, (_, i) => String(i + 1))] : []));

  // --- Bodies and encodings.
  const bodies: ((v: Values) => Case)[] = [];
  const hasRequired = required.length > 0;
  if (enc === 'json' || enc === 'form' || enc === 'multipart') {
    const junk: [string, unknown, 'refuse' | 'any'][] =
      enc === 'json'
        ? [
            ['a body that is not JSON', { $: 'raw', text: 'not json' }, 'refuse'],
            ['a cut-off object', { $: 'raw', text: '{"a":' }, 'refuse'],
            ['single quotes', { $: 'raw', text: "{'a':1}" }, 'refuse'],
            ['a trailing comma', { $: 'raw', text: '{"a":1,}' }, 'refuse'],
            ['two objects', { $: 'raw', text: '{}{}' }, 'refuse'],
            ['an object and junk', { $: 'raw', text: '{}x' }, 'refuse'],
            ['a NUL', { $: 'raw', text: '\u0000' }, 'refuse'],
            ['a JSON array', { $: 'raw', text: '[]' }, 'refuse'],
            ['an array of the request', { $: 'raw', text: '[{}]' }, 'refuse'],
            ['a JSON number', { $: 'raw', text: '1' }, 'refuse'],
            ['a JSON string', { $: 'raw', text: '"x"' }, 'refuse'],
            ['JSON null', { $: 'raw', text: 'null' }, 'refuse'],
            ['JSON true', { $: 'raw', text: 'true' }, 'refuse'],
            ['bytes that are not UTF-8', { $: 'bytes', pre: '{"', hex: 'ff' }, 'refuse'],
            ['a key with an overlong "/"', { $: 'bytes', pre: '{"a', hex: 'c0af' }, 'refuse'],
            ['whitespace only', { $: 'raw', text: ' \r\n ' }, hasRequired ? 'refuse' : 'any'],
          ]
        : [
            ['a JSON body', { $: 'raw', text: '{"a":1}' }, 'refuse'],
            ['bytes that are not UTF-8', { $: 'bytes', pre: enc === 'form' ? 'a=' : '--', hex: 'ff' }, 'refuse'],
            ['a NUL', { $: 'raw', text: '\u0000' }, 'refuse'],
          ];
    for (const [what, body, expect] of junk) bodies.push((v) => mk('body', what, v, { body, expect }));
    if (enc === 'json') {
      // The request as a JSON string holding JSON, and after a byte-order mark: a device may read them or not.
      bodies.push((v) => mk('body', 'a JSON string holding the request', v, { body: JSON.stringify(Object.fromEntries(entriesOf(v))), expect: 'any' }));
      bodies.push((v) => mk('body', 'a byte-order mark first', v, { body: { $: 'raw', text: `\ufeff${jsonObject(entriesOf(v)).toString()}` }, expect: 'any' }));
    }
    if (enc === 'multipart') {
      bodies.push((v) => mk('body', 'another boundary than the header says', v, { ctype: 'multipart/form-data; boundary=other', expect: hasRequired ? 'refuse' : 'any' }));
      bodies.push((v) => mk('body', 'no boundary', v, { ctype: 'multipart/form-data', expect: hasRequired ? 'refuse' : 'any' }));
      bodies.push((v) => mk('body', 'a cut-off body', v, { body: { $: 'raw', text: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\nab` }, expect: 'refuse' }));
    }
    bodies.push((v) => mk('body', 'no Content-Type', v, { ctype: '', expect: 'any' }));
    bodies.push((v) => mk('body', 'Content-Type text/plain', v, { ctype: 'text/plain', expect: 'any' }));
  }
  if (enc === 'query' || enc === 'form') {
    // %-junk: escapes that are not UTF-8, a '%' that escapes nothing, empty names.
    const tails: [string, 'refuse' | 'any'][] = [
      ['&%FF=1', 'refuse'],
      ['&%C0%AF=1', 'refuse'],
      ['&%ED%A0%80=1', 'refuse'],
      ['&%E0%A4%A=1', 'refuse'],
      ['&%=1', 'refuse'],
      ['&%ZZ=1', 'refuse'],
      ['&%00=1', 'refuse'],
      ['&a%00=1', 'refuse'],
      ['&=1', 'any'],
      ['&&&', 'any'],
      ['&%2', 'refuse'],
    ];
    for (const [tail, expect] of tails) bodies.push((v) => mk('percent', `${enc === 'query' ? 'query' : 'body'} ends ${JSON.stringify(tail)}`, v, { tail, expect }));
    for (const [k] of fields.slice(0, 3)) {
      for (const raw of ['%', '%G1', '%E0%A4%A', '%FF', '%C0%AF', '%u0041', '100%']) bodies.push((v) => mk('percent', `${k} ← raw ${JSON.stringify(raw)}`, {}, { fields: withField(v, k, { $: 'raw', text: raw }) }));
    }
  }
  // Another encoding than the call's: fields where the device does not look for them leave the required ones missing.
  for (const other of ['json', 'query', 'form', 'multipart'] as const) {
    if (other === enc) continue;
    const elsewhere = (other === 'query') !== (enc === 'query');
    bodies.push((v) => mk('encoding', `sent as ${other} instead of ${enc}`, v, { enc: other, expect: elsewhere && hasRequired ? 'refuse' : 'any' }));
  }
  // The other method: the call is its method and path.
  bodies.push((v) => mk('encoding', `${s.method === 'GET' ? 'POST' : 'GET'} instead of ${s.method}`, v, { method: s.method === 'GET' ? 'POST' : 'GET', expect: 'refuse', codes: [10001] }));
  for (const kind of ['body', 'percent', 'encoding']) {
    const list = bodies.filter((b) => b({}).kind === kind);
    if (list.length) out.push({ kind, arb: base.malformed.chain((v) => fc.constantFrom(...list).map((b) => b(v))), examples: (v) => list.map((b) => b(v)) });
  }

  // --- Size: huge values, empty values, deep nesting, a body over 1 MiB.
  const hugeFor = (f: Field): unknown[] =>
    f.kind === 'string'
      ? [{ $: 'text', s: 'x', n: huge }, { $: 'text', s: '字', n: Math.floor(huge / 9) }]
      : f.kind === 'strings'
        ? [{ $: 'raw', text: `[${'"x",'.repeat(texts ? 500 : 10_000)}"x"]` }, [{ $: 'text', s: 'x', n: huge }]]
        : f.kind === 'file'
          ? []
          : [{ $: 'raw', text: '9'.repeat(texts ? 1000 : 10_000) }];
  perField('huge', (_, f) => hugeFor(f));
  perField('blank', (_, f) => (f.kind === 'strings' ? [[], ''] : f.kind === 'object' ? [{}, ''] : f.kind === 'objects' ? [[], ''] : f.kind === 'file' ? [{ $: 'file', name: '', type: 'application/octet-stream', hex: '' }] : ['']), true);
  const deepCases: ((v: Values) => Case)[] = [];
  for (const open of ['[', '{'] as const) {
    deepCases.push((v) => mk('deep', `unknown field "deep" ← ${open} nested ${deep} deep`, {}, { fields: [...entriesOf(v), ['deep', { $: 'deep', open, n: deep }]] }));
    for (const [k] of fields.slice(0, 4)) deepCases.push((v) => mk('deep', `${k} ← ${open} nested ${deep} deep`, {}, { fields: withField(v, k, { $: 'deep', open, n: deep }) }));
  }
  simple('deep', deepCases);
  const bigName = stringFields[0]?.[0];
  const overMiB = (extra: number) => (v: Values): Case => {
    if (enc === 'multipart') {
      const fileField = fields.find(([, f]) => f.kind === 'file')?.[0] ?? 'File';
      return mk('oversize', `a ${MIB + 64 * 1024 + extra}-byte file part`, {}, { fields: withField(v, fileField, { $: 'file', name: 'big.bin', type: 'application/octet-stream', hex: '00', n: MIB + 64 * 1024 + extra }), expect: 'refuse', codes: [10101] });
    }
    if (enc === 'query') return mk('oversize', `a ${MIB + extra}-byte body to a query call`, v, { body: { $: 'text', s: 'x', n: MIB + extra }, expect: 'any' });
    const name = bigName ?? 'pad';
    return mk('oversize', `a body over 1 MiB (${name} ← "x"×${MIB + extra})`, {}, { fields: withField(v, name, { $: 'text', s: 'x', n: MIB + extra }), expect: 'refuse', codes: [10101] });
  };
  out.push({ kind: 'oversize', arb: fc.tuple(base.malformed, fc.nat(4096)).map(([v, n]) => overMiB(n + 1)(v)), examples: (v) => [overMiB(1)(v)] });

  // --- Without a session: no token, forged tokens.
  if (s.auth) {
    const tokens = ['none', '', 'forged', '0'.repeat(32), 'null', 'x'.repeat(2048), '../../etc/passwd', 'admin'];
    out.push({
      kind: 'auth',
      arb: fc.tuple(base.malformed, fc.constantFrom(...tokens)).map(([v, t]) => mk('auth', t === 'none' ? 'no token' : `token ${JSON.stringify(t.slice(0, 20))}`, v, { token: t })),
      examples: (v) => tokens.slice(0, 3).map((t) => mk('auth', t === 'none' ? 'no token' : `token ${JSON.stringify(t)}`, v, { token: t })),
    });
  }

  // --- Valid requests.
  out.push({ kind: 'valid', arb: base.valid.map((v) => mk('valid', 'a valid request', v)), examples: () => [] });
  return out;
}
