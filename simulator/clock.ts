// The simulated terminal's clock. It is the host's plus an offset a manual
// setting stores (DateTimeParam's ClockOffset), shown in the configured time
// zone: a region zone by its own rules (Node's tz database), a fixed-offset
// zone (UTC, Etc/*, a stored ±HH:MM) plus DSTParam's hours while its period
// runs. Live events, sessions and the operation log are stamped with it;
// areas/basic.ts serves its two settings pairs and sets it.
import type { Context } from './types.ts';
import { formatOffset, isFixedZone, offsetAt, wallClock } from '../src/i18n/zones.ts';

/** Factory values of the clock's settings pairs (areas/basic.ts's seeds hold them among its own). */
export const CLOCK_SEEDS = {
  DateTimeParam: { Mode: 1, NtpServer: 'pool.ntp.org', TimeZone: 'Europe/Berlin' },
  // The European Union's rule: last Sunday of March to last Sunday of October.
  DSTParam: { Mode: 0, Offset: 1, StartMonth: 3, StartDay: 29, StartWeek: 7, StartWeekday: 0, EndMonth: 10, EndDay: 25, EndWeek: 7, EndWeekday: 0 },
};

type Params = Record<string, unknown>;
/** What reading the terminal's clock needs. */
export type Clock = Pick<Context, 'store' | 'now'>;

/** A clock pair's values: the store's over the factory's. */
export const clockSettings = (ctx: Clock, pair: keyof typeof CLOCK_SEEDS): Params => ({ ...CLOCK_SEEDS[pair], ...ctx.store.get().settings[pair] });

/** The day (UTC ms of its 00:00) a DST edge falls on in `year`: by month and day, or by week (1 to 6, 7 last, 8 penultimate) and weekday. */
function edgeDay(dst: Params, edge: 'Start' | 'End', year: number): number {
  const month = Number(dst[`${edge}Month`]) - 1;
  if (dst.Mode === 1) return Date.UTC(year, month, Number(dst[`${edge}Day`]));
  const weekday = Number(dst[`${edge}Weekday`]);
  const week = Number(dst[`${edge}Week`]);
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const first = 1 + ((weekday - new Date(Date.UTC(year, month, 1)).getUTCDay() + 7) % 7);
  const last = first + 7 * Math.floor((days - first) / 7);
  const day = week === 7 ? last : week === 8 ? last - 7 : Math.min(first + 7 * (week - 1), last);
  return Date.UTC(year, month, day);
}

/** Minutes east of UTC of the device's zone at `ms`. */
function zoneOffset(ctx: Clock, zone: string, ms: number): number {
  const standard = offsetAt(zone, ms) || 0;
  const dst = clockSettings(ctx, 'DSTParam');
  if (!isFixedZone(zone) || dst.Mode === 0) return standard;
  const wall = ms + standard * 60_000;
  const year = new Date(wall).getUTCFullYear();
  const [start, end] = [edgeDay(dst, 'Start', year), edgeDay(dst, 'End', year)];
  const on = start <= end ? wall >= start && wall < end : wall >= start || wall < end;
  return standard + (on ? Number(dst.Offset) * 60 : 0);
}

/** The instant the terminal's clock shows now (now()'s clock plus the stored offset). */
const instant = (ctx: Clock, dt: Params) => ctx.now() + Number(dt.ClockOffset ?? 0);

/** The terminal's clock at `ms` (now()'s clock; now by default), "YYYY-MM-DD HH:MM:SS" in its time zone: what live events, sessions and the log are stamped with. */
export function deviceTime(ctx: Clock, ms = ctx.now()): string {
  const dt = clockSettings(ctx, 'DateTimeParam');
  const at = ms + Number(dt.ClockOffset ?? 0);
  return new Date(at + zoneOffset(ctx, String(dt.TimeZone), at) * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The wall clock the terminal shows, `back` ms ago (its Date and Time, as SetDateTimeParam answers them). */
export const deviceWall = (ctx: Clock, back = 0) => {
  const dt = clockSettings(ctx, 'DateTimeParam');
  return wallClock(formatOffset(zoneOffset(ctx, String(dt.TimeZone), instant(ctx, dt) - back)), instant(ctx, dt) - back);
};

/** The device zone's offset from UTC now, "±HH:MM" (SetDateTimeParam's UtcOffset). */
export function utcOffset(ctx: Clock): string {
  const dt = clockSettings(ctx, 'DateTimeParam');
  return formatOffset(zoneOffset(ctx, String(dt.TimeZone), instant(ctx, dt)));
}

/** The instant a wall clock in `zone` names (the offset read at the guess, then again at the result). */
export function fromWall(ctx: Clock, zone: string, date: string, time: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const guess = wall - zoneOffset(ctx, zone, wall) * 60_000;
  return wall - zoneOffset(ctx, zone, guess) * 60_000;
}
