// The house rules a newcomer relies on (issue 24 §3), kept true: no source file
// over 600 lines, no test file over 800, and no circle in the relative imports
// of src/, hil/, build/, bench/ and build.ts, so that every folder reads one way.
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

const SOURCES = [...['src', 'hil', 'build', 'bench'].flatMap((d) => walk(d)), 'build.ts']
  .filter((p) => /\.tsx?$/.test(p) && !generated(p))
  .sort();
const TESTS = walk('tests').filter((p) => /\.(tsx?|mjs|js)$/.test(p)).sort();

test('no source file in src/, hil/, build/, bench/ or build.ts is over 600 lines', () => {
  assert.ok(SOURCES.length > 100, `${SOURCES.length} source files found`);
  const long = SOURCES.map((p) => ({ p, n: lineCount(readFileSync(join(ROOT, p), 'utf8')) })).filter((f) => f.n > SOURCE_LIMIT);
  assert.equal(long.map((f) => `${f.p} (${f.n})`), [], 'split these by concern');
});

test('no test file is over 800 lines', () => {
  assert.ok(TESTS.length > 50, `${TESTS.length} test files found`);
  const long = TESTS.map((p) => ({ p, n: lineCount(readFileSync(join(ROOT, p), 'utf8')) })).filter((f) => f.n > TEST_LIMIT);
  assert.equal(long.map((f) => `${f.p} (${f.n})`), [], 'split these by subject');
});

/**
 * The relative specifiers a module imports: `import ... from`, `export ... from`, `import './x'`
 * and `import('./x')`. A statement starts a line, so words in comments and strings do not count;
 * [^;'"] keeps one match from running past the statement into another. Every line that starts an
 * import statement must start a match (a quote in a comment inside one would hide it): else null.
 */
function relativeImports(text: string): string[] | null {
  const found: string[] = [];
  const starts = new Set<number>();
  const statements = [/^[ \t]*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm, /^[ \t]*import\s*['"]([^'"]+)['"]/gm];
  for (const re of statements)
    for (const m of text.matchAll(re)) {
      starts.add(m.index);
      if (m[1].startsWith('.')) found.push(m[1]);
    }
  for (const m of text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) found.push(m[1]);
  for (const m of text.matchAll(/^[ \t]*import[ \t]+[\w{*'"]/gm)) if (!starts.has(m.index)) return null;
  return found;
}

/** The graph of relative imports between the source files (edges to other files, such as JSON, left out). */
function importGraph(): Map<string, string[]> {
  const known = new Set(SOURCES);
  const graph = new Map<string, string[]>();
  const unresolved: string[] = [];
  const unread: string[] = [];
  for (const p of SOURCES) {
    const to = new Set<string>();
    const specs = relativeImports(readFileSync(join(ROOT, p), 'utf8'));
    if (!specs) {
      unread.push(p);
      continue;
    }
    for (const spec of specs) {
      const target = posix(relative(ROOT, resolve(ROOT, dirname(p), spec)));
      const hit = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find((t) => known.has(t));
      if (hit) to.add(hit);
      // A .ts import that names no file would make the graph lie about its edges.
      else if (/\.tsx?$/.test(spec) && !existsSync(join(ROOT, target))) unresolved.push(`${p} -> ${spec}`);
    }
    graph.set(p, [...to].sort());
  }
  assert.equal(unread, [], 'every import statement is read');
  assert.equal(unresolved, [], 'every relative .ts import names a file');
  return graph;
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
    ['./a.ts', '../b.ts', './c.ts', './d.ts', './e.ts'],
  );
  // A quote in a comment inside an import would hide the statement: the file is not read, rather than read wrong.
  assert.is(relativeImports(`import {\n  a, // the user's\n} from './a.ts';`), null);
});

test('no circle in the relative imports of src/, hil/, build/, bench/ and build.ts', () => {
  const graph = importGraph();
  const edges = [...graph.values()].reduce((n, to) => n + to.length, 0);
  assert.ok(edges > 200, `${edges} imports read`);
  assert.equal(cycles(graph), [], 'move what both sides share to a module both can import');
});

test.run();
