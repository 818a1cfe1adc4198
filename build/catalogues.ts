// Build step 1, the catalogues. In: locales/<locale>/messages.po (with
// `extract`, the source's messages first). Out: the compiled catalogues,
// every locale checked against English (build/locales.ts), the short-id
// table, and the catalogue files that ship: per locale its core texts and
// its screens' texts, under one hash.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { checkLocales, localeProblems, type LocaleRow } from './locales.ts';
import { keep, keptDir, keyOf, prune, readKept } from './kept.ts';
import { annotateAll } from './po-comments.ts';
import { readPo } from './po.ts';
import { LINGUI, ROOT, allLocales } from './project.ts';

export interface Catalogues {
  /** One row per locale (build/locales.ts), for the table after the build. */
  rows: LocaleRow[];
  /** Readable message id -> the short id that ships (shortIds). */
  ids: Map<string, string>;
  /** The one hash in every catalogue file's name. */
  hash: string;
  /** Served name -> content of each catalogue file. */
  files: Map<string, Uint8Array>;
  /** Locale -> served name of its core texts. */
  core: Record<string, string>;
  /** Locale -> its core texts as JSON (what its core file parses): index.html carries one locale's (build/site.ts). */
  coreJson: Record<string, string>;
  /** Locale -> served name of its screen texts. */
  screens: Record<string, string>;
}

/** The step: compile, check and split the catalogues of these locales (English among them). `cache`: as prepareCatalogs. */
export function catalogues(locales: string[], extract: boolean, quiet: boolean, cache?: string | false): Catalogues {
  prepareCatalogs(extract, quiet, cache);
  const rows = checkLocales(ROOT, locales, readPo);
  const problems = localeProblems(rows);
  if (problems.length) throw new Error(`locales:\n  ${problems.join('\n  ')}`);
  const ids = shortIds();
  return { rows, ids, ...catalogFiles(locales, ids) };
}

