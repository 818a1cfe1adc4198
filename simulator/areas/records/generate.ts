// The records a terminal holds, in memory: what a fresh store is seeded with
// (counts only, and the fixture week), and the records generated from those
// numbers on first use, the same every time, held per simulator in typed
// arrays ordered newest first, with an index by user.
import { FEVER_C } from '../../../contract/maintenance.ts';
import type { DeviceModel } from '../../model.ts';
import type { Context, DeviceState } from '../../types.ts';
import { prng } from '../../prng.ts';
import { DAY_S, dayBounds, seconds } from './time.ts';

type Seed = DeviceState['records'];

// ---------------------------------------------------------------------------
// The seed: what a fresh store starts with, and the fixture week.

/** The newest seeded day (a Friday). Seeded records cover the workdays (Monday to Friday) of the ~18 months up to it. */
export const SEED_LAST_DAY = '2026-11-20';
/** The oldest seeded day (a Monday). */
export const SEED_FIRST_DAY = '2025-05-19';

/**
 * A hand-made week of user 1 (seeded with Shift 1, "Day": OnDuty 09:00,
 * OffDuty 18:00, LateGrace 5, EarlyGrace 5; the factory RepeatTime is 3
 * minutes). The generator puts no other record on user 1 in this week, so the
 * report of FIXTURE.UserID from Start to End is exactly these days. Expected
 * rows, worked out by hand (UserName is user 1's: "Ana García" when seeded):
 *
 *   Date        FirstIn LastOut InTime OutTime Late Early
 *   2026-11-02  08:57   18:04   09:00  18:00   0    0     normal day
 *   2026-11-03  09:17   18:02   09:00  18:00   17   0     late: 17 min > 5
 *   2026-11-04  08:49   16:45   09:00  18:00   0    75    early: 75 min > 5; the lunch punches between do not count
 *   2026-11-05  09:03   ''      09:00  18:00   0    0     one punch (missing); 3 min late is within the grace
 *   2026-11-06  08:58   ''      09:00  18:00   0    0     09:00:05 is 1 min 45 s after 08:58:20, within 3 min: it
 *                                                        counts once, so the day has one counted punch (without
 *                                                        the rule, LastOut would be 09:00 and Early 540)
 */
export const FIXTURE = {
  UserID: '1',
  Start: '2026-11-02',
  End: '2026-11-06',
  /** [time, status] */
  punches: [
    ['2026-11-02 08:57:12', 0],
    ['2026-11-02 18:04:40', 1],
    ['2026-11-03 09:17:30', 0],
    ['2026-11-03 18:02:10', 1],
    ['2026-11-04 08:49:05', 0],
    ['2026-11-04 12:31:00', 2],
    ['2026-11-04 13:14:00', 3],
    ['2026-11-04 16:45:50', 1],
    ['2026-11-05 09:03:40', 0],
    ['2026-11-06 08:58:20', 0],
    ['2026-11-06 09:00:05', 0],
  ],
} as const;

/** Temperature records a model without `seedTemperatures` is seeded with. */
const DEFAULT_TEMPERATURES = 3000;

/** What a fresh store of `model` is seeded with (api.ts seedState): counts only, the records follow from them. */
export function seedRecords(model: DeviceModel): Seed {
  const users = Math.max(0, Math.min(model.seedUsers ?? 300, model.MaxUser));
  // With no user, no one has punched.
  const attendance = users ? Math.max(0, Math.min(model.seedRecords ?? model.MaxRecord, model.MaxRecord)) : 0;
  const temperature = users ? Math.max(0, model.seedTemperatures ?? DEFAULT_TEMPERATURES) : 0;
  return { attendance, temperature, users };
}

/** The store's seed; a store written before records were seeded this way (a list) gets the model's. */
function seedOf(ctx: Context): Seed {
  const r = ctx.store.get().records as unknown;
  const ok = typeof r === 'object' && r !== null && !Array.isArray(r) && ['attendance', 'temperature', 'users'].every((k) => Number.isInteger((r as Record<string, unknown>)[k]));
  return ok ? (r as Seed) : seedRecords(ctx.model);
}

/** SetInfoParam's RecordCount: the attendance records held (without generating them). */
export function recordCount(ctx: Context): number {
  return seedOf(ctx).attendance;
}

/** Delete every attendance and temperature record (InitMachine). Kept in the store: a restart finds none; a fresh store is seeded again. */
export async function clearRecords(ctx: Context): Promise<void> {
  await ctx.store.update((s) => {
    s.records = { attendance: 0, temperature: 0, users: 0 };
  });
}

