// The shell's command line: words, quotes and escapes, and commands joined by
// &&, || and ;. Pipes, redirections, background jobs and subshells are refused.

type Token = { word: string } | { op: '&&' | '||' | ';' };
export interface Command {
  argv: string[];
  /** How it joins the previous command. */
  op: '&&' | '||' | ';';
}

export class SyntaxError_ extends Error {}

/** Words and &&, ||, ; with single and double quotes and backslash escapes. */
export function tokenize(line: string): Token[] {
  const out: Token[] = [];
  let cur = '';
  let inWord = false;
  const flush = () => {
    if (inWord) out.push({ word: cur });
    cur = '';
    inWord = false;
  };
  for (let i = 0; i < line.length; ) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      flush();
      i++;
    } else if (c === '#' && !inWord) {
      break;
    } else if ((c === '&' || c === '|') && line[i + 1] === c) {
      flush();
      out.push({ op: c === '&' ? '&&' : '||' });
      i += 2;
    } else if (c === ';') {
      flush();
      out.push({ op: ';' });
      i++;
    } else if (c === '|' || c === '&' || c === '<' || c === '>' || c === '`' || c === '(' || c === ')') {
      throw new SyntaxError_(`"${c}" (pipes, redirections, background jobs and subshells) is not supported on this console`);
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new SyntaxError_('unterminated quoted string');
      cur += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= line.length) throw new SyntaxError_('unterminated quoted string');
        const d = line[j];
        if (d === '"') break;
        if (d === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1])) {
          cur += line[j + 1];
          j += 2;
        } else {
          cur += d;
          j++;
        }
      }
      inWord = true;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 < line.length) cur += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      cur += c;
      inWord = true;
      i++;
    }
  }
  flush();
  return out;
}

export function parse(line: string): Command[] {
  const cmds: Command[] = [];
  let argv: string[] = [];
  let op: Command['op'] = ';';
  for (const t of tokenize(line)) {
    if ('word' in t) {
      argv.push(t.word);
      continue;
    }
    if (!argv.length) throw new SyntaxError_(`unexpected "${t.op}"`);
    cmds.push({ argv, op });
    argv = [];
    op = t.op;
  }
  if (argv.length) cmds.push({ argv, op });
  else if (op !== ';') throw new SyntaxError_('unexpected end of line');
  return cmds;
}
