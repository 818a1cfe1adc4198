// Numbers, dates and times as the active locale writes them (digits,
// separators, order, 12 or 24 hours), by the browser's Intl through Lingui:
// no table ships. Only what is shown changes; what goes to the device keeps
// the device's formats, and a device string that is not a date or time is
// shown as it came.
import { i18n } from '@lingui/core';

/** A count or a measure: "100,000" in en, "100.000" in de, "١٠٠٬٠٠٠" in ar. */
export const num = (n: number, digits?: number): string => i18n.number(n, { minimumFractionDigits: digits });

/** A device value for the screen: a number as num(), a date or time as when(), anything else as it came. */
export const shown = (v: string | number): string => (typeof v == 'number' ? num(v) : when(v));

/**
 * A device date, time or both ("YYYY-MM-DD", "HH:MM", "YYYY-MM-DD HH:MM:SS"),
 * read as the wall-clock time it names (no time zone shifts it), in the
 * Gregorian calendar of the device, its spreadsheets and the date fields (fa
 * and th too): "Nov 2, 2026, 8:01:05 AM", "02.11.2026, 08:01:05".
 */
export function when(s: string): string {
  const [, d, t, sec] = /^(\d{4}-\d\d-\d\d)? ?(\d\d:\d\d(:\d\d)?)?$/.exec(s) ?? [];
  return d || t
    ? i18n.date(new Date(`${d || '2000-01-01'}T${t || '00:00'}Z`), {
        timeZone: 'UTC',
        calendar: 'gregory',
        dateStyle: d ? 'medium' : undefined,
        timeStyle: t ? (sec ? 'medium' : 'short') : undefined,
      })
    : s;
}
