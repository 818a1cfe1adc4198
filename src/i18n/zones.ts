// Time zones from the tz database the browser (or Node, for the simulated
// terminal) already has, through Intl: no table ships. A device's zone is an
// IANA name ("Europe/Berlin"), or, in a store written before names, a fixed
// offset ("+01:00"), which every function here takes too.

const LEGACY = /^([+-])(\d\d):(\d\d)$/;
const pad = (n: number) => String(n).padStart(2, '0');
const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC in `zone` at the instant `ms` (daylight saving included); NaN for a zone this runtime does not know. */
export function offsetAt(zone: string, ms: number): number {
  const m = LEGACY.exec(zone);
  if (m) return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  let f = formats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      return NaN;
    }
    formats.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(ms)) p[x.type] = x.value;
  // Year 0 is 1 BC; Date.UTC would read the years 0 to 99 as 1900 to 1999.
  const wall = new Date(0);
  wall.setUTCFullYear(p.era === 'BC' ? 1 - Number(p.year) : Number(p.year), Number(p.month) - 1, Number(p.day));
  wall.setUTCHours(Number(p.hour) % 24, Number(p.minute), Number(p.second));
  return Math.round((wall.getTime() - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** "+09:00", "-03:30", "+00:00". */
export const formatOffset = (min: number) => `${min < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(min) / 60))}:${pad(Math.abs(min) % 60)}`;

/** A zone without daylight saving rules of its own: UTC, Etc/GMT±N, or a stored offset. The DST screen's rules apply only to these. */
export const isFixedZone = (zone: string) => zone === 'UTC' || zone.startsWith('Etc/') || LEGACY.test(zone);

/** The wall clock in `zone` at the instant `ms`, as the device's Date and Time fields write it. */
export function wallClock(zone: string, ms: number): { Date: string; Time: string } {
  const d = new Date(ms + (offsetAt(zone, ms) || 0) * 60_000);
  return { Date: `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`, Time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` };
}

export interface Zone {
  name: string;
  /** Minutes east of UTC now. */
  offset: number;
  /** "UTC+02:00 Europe/Berlin". */
  label: string;
}

/** The zone names this browser knows, with UTC and the fixed Etc/GMT±N zones; none where Intl.supportedValuesOf is missing. */
export function knownZones(): string[] {
  const all = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  if (!all) return [];
  // Etc/GMT-9 is nine hours east of UTC (POSIX signs).
  const fixed = Array.from({ length: 27 }, (_, i) => i - 14).map((h) => (h ? `Etc/GMT${h > 0 ? '+' : ''}${h}` : 'UTC'));
  return [...new Set([...all('timeZone'), ...fixed])];
}

/** Each zone with its offset at `ms`, sorted by offset, then by name. */
export function zoneList(ms: number, names: readonly string[] = knownZones()): Zone[] {
  return names
    .map((name) => ({ name, offset: offsetAt(name, ms) }))
    .filter((z) => !Number.isNaN(z.offset))
    .sort((a, b) => a.offset - b.offset || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((z) => ({ ...z, label: `UTC${formatOffset(z.offset)} ${z.name}` }));
}
