// The house rules a newcomer relies on (issue 24 §3, issue 32), kept true: no
// source file over 600 lines, no test file over 800, no circle in the relative
// imports of the sources, and the parts of the repository (and the folders of
// src/) in one order, each importing only its own part and the parts below it,
// so that every folder reads one way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const SOURCE_LIMIT = 600;
const TEST_LIMIT = 800;
/** Written by the build, not by a person (both are in .gitignore): exempt from the line limit. */
const GENERATED = ['src/i18n/catalogs.d.ts', 'src/i18n/compiled/'];

const posix = (p: string) => p.split('\\').join('/');
const generated = (p: string) => GENERATED.some((g) => (g.endsWith('/') ? p.startsWith(g) : p === g));

/** Every file under dir (relative to the root, with /), leaving out node_modules and the test runners' output. */
function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules' || name === 'test-results' || name === 'playwright-report') continue;
    const p = `${dir}/${name}`;
    if (statSync(join(ROOT, p)).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/**
 * The parts of the repository, low to high: a file imports from its own part and the parts before
 * it, never from one after it. The contract is the bottom (the console, the simulated terminal and
 * the build all read it); the console's source next; the build (build/ with build.ts) bundles it;
 * serial/ (byte links, YMODEM, ZMODEM, tar) is under both the simulated terminal's serial console
 * and the harness; the harness drives simulated terminals; the virtual board uses the harness's
 * console profile, verify and link; the bench and the tools use any of them; tests sit on top.
 */
const LAYERS = ['contract', 'src', 'build', 'serial', 'simulator', 'board', 'hil', 'bench', 'tools', 'tests'];
/**
 * The folders (and the files at the top) of src/, low to high, as the architecture in
 * docs/DEVELOPING.md draws them. Types for the build's imports and the stand-ins for packages
 * first, then the page data; the session and layout state, which imports nothing of the rest;
 * texts; the component kit; the request layer (it reads the session and says what failed with a
 * toast); the form engine; the routes table and the guard, plain data the screens may read; the
 * screens; the shell, which binds routes to screens and lays them out; the entry.
 */
const SRC_LAYERS = ['env.d.ts', 'shim', 'brand.ts', 'state', 'i18n', 'ui', 'api', 'form', 'routing', 'screens', 'shell', 'main.tsx'];

/**
 * Imports that still run upward, in named groups, each saying why it is there and what would take
 * it away. The order test lets these through and fails on any other, and on an entry no longer in
 * the code, so that the entry goes when its import does.
 */
const ALLOWED_UPWARD: Record<string, string[]> = {};

const SOURCES = [...LAYERS.filter((d) => d !== 'tests').flatMap((d) => walk(d)), 'build.ts']
  .filter((p) => /\.tsx?$/.test(p) && !generated(p))
  .sort();
const TESTS = walk('tests').filter((p) => /\.(tsx?|mjs|js)$/.test(p)).sort();

test('no source file is over 600 lines', () => {
  assert.ok(SOURCES.length > 100, `${SOURCES.length} source files found`);
  const long = SOURCES.map((p) => ({ p, n: lineCount(readFileSync(join(ROOT, p), 'utf8')) })).filter((f) => f.n > SOURCE_LIMIT);
  assert.equal(long.map((f) => `${f.p} (${f.n})`), [], 'split these by concern');
});

test('no test file is over 800 lines', () => {
  assert.ok(TESTS.length > 50, `${TESTS.length} test files found`);
  const long = TESTS.map((p) => ({ p, n: lineCount(readFileSync(join(ROOT, p), 'utf8')) })).filter((f) => f.n > TEST_LIMIT);
  assert.equal(long.map((f) => `${f.p} (${f.n})`), [], 'split these by subject');
});

interface Import {
  spec: string;
  /** The line the statement starts on, from 1. */
  line: number;
}

/**
 * The relative specifiers a module imports: `import ... from`, `export ... from`, `import './x'`
 * and `import('./x')`. A statement starts a line, so words in comments and strings do not count;
 * [^;'"] keeps one match from running past the statement into another. Every line that starts an
 * import statement must start a match (a quote in a comment inside one would hide it): else null.
 */
function relativeImports(text: string): Import[] | null {
  const found: Import[] = [];
  const starts = new Set<number>();
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const statements = [/^[ \t]*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm, /^[ \t]*import\s*['"]([^'"]+)['"]/gm];
  for (const re of statements)
    for (const m of text.matchAll(re)) {
      starts.add(m.index);
      if (m[1].startsWith('.')) found.push({ spec: m[1], line: lineAt(m.index) });
    }
  for (const m of text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) found.push({ spec: m[1], line: lineAt(m.index) });
  for (const m of text.matchAll(/^[ \t]*import[ \t]+[\w{*'"]/gm)) if (!starts.has(m.index)) return null;
  return found;
}

/** A relative import resolved: the file it names, when that is a source or a test file. */
interface Edge {
  from: string;
  line: number;
  to: string;
}

/** Every relative import of the sources that names a source or a test file (edges to other files, such as JSON, left out). */
function importEdges(): Edge[] {
  const known = new Set([...SOURCES, ...TESTS]);
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  const unread: string[] = [];
  for (const p of SOURCES) {
    const imports = relativeImports(readFileSync(join(ROOT, p), 'utf8'));
    if (!imports) {
      unread.push(p);
      continue;
    }
    for (const { spec, line } of imports) {
      const target = posix(relative(ROOT, resolve(ROOT, dirname(p), spec)));
      const hit = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find((t) => known.has(t));
      if (hit) edges.push({ from: p, line, to: hit });
      // A .ts import that names no file would make the graph lie about its edges.
      else if (/\.tsx?$/.test(spec) && !existsSync(join(ROOT, target))) unresolved.push(`${p} -> ${spec}`);
    }
  }
  assert.equal(unread, [], 'every import statement is read');
  assert.equal(unresolved, [], 'every relative .ts import names a file');
  return edges;
}

/** The graph of relative imports between the source files. */
function importGraph(edges = importEdges()): Map<string, string[]> {
  const graph = new Map<string, string[]>(SOURCES.map((p) => [p, []]));
  for (const e of edges) if (graph.has(e.to) && !graph.get(e.from)!.includes(e.to)) graph.get(e.from)!.push(e.to);
  for (const to of graph.values()) to.sort();
  return graph;
}

/**
 * Where a file sits in the order: its part's place in LAYERS and, inside src/, its folder's (or
 * top file's) place in SRC_LAYERS. Undefined for a file outside every listed part or folder.
 */
function layerOf(file: string): [number, number] | undefined {
  const [top, sub] = file.split('/');
  const at = LAYERS.indexOf(top === 'build.ts' ? 'build' : top);
  if (at < 0) return undefined;
  if (top !== 'src') return [at, 0];
  const inSrc = SRC_LAYERS.indexOf(sub);
  return inSrc < 0 ? undefined : [at, inSrc];
}

/** The imports that run from a lower part (or src/ folder) to a higher one, as `file:line -> target`. */
function upward(edges: readonly Edge[]): { arrow: string; at: string }[] {
  const out: { arrow: string; at: string }[] = [];
  for (const e of edges) {
    const [a, b] = [layerOf(e.from), layerOf(e.to)];
    // A file outside the order is named by the test that every source has a place.
    if (!a || !b) continue;
    if (b[0] > a[0] || (b[0] === a[0] && b[1] > a[1])) out.push({ arrow: `${e.from} -> ${e.to}`, at: `${e.from}:${e.line} -> ${e.to}` });
  }
  return out;
}

/** The strongly connected components of more than one module, or of a module that imports itself (Tarjan's algorithm). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const at = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    at.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!at.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, at.get(w)!));
    }
    if (low.get(v) === at.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(c.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!at.has(v)) visit(v);
  return components;
}

/** A shortest way round a component, from its first module back to it: the circle to name. */
function cycleIn(graph: Map<string, string[]>, component: string[]): string[] {
  const inside = new Set(component);
  const start = component[0];
  const prev = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const w of graph.get(queue[i]) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = queue[i]; u !== start; u = prev.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, queue[i]);
        queue.push(w);
      }
    }
  }
  return component;
}

/** Each circle as words: one way round it, and the other modules caught in it. */
function cycles(graph: Map<string, string[]>): string[] {
  return circles(graph).map((c) => {
    const way = cycleIn(graph, c);
    const others = c.filter((m) => !way.includes(m));
    return way.join(' -> ') + (others.length ? ` (and ${others.join(', ')} in the same circle)` : '');
  });
}

test('the cycle finder names a circle, and finds none in a line', () => {
  const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []], ['e', ['e']]]);
  assert.equal(cycles(g), ['a -> b -> c -> a', 'e -> e']);
  assert.equal(cycles(new Map([['a', ['b', 'c']], ['b', ['a']], ['c', ['b']]])), ['a -> b -> a (and c in the same circle)']);
  assert.equal(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', []]])), []);
  assert.equal(
    relativeImports(`import { a } from './a.ts';\nimport type {\n  B,\n} from '../b.ts';\nexport * from './c.ts';\nimport './d.ts';\nconst e = await import('./e.ts');\n// import x from './not.ts'\nimport x from 'node:fs';`),
    [
      { spec: './a.ts', line: 1 },
      { spec: '../b.ts', line: 2 },
      { spec: './c.ts', line: 5 },
      { spec: './d.ts', line: 6 },
      { spec: './e.ts', line: 7 },
    ],
  );
  // A quote in a comment inside an import would hide the statement: the file is not read, rather than read wrong.
  assert.is(relativeImports(`import {\n  a, // the user's\n} from './a.ts';`), null);
});

