// The pages a newcomer reads (issue 24 §1) stay whole: every relative Markdown
// link resolves to a file of this repository (and to a heading of it when it
// names one), no page points outside the repository, and the README stays short.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const README_LINES = 200;

/** The Markdown pages people read: the README, docs/, the translators' and the C server's pages, the security policy. */
function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`);
  return ['README.md', 'SECURITY.md', 'locales/README.md', 'embed/civetweb/README.md', ...docs.sort()];
}

/** The text without code: fenced blocks and inline code may hold brackets that are no links. */
function prose(md: string): string {
  return md
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/``[^`\n]*``|`[^`\n]*`/g, '');
}

/** Every link target `[text](target)` of a page, in order. */
function links(md: string): string[] {
  return [...prose(md).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

test('the anchors follow GitHub: punctuation dropped, spaces as hyphens, repeats numbered', () => {
  const a = anchors('# The /goform/ API\n## Fix a language\n## Fix a language\n```\n# not a heading\n```\n### `npm test`, step by step\n');
  assert.equal([...a], ['the-goform-api', 'fix-a-language', 'fix-a-language-1', 'npm-test-step-by-step']);
  assert.equal(links('[a](docs/A.md) `[b](no.md)` [c](#x "title")\n```\n[d](no.md)\n```\n'), ['docs/A.md', '#x']);
});

test('every relative link of README.md, SECURITY.md, docs/*.md, locales/README.md and embed/civetweb/README.md resolves', () => {
  const broken: string[] = [];
  let count = 0;
  for (const page of pages()) {
    const md = readFileSync(join(ROOT, page), 'utf8');
    for (const target of links(md)) {
      if (external(target)) continue;
      count++;
      const [path, anchor] = target.split('#', 2);
      const file = path ? resolve(ROOT, dirname(page), decodeURI(path)) : join(ROOT, page);
      const inside = !relative(ROOT, file).startsWith('..');
      if (!inside) broken.push(`${page}: ${target} points outside the repository`);
      else if (!existsSync(file)) broken.push(`${page}: ${target}: no such file`);
      else if (anchor && statSync(file).isFile() && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor))
        broken.push(`${page}: ${target}: no such heading`);
    }
  }
  assert.ok(count > 50, `the pages have their links (${count})`);
  assert.equal(broken, [], broken.join('\n'));
});

test('no page points at a file outside the repository (../shared/ is not in a clone)', () => {
  for (const page of pages()) assert.not.match(readFileSync(join(ROOT, page), 'utf8'), /\.\.\/shared\//, page);
});

test(`README.md is at most ${README_LINES} lines and names npm test as the test command (.ci/run runs it)`, () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= README_LINES, `README.md has ${lines} lines`);
  assert.match(readme, /^npm test\b/m);
  assert.match(readFileSync(join(ROOT, '.ci/run'), 'utf8'), /^npm test$/m);
});

test.run();
