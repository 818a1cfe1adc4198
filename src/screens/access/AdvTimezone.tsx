// Time zones (SPEC §3: number, start and end per weekday), one zone at a
// time as a table of weekdays.
import { rulesOf } from '../../api/rules.ts';
import { requestGoform } from '../../api/request.ts';
import type { Problem, Values } from '../../form/rules.ts';
import { NumberedForm, weekdays, type NumberedDef } from './parts.tsx';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const def: NumberedDef = {
  read: (n) => requestGoform('SetTimeIntervalInfo', { ZoneNum: n }),
  write: (p) => requestGoform('GetTimeIntervalInfo', p as never),
  contract: rulesOf('GetTimeIntervalInfo'),
  key: 'ZoneNum',
  keyLabel: /*i18n*/ 'acc.zoneNum',
  fields: DAYS.flatMap((d) => [
    { name: `${d}Start`, kind: 'time', label: /*i18n*/ 'acc.start' },
    { name: `${d}End`, kind: 'time', label: /*i18n*/ 'acc.end' },
  ]),
  table: { corner: /*i18n*/ 'acc.day', rows: [], cols: [/*i18n*/ 'acc.start', /*i18n*/ 'acc.end'] },
  check: (v: Values) => {
    const out: Record<string, Problem> = {};
    for (const d of DAYS) if (String(v[`${d}End`]) < String(v[`${d}Start`])) out[`${d}End`] = { id: /*i18n*/ 'acc.endBeforeStart' };
    return out;
  },
};

export default function AdvTimezone() {
  // Weekday names follow the console language at the time the screen opens.
  return <NumberedForm def={{ ...def, table: { ...def.table!, rows: weekdays() } }} />;
}
