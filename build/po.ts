// Reading the translators' files: locales/<locale>/messages.po.
import { readFileSync } from 'node:fs';

/** Minimal PO reader: msgid -> msgstr (used to check English is complete). */
export function readPo(file: string): Map<string, string> {
  const out = new Map<string, string>();
  const text = readFileSync(file, 'utf8');
  const unquote = (s: string) => JSON.parse(s) as string;
  let id: string | null = null;
  let str = '';
  let field: 'id' | 'str' | null = null;
  const flush = () => {
    if (id) out.set(id, str);
    id = null;
    str = '';
    field = null;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#~')) continue; // obsolete entries
    if (line.startsWith('msgid ')) {
      flush();
      id = unquote(line.slice(6));
      field = 'id';
    } else if (line.startsWith('msgstr ')) {
      str = unquote(line.slice(7));
      field = 'str';
    } else if (line.startsWith('"') && field) {
      if (field === 'id') id += unquote(line);
      else str += unquote(line);
    } else if (line === '') {
      flush();
    }
  }
  flush();
  return out;
}
