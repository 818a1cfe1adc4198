// src/api/shipped.ts and src/api/rules.ts, the part of the contract the console
// ships (build/calls.ts): current with the source and the contract, read from the
// calls the source names, and saying what the contract says for each of them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CALLS, type CallName, type Field } from '../../contract/index.ts';
import { SHIPPED, callsUsed, checkShipped, renderShipped } from '../../build/calls.ts';
import { routeOf, type ShippedCall } from '../../src/api/shipped.ts';
import { rulesOf } from '../../src/api/rules.ts';

const ROOT = join(import.meta.dirname, '../..');

test('src/api/shipped.ts and src/api/rules.ts are current with src/ and the contract (run `npm run calls` after changing either)', () => {
  const now = renderShipped();
  assert.equal(Object.keys(now), Object.values(SHIPPED));
  for (const [f, text] of Object.entries(now)) assert.fixture(readFileSync(join(ROOT, f), 'utf8'), text);
});

test('the build stops on a stale or missing file, naming it and the command that writes it', () => {
  const root = mkdtempSync(join(tmpdir(), 'shipped-'));
  mkdirSync(join(root, 'src/api'), { recursive: true });
  const now = renderShipped();
  writeFileSync(join(root, SHIPPED.calls), now[SHIPPED.calls].replace("\n  | 'logout'", ''));
  assert.throws(() => checkShipped(root), /^src\/api\/shipped\.ts and src\/api\/rules\.ts are not current .*: run `npm run calls`$/);
  writeFileSync(join(root, SHIPPED.calls), now[SHIPPED.calls]);
  assert.throws(() => checkShipped(root), /^src\/api\/rules\.ts is not current .*: run `npm run calls`$/);
  writeFileSync(join(root, SHIPPED.rules), now[SHIPPED.rules]);
  checkShipped(root);
  checkShipped();
});

test('the scan: the names a call or a definition gives as a literal; a computed name is left to its type', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calls-'));
  writeFileSync(join(dir, 'a.ts'), "requestGoform('chklogin', {});\nrequestGoform(\n  'logout');\nreadOrFailure('SetDoorState');");
  assert.equal([...callsUsed(dir)].sort(), ['SetDoorState', 'chklogin', 'logout']);
  // Form definitions name their calls; only the writes and adds (and rulesOf) need field constraints in the bundle.
  writeFileSync(join(dir, 'c.tsx'), "const f = { read: 'SetA', write: 'GetA' };\nconst l = { read: 'SetB', add: 'AddB', del: 'DelB' };\nrulesOf('GetC');");
  assert.equal([...callsUsed(dir)].sort(), ['AddB', 'DelB', 'GetA', 'GetC', 'SetA', 'SetB', 'SetDoorState', 'chklogin', 'logout']);
  assert.equal([...callsUsed(dir, true)].sort(), ['AddB', 'GetA', 'GetC']);
  // The form engine's names come from its definitions: typed ShippedCall, each is one of the names read above.
  writeFileSync(join(dir, 'b.tsx'), 'requestGoform(name);\nprepare(def.read, {});');
  assert.equal([...callsUsed(dir)].sort(), ['AddB', 'DelB', 'GetA', 'GetC', 'SetA', 'SetB', 'SetDoorState', 'chklogin', 'logout']);
});

test('every call the console makes travels as the contract says (the naming rule and the calls that differ)', () => {
  const used = [...callsUsed()];
  assert.ok(used.length > 100, `${used.length} calls`);
  for (const name of used) {
    const c = CALLS[name as CallName];
    assert.equal(routeOf(name as ShippedCall), { method: c.method, path: c.path, encoding: c.encoding }, name);
  }
});

test("the forms check the contract's field rules, without documentation, and only for the calls they check", () => {
  const checked = [...callsUsed(undefined, true)];
  for (const name of checked) {
    const request = CALLS[name as CallName].request as Record<string, Field>;
    const rules = Object.fromEntries(Object.entries(request).map(([k, { doc, fields, format, ...rule }]) => (void doc, void fields, void format, [k, rule])));
    assert.equal(rulesOf(name as ShippedCall), rules, name);
  }
  // chklogin's fields are the device's to check: the login form only sends them.
  assert.not.ok(checked.includes('chklogin'));
  assert.equal(rulesOf('chklogin'), {});
});

test('the console imports contract/index.ts for its types only: its table and documentation never ship', () => {
  const valueImports: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name)) {
        const src = readFileSync(p, 'utf8');
        const found = /^(?:import|export)\s+(?!type\b)[^;]*?from\s*['"][^'"]*contract\/index\.ts['"]|\bimport\(\s*['"][^'"]*contract\/index\.ts['"]/m.exec(src);
        if (found) valueImports.push(`${relative(ROOT, p)}: ${found[0].split('\n')[0]}`);
      }
    }
  };
  walk(join(ROOT, 'src'));
  assert.equal(valueImports, [], 'import the constants from contract/protocol.ts, the rest as types');
});

test('the console takes values only from contract modules without a call table: a table of documentation never ships', () => {
  // esbuild keeps an object whose texts are built from numbers (a template's ${...} may run code): contract/events.ts's
  // EventStream once shipped 2.9 kB of its prose through an import of two constants (issue 35 moved them out).
  const tables: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name)) {
        for (const m of readFileSync(p, 'utf8').matchAll(/^import\s+(?!type\b)[^;]*?from\s*['"]([^'"]*contract\/[^'"]+)['"]/gm)) {
          const target = join(d, m[1]);
          if (/\bCallSpec\b/.test(readFileSync(target, 'utf8'))) tables.push(`${relative(ROOT, p)} imports ${relative(ROOT, target)}`);
        }
      }
    }
  };
  walk(join(ROOT, 'src'));
  assert.equal(tables, [], 'move the constant into a module of its own (contract/event-limits.ts is one)');
});

test.run();
