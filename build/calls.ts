// The calls the console ships (part of the bundle step). In: the source's
// calls (src/) and the contract (src/api/contract.ts). Out: an esbuild
// plugin that answers for src/api/contract.ts and src/api/rules.ts with
// just what those calls need.
import type { Plugin } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './project.ts';

/**
 * Names of the calls the console's source makes: requestGoform('<name>', ...),
 * download / upload('<name>', ...) and definitions (read:, write:, add:,
 * del:, call:, list:, file: '<name>', or the same as JSX props). Code in
 * src/form/ calls requestGoform with the names those definitions give it.
 * With `checked`, only the calls whose request fields the forms check
 * (write: and add: of a definition, rulesOf('<name>')).
 */
export function callsUsed(dir = join(ROOT, 'src'), checked = false): Set<string> {
  const used = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\/api\/(request|file)\.ts$/.test(p)) {
        const src = readFileSync(p, 'utf8');
        // A definition's calls: `write: 'X'` in an object, write="X" as a JSX prop (list, call: a search's list call, whose fields it checks).
        const defs = checked
          ? /\b(?:write|add|call|list)[:=]\s*['"](\w+)['"]|rulesOf\(\s*['"](\w+)['"]/g
          : /\b(?:read|write|add|del|call|list|file)[:=]\s*['"](\w+)['"]|(?:rulesOf|download|upload)\(\s*['"](\w+)['"]/g;
        for (const m of src.matchAll(defs)) used.add(m[1] ?? m[2]);
        // The form engine and the settings backup call with names from definitions (the backup's are the
        // settings screens' calls: tests/unit/backup.test.ts checks that this function sees every one).
        if (checked || /[\\/]form[\\/]|[\\/]maint[\\/]backup\.ts$/.test(p)) continue;
        for (const m of src.matchAll(/(?:requestGoform|requestFile|prepare)\(\s*([^,)\s]*)/g)) {
          const lit = /^['"](\w+)['"]$/.exec(m[1]);
          if (!lit) throw new Error(`${relative(ROOT, p)}: requestGoform / requestFile / prepare need a literal call name (the build ships only the calls it sees)`);
          used.add(lit[1]);
        }
      }
    }
  };
  walk(dir);
  return used;
}

/**
 * esbuild plugin: the console ships only what its requests need from the
 * contract (method and encoding of each call it makes, and the constants);
 * field tables and documentation stay with the simulator and docs/API.md.
 */
export function contractPlugin(): Plugin {
  return {
    name: 'contract',
    setup(b) {
      b.onLoad({ filter: /src[\\/]api[\\/]contract\.ts$/ }, async () => {
        const contract = await import('../src/api/contract.ts');
        const used = callsUsed();
        // SPEC §7's naming rule, then the calls that differ from it: fewer bytes on the login path than a full table.
        const rule = (name: string) => (name.startsWith('Set') ? 'GET query' : 'POST json');
        const odd: Record<string, string> = {};
        for (const name of [...used].sort()) {
          const c = (contract.CALLS as Record<string, { method: string; path: string; encoding: string }>)[name];
          if (!c) throw new Error(`requestGoform('${name}'): no such call in src/api/contract.ts`);
          if (c.path !== name) throw new Error(`contract: ${name} has path ${c.path}; the client table assumes they match`);
          const how = `${c.method} ${c.encoding}`;
          if (how !== rule(name)) odd[name] = how;
        }
        const lines = Object.entries(contract)
          .filter(([k, v]) => k !== 'CALLS' && k !== 'ENVELOPE' && typeof v !== 'function')
          .map(([k, v]) => `export const ${k} = ${JSON.stringify(v)};`);
        lines.push(
          `const O = ${JSON.stringify(odd)};`,
          `export function routeOf(n) { const [method, encoding] = (O[n] || (n.startsWith("Set") ? "GET query" : "POST json")).split(" "); return { method, path: n, encoding }; }`,
        );
        return { contents: lines.join('\n'), loader: 'js' };
      });
      // src/api/rules.ts: the field constraints of the calls the forms check, nothing else.
      b.onLoad({ filter: /src[\\/]api[\\/]rules\.ts$/ }, async () => {
        const contract = await import('../src/api/contract.ts');
        const rules: Record<string, Record<string, object>> = {};
        for (const name of [...callsUsed(undefined, true)].sort()) {
          const req = (contract.CALLS as Record<string, { method: string; request?: Record<string, { doc?: string; fields?: unknown; format?: string }> }>)[name]?.request ?? {};
          if (!Object.keys(req).length) continue;
          // The calendar check (format) is the device's: the forms check the pattern, the device refuses a day that does not exist (10005 at the field).
          rules[name] = Object.fromEntries(Object.entries(req).map(([k, f]) => [k, (({ doc, fields, format, ...rest }) => (void doc, void fields, void format, rest))(f as { doc?: string; fields?: unknown; format?: string })]));
        }
        // Field rules repeat (a time, a flag, a date): each distinct one is written once and referred to by number.
        const distinct: string[] = [];
        const ref = (f: Record<string, unknown>) => {
          const j = JSON.stringify(f);
          if (!distinct.includes(j)) distinct.push(j);
          return distinct.indexOf(j);
        };
        const table = Object.fromEntries(Object.entries(rules).map(([call, fs]) => [call, Object.fromEntries(Object.entries(fs).map(([k, f]) => [k, ref(f as Record<string, unknown>)]))]));
        return {
          contents: `const F = [${distinct.join(',')}];\nconst R = ${JSON.stringify(table)};\nexport function rulesOf(name) { const r = R[name] || {}; return Object.fromEntries(Object.entries(r).map(([k, i]) => [k, F[i]])); }`,
          loader: 'js',
        };
      });
    },
  };
}
