// results.md: one compact table per section, the bytes first.
import type { Results } from './results.ts';
import type { Target } from './lib.ts';

const n = (x: number) => Math.round(x).toLocaleString('en');
const ms = (x: number) => `${x >= 100 ? n(x) : x.toFixed(1)} ms`;
const verdict = (t: Target | undefined) => (t ? `${t.target.replace('<=', '≤').replace('>=', '≥')}: ${t.pass ? 'pass' : '**missed**'}` : 'report only');
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MiB`;

function table(head: string[], align: ('l' | 'r')[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(align.map((a) => (a === 'r' ? '--:' : '---'))), ...rows.map(line)].join('\n');
}

type Section<K extends keyof Results['sections']> = NonNullable<Results['sections'][K]>;
const failed = (s: object): s is { error: string } => 'error' in s;

type Done<K extends keyof Results['sections']> = Exclude<Section<K>, { error: string }>;
/** Each section's heading (given the section when it was measured) and its table. */
const SECTIONS: { [K in keyof Results['sections']]-?: { title: (s?: Done<K>) => string; body: (s: Done<K>) => string } } = {
  bytes: {
    title: () => 'Bytes per brand (gzip), Preact vs React 19',
    body: (s) =>
      table(
        ['brand', 'login path Preact', 'React', 'ratio', 'English console Preact', 'React', 'ratio', 'all locales Preact', 'React', 'ratio'],
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
        s.brands.map((b) => [b.brand, ...[b.loginPath, b.english, b.allLocales].flatMap((p) => [n(p.preact), n(p.react), p.ratio.toFixed(2)])]),
      ) +
      `\n\nRatio: Preact / React, both built in this run from the same source. The ${Object.keys(s.locales).length} locales' catalogues are ` +
      `${s.catalogsIdentical ? 'the same files in both builds' : 'NOT the same in both builds'} (bytes per locale in results.json).`,
  },
  line: {
    title: () => 'The slow line, on its bytes, through each server',
    body: (s) => {
      const kb = (b: number) => `${(b / 1000).toFixed(1)} KB`;
      const cold = table(
        ['server', 'protocol', 'line', 'cold login', 'floor', 'time / floor', 'line idle', 'connections', 'up / down', 'target', 'over HTTP (allowed: a round trip + the handshake)'],
        ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l'],
        s.rows.map((r) => [
          r.server,
          `${r.scheme.toUpperCase()} (${r.protocol})`,
          r.line,
          ms(r.cold.ms),
          ms(r.cold.floorMs),
          r.cold.ratio.toFixed(2),
          ms(r.cold.idleMs),
          r.cold.connections,
          `${kb(r.cold.up)} / ${kb(r.cold.down)}`,
          verdict(r.cold.result),
          r.overHttp ? `${n(r.overHttp.ms)} ms (${n(r.overHttp.allowedMs)}; handshake ${n(r.overHttp.handshakeBytes)} B)${r.overHttp.result ? `: ${r.overHttp.result.pass ? 'pass' : '**missed**'}` : ''}` : '',
        ]),
      );
      const rest = table(
        ['server', 'protocol', 'line', 'second visit', 'connections', 'files again', 'sign-in to rows', 'target', 'typed without https:// (Protocol 1)', 'its floor'],
        ['l', 'l', 'l', 'r', 'r', 'l', 'r', 'l', 'r', 'r'],
        s.rows.map((r) => [
          r.server,
          r.scheme.toUpperCase(),
          r.line,
          ms(r.second.ms),
          r.second.connections,
          r.second.crossed.length ? r.second.crossed.join(', ') : 'none',
          ms(r.signIn.ms),
          verdict(r.signIn.result),
          r.redirect ? ms(r.redirect.ms) : '',
          r.redirect ? ms(r.redirect.floorMs) : '',
        ]),
      );
      return `${cold}\n\n${rest}\n\nLine: ${s.model}. Floor: ${s.floor}. Line idle: how long the line carried nothing either way before usable, the two ends' own time (bench/line.ts, lineIdleMs). Medians of ${s.rows[0]?.cold.runs ?? 0} runs; usable as in the cold login below (the password field on screen, enabled), ms from the navigation's start.`;
    },
  },
  coldLogin: {
    title: () => 'Cold login vs its floor (the browser\'s throttling)',
    body: (s) =>
      table(
        ['link', 'usable', 'floor', 'time / floor', 'bytes', 'runs', 'target'],
        ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
        s.links.map((l) => [l.link, ms(l.ms), ms(l.floorMs), l.ratio.toFixed(2), n(l.bytes), l.runs, verdict(l.result)]),
      ) +
      `\n\nUsable: the password field on screen, enabled, and taking a character (ms from navigation start, median). Floor: ${s.floor}, ` +
      `with the bytes (headers included) of the requests made before it was usable that the login page needs: ${s.counted.join(', ')}.`,
  },
  signIn: {
    title: (s) => `Sign-in to the user list${s ? ` (${s.link})` : ''}`,
    body: (s) =>
      table(
        ['from Sign in to rows on screen', 'runs', 'each run', 'target'],
        ['r', 'r', 'l', 'l'],
        [[ms(s.ms), s.runs, s.all.map((a) => n(a.ms)).join(', '), verdict(s.result)]],
      ) + `\n\nCold login page, ${s.waitMs / 1000} s to type the password, then Sign in.`,
  },
  heap: {
    title: (s) => `Heap over ${s ? `${s.walks} walks` : 'walks'} through every screen`,
    body: (s) => {
      const a = s.heap.find((h) => h.walk === s.from)!;
      const b = s.heap.find((h) => h.walk === s.to)!;
      return (
        table(
          ['screens', `heap after walk ${s.from}`, `after walk ${s.to}`, 'growth', 'DOM nodes', 'listeners', 'walk (median)', 'target'],
          ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
          [[s.screens.length, mib(s.fromBytes), mib(s.toBytes), `${(s.growth * 100).toFixed(1)} %`, `${n(a.nodes)} → ${n(b.nodes)}`, `${n(a.listeners)} → ${n(b.listeners)}`, ms(s.walkMs.median), verdict(s.result)]],
        ) +
        `\n\nJS heap by walk: ${s.heap.map((h) => `${h.walk}: ${mib(h.usedBytes)}`).join(', ')}.` +
        `\n\nClient-side navigation in one page; the JS heap after two garbage collections. Left out: ${Object.entries(s.skipped)
          .map(([p, why]) => `${p} (${why})`)
          .join(', ') || 'nothing'}.` +
        (Object.keys(s.unsettled).length ? ` Did not settle in time: ${Object.entries(s.unsettled).map(([p, k]) => `${p} ×${k}`).join(', ')}.` : '')
      );
    },
  },
  render: {
    title: () => 'Render a full page of rows (scripting, unthrottled)',
    body: (s) =>
      table(
        ['list', 'rows', 'median', 'min', 'max', 'renders', 'target'],
        ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
        s.lists.map((l) => [l.list, l.rows, ms(l.median), ms(l.min), ms(l.max), l.renders, verdict(l.result)]),
      ) + `\n\nMethod: ${s.method}.`,
  },
  ymodem: {
    title: (s) => `YMODEM at ${s?.baud ?? 115200} baud`,
    body: (s) =>
      table(
        ['path', 'bytes', 'data blocks', '% of line', 'whole batch', '% of line', 'reference'],
        ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
        s.paths.map((p) => [p.path, n(p.bytes), `${n(p.data.bytesPerSecond)} B/s`, p.data.percent.toFixed(1), `${n(p.batch.bytesPerSecond)} B/s`, p.batch.percent.toFixed(1), verdict(p.result)]),
      ) + `\n\nLine rate ${n(s.lineBytesPerSecond)} bytes/s (10 bits a byte), paced by the fault shim between two pty pairs; lrzsz rb is the real one.`,
  },
  records: {
    title: (s) => `Simulated terminal: a page of records${s ? ` out of ${n(s.records)}` : ''}`,
    body: (s) =>
      table(
        ['page', `of ${s.pageSize} rows`, 'median', 'min', 'max', 'calls'],
        ['l', 'r', 'r', 'r', 'r', 'r'],
        s.pages.map((p) => [p.which, n(p.page), `${p.median.toFixed(2)} ms`, `${p.min.toFixed(2)} ms`, `${p.max.toFixed(2)} ms`, p.all.length]),
      ) + `\n\nsearchrecord over HTTP on loopback, signed in; the first call of all (it generates the records) took ${s.firstCallMs.toFixed(1)} ms.`,
  },
  simulator: {
    title: (s) => `Simulated terminal at scale${s ? `: ${n(s.users)} users, ${n(s.records)} records` : ''}`,
    body: (s) => {
      const t = (x: { median: number; min: number; max: number }, d = 2) => [x.median, x.min, x.max].map((v) => `${v.toFixed(d)} ms`);
      const page = (call: string, q: Done<'simulator'>['userPages'][number]) => [call, `${n(q.rows)} of ${n(q.total)}`, ...t(q), q.all.length, verdict(q.result)];
      const params = (q: { params: Record<string, string | number> }) => Object.entries(q.params).map(([k, v]) => `${k} ${typeof v === 'string' ? `'${v}'` : v}`).join(', ');
      const rows: (string | number)[][] = [
        [s.seed.what, `${n(s.users)} listed`, ...t(s.seed, 1), s.seed.runs, verdict(s.seed.result)],
        ...s.userPages.map((q) => page(q.what, q)),
        ...s.recordPages.map((q) => page(`searchrecord ${q.what} (${params(q)})`, q)),
        [s.download.what, mib(s.download.bytes), ...t(s.download, 1), s.download.runs, verdict(s.download.result)],
      ];
      return (
        table(['call', 'answer', 'median', 'min', 'max', 'runs', 'target'], ['l', 'r', 'r', 'r', 'r', 'r', 'l'], rows) +
        `\n\nOver HTTP on loopback, signed in (the timings the simulator's suites no longer assert). Seed: from loading the profile and starting the terminal on a fresh store to the first ` +
        `userlist that lists every user, once per run. Pages: median of ${s.calls} calls each, after two rounds of warm-up; answer: rows of the page, of the search's Total. ` +
        `Download: from the request to the last byte of the workbook (the first run loads exceljs); answer: its size (${n(s.download.bytes)} bytes).`
      );
    },
  },
};

export function markdown(r: Results): string {
  const m = r.machine;
  const out = [
    `# Benchmarks (\`npm run bench${r.short ? ' -- --short' : ''}\`)`,
    '',
    `${r.short ? 'Short run' : 'Full run'} of ${r.date}: ${m.cpus} × ${m.model}, Node ${m.node}, Chromium ${m.chromium}; ${Math.round(r.seconds)} s.`,
  ];
  for (const key of Object.keys(SECTIONS) as (keyof typeof SECTIONS)[]) {
    const s = r.sections[key];
    const spec = SECTIONS[key] as { title: (s?: unknown) => string; body: (s: unknown) => string };
    const done = s && !failed(s) ? s : undefined;
    out.push('', `## ${spec.title(done)}`, '');
    if (done) out.push(spec.body(done));
    else out.push(s ? `Failed: ${(s as { error: string }).error}` : 'Not measured in this run.');
  }
  out.push('', r.missed.length ? `Missed targets: ${r.missed.join('; ')}.` : 'Every target was met.');
  return out.join('\n') + '\n';
}