// ---------------------------------------------------------------------------
// Generating the records

/** Attendance records, newest first (ties: the higher user ID first). */
export interface Punches {
  n: number;
  /** Seconds (device time). */
  time: Uint32Array;
  user: Uint32Array;
  status: Uint8Array;
  /** Per user ID: the user's positions in the arrays above, ascending (so newest first). */
  byUser: Map<string, Uint32Array>;
}

/** Temperature records, newest first. */
export interface Readings {
  n: number;
  time: Uint32Array;
  user: Uint32Array;
  /** Tenths of a degree Celsius (366 is 36.6 °C). */
  tenths: Uint16Array;
  /** Positions of the abnormal readings (>= FEVER_C) and of the normal ones, ascending. */
  abnormal: Uint32Array;
  normal: Uint32Array;
}

export const FEVER_TENTHS = Math.round(FEVER_C * 10);
const FIRST_DAY = dayBounds(SEED_FIRST_DAY).from / DAY_S;
const LAST_DAY = dayBounds(SEED_LAST_DAY).from / DAY_S;
const FIXTURE_FROM = dayBounds(FIXTURE.Start).from / DAY_S;
const FIXTURE_TO = dayBounds(FIXTURE.End).from / DAY_S;
const FIXTURE_USER = Number(FIXTURE.UserID);

/** Day numbers (days since 1970) of the seeded workdays, oldest first. */
function workdays(): number[] {
  const out: number[] = [];
  // 1970-01-01 was a Thursday: (day + 4) % 7 is 0 on Sundays.
  for (let d = FIRST_DAY; d <= LAST_DAY; d++) if ((d + 4) % 7 !== 0 && (d + 4) % 7 !== 6) out.push(d);
  return out;
}

/** `total` spread evenly over `n` days: the count of day i. */
const quota = (total: number, n: number, i: number) => Math.floor(((i + 1) * total) / n) - Math.floor((i * total) / n);

/** A record while it is generated: seconds, user, status (a reading: tenths of a degree). */
interface Raw {
  s: number;
  u: number;
  st: number;
}
/** Oldest first; the same second: the lower user ID first. */
const byTime = (a: Raw, b: Raw) => a.s - b.s || a.u - b.u;

/**
 * `seed.attendance` records: the fixture week, then the rest spread evenly
 * over the workdays. Each day, users in a shuffled order come in (08:15 to
 * 09:05, a few late), some go to lunch (status 2 out, 3 back), most leave
 * (17:30 to 18:59, a few early), a few press twice, work overtime (4, 5) or
 * punch a status 6 / 7; a day's last visitor may be cut short (a missing
 * punch). Only when a day needs more records than its users give does
 * everyone come round again (statuses 6 and 7 through the day).
 */