function run(cmd: string, args: string[], quiet: boolean): void {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed\n${r.stdout ?? ''}${r.stderr ?? ''}`);
}

/**
 * Extract and compile the catalogues (SPEC §1: same keys in every locale). Lingui works on a copy
 * of locales/ in a folder of its own; a file of locales/ is then replaced, by a rename, only where
 * its bytes changed. So a build never leaves a half-written catalogue for anything reading it
 * meanwhile (npm test builds in one process while another reads the catalogues), and a build of
 * unchanged sources writes nothing there.
 *
 * What Lingui made is kept (build/kept.ts) by the SHA-256 of all it read: extract's PO files by
 * the PO files and the sources it extracts from, compile's modules by the PO files it compiled;
 * both also by Lingui's configuration, the installed packages and this step's own code. A build of
 * the same inputs reads them back instead of starting Lingui (about 8 s of CPU a build; npm test
 * builds fourteen times). `cache`: the folder, or false to run Lingui every time.
 */
export function prepareCatalogs(extract: boolean, quiet: boolean, cache: string | false = keptDir('catalogues')): void {
  const lingui = join(ROOT, 'node_modules/.bin/lingui');
  const locales = allLocales();
  const stage = mkdtempSync(join(tmpdir(), 'catalogues-'));
  const staged = (l: string, f: CatalogueFile) => join(stage, 'locales', l, f);
  const config = join(stage, 'lingui.config.json');
  /** Lingui's `command`, or what it made from the same inputs before: `made` of each locale. */
  const linguiOr = (command: 'extract' | 'compile', made: CatalogueFile, after = () => {}) => {
    const inputs: Array<string | Uint8Array> = [command, ...MAKERS.flatMap((f) => [f, readFileSync(join(ROOT, f))]), JSON.stringify(LINGUI)];
    for (const l of locales) inputs.push(l, readFileSync(staged(l, 'messages.po')));
    if (command === 'extract') inputs.push(...extractedSources());
    const file = cache ? join(cache, `${keyOf(inputs)}.json`) : '';
    const kept = cache ? keptCatalogues(file, locales) : undefined;
    if (kept) {
      for (const l of locales) writeFileSync(staged(l, made), kept[l]);
      return;
    }
    run(lingui, command === 'extract' ? ['extract', '--clean', '--config', config] : ['compile', '--config', config], quiet);
    after();
    if (!cache) return;
    keep(file, Buffer.from(JSON.stringify(Object.fromEntries(locales.map((l) => [l, readFileSync(staged(l, made), 'utf8')])))));
    prune(cache, KEPT_CATALOGUES);
  };
  try {
    for (const l of locales) {
      mkdirSync(join(stage, 'locales', l), { recursive: true });
      copyFileSync(join(ROOT, 'locales', l, 'messages.po'), staged(l, 'messages.po'));
    }
    writeFileSync(config, JSON.stringify(stagedConfig(stage)));
    if (extract) linguiOr('extract', 'messages.po', () => annotateAll(stage, locales, readPo));
    const en = readPo(staged('en', 'messages.po'));
    const missing = [...en].filter(([id, s]) => !s || s === id).map(([id]) => id);
    if (missing.length) throw new Error(`English text missing in locales/en/messages.po for: ${missing.join(', ')}`);
    linguiOr('compile', 'messages.mjs');
    for (const l of locales) for (const f of CATALOGUE_FILES) replaceIfChanged(staged(l, f), join(ROOT, 'locales', l, f));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

const CATALOGUE_FILES = ['messages.po', 'messages.mjs'] as const;
type CatalogueFile = (typeof CATALOGUE_FILES)[number];
/** The code that makes the catalogues: this step, the PO helpers it runs, and the installed packages (Lingui among them). */
const MAKERS = ['build/catalogues.ts', 'build/po-comments.ts', 'build/po.ts', 'package-lock.json'];
/** How many outputs of Lingui are kept (the PO files of the 23 locales are about 4 MB; every edit of a source makes new ones). */
const KEPT_CATALOGUES = 12;

/** Every file under the folders Lingui extracts from, each as its path and its bytes, in path order. */
function extractedSources(): Array<string | Uint8Array> {
  const roots = LINGUI.catalogs.flatMap((c) => (c as { include?: string[] }).include ?? []).map((i) => i.replace('<rootDir>', ROOT));
  return roots.flatMap((r) =>
    (readdirSync(r, { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name))
      .sort()
      .flatMap((f) => [relative(ROOT, f), readFileSync(f)]),
  );
}

/** What Lingui made for each locale, kept under `file`, if it holds a text for every locale. */
export function keptCatalogues(file: string, locales: string[]): Record<string, string> | undefined {
  const bytes = readKept(file);
  try {
    const made = bytes && JSON.parse(bytes.toString('utf8'));
    return locales.every((l) => typeof made?.[l] === 'string') ? made : undefined;
  } catch {
    return undefined; // damaged: make them again
  }
}

/** package.json's Lingui configuration, its catalogues in `stage`: the sources are still read from the repository. */
function stagedConfig(stage: string): object {
  return { ...LINGUI, rootDir: ROOT, catalogs: LINGUI.catalogs.map((c) => ({ ...c, path: c.path.replace('<rootDir>', stage) })) };
}

/** `to` gets `from`'s bytes through a rename (a reader sees the old file or the new one, never a part), and only if they differ. */
export function replaceIfChanged(from: string, to: string): void {
  const bytes = readFileSync(from);
  if (existsSync(to) && readFileSync(to).equals(bytes)) return;
  const part = `${to}.${process.pid}.part`;
  writeFileSync(part, bytes);
  renameSync(part, to);
}

/**
 * Message ids of the screens inside the layout start with these prefixes;
 * their texts ship in a second file per locale ("screen texts"), loaded once
 * the layout opens, so the login page carries only the core texts.
 */
export const SCREEN_TEXT_PREFIXES = ['att.', 'unit.', 'basic.', 'net.', 'acc.', 'form.', 'user.', 'msg.enroll', 'rec.', 'maint.', 'bak.', 'msg.fw', 'msg.cert', 'msg.badCommand', 'act.', 'ses.', 'msg.activateFirst', 'msg.weakPassword', 'route.', 'menu.', 'pwd.', 'info.', 'layout.', 'log.', 'live.', 'door.', 'msg.door'];

/**
 * Message ids are readable in the source and the PO files ("basic.volume");
 * what ships uses a short id per message instead ("a", "b", ... "Zz"), in the
 * code and in the compiled catalogues alike, the way Lingui itself ships
 * generated ids. The table is built from the sorted English ids, so it is the
 * same for every build of the same catalogue. Ids a device may name in its
 * replies ("msg.*", "err.*") are not shortened.
 */
/** Namespaces of the ids a device may send as a reply's msg (SPEC §8). */
export const DEVICE_MESSAGE_PREFIXES = ['msg.', 'err.'];
export function shortIds(): Map<string, string> {
  const ids = [...readPo(join(ROOT, 'locales/en/messages.po')).keys()].sort();
  const bad = ids.filter((id) => !/^[A-Za-z]\w*(\.\w+)+$/.test(id));
  // A namespaced id cannot be mistaken for a call name, a field name or a path.
  if (bad.length) throw new Error(`message ids need a namespace ("group.name"): ${bad.join(', ')}`);
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const out = new Map<string, string>();
  // The core texts (the login page's: no screen prefix) first, so they get the one-letter ids:
  // the login path carries them in its code and its catalogue; the screens' texts get two letters.
  const screen = (id: string) => SCREEN_TEXT_PREFIXES.some((p) => id.startsWith(p));
  const ordered = [...ids.filter((id) => !screen(id)), ...ids.filter(screen)];
  // Ids a device sends in a reply's msg (SPEC §8) keep their name.
  ordered.filter((id) => !DEVICE_MESSAGE_PREFIXES.some((p) => id.startsWith(p))).forEach((id, i) => {
    let short = '';
    for (let n = i; n >= 0; n = Math.floor(n / letters.length) - 1) short = letters[n % letters.length] + short;
    out.set(id, short);
  });
  return out;
}

/** Compiled Lingui catalogue of a locale, split into core and screen texts (keys: short ids). */
export function splitCatalog(locale: string, ids = shortIds()): { core: Record<string, unknown>; screens: Record<string, unknown> } {
  const text = readFileSync(join(ROOT, 'locales', locale, 'messages.mjs'), 'utf8');
  const m = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(text);
  if (!m) throw new Error(`locales/${locale}/messages.mjs: not a compiled catalogue`);
  // The compiler's own string literal, read as JavaScript (it may escape a no-break space as \xA0, which JSON does not know).
  const all = JSON.parse(new Function(`return ${m[1]}`)()) as Record<string, unknown>;
  const core: Record<string, unknown> = {};
  const screens: Record<string, unknown> = {};
  for (const [id, msg] of Object.entries(all)) (SCREEN_TEXT_PREFIXES.some((p) => id.startsWith(p)) ? screens : core)[ids.get(id) ?? id] = msg;
  return { core, screens };
}

/**
 * The catalogue files: per built locale, its core texts (`lang-<l>-<H>.js`)
 * and its screens' texts (`text-<l>-<H>.js`), each a module exporting the
 * compiled messages. They are made here, not by esbuild, so that their names
 * can be known before bundling: one hash `H` over all of them, so the
 * console finds any locale's file from its code alone and ships no table of
 * names (adding a language adds nothing to the English login path).
 */
export function catalogFiles(
  locales: string[],
  ids: Map<string, string>,
): { hash: string; files: Map<string, Uint8Array>; core: Record<string, string>; coreJson: Record<string, string>; screens: Record<string, string> } {
  const contents: [string, 'lang' | 'text', string][] = [];
  const coreJson: Record<string, string> = {};
  for (const l of locales) {
    const split = splitCatalog(l, ids);
    coreJson[l] = JSON.stringify(split.core);
    // The JSON in single quotes: its own double quotes then need no backslash (JSON.stringify would give each one),
    // about 50 gzip bytes less per file, 2,265 for the 23 locales' 46 files (brand ia).
    for (const [kind, json] of [['lang', coreJson[l]], ['text', JSON.stringify(split.screens)]] as const)
      contents.push([l, kind, `export const messages=JSON.parse('${json.replace(/[\\']/g, '\\$&')}');\n`]);
  }
  const hash = createHash('sha256').update(contents.map((c) => c.join('\0')).join('\0')).digest('hex').slice(0, 8).toUpperCase();
  const files = new Map<string, Uint8Array>();
  const core: Record<string, string> = {};
  const screens: Record<string, string> = {};
  for (const [l, kind, text] of contents) {
    const file = `${kind}-${l}-${hash}.js`;
    files.set(file, Buffer.from(text));
    (kind === 'lang' ? core : screens)[l] = file;
  }
  return { hash, files, core, coreJson, screens };
}
