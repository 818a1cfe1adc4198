// The calls the console ships (`npm run calls`). In: the calls the console's
// source makes (src/) and the contract (contract/index.ts). Out: the part of
// the contract the console ships, two files in src/api/: shipped.ts, the
// calls' names as a type, which requestGoform() takes (so a call the file
// lacks is a type error), and how each travels (SPEC §7's naming rule once,
// and the calls that differ from it); and rules.ts, the field rules of the
// calls the forms check. Two files because esbuild puts a whole module in one
// chunk: the login page needs the routes, only the signed-in part the rules.
// The console imports these, never contract/index.ts's table, whose
// documentation would ship. The bundle step (build/bundle.ts) and
// tests/build/calls.test.ts fail when they are not what this writes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLS, type CallSpec, type Field } from '../contract/index.ts';
import { ROOT } from './project.ts';

/** The files this writes, from the root. */
export const SHIPPED = { calls: 'src/api/shipped.ts', rules: 'src/api/rules.ts' };
const written = Object.values(SHIPPED).map((f) => join(ROOT, f));

/**
 * Names of the calls the console's source makes: requestGoform('<name>', ...),
 * readOrFailure, requestFile, prepare, download and upload('<name>', ...), and definitions
 * (read:, write:, add:, del:, call:, list:, file: '<name>', or the same as JSX
 * props). A name that is not a literal (the form engine's, from its
 * definitions) is not read: its type, ShippedCall, makes it one of those read
 * here. With `checked`, only the calls whose request fields the forms check
 * (write: and add: of a definition, a search's call: and list:, rulesOf('<name>')).
 */
export function callsUsed(dir = join(ROOT, 'src'), checked = false): Set<string> {
  const used = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      // The files this writes name every call: read, they would only repeat themselves.
      else if (/\.tsx?$/.test(e.name) && !written.includes(p)) {
        const src = readFileSync(p, 'utf8');
        // A definition's calls: `write: 'X'` in an object, write="X" as a JSX prop.
        const defs = checked
          ? /\b(?:write|add|call|list)[:=]\s*['"](\w+)['"]|rulesOf\(\s*['"](\w+)['"]/g
          : /\b(?:read|write|add|del|call|list|file)[:=]\s*['"](\w+)['"]|(?:rulesOf|download|upload|requestGoform|readOrFailure|requestFile|prepare)\(\s*['"](\w+)['"]/g;
        for (const m of src.matchAll(defs)) used.add(m[1] ?? m[2]);
      }
    }
  };
  walk(dir);
  return used;
}

/** A text as a TypeScript literal in single quotes. */
const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A key as TypeScript: bare when it can be. */
const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k));
/** A value as TypeScript: the field rules are plain data (texts, numbers, flags, lists). */
function literal(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  if (v && typeof v === 'object') return `{ ${Object.entries(v).map(([k, x]) => `${key(k)}: ${literal(x)}`).join(', ')} }`;
  return String(v);
}

/** A generated file's opening: what it is, and that a command writes it. */
const header = (what: string[]) => [
  ...what,
  '// Written by `npm run calls` (build/calls.ts) from src/ and contract/index.ts:',
  '// do not edit. The build and tests/build/calls.test.ts fail when it is not what',
  '// that command writes.',
];

