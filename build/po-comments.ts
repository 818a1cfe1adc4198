// Build step: a translator comment on every message of every PO file,
// saying where the text appears and how long it may be, so that a
// translator in Poedit or Weblate understands it without the console.
// Written after `lingui extract` (which rewrites the extracted comments) as
// a `#.` line starting "Where:"; the same every build.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the texts of a source file appear, by path prefix (the longest that matches wins). */
const PLACES: [string, string][] = [
  ['src/screens/Login.tsx', 'the login page'],
  ['src/screens/NotFound.tsx', 'the "page not found" page'],
  ['src/routing/', 'a page title: in the sidebar menu, the breadcrumb and the browser tab'],
  ['src/screens/index.ts', 'a page title: in the sidebar menu, the breadcrumb and the browser tab'],
  ['src/shell/PasswordDialog.tsx', 'the "modify password" dialog (top bar user menu)'],
  ['src/shell/InfoDialog.tsx', 'the device information dialog (sidebar info button)'],
  ['src/shell/LanguageDialog.tsx', 'the language dialog (top bar user menu)'],
  ['src/shell/', 'the frame around every page: sidebar, top bar, user menu'],
  ['src/ui/', 'shared controls on every page (dialogs, tables, status lines, notifications)'],
  ['src/form/PagedTable.tsx', 'the pager under long lists (users, records, report)'],
  ['src/form/validation.ts', 'a message under a form field whose value is not valid'],
  ['src/form/', 'forms and lists on every settings page'],
  ['src/api/errors.ts', 'an error or result message from the device, in a notification or under a field'],
  ['src/api/', 'a message from the device'],
  ['contract/', 'a message from the device'],
  ['src/screens/user/', 'the Users pages (user list, add and edit a user, face and fingerprint enrolment)'],
  ['src/screens/network/', 'the Network settings pages'],
  ['src/screens/basic/', 'the Basic setup pages'],
  ['src/screens/access/', 'the Access control pages (and the access, time zone, group, shifts and card pages under Advanced)'],
  ['src/screens/maint/records.tsx', 'the Records, Report, Temperature records and Operation log pages (Advanced)'],
  ['src/screens/maint/live.tsx', 'the Live events page (Advanced): what happens at the door as it happens'],
  ['src/screens/maint/device.tsx', 'the Firmware upgrade, Restart, Initialization and Initialization card pages (Advanced)'],
  ['src/screens/maint/sessions.tsx', 'the Signed-in sessions page (Advanced)'],
  ['src/screens/maint/service.tsx', 'the service pages for technicians (/snkey, /up, /test, /cmd)'],
  ['src/screens/maint/', 'the settings Backup and restore page (Advanced)'],
];

function placeOf(file: string): string {
  let best: [string, string] | undefined;
  for (const p of PLACES) if (file.startsWith(p[0]) && (!best || p[0].length > best[0].length)) best = p;
  return best?.[1] ?? 'the console';
}

/** How long a translation may be, from the kind of text (its id) and the English length. */
function limitOf(id: string, english: string): string {
  if (id.startsWith('route.')) return 'a menu entry: keep it under 24 characters';
  if (id.startsWith('action.')) return `a button: keep it short (English has ${english.length} characters)`;
  if (english.length <= 20 && !/[.!?]$/.test(english)) return `a label, column heading or button: keep it short (English: ${english.length} characters)`;
  return 'a sentence: no fixed limit, but it shows on one or two lines';
}

/**
 * Adds (or refreshes) the "Where:" comment of each entry of a PO file. The
 * English texts give the lengths; `#:` lines give the places.
 */
export function annotatePo(file: string, english: Map<string, string>): void {
  const entries = readFileSync(file, 'utf8').split(/\n\n+/);
  const out = entries.map((entry) => {
    const lines = entry.split('\n').filter((l) => !l.startsWith('#. Where:'));
    const idLine = lines.find((l) => l.startsWith('msgid "'));
    const id = idLine ? (JSON.parse(idLine.slice(6)) as string) : '';
    if (!id) return lines.join('\n');
    const places = [...new Set(lines.filter((l) => l.startsWith('#: ')).flatMap((l) => l.slice(3).split(' ')).map((f) => placeOf(f.replace(/:\d+$/, ''))))];
    const note = `#. Where: ${places.join('; ') || 'the console'}. Length: ${limitOf(id, english.get(id) ?? '')}.`;
    lines.unshift(note);
    return lines.join('\n');
  });
  writeFileSync(file, out.join('\n\n').replace(/\n*$/, '\n'));
}

export function annotateAll(root: string, locales: readonly string[], readPo: (file: string) => Map<string, string>): void {
  const english = readPo(join(root, 'locales/en/messages.po'));
  for (const l of locales) annotatePo(join(root, 'locales', l, 'messages.po'), english);
}