test('no circle in the relative imports of the sources', () => {
  const graph = importGraph();
  const edges = [...graph.values()].reduce((n, to) => n + to.length, 0);
  assert.ok(edges > 200, `${edges} imports read`);
  assert.equal(cycles(graph), [], 'move what both sides share to a module both can import');
});

test('the order check names an import from a lower part or src/ folder to a higher one', () => {
  const arrows = (pairs: [string, string][]) => upward(pairs.map(([from, to]) => ({ from, line: 3, to }))).map((u) => u.at);
  assert.equal(
    arrows([
      ['src/state/session.ts', 'src/api/request.ts'],
      ['src/api/request.ts', 'src/state/session.ts'],
      ['src/screens/Login.tsx', 'src/shell/App.tsx'],
      ['src/main.tsx', 'src/shell/App.tsx'],
      ['hil/cli.ts', 'board/start.ts'],
      ['board/start.ts', 'hil/link.ts'],
      ['simulator/serial.ts', 'serial/link.ts'],
      ['build.ts', 'build/bundle.ts'],
      ['build/bundle.ts', 'build.ts'],
      ['contract/index.ts', 'src/api/request.ts'],
      ['bench/browser.ts', 'tests/support/admin.ts'],
    ]),
    ['src/state/session.ts:3 -> src/api/request.ts', 'src/screens/Login.tsx:3 -> src/shell/App.tsx', 'board/start.ts:3 -> hil/link.ts', 'contract/index.ts:3 -> src/api/request.ts', 'bench/browser.ts:3 -> tests/support/admin.ts'],
  );
});

test('every source file sits in a part of the order, and src/ folders in theirs', () => {
  assert.equal(SOURCES.filter((p) => !layerOf(p)), [], 'add its folder to LAYERS or SRC_LAYERS, where its imports allow');
});

test('the parts import one way: from their own part or below, never above', () => {
  const found = upward(importEdges());
  const allowed = new Set(Object.values(ALLOWED_UPWARD).flat());
  assert.equal(
    found.filter((u) => !allowed.has(u.arrow)).map((u) => u.at),
    [],
    `move what the lower file needs down, or the higher import up (order: ${LAYERS.join(' < ')}; in src/: ${SRC_LAYERS.join(' < ')})`,
  );
  const seen = new Set(found.map((u) => u.arrow));
  const stale = Object.entries(ALLOWED_UPWARD).flatMap(([name, arrows]) => arrows.filter((a) => !seen.has(a)).map((a) => `${name}: ${a}`));
  assert.equal(stale, [], 'these allowed imports are gone: take them out of ALLOWED_UPWARD');
});

test.run();
