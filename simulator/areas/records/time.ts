// Time in the records: device time, kept as seconds since 1970 read as UTC (no
// zone is applied: "2026-11-20 08:01:12" is stored and shown as it was punched).

export const DAY_S = 86400;
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
/** "YYYY-MM-DD HH:MM:SS" of a stored time. */
export const stamp = (s: number) => new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ');
/** "YYYY-MM-DD" of a stored time. */
export const dayOf = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
/** "HH:MM" of a stored time (seconds dropped). */
export const hhmm = (s: number) => {
  const m = Math.floor((s % DAY_S) / 60);
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
};
/** Minutes since midnight of "HH:MM". */
export const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
/** Seconds of "YYYY-MM-DD HH:MM:SS" (a well-formed, real date). */
export const seconds = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000;

/**
 * The first second of the day `text` ("YYYY-MM-DD", the contract's pattern),
 * and the first second after it. A day the calendar does not have (02-30,
 * 04-31) holds no records: both are the first second of the next month, so
 * searches compare as the day texts do.
 */
export function dayBounds(text: string): { from: number; to: number } {
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  const inMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > inMonth) {
    const next = Date.UTC(y, m, 1) / 1000;
    return { from: next, to: next };
  }
  const from = Date.UTC(y, m - 1, d) / 1000;
  return { from, to: from + DAY_S };
}
