// Build step 1, the catalogues. In: locales/<locale>/messages.po (with
// `extract`, the source's messages first). Out: the compiled catalogues,
// every locale checked against English (build/locales.ts), the short-id
// table, and the catalogue files that ship: per locale its core texts and
// its screens' texts, under one hash.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkLocales, localeProblems, type LocaleRow } from './locales.ts';
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

/** The step: compile, check and split the catalogues of these locales (English among them). */
export function catalogues(locales: string[], extract: boolean, quiet: boolean): Catalogues {
  prepareCatalogs(extract, quiet);
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
 */
export function prepareCatalogs(extract: boolean, quiet: boolean): void {
  const lingui = join(ROOT, 'node_modules/.bin/lingui');
  const locales = allLocales();
  const stage = mkdtempSync(join(tmpdir(), 'catalogues-'));
  try {
    for (const l of locales) {
      mkdirSync(join(stage, 'locales', l), { recursive: true });
      copyFileSync(join(ROOT, 'locales', l, 'messages.po'), join(stage, 'locales', l, 'messages.po'));
    }
    const config = join(stage, 'lingui.config.json');
    writeFileSync(config, JSON.stringify(stagedConfig(stage)));
    if (extract) {
      run(lingui, ['extract', '--clean', '--config', config], quiet);
      annotateAll(stage, locales, readPo);
    }
    const en = readPo(join(stage, 'locales/en/messages.po'));
    const missing = [...en].filter(([id, s]) => !s || s === id).map(([id]) => id);
    if (missing.length) throw new Error(`English text missing in locales/en/messages.po for: ${missing.join(', ')}`);
    run(lingui, ['compile', '--config', config], quiet);
    for (const l of locales) for (const f of ['messages.po', 'messages.mjs']) replaceIfChanged(join(stage, 'locales', l, f), join(ROOT, 'locales', l, f));
  } finally {
    rmSync(stage, { recursive: true, force: true });
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