/** What the files of SHIPPED hold for the source in `dir` and the contract now, by their path from the root. */
export function renderShipped(dir = join(ROOT, 'src')): Record<string, string> {
  const calls = CALLS as Record<string, CallSpec>;
  const used = [...callsUsed(dir)].sort();
  // SPEC §7's naming rule, then the calls that differ from it: fewer bytes on the login path than a full table.
  const rule = (name: string) => (name.startsWith('Set') ? 'GET query' : 'POST json');
  const odd: string[] = [];
  for (const name of used) {
    const c = calls[name];
    if (!c) throw new Error(`${name}: the console calls it, but contract/index.ts has no such call`);
    if (c.path !== name) throw new Error(`contract: ${name} has path ${c.path}; the console's table assumes they match`);
    const how = `${c.method} ${c.encoding}`;
    if (how !== rule(name)) odd.push(`  ${key(name)}: ${quote(how)},`);
  }
  // The field rules of the calls the forms check, without documentation. The calendar check (format) is the
  // device's: the forms check the pattern, the device refuses a day that does not exist (10005 at the field).
  // Rules repeat (a time, a flag, a date): each distinct one is written once and referred to by number.
  const distinct: string[] = [];
  const ref = (f: Field) => {
    const { doc, fields, format, ...rest } = f;
    void doc, void fields, void format;
    const text = literal(rest);
    if (!distinct.includes(text)) distinct.push(text);
    return distinct.indexOf(text);
  };
  const ruled: string[] = [];
  for (const name of [...callsUsed(dir, true)].sort()) {
    const req = Object.entries(calls[name]?.request ?? {});
    if (req.length) ruled.push(`  ${key(name)}: { ${req.map(([k, f]) => `${key(k)}: ${ref(f)}`).join(', ')} },`);
  }
  const shipped = [
    ...header(['// The calls the console makes, and how each travels: the part of the /goform/', '// contract the request layer ships (the forms\' field rules are in rules.ts).']),
    "import type { Route } from '../../contract/index.ts';",
    '',
    '/** Every call the console makes: requestGoform() takes no other name. */',
    'export type ShippedCall =',
    ...used.map((n, i) => `  | ${quote(n)}${i === used.length - 1 ? ';' : ''}`),
    '',
    "/** Method and encoding of the calls that differ from SPEC §7's naming rule (routeOf). */",
    "const ROUTES: Partial<Record<ShippedCall, `${Route['method']} ${Route['encoding']}`>> = {",
    ...odd,
    '};',
    '',
    '/** How a call travels: a Set* call is a GET with a query, any other a POST with JSON, but for ROUTES. */',
    'export function routeOf(name: ShippedCall): Route {',
    "  const [method, encoding] = (ROUTES[name] || (name.startsWith('Set') ? 'GET query' : 'POST json')).split(' ');",
    '  return { method, path: name, encoding } as Route;',
    '}',
    '',
  ];
  const rules = [
    ...header(['// The field rules of the calls the forms check: the part of the /goform/', '// contract the form engine ships (src/form/validation.ts checks by them).']),
    "import type { Field } from '../../contract/index.ts';",
    "import type { ShippedCall } from './shipped.ts';",
    '',
    "/** A request field as the forms check it: the contract's field without its documentation, nested fields and calendar check. */",
    "export type FieldRule = Omit<Field, 'doc' | 'fields' | 'format'>;",
    '',
    '/** Each distinct rule once. */',
    'const RULES: FieldRule[] = [',
    ...distinct.map((r) => `  ${r},`),
    '];',
    '',
    "/** The fields of each call the forms check, by their rule's place in RULES. */",
    'const RULES_OF: Partial<Record<ShippedCall, Record<string, number>>> = {',
    ...ruled,
    '};',
    '',
    '/** The field rules of a call the forms check (none for another). */',
    'export function rulesOf(name: ShippedCall): Record<string, FieldRule> {',
    '  const r = RULES_OF[name] || {};',
    '  return Object.fromEntries(Object.entries(r).map(([k, i]) => [k, RULES[i]]));',
    '}',
    '',
  ];
  return { [SHIPPED.calls]: shipped.join('\n'), [SHIPPED.rules]: rules.join('\n') };
}

/** Throws, naming the command to run, when a file of SHIPPED under `root` is not what renderShipped() writes now. */
export function checkShipped(root = ROOT): void {
  const stale = Object.entries(renderShipped()).filter(([f, text]) => {
    try {
      return readFileSync(join(root, f), 'utf8') !== text;
    } catch {
      return true;
    }
  });
  if (stale.length) throw new Error(`${stale.map(([f]) => f).join(' and ')} ${stale.length > 1 ? 'are' : 'is'} not current with the calls src/ makes and contract/index.ts: run \`npm run calls\``);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [f, text] of Object.entries(renderShipped())) writeFileSync(join(ROOT, f), text);
  console.log(`wrote ${Object.values(SHIPPED).join(' and ')}`);
}
