// Shared pieces of `npm run bench`: the run's settings, statistics and the
// shape of a target (what the issue asks for, and whether it was met).

export interface Settings {
  /** The quick setting (the bench's own test, tests/bench): one brand, one link, few runs, small counts. */
  short: boolean;
  /** The web servers the slow line's section measures (--server; all three unless said). */
  servers?: string[];
  /** The lines it measures them on, by name (--line; both unless said). */
  lines?: string[];
  /** Scratch folder of this run (builds, stores); removed at the end. */
  tmp: string;
  /** Progress lines go to stderr, so stdout ends with the table alone. */
  log(line: string): void;
}

/** A target from the issue: the bar, the measured value, and the verdict. */
export interface Target {
  /** In words, e.g. "<= 1.25 x floor". */
  target: string;
  pass: boolean;
}

export const target = (text: string, pass: boolean): Target => ({ target: text, pass });

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median, smallest and largest of a series, and the series itself, rounded to `digits` decimals. */
export function spread(xs: readonly number[], digits = 1) {
  return { median: round(median(xs), digits), min: round(Math.min(...xs), digits), max: round(Math.max(...xs), digits), all: xs.map((x) => round(x, digits)) };
}

/** Rounded to `digits` decimals (results stay readable in JSON). */
export const round = (x: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** The last part of a URL's path ("/" for the root), without the query. */
export const baseName = (url: string) => {
  const path = new URL(url).pathname;
  return path === '/' ? '/' : path.slice(path.lastIndexOf('/') + 1) || path;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
