// Every script the console shows, and a check that a browser draws each with a
// real font (issue 34 §2). The texts are the console's own: every message of
// the 23 locales, each language's name in itself (the language dialog), the
// locales' digits, and the names of a fresh terminal's users. Both browser
// suites read them from here: tests/browser/fonts.spec.ts (Chromium) and
// tests/engines (Firefox ESR, WebKitGTK).
import { join } from 'node:path';
import { readPo } from '../../build/po.ts';
import { allLocales } from '../../build/project.ts';
import { loadModel } from '../../simulator/model.ts';
import { seedUsers } from '../../simulator/areas/users/seed.ts';

const ROOT = join(import.meta.dirname, '../..');

/**
 * The scripts, each with the language its sample is tagged with (the font a
 * browser picks may follow it). Order matters where Unicode gives a character
 * to several scripts (the long vowel mark ー is both Hiragana and Katakana):
 * the first one takes it.
 */
const SCRIPTS: [script: string, lang: string][] = [
  ['Latin', 'vi'],
  ['Greek', 'el'],
  ['Cyrillic', 'ru'],
  ['Arabic', 'fa'],
  ['Hebrew', 'he'],
  ['Thai', 'th'],
  ['Devanagari', 'ne'],
  ['Han', 'zh'],
  ['Hiragana', 'ja'],
  ['Katakana', 'ja'],
  ['Hangul', 'ko'],
];

export interface ScriptSample {
  script: string;
  lang: string;
  /** Every letter, mark and digit of this script the texts use, once each, in the order met. */
  chars: string[];
  /** Up to 16 of its letters (no marks): one line, drawn as the page's text and on the canvas. */
  line: string;
}

/** The texts a person can see in the console: messages, language names, digits, seeded users' names. */
export function consoleTexts(): string[] {
  const texts: string[] = [];
  for (const locale of allLocales()) {
    texts.push(...readPo(join(ROOT, 'locales', locale, 'messages.po')).values());
    texts.push(new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? '');
    texts.push(new Intl.NumberFormat(locale).format(1234567890.5));
  }
  for (const u of seedUsers(loadModel('default'))) texts.push(u.UserName);
  return texts;
}

/**
 * The samples of `texts` by script, and the characters that belong to none
 * of the scripts above (a new locale in a new script lands there, and the
 * test says which characters need a font and a sample).
 */
export function scriptSamples(texts = consoleTexts()): { samples: ScriptSample[]; unplaced: string[] } {
  const tests = SCRIPTS.map(([script]) => new RegExp(`\\p{Script_Extensions=${script}}`, 'u'));
  const found = SCRIPTS.map(() => new Set<string>());
  const unplaced = new Set<string>();
  for (const text of texts)
    for (const c of text.normalize('NFC')) {
      // Punctuation, symbols and the scripts' shared characters (Common, Inherited) draw in any font.
      if (!/[\p{L}\p{M}\p{Nd}]/u.test(c) || /\p{Script=Common}/u.test(c)) continue;
      const i = tests.findIndex((t) => t.test(c));
      if (i < 0) unplaced.add(c);
      else found[i].add(c);
    }
  const samples = SCRIPTS.map(([script, lang], i) => {
    const chars = [...found[i]];
    return { script, lang, chars, line: chars.filter((c) => /\p{L}/u.test(c)).slice(0, 16).join('') };
  }).filter((s) => s.chars.length > 0);
  return { samples, unplaced: [...unplaced] };
}

/** What measureScripts reports for one script. */
export interface ScriptMeasure {
  script: string;
  lang: string;
  /** Characters drawn exactly as a character no font has: the missing-glyph box. */
  boxes: string[];
  /** The sample line's width as text on the page, and on the canvas. */
  lineWidth: number;
  canvasWidth: number;
}

/**
 * In the page (the console's own font, 40 px): each character against
 * U+E000, a private-use code point no font here maps, on a canvas: the same
 * advance and ink box, and the same pixels, is the missing-glyph box. Firefox
 * draws that box with the code point's digits in it, so two such boxes differ
 * in pixels there: where U+E000 and U+E001 do, the measures alone decide (its
 * ink box is the glyph's own; WebKit's is not, and V and P measure alike).
 * And the sample line's width as text on the page, which must be the canvas's
 * (within 2 %): what the canvas judged is what the page draws. (A line of as many
 * U+E000 is no yardstick for the page's text: in a monospaced font, or for
 * full-width CJK where the box is 1 em wide, real text measures just as it
 * does.) Run in the browser: it uses only what is in it.
 */
export function measureScripts(samples: ScriptSample[]): { sameBox: boolean; scripts: ScriptMeasure[] } {
  const font = `40px ${getComputedStyle(document.body).fontFamily}`;
  const canvas = document.createElement('canvas');
  canvas.width = 120;
  canvas.height = 80;
  // In the page, so that its lang (each script's) may choose the fallback font as the text's does.
  document.body.append(canvas);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.font = font;
  const shape = (t: string) => {
    const m = ctx.measureText(t);
    return [m.width, m.actualBoundingBoxLeft, m.actualBoundingBoxRight, m.actualBoundingBoxAscent, m.actualBoundingBoxDescent].map((v) => v.toFixed(2)).join(' ');
  };
  const pixels = (t: string) => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.fillText(t, 30, 55);
    return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  };
  const box = { shape: shape('\uE000'), pixels: pixels('\uE000') };
  const samePixels = (t: string) => pixels(t).every((v, i) => v === box.pixels[i]);
  const boxesAlike = samePixels('\uE001');
  const isBox = (c: string) => shape(c) === box.shape && (!boxesAlike || samePixels(c));
  const width = (t: string, lang: string) => {
    const span = document.createElement('span');
    span.lang = lang;
    span.textContent = t;
    span.style.font = font;
    span.style.whiteSpace = 'pre';
    document.body.append(span);
    const w = span.getBoundingClientRect().width;
    span.remove();
    return w;
  };
  const measured = {
    // Two code points without a glyph draw alike: what "the box" is holds for every character.
    sameBox: shape('\uE001') === box.shape,
    scripts: samples.map((s) => ({
      script: s.script,
      lang: (canvas.lang = s.lang),
      boxes: s.chars.filter(isBox),
      lineWidth: width(s.line, s.lang),
      canvasWidth: ctx.measureText(s.line).width,
    })),
  };
  canvas.remove();
  return measured;
}

/** What is not legible, in words (empty when every script draws with a real font). */
export function illegible(measured: { sameBox: boolean; scripts: ScriptMeasure[] }): string[] {
  const out: string[] = [];
  if (!measured.sameBox) out.push('U+E000 and U+E001 draw differently: the missing-glyph box cannot be told apart here');
  for (const s of measured.scripts) {
    if (s.boxes.length) out.push(`${s.script}: ${s.boxes.length} characters draw as the missing-glyph box: ${s.boxes.slice(0, 20).join(' ')}`);
    // Within 2 %: WebKit lays out the page's text in whole pixels per glyph, and kerns kana on the canvas only.
    if (!(s.lineWidth > 0) || Math.abs(s.lineWidth - s.canvasWidth) > 0.02 * s.canvasWidth)
      out.push(`${s.script}: its sample line is ${s.lineWidth} px wide on the page and ${s.canvasWidth} px on the canvas: the page draws it with other fonts than the canvas measured`);
  }
  return out;
}