function generatePunches(seed: Seed): Punches {
  const rnd = prng(0x7ec0d5);
  const users = seed.users;
  const fixture: Raw[] =
    users >= FIXTURE_USER && seed.attendance >= FIXTURE.punches.length ? FIXTURE.punches.map(([t, st]) => ({ s: seconds(t), u: FIXTURE_USER, st })) : [];
  const inFixture = (day: number) => fixture.length > 0 && day >= FIXTURE_FROM && day <= FIXTURE_TO;
  // No users, no records; a day whose only user is the fixture's gets no generated record.
  const days = users ? workdays().filter((d) => users > 1 || !inFixture(d)) : [];
  const generated = days.length ? seed.attendance - fixture.length : 0;
  const all: Raw[] = [];
  const order = Uint32Array.from({ length: users }, (_, i) => i + 1);
  const at = (h: number, m: number, spread: number) => h * 3600 + m * 60 + Math.floor(rnd() * spread * 60) + Math.floor(rnd() * 60);

  for (let i = 0; i < days.length; i++) {
    const want = quota(generated, days.length, i);
    const base = days[i] * DAY_S;
    const list: Raw[] = fixture.filter((r) => Math.floor(r.s / DAY_S) === days[i]);
    const fromFixture = list.length;
    const skip = inFixture(days[i]) ? FIXTURE_USER : 0;
    const push = (u: number, s: number, st: number) => {
      if (list.length - fromFixture < want) list.push({ s: base + Math.min(s, DAY_S - 1), u, st });
    };
    for (let k = 0, round = 0; list.length - fromFixture < want; k++) {
      if (k === users) {
        k = 0;
        round++;
      }
      // Shuffle as we go (Fisher-Yates), once per day.
      if (round === 0) {
        const j = k + Math.floor(rnd() * (users - k));
        [order[k], order[j]] = [order[j], order[k]];
      }
      const u = order[k];
      if (u === skip) continue;
      if (round > 0) {
        push(u, at(6, 0, 16 * 60), 6 + Math.floor(rnd() * 2));
        continue;
      }
      const came = rnd() < 0.08 ? at(9, 6, 55) : at(8, 15, 50);
      push(u, came, 0);
      if (rnd() < 0.03) push(u, came + 20 + Math.floor(rnd() * 130), 0);
      if (rnd() < 0.12) {
        const out = at(12, 0, 60);
        push(u, out, 2);
        push(u, out + 1800 + Math.floor(rnd() * 1800), 3);
      }
      if (rnd() < 0.01) push(u, at(10, 0, 360), 6 + Math.floor(rnd() * 2));
      if (rnd() < 0.93) push(u, rnd() < 0.07 ? at(15, 0, 150) : at(17, 30, 90), 1);
      if (rnd() < 0.02) {
        const from = at(19, 0, 60);
        push(u, from, 4);
        push(u, from + 3600 + Math.floor(rnd() * 7200), 5);
      }
    }
    list.sort(byTime);
    for (const r of list) all.push(r);
  }

  const n = all.length;
  const p: Punches = { n, time: new Uint32Array(n), user: new Uint32Array(n), status: new Uint8Array(n), byUser: new Map() };
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const r = all[n - 1 - i];
    p.time[i] = r.s;
    p.user[i] = r.u;
    p.status[i] = r.st;
    counts.set(r.u, (counts.get(r.u) ?? 0) + 1);
  }
  const filled = new Map<number, number>();
  for (const [u, c] of counts) {
    p.byUser.set(String(u), new Uint32Array(c));
    filled.set(u, 0);
  }
  for (let i = 0; i < n; i++) {
    const u = p.user[i];
    const f = filled.get(u)!;
    p.byUser.get(String(u))![f] = i;
    filled.set(u, f + 1);
  }
  return p;
}

/**
 * `seed.temperature` readings spread over the same workdays, taken as people
 * come in (07:40 to 09:29); about 7 % are at FEVER_C or above (37.3 to
 * 39.0 °C), the others 36.0 to 37.2 °C.
 */
function generateReadings(seed: Seed): Readings {
  const rnd = prng(0x7e30);
  const days = workdays();
  const all: Raw[] = [];
  for (let i = 0; i < days.length && seed.users; i++) {
    const list: Raw[] = [];
    for (let k = quota(seed.temperature, days.length, i); k > 0; k--) {
      const s = days[i] * DAY_S + 7 * 3600 + 40 * 60 + Math.floor(rnd() * 110 * 60);
      const u = 1 + Math.floor(rnd() * seed.users);
      const t = rnd() < 0.07 ? FEVER_TENTHS + Math.floor(rnd() * (391 - FEVER_TENTHS)) : 360 + Math.floor(rnd() * (FEVER_TENTHS - 360));
      list.push({ s, u, st: t });
    }
    list.sort(byTime);
    for (const r of list) all.push(r);
  }
  const n = all.length;
  const time = new Uint32Array(n);
  const user = new Uint32Array(n);
  const tenths = new Uint16Array(n);
  const abnormal: number[] = [];
  const normal: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = all[n - 1 - i];
    time[i] = r.s;
    user[i] = r.u;
    tenths[i] = r.st;
    (r.st >= FEVER_TENTHS ? abnormal : normal).push(i);
  }
  return { n, time, user, tenths, abnormal: Uint32Array.from(abnormal), normal: Uint32Array.from(normal) };
}

interface Held {
  key: string;
  punches?: Punches;
  readings?: Readings;
}
/** Per simulator (its store): the records of its current seed, each kind generated on first use. */
const HELD = new WeakMap<object, Held>();

function held(ctx: Context): { seed: Seed; h: Held } {
  const seed = seedOf(ctx);
  const key = `${seed.attendance}/${seed.temperature}/${seed.users}`;
  let h = HELD.get(ctx.store);
  if (!h || h.key !== key) HELD.set(ctx.store, (h = { key }));
  return { seed, h };
}
export const punches = (ctx: Context) => {
  const { seed, h } = held(ctx);
  return (h.punches ??= generatePunches(seed));
};
export const readings = (ctx: Context) => {
  const { seed, h } = held(ctx);
  return (h.readings ??= generateReadings(seed));
};
